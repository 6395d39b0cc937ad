"""A rule's words in the narrative, through the API, as the GM and a player read them in
the fight's log (RULINGS T3, T3a): a blow on an ally whom a Dwarf's Ward does not cover
(seed 000) and a shove towards a hazard (seed 004) are told as every other blow and
shove, not as the plain lines (the open dice summed, then the summary); a Ward declared
that covers nobody says so, a shove into a wall and a throw tell their shove dice
through AV.
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.helpers import ok

SWORD = {"name": "sword", "attribute": "might", "skill": "melee", "category": "melee",
         "base_damage": 2, "per_margin": 1, "damage_type": "slash"}  # fmt: skip
HUMAN = {"might": 2, "grace": 2, "vigor": 2, "aether": 1, "melee": 1, "weapons": [SWORD]}
DWARF = {"race": "dwarf", "might": 2, "grace": 1, "vigor": 3, "aether": 1, "evasion": 1, "guard": 3,
         "armor": [{"name": "mail", "rating": 4}], "weapons": [SWORD]}  # fmt: skip


def d20_sheet(**overrides: Any) -> dict[str, Any]:
    """FR +0 (STR stated +0, no skill slots), Medium, no armour: FD 10, save 12."""
    return {"strength": {"modifier": 0}, "dexterity": 10, "constitution": 10, "wisdom": 10,
            "level": 1, "hp": 20, "save_vs_death_ray": 12,
            "weapons": [{"name": "Sword", "damage": "1d8"}], **overrides}  # fmt: skip


class Table:
    """One campaign, its characters (name: sheet, NPC or not, side, rank) in one fight,
    and a player's key for Bran."""

    def __init__(self, client: TestClient, ruleset: str, **lineup: Any) -> None:
        self.client = client
        body = {"name": "Evening", "ruleset": ruleset, "options": {"actions_per_round": 10}}
        created = ok(client.post("/campaigns", json=body), 201)
        self.base = f"/campaigns/{created['id']}"
        self.keys = {"gm": created["gm_key"]}
        self.ids: dict[str, str] = {}
        combatants = []
        for name, (sheet, npc, side, rank) in lineup.items():
            character = {"name": name, "sheet": sheet, "npc": npc}
            self.ids[name] = self.post("/characters", character, 201)["id"]
            combatants.append({"character_id": self.ids[name], "side": side, "rank": rank})
        player = {"role": "player", "characters": [self.ids["Bran"]]}
        self.keys["player"] = self.post("/keys", player, 201)["key"]
        fight = self.post("/encounters", {"name": "Ford", "combatants": combatants}, 201)
        self.fight = f"/encounters/{fight['id']}"

    def post(self, path: str, body: Any, status: int = 200) -> Any:
        headers = {"authorization": f"Bearer {self.keys['gm']}"}
        return ok(self.client.post(self.base + path, json=body, headers=headers), status)

    def act(self, kind: str, actor: str, dice: Any = None, **params: Any) -> None:
        if "target" in params:
            params["target"] = self.ids[params["target"]]
        body = {"kind": kind, "actor": self.ids[actor], "params": params, "dice": dice}
        self.post(self.fight + "/actions", body, 201)

    def last(self, role: str) -> tuple[str, list[str]]:
        """The last action's summary and narrative in the fight's log as ``role`` reads it."""
        headers = {"authorization": f"Bearer {self.keys[role]}"}
        action = ok(self.client.get(self.base + self.fight, headers=headers))["actions"][-1]
        return action["summary"], action["narrative"]


def test_a_blow_on_an_ally_in_front_of_a_warding_dwarf(client: TestClient) -> None:
    """Seed 000: a Dwarf "can only cover people at his own rank or behind him — never
    someone standing further forward". Thrain wards from rank 2, the Goblin he fights
    beside stands at rank 1: Bran's blow meets the Goblin's defense alone."""
    t = Table(
        client,
        "margin",
        Bran=({**HUMAN, "might": 3, "melee": 2}, False, "party", 1),
        Goblin=({**HUMAN, "health": 20}, True, "foes", 1),
        Thrain=(DWARF, True, "foes", 2),
    )
    t.act("ward", "Thrain", effort=1)
    goblin = t.ids["Goblin"]
    dice = {"attack": [6, 6, 1, 1, 1], f"defense.{goblin}.evasion": [2, 3],
            f"defense.{goblin}.guard": [2, 3]}  # fmt: skip
    t.act("attack", "Bran", dice, target="Goblin", weapon="sword")
    attack = (
        "Bran's attack with sword: Might 3 + Melee 2 = 5 dice; rolled 6, 6, 1, 1, 1: 2 successes"
    )
    ward = (
        "Ward: Thrain stands at rank 2, behind Goblin at rank 1; a Ward covers allies at the "
        "dwarf's own rank or behind him, never one further forward: it does nothing against "
        "this blow"
    )
    assert t.last("gm") == (
        (
            "Bran attacks with sword at Goblin: 2 against 0, margin 2; Goblin takes 4 (health 20 "
            "-> 16)"
        ),
        [
            "sword (melee) reaches 1; distance 1",
            attack,
            (
                "Goblin holds no posture this round and defends passively: the bare attribute "
                "for every defense"
            ),
            "Goblin's evasion (passive): Grace 2 = 2 dice; rolled 2, 3: 0 successes",
            "Goblin's guard (passive): Vigor 2 = 2 dice; rolled 2, 3: 0 successes",
            "Margin: 2 - (0 + 0) = 2",
            ward,
            "Damage: 2 + 1 x 2 = 4 slash",
            "Rounded half up, once: 4 -> 4",
            "Goblin: health 20 -> 16",
        ],
    )
    # The Goblin's sheet values and health are the GM's; the ranks, the dice and the
    # margin the table's, Bran's numbers his player's.
    assert t.last("player") == (
        "Bran attacks with sword at Goblin: 2 against 0, margin 2; Goblin is hurt",
        [
            "sword (melee) reaches 1; distance 1",
            attack,
            "Goblin's evasion (passive): 2 dice; rolled 2, 3: 0 successes",
            "Goblin's guard (passive): 2 dice; rolled 2, 3: 0 successes",
            "Margin: 2 - (0 + 0) = 2",
            ward,
            "Damage: 2 + 1 x 2 = 4 slash",
            "Goblin: hurt",
        ],
    )


def test_a_ward_that_covers_nobody(client: TestClient) -> None:
    """Seed 000: a Dwarf "can only cover people at his own rank or behind him — never
    someone standing further forward". Durin (an NPC) wards from rank 2 behind the Orc:
    his declaration tells that it covers nobody now (every reader's; his effort the
    GM's)."""
    t = Table(
        client,
        "margin",
        Bran=(HUMAN, False, "party", 1),
        Orc=(HUMAN, True, "foes", 1),
        Durin=(DWARF, True, "foes", 2),
    )
    t.act("ward", "Durin", effort=1)
    ward = (
        "Ward: Durin covers nobody now: a Ward covers allies at the dwarf's own rank or "
        "behind him, never one further forward, and no ally of his stands there"
    )
    assert t.last("gm") == (
        "Durin takes up Ward for round 1 with 1 effort dice",
        ["Durin takes up Ward for round 1 with 1 effort dice", ward],
    )
    assert t.last("player") == (
        "Durin takes up Ward for round 1",
        ["Durin takes up Ward for round 1", ward],
    )


def test_shoves_towards_a_hazard(client: TestClient) -> None:
    """Seed 004's Pit-Stop Rule: "If a Shove would push a defender into a hazard [...] the
    defender gets an immediate Save vs. Death Ray to catch the ledge or stop at the very
    edge". The Ogre's 10 ft push reaches the pit 5 ft behind Bran, who saves; Bran's
    5 ft push reaches the fire 2 ft behind the Ogre, which fails (its save number, its
    FD and FR bonus stay the GM's)."""
    t = Table(
        client,
        "d20",
        Bran=(d20_sheet(), False, "party", 1),
        Ogre=(d20_sheet(size="large", hp=31, save_vs_death_ray=14), True, "foes", 1),
    )
    forceful = "Forceful Defense: defender FR +0 does not exceed attacker FR +0; a double success"
    t.act("shove", "Ogre", {"shove": [12], "hazard_save": [15]}, target="Bran",
          hazard_at_feet=5, hazard="the pit")  # fmt: skip
    pit = (
        "Bran is pushed towards the pit, 5 ft behind them, within the shove's 10 ft: a Save vs "
        "Death Ray to stop at the very edge"
    )
    saved = "Save vs Death Ray: d20 15 >= 12: success; Bran stops at the very edge"
    assert t.last("gm") == (
        "Ogre shoves Bran 5 ft (12 >= FD 10); saves and stops at the edge of the pit",
        [
            "d20 12 +0 FR bonus +0 size penalty = 12: 12 >= FD 10",
            "FD 10: success",
            f"{forceful} is not ruled out",
            pit,
            saved,
            "Ogre shoves Bran 5 ft (12 >= FD 10); saves and stops at the edge of the pit",
        ],
    )
    assert t.last("player") == (
        "Ogre shoves Bran 5 ft; saves and stops at the edge of the pit",
        [
            "d20 12",
            "FD 10: success",
            (
                "Forceful Defense: defender FR +0 does not exceed attacker FR; a double success is "
                "not ruled out"
            ),
            pit,
            saved,
            "Ogre shoves Bran 5 ft; saves and stops at the edge of the pit",
        ],
    )
    t.act("shove", "Bran", {"shove": [20], "hazard_save": [3]}, target="Ogre",
          hazard_at_feet=2, hazard="the fire")  # fmt: skip
    fire = (
        "Ogre is pushed towards the fire, 2 ft behind them, within the shove's 5 ft: a Save vs "
        "Death Ray to stop at the very edge"
    )
    assert t.last("gm") == (
        "Bran shoves Ogre 2 ft (16 >= FD 12); fails the save and goes into the fire",
        [
            "d20 20 +0 FR bonus -4 size penalty = 16: 16 >= FD 12",
            "FD 12: success",
            f"{forceful} is not ruled out",
            fire,
            (
                "Save vs Death Ray: d20 3 < 14: failure; Ogre goes into the fire; its own effects "
                "and saves follow"
            ),
            "Bran shoves Ogre 2 ft (16 >= FD 12); fails the save and goes into the fire",
        ],
    )
    assert t.last("player") == (
        "Bran shoves Ogre 2 ft; fails the save and goes into the fire",
        [
            "d20 20",
            "FD: success",
            (
                "Forceful Defense: defender FR does not exceed attacker FR +0; a double success is "
                "not ruled out"
            ),
            fire,
            (
                "Save vs Death Ray: d20 3: failure; Ogre goes into the fire; its own effects and "
                "saves follow"
            ),
            "Bran shoves Ogre 2 ft; fails the save and goes into the fire",
        ],
    )


def test_shoves_into_a_wall(client: TestClient) -> None:
    """Seed 004: "A target pushed into a wall before its distance is spent takes one
    shove die of damage per full 2 points of the attacker's FR bonus (at least one),
    through AV" (RULINGS D6). The Ogre drives Bran into the wall 1 ft behind him; Bran
    drives the Ogre, in chain mail, into the one 1 ft behind it (its AV and HP the GM's)."""
    t = Table(
        client,
        "d20",
        Bran=(d20_sheet(), False, "party", 1),
        Ogre=(d20_sheet(size="large", hp=31, armor="chain_mail"), True, "foes", 1),
    )
    forceful = "Forceful Defense: defender FR +0 does not exceed attacker FR +0; a double success"
    t.act("shove", "Ogre", {"shove": [12], "wall_damage": [4]}, target="Bran", wall_at_feet=1)
    bran = [
        (
            "Bran is pushed into the wall, 1 ft behind them, with 9 of the shove's 10 ft "
            "unspent: one d6 per full 2 points of FR +0, at least 1"
        ),
        "Wall damage: 1 shove die (d6), rolled 4",
        "1 penetrates; remaining 4 - 1 = 3; 3 - AV 0 = 3; 1 + 3 = 4",
        "Bran: HP 20 -> 16",
    ]
    assert t.last("gm") == (
        "Ogre shoves Bran 1 ft (12 >= FD 10), into the wall",
        [
            "d20 12 +0 FR bonus +0 size penalty = 12: 12 >= FD 10",
            "FD 10: success",
            f"{forceful} is not ruled out",
            *bran,
            "Ogre shoves Bran 1 ft (12 >= FD 10), into the wall",
        ],
    )
    assert t.last("player") == (
        "Ogre shoves Bran 1 ft, into the wall",
        [
            "d20 12",
            "FD 10: success",
            (
                "Forceful Defense: defender FR +0 does not exceed attacker FR; a double success is "
                "not ruled out"
            ),
            "Bran is pushed into the wall, 1 ft behind them, with 9 of the shove's 10 ft unspent",
            *bran[1:],
            "Ogre shoves Bran 1 ft, into the wall",
        ],
    )
    t.act("shove", "Bran", {"shove": [20], "wall_damage": [6]}, target="Ogre", wall_at_feet=1)
    ogre = (
        "Ogre is pushed into the wall, 1 ft behind them, with 4 of the shove's 5 ft unspent: "
        "one d8 per full 2 points of FR +0, at least 1"
    )
    assert t.last("gm") == (
        "Bran shoves Ogre 1 ft (16 >= FD 14), into the wall",
        [
            "d20 20 +0 FR bonus -4 size penalty = 16: 16 >= FD 14",
            "FD 14: success",
            f"{forceful} is not ruled out",
            ogre,
            "Wall damage: 1 shove die (d8), rolled 6",
            "1 penetrates; remaining 6 - 1 = 5; 5 - AV 4 = 1; 1 + 1 = 2",
            "Ogre: HP 31 -> 29",
            "Bran shoves Ogre 1 ft (16 >= FD 14), into the wall",
        ],
    )
    assert t.last("player") == (
        "Bran shoves Ogre 1 ft, into the wall",
        [
            "d20 20",
            "FD: success",
            (
                "Forceful Defense: defender FR does not exceed attacker FR +0; a double success is "
                "not ruled out"
            ),
            ogre,
            "Wall damage: 1 shove die (d8), rolled 6",
            "Ogre: hurt",
            "Bran shoves Ogre 1 ft, into the wall",
        ],
    )


def test_throws(client: TestClient) -> None:
    """A successful throw deals `throw_damage_dice` shove dice through AV (RULES.md; seed
    004: "AV applies to all physical damage including [...] Wrestling damage"). The
    narrative said only the summary's "N damage; HP a -> b": now the die rolled, the
    damage through AV and the HP. Bran throws the Ogre, in chain mail (its AV and HP the
    GM's); the Ogre throws Bran (his, his player's too)."""

    def told(t: Table, role: str) -> tuple[str, list[object]]:
        """The summary and narrative; the three lines of what changed, which follow the
        summary in the order of the combatants' ids, sorted."""
        summary, lines = t.last(role)
        return summary, [*lines[:-3], sorted(lines[-3:])]

    t = Table(
        client,
        "d20",
        Bran=(d20_sheet(), False, "party", 1),
        Ogre=(d20_sheet(size="large", hp=31, armor="chain_mail"), True, "foes", 1),
    )
    t.act("grapple", "Bran", {"grapple": [20]}, target="Ogre")
    t.act("throw", "Bran", {"throw": [20], "throw_damage": [7]})
    assert told(t, "gm") == (
        "Bran throws Ogre to the ground (16 >= FD 14), 3 damage; HP 31 -> 28; Ogre gains: prone",
        [
            "d20 20 +0 FR bonus -4 size penalty +0 armor wrestling penalty (No armor) = 16: 16 "
            ">= FD 14",
            "FD 14: success",
            "Throw damage: 1 shove die (d8), rolled 7",
            "1 penetrates; remaining 7 - 1 = 6; 6 - AV 4 = 2; 1 + 2 = 3",
            "Ogre: HP 31 -> 28",
            "Bran throws Ogre to the ground (16 >= FD 14), 3 damage; HP 31 -> 28; Ogre gains: "
            "prone",
            ["Bran loses: grappling", "Ogre gains: prone", "Ogre loses: grappled"],
        ],
    )
    assert told(t, "player") == (
        "Bran throws Ogre to the ground; Ogre is hurt; Ogre gains: prone",
        [
            "d20 20",
            "FD: success",
            "Throw damage: 1 shove die (d8), rolled 7",
            "Ogre: hurt",
            "Bran throws Ogre to the ground; Ogre is hurt; Ogre gains: prone",
            ["Bran loses: grappling", "Ogre gains: prone", "Ogre loses: grappled"],
        ],
    )
    t.act("grapple", "Ogre", {"grapple": [20]}, target="Bran")
    t.act("throw", "Ogre", {"throw": [20], "throw_damage": [5]})
    bran = [
        "Throw damage: 1 shove die (d6), rolled 5",
        "1 penetrates; remaining 5 - 1 = 4; 4 - AV 0 = 4; 1 + 4 = 5",
        "Bran: HP 20 -> 15",
    ]
    assert told(t, "gm") == (
        "Ogre throws Bran to the ground (19 >= FD 10), 5 damage; HP 20 -> 15; Bran gains: prone",
        [
            "d20 20 +0 FR bonus +0 size penalty -1 armor wrestling penalty (Chain Mail) = 19: 19 "
            ">= FD 10",
            "FD 10: success",
            *bran,
            "Ogre throws Bran to the ground (19 >= FD 10), 5 damage; HP 20 -> 15; Bran gains: "
            "prone",
            ["Bran gains: prone", "Bran loses: grappled", "Ogre loses: grappling"],
        ],
    )
    assert told(t, "player") == (
        "Ogre throws Bran to the ground, 5 damage; HP 20 -> 15; Bran gains: prone",
        [
            "d20 20",
            "FD 10: success",
            *bran,
            "Ogre throws Bran to the ground, 5 damage; HP 20 -> 15; Bran gains: prone",
            ["Bran gains: prone", "Bran loses: grappled", "Ogre loses: grappling"],
        ],
    )
