"""The GM screen with an ended fight picked (to correct it, issue 36) while another is
open: a character in the open fight is shown on the roster as that fight has them (it
owns their tracks until it ends; the campaign's entry waits for their return), and their
-1 is counted from there; the ended fight's board shows its last numbers without the
track edits, which would set a character's tracks now from a number of the past.

Found by the d20 evening: with the first fight picked, the roster showed Brannoc at 22
(his entry from the first fight's end) while the second fight had him at 18, and a -1
there would have set him to 21. Debian's Chromium on a real `skald serve`; the set-up is
made over the API, the presses are the page's, the API is read only to assert."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.e2e.server import Server
from tests.e2e.test_gm_screen import BANDIT
from tests.e2e.test_gm_screen_defects import DESKTOP, Table


def test_a_character_in_an_open_fight_is_shown_and_changed_as_the_fight_has_them(
    server: Server, browser: Browser
) -> None:
    table = Table(server, "d20", name="Ford", Hero=BANDIT, Foe=BANDIT).fight()
    hero, foe = table.ids["Hero"], table.ids["Foe"]
    ford = table.eid

    def blow(eid: str, damage: int) -> None:
        # 15 against AC 11 hits; no armor: every point lands.
        body = {"kind": "attack", "actor": foe, "params": {"target": hero, "weapon": "short sword"},
                "dice": {"hit": [15], "damage": [damage]}}  # fmt: skip
        made = table.http.post(f"/encounters/{eid}/actions", json=body)
        assert made.status_code == 201, made.text

    blow(ford, 4)  # 10 -> 6
    ended = table.http.post(f"/encounters/{ford}/end", json={"reason": "they parted"})
    assert ended.status_code == 200, ended.text
    table.name = "Bridge"
    bridge = table.fight().eid
    blow(bridge, 3)  # 6 -> 3
    with browser.new_context(viewport=DESKTOP) as context:
        gm = table.open(context)
        expect(gm.locator("#board-title")).to_have_text("Encounter: Bridge")
        gm.locator("#encounter-picker").select_option(ford)
        expect(gm.locator("#board-title")).to_have_text("Encounter: Ford")
        # The ended fight's board: Hero as it left him, no track edits.
        board_hero = gm.locator(f'#sides [data-combatant-id="{hero}"]')
        expect(board_hero.locator(".bar[data-track=hp]")).to_have_attribute("data-current", "6")
        expect(gm.locator("#sides [data-step-track], #sides [data-edit-track]")).to_have_count(0)
        # The roster: Hero in a fight, as the Bridge has him now.
        roster_hero = gm.locator(f'#roster [data-character-id="{hero}"]')
        expect(roster_hero).to_contain_text("in a fight")
        expect(roster_hero.locator(".bar[data-track=hp]")).to_have_attribute("data-current", "3")
        roster_hero.locator('[data-step-track=hp][data-by="-1"]').click()
        expect(roster_hero.locator(".bar[data-track=hp]")).to_have_attribute("data-current", "2")
    combatants = table.http.get(f"/encounters/{bridge}").json()["combatants"]
    assert {c["name"]: c["tracks"] for c in combatants} == {"Hero": {"hp": 2}, "Foe": {"hp": 10}}
