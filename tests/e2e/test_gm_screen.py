"""A fight run only through the pages: the GM screen and a player's phone-sized page
in two browser contexts, on a real `skald serve`, in Debian's Chromium.

The GM sets the encounter up from the roster, enters the table's dice, reads the
narrative, and voids the blow with a reason; both pages follow without a reload.
Screenshots of each page (desktop and phone) go to test-artifacts/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from tests.e2e.browser import CHROMIUM, FLAGS, require_browser
from tests.e2e.server import Server

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PHONE = {"width": 390, "height": 844}
KNIGHT = {
    "st": 13, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10,
    "armour_resilience": 2, "shield_resilience": 2,
    "weapons": [{"name": "longsword", "damage_class": 3, "damage_type": "piercing", "skill": 13}],
}  # fmt: skip


@pytest.fixture
def server(tmp_path: Path) -> Any:
    running = Server(tmp_path / "data").start()
    try:
        yield running
    finally:
        running.stop()


def campaign(server: Server, ruleset: str, sheets: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """A campaign with its characters and a player key for the first one (API set-up:
    what the pages do is the fight)."""
    http = httpx.Client(base_url=server.url, timeout=10)
    created = http.post("/campaigns", json={"name": "Page fight", "ruleset": ruleset}).json()
    http.headers["authorization"] = f"Bearer {created['gm_key']}"
    ids = {}
    for name, sheet in sheets.items():
        response = http.post(
            f"/campaigns/{created['id']}/characters", json={"name": name, "sheet": sheet}
        )
        assert response.status_code == 201, response.text
        ids[name] = response.json()["id"]
    first = next(iter(ids.values()))
    player = http.post(
        f"/campaigns/{created['id']}/keys",
        json={"role": "player", "characters": [first], "label": "Ana"},
    ).json()["key"]
    return {"cid": created["id"], "gm": created["gm_key"], "player": player, "ids": ids}


def open_pages(browser: Browser, server: Server, setup: dict[str, Any]) -> tuple[Page, Page]:
    gm = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    gm.goto(f"{server.url}/gm#campaign={setup['cid']}&key={setup['gm']}")
    player = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    player.goto(f"{server.url}/play#campaign={setup['cid']}&key={setup['player']}")
    for page in (gm, player):
        expect(page.locator("#connection")).to_have_attribute("data-state", "live")
        page.evaluate("window.sameDocument = true")  # gone if the page reloads
    return gm, player


def set_up_encounter(gm: Page, sides: dict[str, str]) -> None:
    gm.locator("#setup-box summary").click()
    for character_id, side in sides.items():
        gm.locator(f'#setup-rows [data-character="{character_id}"]').check()
        gm.locator(f'#setup-rows [data-side="{character_id}"]').fill(side)
    gm.locator("#setup-start").click()
    expect(gm.locator("#sides .card")).to_have_count(len(sides))


def stamina(page: Page, character_id: str) -> Any:
    return page.locator(f'[data-character-id="{character_id}"] .bar[data-track="stamina"]').first


def eid(gm: Page) -> str:
    """The encounter the GM screen shows (its picker's value)."""
    return str(gm.locator("#encounter-picker").input_value())


def shoot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=True)


def fill_roll(page: Page, part: str, faces: str) -> None:
    """Type the table's dice into the roll the preview names (e.g. "Ulf's hit")."""
    field = page.locator(f'#dice-fields [data-roll-name*="{part}"] input')
    expect(field).to_have_count(1)
    field.fill(faces)


def test_stamina_body_fight_through_the_pages(server: Server) -> None:
    require_browser()
    setup = campaign(server, "stamina-body", {"Bran": KNIGHT, "Ulf": KNIGHT})
    bran, ulf = setup["ids"]["Bran"], setup["ids"]["Ulf"]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            gm, player = open_pages(browser, server, setup)
            set_up_encounter(gm, {bran: "party", ulf: "foes"})
            expect(player.locator("#turn")).to_contain_text("round 1")
            # Turn order: Ulf first (the GM moves him up), and both pages say so.
            gm.locator(f'[data-earlier="{ulf}"]').click()
            expect(gm.locator("#turn-order .current")).to_contain_text("Ulf")
            expect(player.locator("#turn")).to_contain_text("Ulf's turn")
            expect(player.locator("#panel-caption")).to_have_text("Not your turn.")

            # Ulf swings his longsword at Bran; the table rolled 2, 2, 2 to hit (13 - 6:
            # hit score 7) and 2, 4, 6 for damage. The blow waits for Bran's answer.
            gm.locator(f'#sides [data-combatant-id="{ulf}"]').click()
            gm.locator("#action-buttons [data-kind=attack]").click()
            gm.locator("#param-target").select_option(bran)
            gm.locator("#param-weapon").fill("longsword")
            # The odds stand beside the panel before anything is rolled.
            expect(gm.locator("#odds [data-outcome]").first).to_be_visible()
            odds = httpx.post(
                f"{server.url}/campaigns/{setup['cid']}/encounters/{eid(gm)}/odds",
                headers={"authorization": f"Bearer {setup['gm']}"},
                json={"kind": "attack", "actor": ulf,
                      "params": {"target": bran, "weapon": "longsword"}},
            ).json()  # fmt: skip
            first = odds["results"][0]
            shown = gm.locator(f'#odds [data-outcome="{first["result"]}"]')
            expect(shown).to_have_attribute("title", first["probability"])
            gm.locator("input[name=dice-mode][value=table]").check()
            fill_roll(gm, "hit", "2 2 2")
            fill_roll(gm, "damage", "2 4 6")
            gm.locator("#action-submit").click()
            expect(gm.locator("#result [data-pending]")).to_be_visible()
            expect(gm.locator("#pending [data-exchange]")).to_have_count(1)

            # Bran's player parries on the phone with their own 2, 2, 2 (11 - 6: parry
            # score 5 < 7, it lands; 7 - 5 <= 2, the shield counts: resilience 2 + 2).
            expect(player.locator("#pending [data-exchange]")).to_have_count(1)
            player.locator("[data-declare-dice]").fill("2 2 2")
            player.locator("[data-declare=parry]").click()
            expect(player.locator("#result .summary")).to_contain_text("5 Stamina and 1 Body")
            narrative = player.locator("#result .narrative li")
            expect(narrative.first).to_be_visible()
            assert narrative.count() >= 4
            latest = gm.locator("#actions > li").first
            expect(latest).to_contain_text("5 Stamina and 1 Body")
            expect(latest.locator(".narrative li").first).to_be_visible()
            for page in (gm, player):
                expect(stamina(page, bran)).to_have_attribute("data-current", "7")
                expect(page.locator("#pending [data-exchange]")).to_have_count(0)
            shoot(gm, "gm-screen.png")
            shoot(player, "player-phone.png")

            number = latest.get_attribute("data-action-number")
            gm.locator(f"[data-void='{number}']").click()
            gm.locator("#reason-input").fill("the shield was already broken")
            gm.locator("#reason-ok").click()
            expect(gm.locator("[data-correction=void]")).to_be_visible()
            for page in (gm, player):
                expect(stamina(page, bran)).to_have_attribute("data-current", "12")
                assert page.evaluate("window.sameDocument") is True
            expect(gm.locator("#actions li.voided")).to_have_count(1)
        finally:
            browser.close()


def test_a_table_starts_on_the_gm_screen_with_a_new_campaign(server: Server) -> None:
    require_browser()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            gm = browser.new_page(viewport={"width": 1400, "height": 1000})
            gm.goto(f"{server.url}/gm")
            gm.locator("#new-campaign-name").fill("The Sunken Crown")
            gm.locator("#new-campaign-ruleset").select_option("margin")
            gm.locator("#new-campaign-create").click()
            key = gm.locator("#gm-key-once").inner_text()
            assert key.startswith("skald_")
            gm.locator("#new-campaign-open").click()
            expect(gm.locator("#campaign-name")).to_have_text("The Sunken Crown")
            expect(gm.locator("#campaign-facts")).to_contain_text("margin")
            expect(gm.locator("#connection")).to_have_attribute("data-state", "live")
            assert key not in gm.url
        finally:
            browser.close()
