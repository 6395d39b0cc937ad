"""/play's result box speaks of the fight it was said in (found by the stamina-body
evening, tests/e2e/test_evening_stamina_body.py): after the first fight's last blow on Bran
("Bran: Stamina 7 -> 6"), his phone still showed it under "My turn" in the second fight,
where a correction carried since had put him at 11. The last blow stays readable once its
fight has ended, and is gone once another fight begins."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.e2e.server import Server
from tests.e2e.test_table_dice_answers import PHONE, Table


def test_the_last_fights_blow_is_not_shown_in_the_next(server: Server, browser: Browser) -> None:
    table = Table(server)
    phone = table.open(browser, PHONE, "/play", table.player)
    blow = {"kind": "attack", "actor": table.goblin, "params": {"target": table.bran},
            "dice": {"Goblin's hit": [3, 3, 3], "Goblin's damage": [4, 5]}}  # fmt: skip
    table.send("POST", f"{table.fight}/actions", blow, 202)
    phone.locator('#pending [data-declare-dice="1"]').fill("5 5 5")
    phone.locator("[data-declare=parry]").click()
    said = "Goblin hits: Bran takes 5 Stamina and 0 Body (7/0 raw)"
    expect(phone.locator("#result [data-result] .summary")).to_have_text(said)

    table.send("POST", f"{table.fight}/end", {"reason": "the goblin runs"}, 200)
    expect(phone.locator("#turn")).to_have_text("No fight under way.")
    expect(phone.locator("#result [data-result] .summary")).to_have_text(said)

    combatants = [{"character_id": table.bran}, {"character_id": table.goblin}]
    table.send("POST", "/encounters", {"name": "The hill", "combatants": combatants})
    expect(phone.locator("#turn")).to_contain_text("The hill, round 1")
    expect(phone.locator("#result")).to_be_empty()
