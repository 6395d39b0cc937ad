"""Stamina-body's recovery, wounds, stabilising and bleeding, and the table's and the
GM's records on an NPC (a marker, a join, a move, a leave, a sheet amended, tracks
adjusted), as the GM, a player and a viewer read them (RULINGS T3a; the records:
tests/unit/scenes_stamina_body.py).

The GM reads what the rules, the table and domain/reading/narrators.py wrote, byte for byte as
before these kinds were built from parts. A player and a viewer read them as the GM does
(names, markers and their durations, sides and ranks are public) but for an NPC's
numbers: the Stamina it recovers, the Body it bleeds, its tracks set by the GM (its
descriptor instead). Before, every one of them read as its outcome ('the GM mark: Ogre').
"""

from __future__ import annotations

from collections.abc import Callable

from skald_campaign.domain.records import JSON
from tests.unit import scenes_stamina_body as scenes
from tests.unit.told_support import Read, Table


def told(scene: Callable[[], tuple[Table, dict[str, JSON]]]) -> tuple[Read, Read]:
    table, record = scene()
    return table.told(record)


def test_an_npc_recovers() -> None:
    """S7 as it went, where the plain lines said 'recovery: 3d6 rolled 1, 2, 3 = 6' and
    nothing of CON, the margin or where the gain came from; the Ogre's CON, margin and
    Stamina stay the GM's."""
    gm, others = told(scenes.an_npc_recovers)
    assert gm == (
        "Ogre recovers 5 Stamina",
        [
            "Ogre's recovery: 3d6 rolled 6 against CON 11: success, margin 5",
            "Success by 5: +max(1, 5)",
            "Ogre: Stamina 13 -> 18",
        ],
    )
    assert others == ("Ogre recovers Stamina", ["Ogre's recovery: 3d6 rolled 6: success"])


def test_a_pc_recovers_to_the_maximum() -> None:
    gm, others = told(scenes.a_pc_recovers_to_the_maximum)
    assert gm == (
        "Bran recovers 3 Stamina",
        [
            "Bran's recovery: 3d6 rolled 6 against CON 12: success, margin 6",
            "Success by 6: +max(1, 6)",
            "Bran: Stamina 9 -> 12 (never past the maximum, 12)",
        ],
    )
    assert others == gm


def test_a_pc_rolls_a_natural_18_to_recover() -> None:
    gm, others = told(scenes.a_pc_rolls_a_natural_18_to_recover)
    assert gm == (
        "Bran recovers 0 Stamina",
        [
            "Bran's recovery: 3d6 rolled 18 against CON 12: failure, margin -6",
            "Natural 18: nothing, the moment is wasted",
            "Bran: Stamina 9 -> 9",
        ],
    )
    assert others == gm


def test_the_gm_marks_an_npcs_wound() -> None:
    gm, others = told(scenes.the_gm_marks_an_npcs_wound)
    assert gm == (
        "Ogre now has broken bones",
        [
            "Ogre now has broken bones",
            "Ogre gains: broken bones",
        ],
    )
    assert others == gm


def test_a_pc_treats_an_npcs_wound() -> None:
    gm, others = told(scenes.a_pc_treats_an_npcs_wound)
    assert gm == (
        "Ogre's piercing wound is treated",
        [
            "Ogre's piercing wound is treated",
            "Ogre loses: piercing wound",
        ],
    )
    assert others == gm


def test_a_pc_stabilises_an_npc() -> None:
    gm, others = told(scenes.a_pc_stabilises_an_npc)
    assert gm == (
        "Bran stabilises Ogre; Ogre gains: stabilised",
        [
            "Bran stabilises Ogre; Ogre gains: stabilised",
            "Ogre gains: stabilised",
        ],
    )
    assert others == gm


def test_an_npc_bleeds() -> None:
    gm, others = told(scenes.an_npc_bleeds)
    assert gm == (
        "Ogre bleeds 1 Body",
        [
            "Ogre bleeds 1 Body",
        ],
    )
    assert others == (
        "Ogre bleeds",
        [
            "Ogre bleeds",
        ],
    )


def test_an_npc_and_a_pc_bleed() -> None:
    gm, others = told(scenes.an_npc_and_a_pc_bleed)
    assert gm == (
        "Bran, Ogre bleed 1 Body",
        [
            "Bran, Ogre bleed 1 Body",
        ],
    )
    assert others == (
        "Bran, Ogre bleed",
        [
            "Bran, Ogre bleed",
        ],
    )


def test_a_marker_on_an_npc() -> None:
    gm, others = told(scenes.a_marker_on_an_npc)
    assert gm == (
        "Ogre: blessed (2 rounds, to the end of Bran's turn): the priest's word",
        [
            "Ogre: blessed (2 rounds, to the end of Bran's turn): the priest's word",
        ],
    )
    assert others == gm


def test_a_marker_on_an_npc_until_removed() -> None:
    gm, others = told(scenes.a_marker_on_an_npc_until_removed)
    assert gm == (
        "Ogre: hidden (until removed)",
        [
            "Ogre: hidden (until removed)",
        ],
    )
    assert others == gm


def test_an_npc_joins() -> None:
    gm, others = told(scenes.an_npc_joins)
    assert gm == (
        "Goblin 3 joins the fight (foes, rank 2)",
        [
            "Goblin 3 joins the fight (foes, rank 2)",
        ],
    )
    assert others == gm


def test_an_npc_joins_the_turn_order() -> None:
    gm, others = told(scenes.an_npc_joins_the_turn_order)
    assert gm == (
        "Goblin 3 joins the turn order, last",
        [
            "Goblin 3 joins the turn order, last",
        ],
    )
    assert others == gm


def test_an_npc_joins_a_rolled_order() -> None:
    gm, others = told(scenes.an_npc_joins_a_rolled_order)
    assert gm == (
        "Initiative (1d20 + dodge): Goblin 3 14",
        [
            "initiative.Goblin 3: 1d20 rolled 7 = 7",
            "Initiative (1d20 + dodge): Goblin 3 14",
        ],
    )
    assert others == (
        "Initiative (1d20 + dodge): Goblin 3",
        [
            "initiative.Goblin 3: 1d20 rolled 7 = 7",
            "Initiative (1d20 + dodge): Goblin 3",
        ],
    )


def test_an_npc_moves_back() -> None:
    gm, others = told(scenes.an_npc_moves_back)
    assert gm == (
        "Ogre moves from rank 1 to rank 3",
        [
            "Ogre moves from rank 1 to rank 3",
        ],
    )
    assert others == gm


def test_an_npc_leaves() -> None:
    gm, others = told(scenes.an_npc_leaves)
    assert gm == (
        "Ogre leaves the fight",
        [
            "Ogre leaves the fight",
        ],
    )
    assert others == gm


def test_the_gm_amends_an_npcs_sheet() -> None:
    gm, others = told(scenes.the_gm_amends_an_npcs_sheet)
    assert gm == (
        "Ogre's sheet amended: body_max, parry",
        [
            "Ogre's sheet amended: body_max, parry",
        ],
    )
    assert others == gm


def test_the_gm_adjusts_an_npcs_tracks() -> None:
    gm, others = told(scenes.the_gm_adjusts_an_npcs_tracks)
    assert gm == (
        "Ogre: body 21→19, stamina 23→14",
        [
            "Ogre: body 21→19, stamina 23→14",
        ],
    )
    assert others == (
        "Ogre: hurt",
        [
            "Ogre: hurt",
        ],
    )
