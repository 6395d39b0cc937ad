"""d20's records whose texts tests/unit/test_told_d20.py reads: the stance, shoves,
trips, holds (grapple, maintain, escape, throw, release) and standing up, each between
a PC and an NPC, either way.

FR bonuses come from skill slots with STR stated +0 (tests/unit/test_d20_support.py):
Bran (PC) FR +3, Medium, no armour, FD 10; the Ogre (NPC) FR +5, Large, chain mail,
Defensive Stance mastery 2; Mira (PC) FR +2 with a small shield; the Knight (NPC)
FR +1 in plate mail, Medium.
"""

from __future__ import annotations

from typing import Any

from skald_campaign.domain.records import JSON
from tests.unit.test_d20_support import fr_sheet
from tests.unit.told_support import Table

SHEETS: dict[str, tuple[dict[str, Any], bool]] = {
    "Bran": (fr_sheet(3), False),
    "Ogre": (fr_sheet(5, size="large", armor="chain_mail", defensive_stance_mastery=2), True),
    "Mira": (fr_sheet(2, shield="small"), False),
    "Knight": (fr_sheet(1, armor="plate_mail"), True),
}


def table(*names: str) -> Table:
    t = Table("d20")
    for name in names:
        character, npc = SHEETS[name]
        t.enrol(name, character, npc=npc)
    t.start(*((name, "foes" if SHEETS[name][1] else "party", 1) for name in names))
    return t


Scene = tuple[Table, dict[str, JSON]]


def an_npc_takes_a_defensive_stance() -> Scene:
    t = table("Bran", "Ogre")
    return t, t.act("defensive_stance", "Ogre")


def a_pc_shoves_an_npc() -> Scene:
    """Forceful Defense: the Ogre's FR +5 exceeds Bran's +3 (no double success reached)."""
    t = table("Bran", "Ogre")
    return t, t.act("shove", "Bran", {"shove": [18]}, target="Ogre")


def a_pc_fails_to_shove_an_npc() -> Scene:
    t = table("Bran", "Ogre")
    return t, t.act("shove", "Bran", {"shove": [4]}, target="Ogre")


def an_npc_shoves_a_pc_into_a_wall() -> Scene:
    t = table("Bran", "Ogre")
    dice = {"shove": [19], "wall_damage": [3, 4]}
    return t, t.act("shove", "Ogre", dice, target="Bran", wall_at_feet=2)


def a_pc_shoves_an_npc_into_a_wall() -> Scene:
    """Bran's FR +3 gives one shove die, the Ogre's d8 a step up: a d10, through its chain
    mail (AV 4)."""
    t = table("Bran", "Ogre")
    dice = {"shove": [20], "wall_damage": [9]}
    return t, t.act("shove", "Bran", dice, target="Ogre", wall_at_feet=1)


def a_pc_shoves_an_npc_into_a_wall_right_behind_it() -> Scene:
    """The wall is at the Ogre's back (0 ft): all 5 ft of Bran's shove are unspent."""
    t = table("Bran", "Ogre")
    dice = {"shove": [20], "wall_damage": [2]}
    return t, t.act("shove", "Bran", dice, target="Ogre", wall_at_feet=0)


def an_npc_shoves_a_pc_towards_a_pit() -> Scene:
    t = table("Bran", "Ogre")
    dice = {"shove": [12], "hazard_save": [15]}
    return t, t.act("shove", "Ogre", dice, target="Bran", hazard_at_feet=5, hazard="the pit")


def a_pc_shoves_an_npc_into_the_fire() -> Scene:
    """Bran's 5 ft carry the Ogre past the fire's edge 2 ft behind it; its save fails."""
    t = table("Bran", "Ogre")
    dice = {"shove": [20], "hazard_save": [3]}
    return t, t.act("shove", "Bran", dice, target="Ogre", hazard_at_feet=2, hazard="the fire")


def a_shove_breaks_an_npcs_hold() -> Scene:
    t = table("Bran", "Mira", "Ogre")
    t.act("grapple", "Ogre", {"grapple": [20]}, target="Bran")
    return t, t.act("shove", "Mira", {"shove": [20]}, target="Ogre")


def a_pc_trips_an_npc() -> Scene:
    t = table("Bran", "Ogre")
    return t, t.act("trip", "Bran", {"trip": [18]}, target="Ogre")


def an_npc_fails_to_trip_a_pc() -> Scene:
    t = table("Bran", "Ogre")
    return t, t.act("trip", "Ogre", {"trip": [2]}, target="Bran")


def an_npc_grapples_a_pc() -> Scene:
    t = table("Bran", "Ogre")
    return t, t.act("grapple", "Ogre", {"grapple": [17]}, target="Bran")


def a_pc_with_a_shield_cannot_grapple_an_npc() -> Scene:
    t = table("Mira", "Ogre")
    return t, t.act("grapple", "Mira", target="Ogre")


def held(*names: str) -> Table:
    """The Ogre holds Bran."""
    t = table(*names)
    t.act("grapple", "Ogre", {"grapple": [20]}, target="Bran")
    return t


def a_pc_fails_to_escape_an_npc() -> Scene:
    t = held("Bran", "Ogre")
    return t, t.act("escape", "Bran", {"escape": [5]})


def a_pc_escapes_an_npc() -> Scene:
    t = held("Bran", "Ogre")
    return t, t.act("escape", "Bran", {"escape": [20]})


def an_npc_keeps_its_hold() -> Scene:
    t = held("Bran", "Ogre")
    return t, t.act("maintain", "Ogre", {"maintain": [12]})


def a_pc_loses_hold_of_an_npc() -> Scene:
    t = table("Bran", "Knight")
    t.act("grapple", "Bran", {"grapple": [20]}, target="Knight")
    return t, t.act("maintain", "Bran", {"maintain": [2]})


def an_npc_throws_a_pc() -> Scene:
    t = held("Bran", "Ogre")
    return t, t.act("throw", "Ogre", {"throw": [18], "throw_damage": [3]})


def a_pc_throws_an_npc() -> Scene:
    t = table("Bran", "Ogre")
    t.act("grapple", "Bran", {"grapple": [20]}, target="Ogre")
    return t, t.act("throw", "Bran", {"throw": [20], "throw_damage": [7]})


def a_pc_cannot_throw_an_npc_in_plate() -> Scene:
    t = table("Bran", "Knight")
    t.act("grapple", "Bran", {"grapple": [20]}, target="Knight")
    return t, t.act("throw", "Bran")


def an_npc_lets_go() -> Scene:
    t = held("Bran", "Ogre")
    return t, t.act("release", "Ogre")


def an_npc_stands_up() -> Scene:
    t = table("Bran", "Ogre")
    t.act("trip", "Bran", {"trip": [20]}, target="Ogre")
    return t, t.act("stand_up", "Ogre")


SCENES = [
    an_npc_takes_a_defensive_stance,
    a_pc_shoves_an_npc,
    a_pc_fails_to_shove_an_npc,
    an_npc_shoves_a_pc_into_a_wall,
    a_pc_shoves_an_npc_into_a_wall,
    a_pc_shoves_an_npc_into_a_wall_right_behind_it,
    an_npc_shoves_a_pc_towards_a_pit,
    a_pc_shoves_an_npc_into_the_fire,
    a_shove_breaks_an_npcs_hold,
    a_pc_trips_an_npc,
    an_npc_fails_to_trip_a_pc,
    an_npc_grapples_a_pc,
    a_pc_with_a_shield_cannot_grapple_an_npc,
    a_pc_fails_to_escape_an_npc,
    a_pc_escapes_an_npc,
    an_npc_keeps_its_hold,
    a_pc_loses_hold_of_an_npc,
    an_npc_throws_a_pc,
    a_pc_throws_an_npc,
    a_pc_cannot_throw_an_npc_in_plate,
    an_npc_lets_go,
    an_npc_stands_up,
]


def a_pc_hits_an_npc_in_chain_mail() -> Scene:
    """D4: Bran's longsword rolls 7 into the Ogre's chain mail (AV 4): 1 + (6 - 4) = 3."""
    t = table("Bran", "Ogre")
    return t, t.act(
        "attack", "Bran", {"hit": [20], "damage": [7]}, target="Ogre", weapon="Longsword"
    )


def an_npc_hits_a_pc_in_plate() -> Scene:
    """D4: the Knight's longsword rolls 5 into Bran, who is armoured here in plate (AV 6):
    only the guaranteed point."""
    t = table("Bran", "Knight")
    t.amend("Bran", armor="plate_mail")
    return t, t.act(
        "attack", "Knight", {"hit": [20], "damage": [5]}, target="Bran", weapon="Longsword"
    )
