"""The dashboard faults a new user found, each checked in Debian's Chromium on a real
`skald serve`: foes listed as party and everyone twice, a negative track drawn as an
empty grey bar, conditions shown twice, voided entries left standing in the live
log, corrections without an author, heals logged as a class name, no encounter
picker."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect, sync_playwright

from tests.e2e.browser import CHROMIUM, FLAGS, require_browser
from tests.e2e.server import Server
from tests.patience import HANG_MS, HANG_SECONDS

SHEET = {"st": 10, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 10, "body_max": 10}


@pytest.fixture
def server(tmp_path: Path) -> Any:
    running = Server(tmp_path / "data").start()
    try:
        yield running
    finally:
        running.stop()


def test_the_dashboard_faults_are_gone(server: Server) -> None:
    require_browser()
    http = httpx.Client(base_url=server.url, timeout=HANG_SECONDS)
    created = http.post("/campaigns", json={"name": "Faults", "ruleset": "stamina-body"}).json()
    cid, key = created["id"], created["gm_key"]
    http.headers["authorization"] = f"Bearer {key}"
    ids = {
        name: http.post(f"/campaigns/{cid}/characters", json={"name": name, "sheet": SHEET}).json()[
            "id"
        ]
        for name in ("Bran", "Goblin")
    }
    first = http.post(
        f"/campaigns/{cid}/encounters",
        json={
            "name": "Ambush",
            "combatants": [
                {"character_id": ids["Bran"], "side": "party"},
                {"character_id": ids["Goblin"], "side": "foes"},
            ],
        },
    ).json()["id"]
    actions = f"/campaigns/{cid}/encounters/{first}/actions"
    scratch = {
        "kind": "take_hit",
        "params": {"target": ids["Bran"], "damage_type": "impact", "damage_class": 1},
        "dice": {"damage": [1]},
    }
    assert http.post(actions, json=scratch).status_code == 201
    smash = {
        "kind": "take_hit",
        "params": {"target": ids["Goblin"], "damage_type": "impact", "damage_class": 4},
        "dice": {"damage": [6, 6, 6, 6]},
    }
    goblin = http.post(actions, json=smash).json()
    stamina = next(c for c in goblin["encounter"]["combatants"] if c["id"] == ids["Goblin"])
    assert stamina["tracks"]["stamina"] < 0

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.goto(f"{server.url}/campaigns/{cid}/dashboard#key={key}")
            expect(page.locator("#connection")).to_have_attribute("data-state", "live")
            # Foes stand on their side of the board; nobody is shown twice.
            expect(page.locator("#sides .side").filter(has_text="foes")).to_have_count(1)
            for character_id in ids.values():
                expect(page.locator(f'[data-character-id="{character_id}"]')).to_have_count(1)
            expect(page.locator("#vitals .card")).to_have_count(0)
            # Below zero: an empty bar, red as at zero, its number says how far below
            # (issue 36: a full bar read as full health).
            bar = page.locator(f'[data-character-id="{ids["Goblin"]}"] .bar[data-track="stamina"]')
            expect(bar).to_have_class("bar out")
            assert bar.locator(".fill").evaluate("e => e.style.width") == "0%"
            expect(page.locator(".state")).to_have_count(0)  # conditions once, as chips

            voided = http.post(
                f"/campaigns/{cid}/encounters/{first}/actions/1/void",
                json={"reason": "Bran was not there yet"},
            )
            assert voided.status_code == 200, voided.text
            expect(page.locator(f'#log-entries [data-action="{first}:1"]')).to_have_class("voided")
            correction = page.locator("#log-entries li").filter(has_text="Bran was not there yet")
            expect(correction.locator(".meta")).to_contain_text("gm:GM")

            assert http.post(f"/campaigns/{cid}/encounters/{first}/end").status_code == 200
            assert http.post(f"/campaigns/{cid}/days", json={"days": 1}).status_code == 201
            expect(
                page.locator("#log-entries li").filter(has_text="Day 1: Goblin rests")
            ).to_have_count(1, timeout=HANG_MS)
            second = http.post(
                f"/campaigns/{cid}/encounters",
                json={
                    "name": "Bridge",
                    "combatants": [{"character_id": ids["Bran"], "side": "party"}],
                },
            )
            assert second.status_code == 201
            expect(page.locator("#encounter-picker option")).to_have_count(2)
            expect(page.locator("#board-title")).to_have_text("Encounter: Bridge")
            page.locator("#encounter-picker").select_option(first)
            expect(page.locator("#board-title")).to_have_text("Encounter: Ambush")
        finally:
            browser.close()
