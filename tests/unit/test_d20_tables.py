"""Every row of every table of seed 004 (and the D1 ability table), as printed."""

from __future__ import annotations

import pytest

from skald_campaign.domain.rulesets.d20.tables import (
    ABILITY_MODIFIER_BANDS,
    ARMOR,
    ARMOR_WITHOUT_WRESTLING_ROW,
    ARMOR_WRESTLING,
    BASE_AC,
    BASE_FD,
    BASE_INSIGHT_DEFENSE,
    DIFFICULT_TERRAIN_RESIST_BONUS,
    FR_POINTS_PER_SHOVE_DIE_STEP,
    FR_POINTS_PER_WALL_DIE,
    GUARANTEED_PENETRATION,
    HIGHER_GROUND_SHOVE_DIE_STEPS,
    SHIELDS,
    SHOVE_DIE_LADDER,
    SIZE_ORDER,
    SIZE_PENALTY_PER_CATEGORY,
    SIZES,
    SLIPPERY_EXTRA_FEET,
    TERRAIN_TABLE,
    UPHILL_RESIST_BONUS,
    Die,
    ability_modifier,
)

# | Armor Type | AV | AV vs. Missiles | Cost (sp) | Encumbrance (cn) |
ARMOR_VALUE_TABLE = [
    ("leather", "Leather", 2, 1, 20, 200),
    ("thyatian_leather", "Thyatian Leather (Cuir Bouilli)", 3, 1, 200, 250),
    ("scale", "Scale", 3, 1, 30, 300),
    ("chain_mail", "Chain Mail", 4, 2, 40, 400),
    ("banded", "Banded", 5, 2, 50, 450),
    ("plate_mail", "Plate Mail", 6, 3, 60, 500),
    ("suit_armor", "Suit Armor", 7, 3, 250, 750),
    ("elven_chain", "Elven Chain", 4, 4, 400, 200),
    ("dwarven_plate", "Dwarven Plate", 7, 4, 600, 600),
]


@pytest.mark.parametrize(("armor", "name", "av", "missiles", "cost", "cn"), ARMOR_VALUE_TABLE)
def test_armor_type_and_armor_value_table_row(
    armor: str, name: str, av: int, missiles: int, cost: int, cn: int
) -> None:
    row = ARMOR[armor]
    assert (row.name, row.av, row.av_vs_missiles, row.cost_sp, row.encumbrance_cn) == (
        name,
        av,
        missiles,
        cost,
        cn,
    )


def test_the_armor_tables_know_exactly_the_nine_armors_and_wearing_none() -> None:
    assert set(ARMOR) == {row[0] for row in ARMOR_VALUE_TABLE} | {"none"}
    none = ARMOR["none"]
    assert (none.av, none.av_vs_missiles, none.fd_bonus) == (0, 0, 0)


def test_elven_chain_stops_missiles_as_well_as_blows() -> None:
    assert ARMOR["elven_chain"].av_vs_missiles == ARMOR["elven_chain"].av == 4


# | Armor Type | FD Bonus |  (the "Shield (any) | +2" row is checked with the shields)
@pytest.mark.parametrize(
    ("armor", "fd_bonus"),
    [
        ("none", 0),
        ("leather", 1),
        ("thyatian_leather", 1),
        ("scale", 1),
        ("chain_mail", 2),
        ("banded", 2),
        ("plate_mail", 4),
        ("suit_armor", 4),
        ("elven_chain", 2),
        ("dwarven_plate", 5),
    ],
)
def test_armor_fd_bonus_table_row(armor: str, fd_bonus: int) -> None:
    assert ARMOR[armor].fd_bonus == fd_bonus


# | Armor Type | FR Penalty (Wrestling) |
@pytest.mark.parametrize(
    ("armor", "penalty", "printed", "note", "escape", "maintain", "immovable"),
    [
        ("none", 0, "+0", "Slippery: +2 to Escape rolls", 2, 0, False),
        ("leather", 0, "+0", "Supple: No penalties", 0, 0, False),
        ("thyatian_leather", 0, "+0", "Supple: No penalties", 0, 0, False),
        ("scale", 0, "-0", None, 0, 0, False),
        ("chain_mail", -1, "-1", "Mesh Grip: +1 to Maintain holds", 0, 1, False),
        ("banded", -2, "-2", None, 0, 0, False),
        ("plate_mail", -3, "-3", "Immovable: Cannot be Thrown by same-size foes", 0, 0, True),
        ("suit_armor", -4, "-4", None, 0, 0, False),
    ],
)
def test_armor_wrestling_penalties_table_row(
    armor: str,
    penalty: int,
    printed: str,
    note: str | None,
    escape: int,
    maintain: int,
    immovable: bool,
) -> None:
    row = ARMOR_WRESTLING[armor]
    assert (row.fr_penalty, row.printed, row.note) == (penalty, printed, note)
    assert (row.escape_bonus, row.maintain_bonus, row.immovable_by_same_size) == (
        escape,
        maintain,
        immovable,
    )


def test_the_wrestling_table_has_no_row_for_elven_chain_or_dwarven_plate() -> None:
    assert set(ARMOR_WITHOUT_WRESTLING_ROW) == {"elven_chain", "dwarven_plate"}
    assert set(ARMOR_WRESTLING) == set(ARMOR) - set(ARMOR_WITHOUT_WRESTLING_ROW)


# | Shield | AC Bonus | Cost (sp) | Encumbrance (cn) |, FD +2, wrestling -4, no grapple
@pytest.mark.parametrize(
    ("shield", "name", "ac", "cost", "cn"),
    [
        ("small", "Small Shield", 1, 5, 50),
        ("medium", "Medium Shield", 2, 10, 100),
        ("large", "Large Shield", 3, 15, 200),
        ("tower", "Tower Shield", 4, 25, 300),
    ],
)
def test_shield_table_row(shield: str, name: str, ac: int, cost: int, cn: int) -> None:
    row = SHIELDS[shield]
    assert (row.name, row.ac_bonus, row.cost_sp, row.encumbrance_cn) == (name, ac, cost, cn)
    assert row.fd_bonus == 2
    assert row.wrestling_fr_penalty == -4
    assert row.wrestling_note == "Cannot initiate Grapple while shield is equipped"
    assert row.can_initiate_grapple is False


def test_no_shield_adds_nothing_and_allows_a_grapple() -> None:
    row = SHIELDS["none"]
    assert (row.ac_bonus, row.fd_bonus, row.wrestling_fr_penalty) == (0, 0, 0)
    assert row.can_initiate_grapple is True
    assert set(SHIELDS) == {"none", "small", "medium", "large", "tower"}


# | Size Category | Examples | FD Modifier | Shove Die | Shove Resist Base | Max Displacement |
@pytest.mark.parametrize(
    ("size", "name", "height", "examples", "fd", "die", "resist", "feet"),
    [
        ("tiny", "Tiny", "under 2ft", "House Cat, Sprite", -2, "d2", 1, 2),
        ("small", "Small", "2-4ft", "Halfling, Kobold", -1, "d4", 2, 5),
        ("medium", "Medium", "4-7ft", "Human, Orc", 0, "d6", 3, 5),
        ("large", "Large", "7-12ft", "Ogre, Horse", 2, "d8", 4, 10),
        ("huge", "Huge", "12-25ft", "Hill Giant, Elephant", 4, "d10", 5, 15),
        ("gargantuan", "Gargantuan", "25ft+", "Dragon, Kraken", 8, "d12", 6, 20),
    ],
)
def test_size_category_table_row(
    size: str, name: str, height: str, examples: str, fd: int, die: str, resist: int, feet: int
) -> None:
    row = SIZES[size]
    assert (row.name, row.height, row.examples) == (name, height, examples)
    assert (row.fd_modifier, str(row.shove_die), row.shove_resist_base) == (fd, die, resist)
    assert row.max_displacement_feet == feet


def test_sizes_run_from_tiny_to_gargantuan() -> None:
    assert SIZE_ORDER == ("tiny", "small", "medium", "large", "huge", "gargantuan")


def test_terrain_modifiers_to_force_table_rows() -> None:
    assert TERRAIN_TABLE == (
        ("Attacker on higher ground", "+1 to Shove die"),
        ("Defender on higher ground (shoving uphill)", "+2 to defender's Resist"),
        (
            "Defender near hazard (cliff, fire, pit)",
            "Defender may Save vs. Death Ray to catch edge or stop at threshold",
        ),
        (
            "Defender near wall or solid object",
            "If pushed into wall take Shove Die damage per 2 points of attacker's FR for "
            "unused travel distance",
        ),
        (
            "Slippery surface (ice, wet stone)",
            "+2 to all displacement distances on successful Shove",
        ),
        ("Difficult terrain (rubble, mud)", "+2 to Resist for all creatures in affected area"),
    )
    assert HIGHER_GROUND_SHOVE_DIE_STEPS == 1
    assert UPHILL_RESIST_BONUS == 2
    assert SLIPPERY_EXTRA_FEET == 2
    assert DIFFICULT_TERRAIN_RESIST_BONUS == 2


def test_the_shove_die_ladder_is_d2_d4_d6_d8_d10_d12_2d6_2d8() -> None:
    assert [str(die) for die in SHOVE_DIE_LADDER] == [
        "d2",
        "d4",
        "d6",
        "d8",
        "d10",
        "d12",
        "2d6",
        "2d8",
    ]
    assert SHOVE_DIE_LADDER[-2:] == (Die(2, 6), Die(2, 8))


def test_the_formula_numbers_of_the_seed() -> None:
    assert (BASE_AC, BASE_FD, BASE_INSIGHT_DEFENSE) == (11, 10, 10)
    assert GUARANTEED_PENETRATION == 1
    assert SIZE_PENALTY_PER_CATEGORY == 4
    assert FR_POINTS_PER_SHOVE_DIE_STEP == 3
    assert FR_POINTS_PER_WALL_DIE == 2


# D1: 3: -3; 4-5: -2; 6-8: -1; 9-12: 0; 13-15: +1; 16-17: +2; 18 and up: +3.
D1 = {
    3: -3,
    4: -2,
    5: -2,
    6: -1,
    7: -1,
    8: -1,
    9: 0,
    10: 0,
    11: 0,
    12: 0,
    13: 1,
    14: 1,
    15: 1,
    16: 2,
    17: 2,
    18: 3,
    19: 3,
    20: 3,
    25: 3,
    30: 3,
}


@pytest.mark.parametrize(("score", "modifier"), sorted(D1.items()))
def test_ability_modifier_table_d1(score: int, modifier: int) -> None:
    assert ability_modifier(score) == modifier


def test_ability_modifier_bands_are_the_d1_rows() -> None:
    assert ABILITY_MODIFIER_BANDS == ((3, -3), (4, -2), (6, -1), (9, 0), (13, 1), (16, 2), (18, 3))


def test_a_score_below_3_has_no_modifier() -> None:
    with pytest.raises(ValueError, match="3 or more"):
        ability_modifier(2)
