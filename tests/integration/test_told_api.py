"""One text as the GM, a player and a viewer read it (RULINGS T3a), through the API.

Each ruleset's blow on an NPC and the NPC's blow on a PC, read with each key: the GM's
summary and narrative as they always were, the others' built from the same parts with
the NPC's numbers left out or its descriptor instead, names, open dice, outcome words
and the PC's numbers kept. docs/access.md quotes these lines.
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.helpers import ok

PC_SB = {"st": 12, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10,
         "weapons": [{"name": "sword", "damage_class": 2, "damage_type": "impact",
                      "skill": 12}]}  # fmt: skip
OGRE_SB = {"st": 14, "con": 11, "parry": 9, "dodge": 7, "stamina_max": 23, "body_max": 21,
           "armour_resilience": 1,
           "weapons": [{"name": "club", "damage_class": 2, "damage_type": "impact",
                        "skill": 17}]}  # fmt: skip
PC_D20 = {
    "strength": 12,
    "dexterity": 10,
    "constitution": 10,
    "wisdom": 10,
    "level": 1,
    "hp": 20,
    "save_vs_death_ray": 12,
    "weapons": [{"name": "Sword", "damage": "1d8"}],
}
OGRE_D20 = {**PC_D20, "hp": 31, "armor": "chain_mail", "hr_magic_bonus": 1,
            "weapons": [{"name": "Club", "damage": "1d6"}]}  # fmt: skip
SWORD = {"name": "sword", "attribute": "might", "skill": "melee", "category": "melee",
         "base_damage": 2, "per_margin": 1, "damage_type": "slash"}  # fmt: skip
PC_M = {"might": 2, "grace": 2, "vigor": 2, "aether": 1, "melee": 2, "health": 14,
        "weapons": [SWORD]}  # fmt: skip
OGRE_M = {"might": 2, "grace": 2, "vigor": 2, "aether": 1, "melee": 2, "health": 27,
          "armor": [{"name": "hide", "rating": 1}],
          "weapons": [{**SWORD, "name": "axe", "base_damage": 3}]}  # fmt: skip


class Table:
    """Bran (a PC) and the Ogre (an NPC) in one fight; a player's and a viewer's key."""

    def __init__(self, client: TestClient, ruleset: str, pc: Any, ogre: Any) -> None:
        self.client = client
        body = {"name": "Told", "ruleset": ruleset, "options": {"actions_per_round": 10}}
        created = ok(client.post("/campaigns", json=body), 201)
        self.base = f"/campaigns/{created['id']}"
        self.keys = {"gm": created["gm_key"]}
        self.bran = self.post("/characters", {"name": "Bran", "sheet": pc}, 201)["id"]
        self.ogre = self.post("/characters", {"name": "Ogre", "sheet": ogre, "npc": True}, 201)[
            "id"
        ]
        for role, key in (("player", {"role": "player", "characters": [self.bran]}),
                          ("viewer", {"role": "viewer"})):  # fmt: skip
            self.keys[role] = self.post("/keys", key, 201)["key"]
        combatants = [{"character_id": self.bran, "side": "party"},
                      {"character_id": self.ogre, "side": "foes"}]  # fmt: skip
        fight = self.post("/encounters", {"name": "Ford", "combatants": combatants}, 201)
        self.fight = f"{self.base}/encounters/{fight['id']}"

    def post(self, path: str, body: Any, status: int = 200) -> Any:
        headers = {"authorization": f"Bearer {self.keys['gm']}"}
        return ok(self.client.post(self.base + path, json=body, headers=headers), status)

    def blow(self, actor: str, target: str, dice: Any, **params: Any) -> None:
        body = {"kind": "attack", "actor": actor, "params": {"target": target, **params},
                "dice": dice}  # fmt: skip
        path = self.fight.removeprefix(self.base) + "/actions"
        self.post(path, body, 201)

    def told(self, role: str) -> list[tuple[str, list[str]]]:
        headers = {"authorization": f"Bearer {self.keys[role]}"}
        read = ok(self.client.get(self.fight, headers=headers))
        return [(a["summary"], a["narrative"]) for a in read["actions"]]


def test_stamina_body_as_each_role_reads_it(client: TestClient) -> None:
    t = Table(client, "stamina-body", PC_SB, OGRE_SB)
    t.blow(t.ogre, t.bran, {"hit": [2, 2, 2], "damage": [2, 3]}, weapon="club", defense="none")
    t.blow(t.bran, t.ogre, {"hit": [1, 2, 2], "defense": [6, 6, 5], "damage": [4, 1]},
           weapon="sword", defense="parry")  # fmt: skip
    assert t.told("gm") == [
        ("Ogre hits: Bran takes 3 Stamina and 0 Body (3/0 raw)", [
            "Ogre's hit: 3d6 rolled 6 against club skill 17: success, hit score 11",
            "Bran answers with nothing",
            "Damage dice: class 2 = 2d6, rolled 2, 3",
            "Die 2 on the impact table: 1 Stamina, 0 Body",
            "Die 3 on the impact table: 2 Stamina, 0 Body",
            "Raw damage: 1 + 2 = 3 Stamina and 0 + 0 = 0 Body",
            "Shield: no successful parry: the shield does not help",
            "Resilience: armour 0 + shield 0 = 0",
            "Net damage: 3 Stamina, 0 Body",
            "Bran: Stamina 12 -> 9, Body 10 -> 10",
        ]),
        ("Bran hits: Ogre takes 3 Stamina and 0 Body (4/0 raw)", [
            "Bran's hit: 3d6 rolled 5 against sword skill 12: success, hit score 7",
            "Ogre's parry: 3d6 rolled 17 against parry 9: failure, parry score -8",
            "The parry failed (17 > 9)",
            "Damage dice: class 2 = 2d6, rolled 4, 1",
            "Die 4 on the impact table: 3 Stamina, 0 Body",
            "Die 1 on the impact table: 1 Stamina, 0 Body",
            "Raw damage: 3 + 1 = 4 Stamina and 0 + 0 = 0 Body",
            "Shield: no successful parry: the shield does not help",
            "Resilience: armour 1 + shield 0 = 1",
            "Step 1 (Stamina): 4 -> 3; resilience left 0",
            "Net damage: 3 Stamina, 0 Body",
            "Ogre: Stamina 23 -> 20, Body 21 -> 21",
        ]),
    ]  # fmt: skip
    others = [
        ("Ogre hits: Bran takes 3 Stamina and 0 Body (3/0 raw)", [
            "Ogre's hit: 3d6 rolled 6: success",
            "Bran answers with nothing",
            "Damage dice: 2d6, rolled 2, 3",
            "Die 2 on the impact table: 1 Stamina, 0 Body",
            "Die 3 on the impact table: 2 Stamina, 0 Body",
            "Raw damage: 1 + 2 = 3 Stamina and 0 + 0 = 0 Body",
            "Shield: no successful parry: the shield does not help",
            "Resilience: armour 0 + shield 0 = 0",
            "Net damage: 3 Stamina, 0 Body",
            "Bran: Stamina 12 -> 9, Body 10 -> 10",
        ]),
        ("Bran hits: Ogre is hurt", [
            "Bran's hit: 3d6 rolled 5 against sword skill 12: success, hit score 7",
            "Ogre's parry: 3d6 rolled 17: failure",
            "The parry failed (17 > parry)",
            "Damage dice: class 2 = 2d6, rolled 4, 1",
            "Ogre: hurt",
        ]),
    ]  # fmt: skip
    assert t.told("player") == t.told("viewer") == others


def test_d20_as_each_role_reads_it(client: TestClient) -> None:
    t = Table(client, "d20", PC_D20, OGRE_D20)
    t.blow(t.ogre, t.bran, {"hit": [19], "damage": [4]}, weapon="Club")
    t.blow(t.bran, t.ogre, {"hit": [20], "damage": [6]}, weapon="Sword")
    gm, player = t.told("gm"), t.told("player")
    assert gm[1] == (
        "Bran hits Ogre with Sword (20 >= AC 11): 6 rolled, 2 dealt; HP 31 -> 29",
        [
            "d20 20 +0 HR bonus with Sword = 20: 20 >= AC 11",
            "AC 11: success",
            "Damage 1d8: rolled 6",
            "1 penetrates; remaining 6 - 1 = 5; 5 - AV 4 = 1; 1 + 1 = 2",
            "Ogre: HP 31 -> 29",
            "Bran hits Ogre with Sword (20 >= AC 11): 6 rolled, 2 dealt; HP 31 -> 29",
        ],
    )
    assert player[1] == (
        "Bran hits Ogre with Sword: 6 rolled; Ogre is hurt",
        ["d20 20", "AC: success", "Damage 1d8: rolled 6", "Ogre: hurt",
         "Bran hits Ogre with Sword: 6 rolled; Ogre is hurt"],
    )  # fmt: skip
    assert player[0][0] == "Ogre hits Bran with Club: 4 rolled, 4 dealt; HP 20 -> 16"
    assert "+1 HR bonus" in gm[0][1][0] and not any("HR bonus" in line for line in player[0][1])
    assert t.told("viewer") == player


def test_margin_as_each_role_reads_it(client: TestClient) -> None:
    t = Table(client, "margin", PC_M, OGRE_M)
    ogre_defends = {f"defense.{t.ogre}.evasion": [2, 3], f"defense.{t.ogre}.guard": [2, 3]}
    t.blow(t.bran, t.ogre, {"attack": [6, 6, 6, 5], **ogre_defends}, weapon="sword")
    (gm,), (player,) = t.told("gm"), t.told("player")
    assert (
        gm[0]
        == "Bran attacks with sword at Ogre: 4 against 0, margin 4; Ogre takes 5 (health 27 -> 22)"
    )
    assert player[0] == "Bran attacks with sword at Ogre: 4 against 0, margin 4; Ogre is hurt"
    assert gm[1][3:] == [
        "Ogre's evasion (passive): Grace 2 = 2 dice; rolled 2, 3: 0 successes",
        "Ogre's guard (passive): Vigor 2 = 2 dice; rolled 2, 3: 0 successes",
        "Margin: 4 - (0 + 0) = 4",
        "Damage: 2 + 1 x 4 = 6 slash",
        "Armor 1: x 9/10 (0.90) = 27/5 (5.40)",
        "Rounded half up, once: 27/5 (5.40) -> 5",
        "Ogre: health 27 -> 22",
    ]
    assert player[1][2:] == [
        "Ogre's evasion (passive): 2 dice; rolled 2, 3: 0 successes",
        "Ogre's guard (passive): 2 dice; rolled 2, 3: 0 successes",
        "Margin: 4 - (0 + 0) = 4",
        "Damage: 2 + 1 x 4 = 6 slash",
        "Ogre: hurt",
    ]
    assert t.told("viewer") == [player]
