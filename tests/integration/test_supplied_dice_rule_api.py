"""Dice supplied for rolls: one rule everywhere (issue 36; docs/corrections.md), for an
action, a declaration and a reroll, per ruleset. Dice for a roll the action can never
make are refused with 422 naming the roll, and nothing is written; dice for a roll that
depends on another roll's outcome (damage after a hit, a luck reroll, a defense the
declaration then did not roll) are accepted and recorded as unused when it does not
happen."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.helpers import GM, enrol, event_count, new_campaign, ok, start
from tests.integration.test_d20_api import d20_sheet
from tests.integration.test_table_api import MARGIN, SB

CLUB = {"name": "club", "damage_class": 2, "damage_type": "impact", "skill": 11}


class Duel:
    def __init__(self, client: TestClient, ruleset: str, ogre: Any, kara: Any) -> None:
        self.client = client
        self.cid = new_campaign(client, ruleset)
        self.ogre, self.kara = (
            enrol(client, self.cid, "Ogre", ogre),
            enrol(client, self.cid, "Kara", kara),
        )
        side = [
            {"character_id": self.ogre, "side": "foes"},
            {"character_id": self.kara, "side": "party"},
        ]
        self.base = f"/campaigns/{self.cid}/encounters/{start(client, self.cid, side)}"

    def attack(self, weapon: str, dice: dict[str, list[int]], status: int = 201) -> Any:
        body = {
            "kind": "attack",
            "actor": self.ogre,
            "params": {"target": self.kara, "weapon": weapon},
            "dice": dice,
            "override_reason": "the test acts again",
        }
        return ok(self.client.post(self.base + "/actions", json=body, headers=GM), status)

    def reroll(self, number: int, dice: dict[str, list[int]], status: int = 200) -> Any:
        body = {"reason": "a disputed die", "dice": dice}
        path = f"{self.base}/actions/{number}/reroll"
        return ok(self.client.post(path, json=body, headers=GM), status)

    def refused(self, call: Any) -> str:
        before = event_count(self.client)
        message = str(call()["message"])
        assert event_count(self.client) == before
        return message


def test_stamina_body_a_stunned_defenders_defense_is_refused_a_missed_blows_damage_is_unused(
    client: TestClient,
) -> None:
    d = Duel(client, "stamina-body", {**SB, "weapons": [CLUB]}, SB)
    # The defender's own answer may follow a hit: offered with the attack, it waits, and
    # when Kara declares no defense it is recorded as unused, not refused afterwards.
    opened = d.attack("club", {"hit": [1, 1, 1], "defense": [3, 3, 3], "damage": [2, 2]}, 202)
    path = f"{d.base}/exchanges/{opened['exchange']['number']}/declare"
    declared = ok(client.post(path, json={"choice": "none"}, headers=GM), 201)["action"]
    assert declared["breakdown"]["unused_dice"] == {"defense": [3, 3, 3]}
    # A reroll that makes the blow miss keeps its damage dice as unused.
    rerolled = d.reroll(1, {"hit": [6, 6, 6], "damage": [1, 1]})
    record = rerolled["encounter"]["actions"][0]
    assert (record["summary"], record["breakdown"]["unused_dice"]) == (
        "Ogre misses Kara",
        {"damage": [1, 1]},
    )
    # Stunned (S9), Kara answers with nothing: her defense is a roll it never makes.
    path = f"/campaigns/{d.cid}/characters/{d.kara}/tracks"
    ok(client.post(path, json={"set": {"stamina": -1}, "reason": "a fall"}, headers=GM))
    never = "dice were supplied for 'defense', which this attack never rolls; the rolls it "
    never += "takes: hit (Ogre's hit), damage (Ogre's damage)"
    assert (
        d.refused(lambda: d.attack("club", {"hit": [1, 1, 1], "defense": [3, 3, 3]}, 422)) == never
    )
    d.attack("club", {"hit": [1, 1, 1], "damage": [3, 3]})
    assert d.refused(lambda: d.reroll(3, {"hit": [2, 1, 1], "defense": [3, 3, 3]}, 422)) == never


def test_margin_a_luck_reroll_is_unused_when_not_needed_and_refused_without_luck(
    client: TestClient,
) -> None:
    d = Duel(client, "margin", {**MARGIN, "luck": 1}, MARGIN)
    kara = d.kara
    defenses = {f"defense.{kara}.evasion": [1, 2], f"defense.{kara}.guard": [2, 3]}
    acted = d.attack("sword", {"attack": [5, 5], "attack.luck": [6, 6], **defenses})
    assert acted["action"]["breakdown"]["unused_dice"] == {"attack.luck": [6, 6]}
    rerolled = d.reroll(1, {"attack": [6, 5], "attack.luck": [1, 1]})
    assert rerolled["encounter"]["actions"][0]["breakdown"]["unused_dice"] == {
        "attack.luck": [1, 1]
    }
    # Kara has no luck point: a luck roll of hers is one her defense can never make.
    message = d.refused(lambda: d.reroll(1, {f"defense.{kara}.evasion.luck": [6, 6]}, 422))
    assert message.startswith(
        f"dice were supplied for 'defense.{kara}.evasion.luck', which this attack never rolls"
    )


def test_d20_a_misnamed_roll_is_refused_damage_after_a_miss_is_unused(client: TestClient) -> None:
    d = Duel(client, "d20", d20_sheet(), d20_sheet())
    # The d20 attack's roll is "hit": dice under "attack" were left unused while the
    # server rolled the hit itself.
    message = d.refused(lambda: d.attack("Bastard Sword", {"attack": [20]}, 422))
    assert message == (
        "dice were supplied for 'attack', which this attack never rolls; the rolls it takes: "
        "hit (Ogre's hit), damage (Ogre's damage)"
    )
    hit = d.attack("Bastard Sword", {"hit": [20], "damage": [5]})["action"]
    assert hit["summary"].startswith("Ogre hits Kara")
    rerolled = d.reroll(1, {"hit": [1], "damage": [3]})
    record = rerolled["encounter"]["actions"][0]
    assert record["summary"] == "Ogre misses Kara with Bastard Sword (1 < AC 11)"
    assert record["breakdown"]["unused_dice"] == {"damage": [3]}
    never = d.refused(lambda: d.reroll(1, {"hazard_save": [5]}, 422))
    assert never.startswith("dice were supplied for 'hazard_save', which this attack never rolls")
