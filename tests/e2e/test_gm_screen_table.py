"""The table's turns on the GM screen (issue 23, RULINGS T1 T2; docs/table.md): rolled
initiative shown in the order, previous turn (button and `p`), an unconscious
combatant passed over with the reason shown, a marker with a 1-round duration shown as
a chip with its rounds left that expires on its own, moves in the order recorded.
Debian's Chromium on a real `skald serve`; the API only sets up and asserts."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.e2e.server import Server
from tests.e2e.test_gm_screen_defects import DESKTOP, Table, pick


def test_initiative_turns_skips_and_a_marker_that_expires(server: Server, browser: Browser) -> None:
    table = Table(server, Bran=dict(KNIGHT_ROLL), Ulf=dict(KNIGHT_ROLL), Sigrid=dict(KNIGHT_ROLL))
    bran, ulf, sigrid = (table.ids[n] for n in ("Bran", "Ulf", "Sigrid"))
    table.fight()
    with browser.new_context(viewport=DESKTOP) as context:
        gm = table.open(context)
        # Manual initiative: no roll button; the order is moved by a recorded move.
        expect(gm.locator("#roll-initiative")).to_be_hidden()
        gm.locator("#set-order").click()
        expect(gm.locator("#turn-order .current")).to_contain_text("Bran")
        gm.locator(f'[data-later="{bran}"]').click()
        expect(gm.locator("#turn-order [data-turn]").first).to_contain_text("Ulf")
        expect(gm.locator("#turn-order .current")).to_contain_text("Ulf")
        # Previous turn: the button and the key.
        gm.locator("#next-turn").click()
        expect(gm.locator("#turn-order .current")).to_contain_text("Bran")
        gm.locator("#prev-turn").click()
        expect(gm.locator("#turn-order .current")).to_contain_text("Ulf")
        gm.locator("#next-turn").click()
        expect(gm.locator("#turn-order .current")).to_contain_text("Bran")
        gm.locator("#board-title").click()
        gm.keyboard.press("p")
        expect(gm.locator("#turn-order .current")).to_contain_text("Ulf")
        # A marker for 1 round, counted at the end of Ulf's own turn: it ends with it.
        pick(gm, ulf)
        gm.locator("#gm-tools summary").click()
        gm.locator("#gm-mark [name=marker]").fill("blessed")
        gm.locator("#gm-mark [name=rounds]").fill("1")
        gm.locator("#gm-mark button[type=submit]").click()
        chip = gm.locator(f'#sides [data-combatant-id="{ulf}"] [data-marker="blessed"]')
        expect(chip).to_have_text("blessed · 1")
        expect(chip).to_have_attribute("data-chip", "marker")
        # Sigrid is unconscious: the turn passes her over and says why.
        down = table.http.post(
            f"/characters/{sigrid}/tracks", json={"set": {"body": -1}, "reason": "a fall"}
        )
        assert down.status_code == 200, down.text
        gm.locator("#next-turn").click()  # Ulf's turn ends: blessed expires
        expect(gm.locator("#turn-order .current")).to_contain_text("Bran")
        expect(chip).to_have_count(0)
        gm.locator("#next-turn").click()  # past Sigrid, to round 2
        expect(gm.locator("#board-caption")).to_contain_text("round 2")
        expect(gm.locator("#board-caption")).to_contain_text("passed over: Sigrid is unconscious")
    enc = table.encounter()
    assert enc["markers"] == []
    assert [a["kind"] for a in enc["actions"] if a["kind"] == "expire"] == ["expire"]


KNIGHT_ROLL = {
    "st": 13, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10,
    "weapons": [{"name": "longsword", "damage_class": 3, "damage_type": "piercing", "skill": 13}],
}  # fmt: skip


def test_rolled_initiative_orders_the_fight(server: Server, browser: Browser) -> None:
    options = {"initiative": {"mode": "roll", "dice": "1d20", "add": "dodge"}}
    table = Table(server, options=options, Bran=dict(KNIGHT_ROLL), Ulf=dict(KNIGHT_ROLL))
    table.fight()
    with browser.new_context(viewport=DESKTOP) as context:
        gm = table.open(context)
        gm.locator("#roll-initiative").click()
        expect(gm.locator("#turn-order [data-initiative]")).to_have_count(2)
    rolled = table.encounter()["turn"]["initiative"]
    assert sorted(rolled) == sorted(table.ids.values())
    assert all(11 <= total <= 30 for total in rolled.values())  # 1d20 + dodge 10
