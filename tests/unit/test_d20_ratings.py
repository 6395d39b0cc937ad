"""The seven derived ratings for varied sheets, checked term by term against hand sums.

Each expected value below was worked out by hand from the quick reference:
  HR / FR bonus = Class Skill slots + STR modifier + magic bonuses
  AC = 11 + shield bonus + DEX modifier + active technique bonuses
  FD = 10 + higher of STR/CON modifier + size modifier + armor FD bonus (+ shield +2)
  AV = armor AV (melee) or AV vs. missiles
  Insight Defense = 10 + WIS modifier + level or HD
  Shove Resist = size base + 1/2 level or HD (rounded down) + STR modifier + FR bonus
"""

from __future__ import annotations

from typing import Any

import pytest

from skald_campaign.domain.rulesets.d20.ratings import shove_resist
from skald_campaign.domain.rulesets.d20.sheet import D20Sheet
from tests.unit.test_d20_support import Table, sheet, terms

# A plate-armoured human Fighter with a Large Shield and Defensive Stance mastery.
BRANNOC = sheet(
    strength=17,
    dexterity=9,
    constitution=13,
    wisdom=8,
    level=6,
    hr_skill_slots=4,
    fr_skill_slots=3,
    hr_magic_bonus=1,
    armor="plate_mail",
    shield="large",
    defensive_stance_mastery=2,
)
# A nimble Halfling thief in Leather: CON beats STR for FD.
PIP = sheet(
    strength=7,
    dexterity=18,
    constitution=16,
    wisdom=14,
    level=3,
    hr_skill_slots=2,
    size="small",
    armor="leather",
    ac_technique_bonus=1,
)
# An Ogre written with stated modifiers and Hit Dice.
OGRE = sheet(
    strength={"modifier": 4},
    dexterity={"modifier": -1},
    constitution={"modifier": 3},
    wisdom={"modifier": 0},
    level=None,
    hit_dice=4,
    hr_skill_slots=2,
    fr_skill_slots=4,
    size="large",
)
# An Elf in Elven Chain with a Small Shield and magic bonuses; STR and CON tie.
SYLVARA = sheet(
    strength=10,
    dexterity=13,
    constitution=9,
    wisdom=16,
    level=9,
    hr_skill_slots=1,
    hr_magic_bonus=2,
    fr_magic_bonus=1,
    armor="elven_chain",
    shield="small",
)
# A Dwarf in Dwarven Plate behind a Tower Shield.
THORIN = sheet(
    strength=15,
    dexterity=5,
    constitution=18,
    wisdom=12,
    level=11,
    hr_skill_slots=5,
    fr_skill_slots=5,
    fr_magic_bonus=2,
    armor="dwarven_plate",
    shield="tower",
    defensive_stance_mastery=3,
)
# A house cat: Tiny, every modifier negative.
CAT = sheet(
    strength=3,
    dexterity=17,
    constitution=4,
    wisdom=12,
    level=None,
    hit_dice=1,
    size="tiny",
    weapons=[],
)
# A Gargantuan dragon with huge stated modifiers.
DRAGON = sheet(
    strength={"modifier": 6},
    dexterity={"modifier": 0},
    constitution={"modifier": 5},
    wisdom={"modifier": 3},
    level=None,
    hit_dice=15,
    hr_skill_slots=10,
    fr_skill_slots=10,
    size="gargantuan",
    hp=150,
)

SLOTS, MAGIC = "Class Skill slots", "magic bonuses"

EXPECTED: dict[str, tuple[dict[str, Any], dict[str, list[tuple[str, int]]]]] = {
    "Brannoc": (
        BRANNOC,
        {
            "hr_bonus": [(SLOTS, 4), ("STR modifier (score 17)", 2), (MAGIC, 1)],
            "fr_bonus": [(SLOTS, 3), ("STR modifier (score 17)", 2), (MAGIC, 0)],
            "ac": [
                ("base", 11),
                ("shield bonus (Large Shield)", 3),
                ("DEX modifier (score 9)", 0),
                ("active technique bonuses", 0),
            ],
            "fd": [
                ("base", 10),
                ("STR modifier (score 17), not CON +1", 2),
                ("size modifier (Medium)", 0),
                ("armor FD bonus (Plate Mail)", 4),
                ("shield FD bonus (Large Shield)", 2),
            ],
            "av_melee": [("Plate Mail AV", 6)],
            "av_missiles": [("Plate Mail AV vs. missiles", 3)],
            "insight_defense": [("base", 10), ("WIS modifier (score 8)", -1), ("level", 6)],
            "shove_resist": [
                ("size base (Medium)", 3),
                ("1/2 level 6, rounded down", 3),
                ("STR modifier (score 17)", 2),
                ("FR bonus", 5),
            ],
        },
    ),
    "Pip": (
        PIP,
        {
            "hr_bonus": [(SLOTS, 2), ("STR modifier (score 7)", -1), (MAGIC, 0)],
            "fr_bonus": [(SLOTS, 0), ("STR modifier (score 7)", -1), (MAGIC, 0)],
            "ac": [
                ("base", 11),
                ("shield bonus (No shield)", 0),
                ("DEX modifier (score 18)", 3),
                ("active technique bonuses", 1),
            ],
            "fd": [
                ("base", 10),
                ("CON modifier (score 16), not STR -1", 2),
                ("size modifier (Small)", -1),
                ("armor FD bonus (Leather)", 1),
                ("shield FD bonus (No shield)", 0),
            ],
            "av_melee": [("Leather AV", 2)],
            "av_missiles": [("Leather AV vs. missiles", 1)],
            "insight_defense": [("base", 10), ("WIS modifier (score 14)", 1), ("level", 3)],
            "shove_resist": [
                ("size base (Small)", 2),
                ("1/2 level 3, rounded down", 1),
                ("STR modifier (score 7)", -1),
                ("FR bonus", -1),
            ],
        },
    ),
    "Ogre": (
        OGRE,
        {
            "hr_bonus": [(SLOTS, 2), ("STR modifier (stated)", 4), (MAGIC, 0)],
            "fr_bonus": [(SLOTS, 4), ("STR modifier (stated)", 4), (MAGIC, 0)],
            "ac": [
                ("base", 11),
                ("shield bonus (No shield)", 0),
                ("DEX modifier (stated)", -1),
                ("active technique bonuses", 0),
            ],
            "fd": [
                ("base", 10),
                ("STR modifier (stated), not CON +3", 4),
                ("size modifier (Large)", 2),
                ("armor FD bonus (No armor)", 0),
                ("shield FD bonus (No shield)", 0),
            ],
            "av_melee": [("No armor AV", 0)],
            "av_missiles": [("No armor AV vs. missiles", 0)],
            "insight_defense": [("base", 10), ("WIS modifier (stated)", 0), ("HD", 4)],
            "shove_resist": [
                ("size base (Large)", 4),
                ("1/2 HD 4, rounded down", 2),
                ("STR modifier (stated)", 4),
                ("FR bonus", 8),
            ],
        },
    ),
    "Sylvara": (
        SYLVARA,
        {
            "hr_bonus": [(SLOTS, 1), ("STR modifier (score 10)", 0), (MAGIC, 2)],
            "fr_bonus": [(SLOTS, 0), ("STR modifier (score 10)", 0), (MAGIC, 1)],
            "ac": [
                ("base", 11),
                ("shield bonus (Small Shield)", 1),
                ("DEX modifier (score 13)", 1),
                ("active technique bonuses", 0),
            ],
            "fd": [
                ("base", 10),
                ("STR modifier (score 10), not CON +0", 0),
                ("size modifier (Medium)", 0),
                ("armor FD bonus (Elven Chain)", 2),
                ("shield FD bonus (Small Shield)", 2),
            ],
            "av_melee": [("Elven Chain AV", 4)],
            "av_missiles": [("Elven Chain AV vs. missiles", 4)],
            "insight_defense": [("base", 10), ("WIS modifier (score 16)", 2), ("level", 9)],
            "shove_resist": [
                ("size base (Medium)", 3),
                ("1/2 level 9, rounded down", 4),
                ("STR modifier (score 10)", 0),
                ("FR bonus", 1),
            ],
        },
    ),
    "Thorin": (
        THORIN,
        {
            "hr_bonus": [(SLOTS, 5), ("STR modifier (score 15)", 1), (MAGIC, 0)],
            "fr_bonus": [(SLOTS, 5), ("STR modifier (score 15)", 1), (MAGIC, 2)],
            "ac": [
                ("base", 11),
                ("shield bonus (Tower Shield)", 4),
                ("DEX modifier (score 5)", -2),
                ("active technique bonuses", 0),
            ],
            "fd": [
                ("base", 10),
                ("CON modifier (score 18), not STR +1", 3),
                ("size modifier (Medium)", 0),
                ("armor FD bonus (Dwarven Plate)", 5),
                ("shield FD bonus (Tower Shield)", 2),
            ],
            "av_melee": [("Dwarven Plate AV", 7)],
            "av_missiles": [("Dwarven Plate AV vs. missiles", 4)],
            "insight_defense": [("base", 10), ("WIS modifier (score 12)", 0), ("level", 11)],
            "shove_resist": [
                ("size base (Medium)", 3),
                ("1/2 level 11, rounded down", 5),
                ("STR modifier (score 15)", 1),
                ("FR bonus", 8),
            ],
        },
    ),
    "Cat": (
        CAT,
        {
            "hr_bonus": [(SLOTS, 0), ("STR modifier (score 3)", -3), (MAGIC, 0)],
            "fr_bonus": [(SLOTS, 0), ("STR modifier (score 3)", -3), (MAGIC, 0)],
            "ac": [
                ("base", 11),
                ("shield bonus (No shield)", 0),
                ("DEX modifier (score 17)", 2),
                ("active technique bonuses", 0),
            ],
            "fd": [
                ("base", 10),
                ("CON modifier (score 4), not STR -3", -2),
                ("size modifier (Tiny)", -2),
                ("armor FD bonus (No armor)", 0),
                ("shield FD bonus (No shield)", 0),
            ],
            "av_melee": [("No armor AV", 0)],
            "av_missiles": [("No armor AV vs. missiles", 0)],
            "insight_defense": [("base", 10), ("WIS modifier (score 12)", 0), ("HD", 1)],
            "shove_resist": [
                ("size base (Tiny)", 1),
                ("1/2 HD 1, rounded down", 0),
                ("STR modifier (score 3)", -3),
                ("FR bonus", -3),
            ],
        },
    ),
    "Dragon": (
        DRAGON,
        {
            "hr_bonus": [(SLOTS, 10), ("STR modifier (stated)", 6), (MAGIC, 0)],
            "fr_bonus": [(SLOTS, 10), ("STR modifier (stated)", 6), (MAGIC, 0)],
            "ac": [
                ("base", 11),
                ("shield bonus (No shield)", 0),
                ("DEX modifier (stated)", 0),
                ("active technique bonuses", 0),
            ],
            "fd": [
                ("base", 10),
                ("STR modifier (stated), not CON +5", 6),
                ("size modifier (Gargantuan)", 8),
                ("armor FD bonus (No armor)", 0),
                ("shield FD bonus (No shield)", 0),
            ],
            "av_melee": [("No armor AV", 0)],
            "av_missiles": [("No armor AV vs. missiles", 0)],
            "insight_defense": [("base", 10), ("WIS modifier (stated)", 3), ("HD", 15)],
            "shove_resist": [
                ("size base (Gargantuan)", 6),
                ("1/2 HD 15, rounded down", 7),
                ("STR modifier (stated)", 6),
                ("FR bonus", 16),
            ],
        },
    ),
}

# The totals, summed by hand from the terms above.
TOTALS = {
    #           HR  FR  AC  FD  AV  AVm  ID  SR
    "Brannoc": (7, 5, 14, 18, 6, 3, 15, 13),
    "Pip": (1, -1, 15, 12, 2, 1, 14, 1),
    "Ogre": (6, 8, 10, 16, 0, 0, 14, 18),
    "Sylvara": (3, 1, 13, 14, 4, 4, 21, 8),
    "Thorin": (6, 8, 13, 20, 7, 4, 21, 17),
    "Cat": (-3, -3, 13, 6, 0, 0, 11, -5),
    "Dragon": (16, 16, 11, 24, 0, 0, 28, 35),
}


@pytest.fixture(scope="module")
def shown() -> dict[str, dict[str, Any]]:
    """Every sheet enrolled in a campaign, read back through the character view's ratings."""
    table = Table()
    ids = {name: table.enrol(name, character) for name, (character, _) in EXPECTED.items()}
    return {name: table.ratings(character_id) for name, character_id in ids.items()}


@pytest.mark.parametrize("name", list(EXPECTED))
def test_every_rating_shows_its_terms(name: str, shown: dict[str, dict[str, Any]]) -> None:
    ratings, expected = shown[name], EXPECTED[name][1]
    assert set(ratings) == {
        "hr_bonus",
        "fr_bonus",
        "ac",
        "fd",
        "av",
        "insight_defense",
        "shove_resist",
    }
    for rating in ("hr_bonus", "fr_bonus", "ac", "fd", "insight_defense", "shove_resist"):
        assert terms(ratings[rating]) == expected[rating], rating
    assert terms(ratings["av"]["melee"]) == expected["av_melee"]
    assert terms(ratings["av"]["vs_missiles"]) == expected["av_missiles"]


@pytest.mark.parametrize("name", list(EXPECTED))
def test_every_rating_totals_its_terms(name: str, shown: dict[str, dict[str, Any]]) -> None:
    ratings = shown[name]
    values = (
        ratings["hr_bonus"]["value"],
        ratings["fr_bonus"]["value"],
        ratings["ac"]["value"],
        ratings["fd"]["value"],
        ratings["av"]["melee"]["value"],
        ratings["av"]["vs_missiles"]["value"],
        ratings["insight_defense"]["value"],
        ratings["shove_resist"]["value"],
    )
    assert values == TOTALS[name]


def test_defensive_stance_mastery_is_shown_beside_fd_not_added(
    shown: dict[str, dict[str, Any]],
) -> None:
    assert shown["Brannoc"]["fd"]["situational"] == [
        {"name": "Defensive Stance mastery bonus", "value": 2}
    ]
    assert shown["Thorin"]["fd"]["situational"] == [
        {"name": "Defensive Stance mastery bonus", "value": 3}
    ]
    assert "situational" not in shown["Pip"]["fd"]


def test_shove_resist_shows_the_terrain_that_would_raise_it(
    shown: dict[str, dict[str, Any]],
) -> None:
    assert shown["Pip"]["shove_resist"]["situational"] == [
        {"name": "defender on higher ground (shoving uphill)", "value": 2},
        {"name": "difficult terrain", "value": 2},
    ]


def test_uphill_and_difficult_terrain_each_add_2_to_shove_resist() -> None:
    brannoc = D20Sheet.model_validate(BRANNOC)
    assert shove_resist(brannoc).value == 13
    uphill = shove_resist(brannoc, uphill=True)
    assert uphill.value == 15
    assert uphill.terms[-1].name == "defender on higher ground (shoving uphill)"
    assert [t.name for t in uphill.situational] == ["difficult terrain"]
    both = shove_resist(brannoc, uphill=True, difficult_terrain=True)
    assert both.value == 17
    assert both.situational == ()
