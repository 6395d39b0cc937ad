"""Stamina-body's records whose texts tests/unit/test_told_stamina_body.py reads: the
kinds besides an attack and a take-hit (a recovery, a wound marked and treated, a
stabilising, a round's bleeding), each with an NPC in it; and the table's own records
(a marker, a join, a move, a leave, the GM's sheet amendment and track adjustment) on
an NPC, which every ruleset words alike.

Bran and Mira (PCs): CON 12, Stamina 12, Body 10. The Ogre (NPC): CON 11, Stamina 23,
Body 21, club skill 17.
"""

from __future__ import annotations

from typing import Any

from skald_campaign.application.commands import AdjustTracks
from skald_campaign.application.table_commands import SetTurnOrder
from skald_campaign.domain.records import JSON
from tests.unit.told_support import Sevens, Table

PC = {"st": 12, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10,
      "weapons": [{"name": "sword", "damage_class": 2, "damage_type": "impact",
                   "skill": 12}]}  # fmt: skip
OGRE = {"st": 14, "con": 11, "parry": 9, "dodge": 7, "stamina_max": 23, "body_max": 21,
        "armour_resilience": 1,
        "weapons": [{"name": "club", "damage_class": 2, "damage_type": "piercing",
                     "skill": 17}]}  # fmt: skip
SHEETS: dict[str, tuple[dict[str, Any], bool]] = {
    "Bran": (PC, False),
    "Mira": (PC, False),
    "Ogre": (OGRE, True),
    "Goblin 3": (OGRE, True),
}

Scene = tuple[Table, dict[str, JSON]]


def table(*names: str, roller: Any = None, **options: Any) -> Table:
    t = Table("stamina-body", roller, **options)
    for name in SHEETS:
        character, npc = SHEETS[name]
        t.enrol(name, character, npc=npc)
    t.start(*((name, "foes" if SHEETS[name][1] else "party", 1) for name in names))
    return t


def an_npc_recovers() -> Scene:
    t = table("Bran", "Ogre")
    t.act("take_hit", None, {"damage": [6, 6]}, target="Ogre", damage_type="impact",
          damage_class=2)  # fmt: skip
    return t, t.act("recover", "Ogre", {"recovery": [1, 2, 3]})


def the_gm_marks_an_npcs_wound() -> Scene:
    t = table("Bran", "Ogre")
    return t, t.act("mark_wound", None, target="Ogre", wound="broken_bones", reason="a fall")


def a_pc_treats_an_npcs_wound() -> Scene:
    t = table("Bran", "Ogre")
    t.act("mark_wound", None, target="Ogre", wound="piercing_wound")
    return t, t.act("treat_wound", "Bran", target="Ogre")


def down(t: Table, *names: str) -> None:
    """Knocked out: the GM sets Body to -1 (unconscious)."""
    for name in names:
        t.app.adjust_tracks(AdjustTracks(t.campaign, t.ids[name], "knocked out", {"body": -1}))


def a_pc_stabilises_an_npc() -> Scene:
    t = table("Bran", "Ogre")
    down(t, "Ogre")
    return t, t.act("stabilise", "Bran", target="Ogre")


def an_npc_bleeds() -> Scene:
    t = table("Bran", "Ogre")
    down(t, "Ogre")
    t.next_round()
    return t, t.last()


def an_npc_and_a_pc_bleed() -> Scene:
    t = table("Bran", "Ogre")
    down(t, "Ogre", "Bran")
    t.next_round()
    return t, t.last()


# -- the table's records ---------------------------------------------------------------


def a_marker_on_an_npc() -> Scene:
    t = table("Bran", "Ogre")
    t.mark("Ogre", "blessed", "the priest's word", rounds=2, watch="Bran")
    return t, t.last()


def a_marker_on_an_npc_until_removed() -> Scene:
    t = table("Bran", "Ogre")
    t.mark("Ogre", "hidden")
    return t, t.last()


def an_npc_joins() -> Scene:
    t = table("Bran", "Ogre")
    t.join("Goblin 3", "foes", 2)
    return t, t.last()


def an_npc_joins_the_turn_order() -> Scene:
    t = table("Bran", "Ogre")
    t.app.set_turn_order(SetTurnOrder(t.campaign, t.eid, (t.ids["Ogre"], t.ids["Bran"])))
    t.join("Goblin 3", "foes")
    return t, t.last()


def an_npc_joins_a_rolled_order() -> Scene:
    """Goblin 3 rolls on joining: the server rolls (a 7), no dice reach a join."""
    rolled = {"mode": "roll", "dice": "1d20", "add": "dodge"}
    t = table("Bran", "Ogre", initiative=rolled, roller=Sevens())
    t.initiative({"Bran": [9], "Ogre": [12]})
    t.join("Goblin 3", "foes")
    return t, t.last()


def an_npc_moves_back() -> Scene:
    t = table("Bran", "Ogre")
    t.move("Ogre", 3)
    return t, t.last()


def an_npc_leaves() -> Scene:
    t = table("Bran", "Ogre")
    t.leave("Ogre")
    return t, t.last()


def the_gm_amends_an_npcs_sheet() -> Scene:
    t = table("Bran", "Ogre")
    t.amend("Ogre", parry=12, body_max=25)
    return t, t.last()


def the_gm_adjusts_an_npcs_tracks() -> Scene:
    t = table("Bran", "Ogre")
    t.adjust("Ogre", stamina=-9, body=-2)
    return t, t.last()


SCENES = [
    an_npc_recovers,
    the_gm_marks_an_npcs_wound,
    a_pc_treats_an_npcs_wound,
    a_pc_stabilises_an_npc,
    an_npc_bleeds,
    an_npc_and_a_pc_bleed,
    a_marker_on_an_npc,
    a_marker_on_an_npc_until_removed,
    an_npc_joins,
    an_npc_joins_the_turn_order,
    an_npc_joins_a_rolled_order,
    an_npc_moves_back,
    an_npc_leaves,
    the_gm_amends_an_npcs_sheet,
    the_gm_adjusts_an_npcs_tracks,
]


def a_pc_recovers_to_the_maximum() -> Scene:
    """Bran takes one impact die of 4 (3 Stamina), then rolls 1 2 3 against CON: +6, of
    which only 3 fit under his maximum."""
    t = table("Bran", "Ogre")
    t.act("take_hit", None, {"damage": [4]}, target="Bran", damage_type="impact",
          damage_class=1)  # fmt: skip
    return t, t.act("recover", "Bran", {"recovery": [1, 2, 3]})


def a_pc_rolls_a_natural_18_to_recover() -> Scene:
    t = table("Bran", "Ogre")
    t.act("take_hit", None, {"damage": [4]}, target="Bran", damage_type="impact",
          damage_class=1)  # fmt: skip
    return t, t.act("recover", "Bran", {"recovery": [6, 6, 6]})
