"""The turn order dragged on the GM screen (issue 23: "the GM sets the order by drag or
up/down"; docs/table.md): a chip dropped on another takes its place, and the order on
the record (the API's) is the one the board shows. The arrows stay for the keyboard.
Debian's Chromium on a real `skald serve`; the API only sets up and asserts."""

from __future__ import annotations

from playwright.sync_api import Browser, Locator, expect

from tests.e2e.server import Server
from tests.e2e.test_gm_bestiary import DESKTOP, KNIGHT, Campaign


def test_a_chip_dragged_onto_another_takes_its_place_on_the_record(
    server: Server, browser: Browser
) -> None:
    table = Campaign(server, Ash=KNIGHT, Bran=KNIGHT, Cora=KNIGHT)
    ash, bran, cora = (table.ids[n] for n in ("Ash", "Bran", "Cora"))
    lineup = [{"character_id": i, "side": s} for i, s in ((ash, "a"), (bran, "b"), (cora, "b"))]
    eid = table.post("/encounters", {"name": "Drag", "combatants": lineup}, 201)["id"]

    def order() -> list[str]:
        return [c["id"] for c in table.get(f"/encounters/{eid}")["turn"]["order"]]

    with browser.new_context(viewport=DESKTOP) as context:
        gm = table.open(context)

        def chip(cid: str) -> Locator:
            return gm.locator(f'#turn-order [data-turn="{cid}"]')

        first = gm.locator("#turn-order [data-turn]").first
        # Before any order is set, a drop sets it.
        chip(bran).drag_to(chip(ash))
        expect(first).to_have_attribute("data-turn", bran)
        assert order() == [bran, ash, cora]
        expect(gm.locator(f'[data-later="{bran}"]')).to_be_visible()
        # Up two places, then down two: one recorded order each; the arrows stay.
        chip(cora).drag_to(chip(bran))
        expect(first).to_have_attribute("data-turn", cora)
        assert order() == [cora, bran, ash]
        chip(cora).drag_to(chip(ash))
        expect(gm.locator("#turn-order [data-turn]").last).to_have_attribute("data-turn", cora)
        assert order() == [bran, ash, cora]
        expect(gm.locator(f'[data-later="{bran}"]')).to_be_visible()
