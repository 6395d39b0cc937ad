"""Margin's postures and its attacks with a Dwarf's Ward or an Elf's Riposte in them, as
the GM, a player and a viewer read them (RULINGS T3a; the records: tests/unit/scenes_margin.py).

The GM reads what domain/reading/narrators.py and the rules wrote, byte for byte as before these
kinds were built from parts; an answered Riposte reads as every other attack, its
counter's damage included, and so does a blow on an ally whom a Ward does not cover
(where the dwarf stands, and that his Ward does nothing). A player and
a viewer read the same parts without an NPC's sheet values, weapon damage, armor, health or
effort: the dice, their successes, the margin, a Ward's sums and the outcome words stay,
and a PC's numbers.
"""

from __future__ import annotations

from collections.abc import Callable

from skald_campaign.domain.records import JSON
from tests.unit import scenes_margin as scenes
from tests.unit.told_support import Read, Table


def told(scene: Callable[[], tuple[Table, dict[str, JSON]]]) -> tuple[Read, Read]:
    table, record = scene()
    return table.told(record)


def test_ward_by_an_npc() -> None:
    gm, others = told(scenes.ward_by_an_npc)
    assert gm == (
        "Thrain takes up Ward for round 1 with 1 effort dice",
        [
            "Thrain takes up Ward for round 1 with 1 effort dice",
        ],
    )
    assert others == (
        "Thrain takes up Ward for round 1",
        [
            "Thrain takes up Ward for round 1",
        ],
    )


def test_a_ward_declared_from_behind_covers_nobody() -> None:
    """Seed 000: a Dwarf "can only cover people at his own rank or behind him — never
    someone standing further forward". Thrain wards from rank 2, both his allies at rank
    1: the declaration said only 'Thrain takes up Ward for round 1', as if it covered
    them. It tells that it covers nobody now (its record's `covers` is empty), every
    reader alike; his effort stays the GM's."""
    gm, others = told(scenes.a_ward_declared_from_behind_covers_nobody)
    ward = (
        "Ward: Thrain covers nobody now: a Ward covers allies at the dwarf's own rank or "
        "behind him, never one further forward, and no ally of his stands there"
    )
    assert gm == (
        "Thrain takes up Ward for round 1 with 1 effort dice",
        ["Thrain takes up Ward for round 1 with 1 effort dice", ward],
    )
    assert others == (
        "Thrain takes up Ward for round 1",
        ["Thrain takes up Ward for round 1", ward],
    )


def test_a_ward_that_covers_nobody_records_what_stored_wards_hold() -> None:
    """Its narrative reads the record's empty ``covers``; nothing new is recorded. A
    correction resolves each later record again and compares its breakdown with the
    stored one (domain/play/corrections.py): a key the stored Ward declarations lack
    would report every one of them that covers nobody as changed, an "X -> X" line."""
    for scene in (
        scenes.a_ward_declared_from_behind_covers_nobody,
        scenes.a_pc_dwarf_with_no_ally_wards,
    ):
        _, record = scene()
        breakdown = record["breakdown"]
        assert isinstance(breakdown, dict)
        assert sorted(breakdown) == [
            "actor",
            "covers",
            "defense_pools",
            "effort",
            "exhaustion_dice",
            "kind",
            "lasts",
            "posture",
            "what_it_does",
        ]
        assert breakdown["covers"] == []


def test_a_pc_dwarf_with_no_ally_wards() -> None:
    gm, others = told(scenes.a_pc_dwarf_with_no_ally_wards)
    said = (
        "Gimli takes up Ward for round 1",
        [
            "Gimli takes up Ward for round 1",
            "Ward: Gimli covers nobody now: a Ward covers allies at the dwarf's own rank or "
            "behind him, never one further forward, and no ally of his stands there",
        ],
    )
    assert gm == said
    assert others == said


def test_riposte_by_an_npc() -> None:
    gm, others = told(scenes.riposte_by_an_npc)
    assert gm == (
        "Sylvan takes up Riposte for round 1",
        [
            "Sylvan takes up Riposte for round 1",
        ],
    )
    assert others == gm


def test_defend_by_an_npc() -> None:
    gm, others = told(scenes.defend_by_an_npc)
    assert gm == (
        "Goblin 2 takes up Defend for round 1 with 2 effort dice",
        [
            "Goblin 2 takes up Defend for round 1 with 2 effort dice",
        ],
    )
    assert others == (
        "Goblin 2 takes up Defend for round 1",
        [
            "Goblin 2 takes up Defend for round 1",
        ],
    )


def test_an_npc_dwarf_takes_a_pcs_blow() -> None:
    gm, others = told(scenes.an_npc_dwarf_takes_a_pcs_blow)
    assert gm == (
        (
            "Bran attacks with sword at Goblin 2: 4 against 0, margin 4; Thrain intercepts, Thrain "
            "takes 3 (health 16 -> 13)"
        ),
        [
            "sword (melee) reaches 1; distance 1",
            (
                "Bran's attack with sword: Might 3 + Melee 2 = 5 dice; rolled 6, 6, 6, 6, 1: 4 "
                "successes"
            ),
            (
                "Goblin 2 holds no posture this round and defends passively: the bare attribute "
                "for every defense"
            ),
            "Goblin 2's evasion (passive): Grace 2 = 2 dice; rolled 2, 3: 0 successes",
            "Goblin 2's guard (passive): Vigor 2 = 2 dice; rolled 2, 3: 0 successes",
            "Margin: 4 - (0 + 0) = 4",
            (
                "Thrain intercepts with every defense the attack allows, actively; a total below "
                "nothing counts as 0"
            ),
            (
                "Thrain's evasion (active): Grace 1 + Evasion 1 + Effort 1 = 3 dice; rolled 1, 1, "
                "1: no 5 or 6 and every die a 1: below nothing, -1"
            ),
            "Evasion counts as 0",
            (
                "Thrain's guard (active): Vigor 3 + Guard 3 + Effort 1 = 7 dice; rolled 6, 2, 2, "
                "2, 2, 2, 2: 1 success"
            ),
            "Ward: 4 - 1 = 3; Thrain takes the blow",
            "Damage: 2 + 1 x 3 = 5 slash",
            "Armor 4: x 6561/10000 (0.66) = 6561/2000 (3.28)",
            "Rounded half up, once: 6561/2000 (3.28) -> 3",
            "Thrain: health 16 -> 13",
        ],
    )
    assert others == (
        (
            "Bran attacks with sword at Goblin 2: 4 against 0, margin 4; Thrain intercepts, Thrain "
            "is hurt"
        ),
        [
            "sword (melee) reaches 1; distance 1",
            (
                "Bran's attack with sword: Might 3 + Melee 2 = 5 dice; rolled 6, 6, 6, 6, 1: 4 "
                "successes"
            ),
            "Goblin 2's evasion (passive): 2 dice; rolled 2, 3: 0 successes",
            "Goblin 2's guard (passive): 2 dice; rolled 2, 3: 0 successes",
            "Margin: 4 - (0 + 0) = 4",
            (
                "Thrain intercepts with every defense the attack allows, actively; a total below "
                "nothing counts as 0"
            ),
            (
                "Thrain's evasion (active): 3 dice; rolled 1, 1, 1: no 5 or 6 and every die a 1: "
                "below nothing, -1"
            ),
            "Evasion counts as 0",
            "Thrain's guard (active): 7 dice; rolled 6, 2, 2, 2, 2, 2, 2: 1 success",
            "Ward: 4 - 1 = 3; Thrain takes the blow",
            "Damage: 2 + 1 x 3 = 5 slash",
            "Thrain: hurt",
        ],
    )


def test_an_npc_dwarf_stops_a_pcs_blow() -> None:
    gm, others = told(scenes.an_npc_dwarf_stops_a_pcs_blow)
    assert gm == (
        (
            "Bran attacks with sword at Goblin 2: 4 against 0, margin 4; Thrain intercepts and "
            "stops the blow dead"
        ),
        [
            "sword (melee) reaches 1; distance 1",
            (
                "Bran's attack with sword: Might 3 + Melee 2 = 5 dice; rolled 6, 6, 6, 6, 1: 4 "
                "successes"
            ),
            (
                "Goblin 2 holds no posture this round and defends passively: the bare attribute "
                "for every defense"
            ),
            "Goblin 2's evasion (passive): Grace 2 = 2 dice; rolled 2, 3: 0 successes",
            "Goblin 2's guard (passive): Vigor 2 = 2 dice; rolled 2, 3: 0 successes",
            "Margin: 4 - (0 + 0) = 4",
            (
                "Thrain intercepts with every defense the attack allows, actively; a total below "
                "nothing counts as 0"
            ),
            (
                "Thrain's evasion (active): Grace 1 + Evasion 1 + Effort 1 = 3 dice; rolled 6, 6, "
                "2: 2 successes"
            ),
            (
                "Thrain's guard (active): Vigor 3 + Guard 3 + Effort 1 = 7 dice; rolled 6, 6, 2, "
                "2, 2, 2, 2: 2 successes"
            ),
            "Ward: 4 - 4 = 0; the blow is stopped",
        ],
    )
    assert others == (
        (
            "Bran attacks with sword at Goblin 2: 4 against 0, margin 4; Thrain intercepts and "
            "stops the blow dead"
        ),
        [
            "sword (melee) reaches 1; distance 1",
            (
                "Bran's attack with sword: Might 3 + Melee 2 = 5 dice; rolled 6, 6, 6, 6, 1: 4 "
                "successes"
            ),
            "Goblin 2's evasion (passive): 2 dice; rolled 2, 3: 0 successes",
            "Goblin 2's guard (passive): 2 dice; rolled 2, 3: 0 successes",
            "Margin: 4 - (0 + 0) = 4",
            (
                "Thrain intercepts with every defense the attack allows, actively; a total below "
                "nothing counts as 0"
            ),
            "Thrain's evasion (active): 3 dice; rolled 6, 6, 2: 2 successes",
            "Thrain's guard (active): 7 dice; rolled 6, 6, 2, 2, 2, 2, 2: 2 successes",
            "Ward: 4 - 4 = 0; the blow is stopped",
        ],
    )


def test_a_pc_dwarf_takes_an_npcs_blow() -> None:
    gm, others = told(scenes.a_pc_dwarf_takes_an_npcs_blow)
    assert gm == (
        (
            "Goblin 2 attacks with sword at Lia: 3 against 0, margin 3; Gimli intercepts, Gimli "
            "takes 3 (health 16 -> 13)"
        ),
        [
            "sword (melee) reaches 1; distance 1",
            "Goblin 2's attack with sword: Might 2 + Melee 1 = 3 dice; rolled 6, 6, 6: 3 successes",
            (
                "Lia holds no posture this round and defends passively: the bare attribute for "
                "every defense"
            ),
            "Lia's evasion (passive): Grace 3 = 3 dice; rolled 2, 2, 2: 0 successes",
            "Lia's guard (passive): Vigor 1 = 1 die; rolled 2: 0 successes",
            "Margin: 3 - (0 + 0) = 3",
            (
                "Gimli intercepts with every defense the attack allows, actively; a total below "
                "nothing counts as 0"
            ),
            "Gimli's evasion (active): Grace 1 + Evasion 1 = 2 dice; rolled 2, 2: 0 successes",
            (
                "Gimli's guard (active): Vigor 3 + Guard 3 = 6 dice; rolled 6, 2, 2, 2, 2, 2: 1 "
                "success"
            ),
            "Ward: 3 - 1 = 2; Gimli takes the blow",
            "Damage: 2 + 1 x 2 = 4 slash",
            "Armor 4: x 6561/10000 (0.66) = 6561/2500 (2.62)",
            "Rounded half up, once: 6561/2500 (2.62) -> 3",
            "Gimli: health 16 -> 13",
        ],
    )
    assert others == (
        (
            "Goblin 2 attacks with sword at Lia: 3 against 0, margin 3; Gimli intercepts, Gimli "
            "takes 3 (health 16 -> 13)"
        ),
        [
            "sword (melee) reaches 1; distance 1",
            "Goblin 2's attack with sword: 3 dice; rolled 6, 6, 6: 3 successes",
            (
                "Lia holds no posture this round and defends passively: the bare attribute for "
                "every defense"
            ),
            "Lia's evasion (passive): Grace 3 = 3 dice; rolled 2, 2, 2: 0 successes",
            "Lia's guard (passive): Vigor 1 = 1 die; rolled 2: 0 successes",
            "Margin: 3 - (0 + 0) = 3",
            (
                "Gimli intercepts with every defense the attack allows, actively; a total below "
                "nothing counts as 0"
            ),
            "Gimli's evasion (active): Grace 1 + Evasion 1 = 2 dice; rolled 2, 2: 0 successes",
            (
                "Gimli's guard (active): Vigor 3 + Guard 3 = 6 dice; rolled 6, 2, 2, 2, 2, 2: 1 "
                "success"
            ),
            "Ward: 3 - 1 = 2; Gimli takes the blow",
            "Damage: slash",
            "Gimli: health 16 -> 13",
        ],
    )


def test_an_npc_dwarf_stops_a_blow_between_pcs() -> None:
    gm, others = told(scenes.an_npc_dwarf_stops_a_blow_between_pcs)
    assert gm == (
        (
            "Bran attacks with sword at Lia: 3 against 0, margin 3; Thrain intercepts and stops "
            "the blow dead"
        ),
        [
            "sword (melee) reaches 1; distance 1",
            (
                "Bran's attack with sword: Might 3 + Melee 2 = 5 dice; rolled 6, 6, 6, 1, 1: 3 "
                "successes"
            ),
            (
                "Lia holds no posture this round and defends passively: the bare attribute for "
                "every defense"
            ),
            "Lia's evasion (passive): Grace 3 = 3 dice; rolled 2, 2, 2: 0 successes",
            "Lia's guard (passive): Vigor 1 = 1 die; rolled 2: 0 successes",
            "Margin: 3 - (0 + 0) = 3",
            (
                "Thrain intercepts with every defense the attack allows, actively; a total below "
                "nothing counts as 0"
            ),
            "Thrain's evasion (active): Grace 1 + Evasion 1 = 2 dice; rolled 2, 2: 0 successes",
            (
                "Thrain's guard (active): Vigor 3 + Guard 3 = 6 dice; rolled 6, 6, 6, 2, 2, 2: 3 "
                "successes"
            ),
            "Ward: 3 - 3 = 0; the blow is stopped",
        ],
    )
    assert others == (
        (
            "Bran attacks with sword at Lia: 3 against 0, margin 3; Thrain intercepts and stops "
            "the blow dead"
        ),
        [
            "sword (melee) reaches 1; distance 1",
            (
                "Bran's attack with sword: Might 3 + Melee 2 = 5 dice; rolled 6, 6, 6, 1, 1: 3 "
                "successes"
            ),
            (
                "Lia holds no posture this round and defends passively: the bare attribute for "
                "every defense"
            ),
            "Lia's evasion (passive): Grace 3 = 3 dice; rolled 2, 2, 2: 0 successes",
            "Lia's guard (passive): Vigor 1 = 1 die; rolled 2: 0 successes",
            "Margin: 3 - (0 + 0) = 3",
            (
                "Thrain intercepts with every defense the attack allows, actively; a total below "
                "nothing counts as 0"
            ),
            "Thrain's evasion (active): 2 dice; rolled 2, 2: 0 successes",
            "Thrain's guard (active): 6 dice; rolled 6, 6, 6, 2, 2, 2: 3 successes",
            "Ward: 3 - 3 = 0; the blow is stopped",
        ],
    )


def test_a_ward_from_behind_covers_nobody() -> None:
    """Seed 000: a Dwarf "can only cover people at his own rank or behind him — never
    someone standing further forward". The blow reads as every other: the pools, the
    margin, where the dwarf stands and that his Ward does nothing, the damage. It had
    read as the plain lines, 'attack: 5d6 rolled 6, 6, 1, 1, 1 = 15', a sum of faces seed
    000 never adds up: the narrator read the Ward considered as one that intercepted.
    Ranks are where the table stands, every reader's; the Goblin's numbers the GM's."""
    gm, others = told(scenes.a_ward_from_behind_covers_nobody)
    attack = (
        "Bran's attack with sword: Might 3 + Melee 2 = 5 dice; rolled 6, 6, 1, 1, 1: 2 successes"
    )
    ward = (
        "Ward: Thrain stands at rank 2, behind Goblin 2 at rank 1; a Ward covers allies at the "
        "dwarf's own rank or behind him, never one further forward: it does nothing against "
        "this blow"
    )
    assert gm == (
        (
            "Bran attacks with sword at Goblin 2: 2 against 0, margin 2; Goblin 2 takes 4 (health "
            "20 -> 16)"
        ),
        [
            "sword (melee) reaches 1; distance 1",
            attack,
            (
                "Goblin 2 holds no posture this round and defends passively: the bare attribute "
                "for every defense"
            ),
            "Goblin 2's evasion (passive): Grace 2 = 2 dice; rolled 2, 3: 0 successes",
            "Goblin 2's guard (passive): Vigor 2 = 2 dice; rolled 2, 3: 0 successes",
            "Margin: 2 - (0 + 0) = 2",
            ward,
            "Damage: 2 + 1 x 2 = 4 slash",
            "Rounded half up, once: 4 -> 4",
            "Goblin 2: health 20 -> 16",
        ],
    )
    assert others == (
        "Bran attacks with sword at Goblin 2: 2 against 0, margin 2; Goblin 2 is hurt",
        [
            "sword (melee) reaches 1; distance 1",
            attack,
            "Goblin 2's evasion (passive): 2 dice; rolled 2, 3: 0 successes",
            "Goblin 2's guard (passive): 2 dice; rolled 2, 3: 0 successes",
            "Margin: 2 - (0 + 0) = 2",
            ward,
            "Damage: 2 + 1 x 2 = 4 slash",
            "Goblin 2: hurt",
        ],
    )


def test_an_npc_elf_answers_a_pc() -> None:
    """An answered Riposte reads as every other attack: the pools, the margin, whether
    and how she answers, and her counter's damage through the attacker's nature, armor
    and health. It had read as the plain lines, 'attack: 3d6 rolled 6, 1, 1 = 8', a sum
    of faces seed 000 never adds up, under the rolls' inner names ('defense.Sylvan.evasion'):
    the counter's damage is recorded with whom it hurt beside it, not in it."""
    gm, others = told(scenes.an_npc_elf_answers_a_pc)
    said = (
        "Lia attacks with sword at Sylvan: 1 against 3, margin -2; turned; Sylvan counters "
        "with sword: Lia takes 4"
    )
    assert gm == (
        said,
        [
            "sword (melee) reaches 1; distance 1",
            "Lia's attack with sword: Might 2 + Melee 1 = 3 dice; rolled 6, 1, 1: 1 success",
            (
                "Sylvan is in Riposte: evasion active and sharpened, every other defense at the "
                "bare passive floor"
            ),
            (
                "Sylvan's evasion (active): Grace 3 + Evasion 2 + Riposte_Sharpening 1 = 6 dice; "
                "rolled 6, 6, 6, 1, 1, 1: 3 successes"
            ),
            "Sylvan's guard (passive): Vigor 1 = 1 die; rolled 2: 0 successes",
            "Margin: 1 - (3 + 0) = -2",
            "A margin of 0 or less: nothing happens, no damage of any kind",
            "Riposte: Sylvan turned the blow by 2 and answers with sword at distance 1",
            "Damage: 2 + 1 x 2 = 4 slash",
            "Rounded half up, once: 4 -> 4",
            "Lia: health 12 -> 8",
        ],
    )
    # Sylvan's sheet values, her posture's words and her sword's damage are the GM's;
    # the dice, the margin, her answer and Lia's health (a PC's) are everyone's.
    assert others == (
        said,
        [
            "sword (melee) reaches 1; distance 1",
            "Lia's attack with sword: Might 2 + Melee 1 = 3 dice; rolled 6, 1, 1: 1 success",
            "Sylvan's evasion (active): 6 dice; rolled 6, 6, 6, 1, 1, 1: 3 successes",
            "Sylvan's guard (passive): 1 die; rolled 2: 0 successes",
            "Margin: 1 - (3 + 0) = -2",
            "A margin of 0 or less: nothing happens, no damage of any kind",
            "Riposte: Sylvan turned the blow by 2 and answers with sword at distance 1",
            "Damage: slash",
            "Lia: health 12 -> 8",
        ],
    )


def test_a_pc_elf_answers_an_npc() -> None:
    gm, others = told(scenes.a_pc_elf_answers_an_npc)
    assert gm == (
        (
            "Goblin 2 attacks with sword at Lia: 1 against 3, margin -2; turned; Lia counters with "
            "sword: Goblin 2 takes 4"
        ),
        [
            "sword (melee) reaches 1; distance 1",
            "Goblin 2's attack with sword: Might 2 + Melee 1 = 3 dice; rolled 6, 1, 1: 1 success",
            (
                "Lia is in Riposte: evasion active and sharpened, every other defense at the bare "
                "passive floor"
            ),
            (
                "Lia's evasion (active): Grace 3 + Evasion 2 + Riposte_Sharpening 1 = 6 dice; "
                "rolled 6, 6, 6, 1, 1, 1: 3 successes"
            ),
            "Lia's guard (passive): Vigor 1 = 1 die; rolled 2: 0 successes",
            "Margin: 1 - (3 + 0) = -2",
            "A margin of 0 or less: nothing happens, no damage of any kind",
            "Riposte: Lia turned the blow by 2 and answers with sword at distance 1",
            "Damage: 2 + 1 x 2 = 4 slash",
            "Rounded half up, once: 4 -> 4",
            "Goblin 2: health 20 -> 16",
        ],
    )
    # Lia's sword is hers to read; Goblin 2's sheet values, the rounding through its
    # nature and armor and its health (its descriptor instead) are the GM's.
    assert others == (
        (
            "Goblin 2 attacks with sword at Lia: 1 against 3, margin -2; turned; Lia counters with "
            "sword: Goblin 2 is hurt"
        ),
        [
            "sword (melee) reaches 1; distance 1",
            "Goblin 2's attack with sword: 3 dice; rolled 6, 1, 1: 1 success",
            (
                "Lia is in Riposte: evasion active and sharpened, every other defense at the bare "
                "passive floor"
            ),
            (
                "Lia's evasion (active): Grace 3 + Evasion 2 + Riposte_Sharpening 1 = 6 dice; "
                "rolled 6, 6, 6, 1, 1, 1: 3 successes"
            ),
            "Lia's guard (passive): Vigor 1 = 1 die; rolled 2: 0 successes",
            "Margin: 1 - (3 + 0) = -2",
            "A margin of 0 or less: nothing happens, no damage of any kind",
            "Riposte: Lia turned the blow by 2 and answers with sword at distance 1",
            "Damage: 2 + 1 x 2 = 4 slash",
            "Goblin 2: hurt",
        ],
    )


def test_a_shot_at_a_riposting_elf_is_not_answered() -> None:
    gm, others = told(scenes.a_shot_at_a_riposting_elf_is_not_answered)
    assert gm == (
        (
            "Archer attacks with bow at Lia: 1 against 2, margin -1; turned; no counter: bow is a "
            "ranged weapon: a shot is evaded and that is the end of it, however close the archer "
            "stands"
        ),
        [
            "bow is ranged and reaches any distance",
            (
                "Archer's attack with bow: Grace 2 + Marksmanship 1 = 3 dice; rolled 6, 1, 1: 1 "
                "success"
            ),
            (
                "Lia is in Riposte: evasion active and sharpened, every other defense at the bare "
                "passive floor"
            ),
            (
                "Lia's evasion (active): Grace 3 + Evasion 2 + Riposte_Sharpening 1 = 6 dice; "
                "rolled 6, 6, 1, 1, 1, 1: 2 successes"
            ),
            "Lia's guard (passive): Vigor 1 = 1 die; rolled 2: 0 successes",
            "Margin: 1 - (2 + 0) = -1",
            "A margin of 0 or less: nothing happens, no damage of any kind",
            (
                "Riposte: bow is a ranged weapon: a shot is evaded and that is the end of it, "
                "however close the archer stands"
            ),
        ],
    )
    assert others == (
        (
            "Archer attacks with bow at Lia: 1 against 2, margin -1; turned; no counter: bow is a "
            "ranged weapon: a shot is evaded and that is the end of it, however close the archer "
            "stands"
        ),
        [
            "bow is ranged and reaches any distance",
            "Archer's attack with bow: 3 dice; rolled 6, 1, 1: 1 success",
            (
                "Lia is in Riposte: evasion active and sharpened, every other defense at the bare "
                "passive floor"
            ),
            (
                "Lia's evasion (active): Grace 3 + Evasion 2 + Riposte_Sharpening 1 = 6 dice; "
                "rolled 6, 6, 1, 1, 1, 1: 2 successes"
            ),
            "Lia's guard (passive): Vigor 1 = 1 die; rolled 2: 0 successes",
            "Margin: 1 - (2 + 0) = -1",
            "A margin of 0 or less: nothing happens, no damage of any kind",
            (
                "Riposte: bow is a ranged weapon: a shot is evaded and that is the end of it, "
                "however close the archer stands"
            ),
        ],
    )
