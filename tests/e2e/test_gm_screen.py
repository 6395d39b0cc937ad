"""A fight run only through the pages: the GM screen and a player's phone-sized page
in two browser contexts, on a real `skald serve`, in Debian's Chromium.

The GM sets the encounter up from the roster, enters the table's dice, reads the
narrative, and voids the blow with a reason; both pages follow without a reload.
Screenshots of each page (desktop and phone) go to the run's screenshots folder
(tests/e2e/pictures.py)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from tests.e2e.browser import CHROMIUM, FLAGS, require_browser
from tests.e2e.pictures import take
from tests.e2e.server import Server
from tests.patience import HANG_SECONDS

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


def campaign(
    server: Server,
    ruleset: str,
    sheets: dict[str, dict[str, Any]],
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A campaign with its characters and a player key for the first one (API set-up:
    what the pages do is the fight)."""
    http = httpx.Client(base_url=server.url, timeout=HANG_SECONDS)
    body = {"name": "Page fight", "ruleset": ruleset, "options": options or {}}
    created = http.post("/campaigns", json=body).json()
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


def shoot(page: Page, folder: Path, name: str) -> None:
    take(page, folder, name, full_page=True)


def fill_roll(page: Page, part: str, faces: str) -> None:
    """Type the table's dice into the roll the preview names (e.g. "Ulf's hit")."""
    field = page.locator(f'#dice-fields [data-roll-name*="{part}"] input')
    expect(field).to_have_count(1)
    field.fill(faces)


def test_stamina_body_fight_through_the_pages(server: Server, screenshots: Path) -> None:
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
            expect(player.locator("#panel-caption")).to_have_text("Ulf's turn · round 1")

            # Ulf swings his longsword at Bran; the table rolled 2, 2, 2 to hit (13 - 6:
            # hit score 7) and 2, 4, 6 for damage. The blow waits for Bran's answer.
            gm.locator(f'#sides [data-combatant-id="{ulf}"]').click()
            gm.locator("#action-buttons [data-kind=attack]").click()
            gm.locator("#param-target").select_option(bran)
            expect(gm.locator("#param-weapon")).to_have_value("longsword")  # the sheet's own
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
            shoot(gm, screenshots, "gm-screen.png")
            shoot(player, screenshots, "player-phone.png")

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


def fill_every_roll(page: Page, mine: str) -> None:
    """Table dice for every roll the preview names: the attacker's rolls at their best
    face, everyone else's at 1 (a blank, a miss), so the blow lands the same way each
    time the test runs."""
    expect(page.locator("#dice-fields label[data-roll-name]").first).to_be_visible()
    for label in page.locator("#dice-fields label[data-roll-name]").all():
        name = label.get_attribute("data-roll-name") or ""
        count, sides = (int(n) for n in re.findall(r"(\d+)d(\d+)", label.inner_text())[0])
        face = sides if name.startswith(f"{mine}'s") else 1
        label.locator("input").fill(" ".join([str(face)] * count))


def first_track(page: Page, character_id: str) -> Any:
    return page.locator(f'[data-character-id="{character_id}"] .bar').first


ORC = {
    "might": 3, "grace": 1, "vigor": 2, "aether": 0, "melee": 2,
    "weapons": [{"name": "axe", "attribute": "might", "skill": "melee", "category": "melee",
                 "base_damage": 3, "per_margin": 1, "damage_type": "slash"}],
}  # fmt: skip
BANDIT = {
    "strength": 12, "dexterity": 12, "constitution": 12, "wisdom": 10, "level": 1, "hp": 10,
    "save_vs_death_ray": 12, "weapons": [{"name": "short sword", "damage": "1d6"}],
}  # fmt: skip


@pytest.mark.parametrize(
    ("ruleset", "sheet", "own_move", "weapon"),
    [("margin", ORC, "defend", "axe"), ("d20", BANDIT, "defensive_stance", "short sword")],
)
def test_a_fight_through_the_pages(
    server: Server,
    screenshots: Path,
    ruleset: str,
    sheet: dict[str, Any],
    own_move: str,
    weapon: str,
) -> None:
    """margin and d20: the player acts on their own turn from the phone, the GM's foe
    strikes back with the table's dice under the preview's names, both pages follow,
    the GM voids the blow and both pages show the state restored."""
    require_browser()
    setup = campaign(server, ruleset, {"Hero": sheet, "Brute": sheet})
    hero, brute = setup["ids"]["Hero"], setup["ids"]["Brute"]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            gm, player = open_pages(browser, server, setup)
            set_up_encounter(gm, {hero: "party", brute: "foes"})
            gm.locator("#set-order").click()  # the board's order: Hero, then Brute
            expect(gm.locator("#turn-order .current")).to_contain_text("Hero")
            expect(player.locator("#turn")).to_contain_text("Hero's turn")

            player.locator(f"#action-buttons [data-kind={own_move}]").click()
            player.locator("#action-submit").click()
            expect(player.locator("#result .summary")).not_to_be_empty()
            expect(player.locator("#result .narrative li").first).to_be_visible()
            # A second action in the round is refused, saying why.
            player.locator(f"#action-buttons [data-kind={own_move}]").click()
            player.locator("#action-submit").click()
            expect(player.locator("#result .error")).to_contain_text("409")

            gm.locator("#next-turn").click()
            expect(gm.locator("#turn-order .current")).to_contain_text("Brute")
            expect(player.locator("#turn")).to_contain_text("Brute's turn")
            before = first_track(player, hero).get_attribute("data-current")
            gm.locator(f'#sides [data-combatant-id="{brute}"]').click()
            gm.locator("#action-buttons [data-kind=attack]").click()
            gm.locator("#param-target").select_option(hero)
            gm.locator("#param-weapon").select_option(weapon)
            expect(gm.locator("#odds [data-outcome]").first).to_be_visible()
            gm.locator("input[name=dice-mode][value=table]").check()
            fill_every_roll(gm, "Brute")
            gm.locator("#action-submit").click()
            latest = gm.locator("#actions > li").first
            expect(latest.locator(".narrative li").first).to_be_visible()
            for page in (gm, player):
                expect(first_track(page, hero)).not_to_have_attribute("data-current", str(before))
                assert page.evaluate("window.sameDocument") is True
            shoot(gm, screenshots, f"gm-screen-{ruleset}.png")
            shoot(player, screenshots, f"player-phone-{ruleset}.png")

            number = latest.get_attribute("data-action-number")
            gm.locator(f"[data-void='{number}']").click()
            gm.locator("#reason-input").fill("the brute was still prone")
            gm.locator("#reason-ok").click()
            for page in (gm, player):
                expect(first_track(page, hero)).to_have_attribute("data-current", str(before))
        finally:
            browser.close()
