"""Acceptance 1: the GM dashboard in headless Chromium follows the live feed.

Open the dashboard of a real `skald serve`, post hits through the API, and the
target's Stamina bar (yellow when low) and condition chips change within a second,
without a reload. Debian's Chromium, driven by Playwright; skipped unless
SKALD_TEST_BROWSER is set (CI sets it, and then a missing browser is a failure).
The screenshot goes to the run's screenshots folder (tests/e2e/pictures.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect, sync_playwright

from tests.e2e.browser import CHROMIUM, FLAGS, require_browser
from tests.e2e.pictures import take
from tests.e2e.server import Server
from tests.patience import HANG_MS, HANG_SECONDS

ROOT = Path(__file__).resolve().parents[2]
SHEET = {
    "st": 13, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10,
    "armour_resilience": 4,
}  # fmt: skip


@pytest.fixture
def server(tmp_path: Path) -> Any:
    running = Server(tmp_path / "data").start()
    try:
        yield running
    finally:
        running.stop()


def hit(http: httpx.Client, cid: str, eid: str, target: str) -> dict[str, Any]:
    body = {
        "kind": "take_hit",
        "params": {"target": target, "damage_type": "impact", "damage_class": 2},
        "dice": {"damage": [6, 6]},
    }
    response = http.post(f"/campaigns/{cid}/encounters/{eid}/actions", json=body)
    assert response.status_code == 201, response.text
    combatants: list[dict[str, Any]] = response.json()["encounter"]["combatants"]
    return next(c for c in combatants if c["id"] == target)


def stamina_bar(page: Page, character: str) -> Any:
    # Combatants of the encounter on show are on its board (the roster shows the rest).
    return page.locator(f'#sides [data-character-id="{character}"] .bar[data-track="stamina"]')


def chips(page: Page, character: str) -> Any:
    return page.locator(f'#sides [data-character-id="{character}"] .chip')


def test_a_hit_changes_the_targets_bar_and_chips_within_a_second_without_reload(
    server: Server, screenshots: Path
) -> None:
    require_browser()
    http = httpx.Client(base_url=server.url, timeout=HANG_SECONDS)
    created = http.post("/campaigns", json={"name": "The Sunken Crown", "ruleset": "stamina-body"})
    cid, key = created.json()["id"], created.json()["gm_key"]
    http.headers["authorization"] = f"Bearer {key}"
    ids = {}
    for name in ("Bran", "Ulf"):
        enrolled = http.post(f"/campaigns/{cid}/characters", json={"name": name, "sheet": SHEET})
        ids[name] = enrolled.json()["id"]
    combatants = [
        {"character_id": ids["Bran"], "side": "party", "rank": 1},
        {"character_id": ids["Ulf"], "side": "party", "rank": 2},
    ]
    body = {"name": "Ambush", "combatants": combatants}
    fight = http.post(f"/campaigns/{cid}/encounters", json=body)
    eid, bran = fight.json()["id"], ids["Bran"]

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 800})
            page.goto(f"{server.url}/campaigns/{cid}/dashboard#key={key}")
            expect(stamina_bar(page, bran)).to_have_attribute("data-current", "12")
            expect(chips(page, bran)).to_have_count(0)
            expect(page.locator("#connection")).to_have_attribute("data-state", "live")
            page.evaluate("window.sameDocument = true")  # gone if the page reloads

            after = hit(http, cid, eid, bran)
            stamina = after["tracks"]["stamina"]
            assert 0 <= stamina <= 12 / 3, f"the first hit should leave Stamina low: {after}"
            expect(stamina_bar(page, bran)).to_have_attribute(
                "data-current", str(stamina), timeout=HANG_MS
            )
            expect(stamina_bar(page, bran)).to_have_class("bar low")  # yellow

            after = hit(http, cid, eid, bran)
            assert "stunned" in after["conditions"], after
            expect(chips(page, bran)).to_have_text(
                [c.replace("_", " ") for c in after["conditions"]], timeout=HANG_MS
            )
            expect(stamina_bar(page, bran)).to_have_attribute(
                "data-current", str(after["tracks"]["stamina"]), timeout=HANG_MS
            )
            expect(chips(page, ids["Ulf"])).to_have_count(0)  # only the target changed
            expect(page.locator("#log-entries li").first).to_contain_text("Bran takes")

            assert page.evaluate("window.sameDocument") is True  # no reload happened
            take(page, screenshots, "dashboard.png", full_page=True)
        finally:
            browser.close()
