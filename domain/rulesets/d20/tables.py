"""Every table of seed 004 as data, row for row, plus the fixed numbers of its formulas.

The display names and notes are the seed's own words so a GM can match a row in
the breakdown to the printed page. Identifiers (``chain_mail``, ``huge``) are
what sheets and parameters use.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

ArmorId = Literal[
    "none",
    "leather",
    "thyatian_leather",
    "scale",
    "chain_mail",
    "banded",
    "plate_mail",
    "suit_armor",
    "elven_chain",
    "dwarven_plate",
]
ShieldId = Literal["none", "small", "medium", "large", "tower"]
SizeId = Literal["tiny", "small", "medium", "large", "huge", "gargantuan"]

# -- fixed numbers of the seed's formulas -------------------------------------
BASE_AC = 11
BASE_FD = 10
BASE_INSIGHT_DEFENSE = 10
GUARANTEED_PENETRATION = 1  # "one point of damage always penetrates regardless of AV"
SIZE_PENALTY_PER_CATEGORY = 4  # "-4 penalty to FR rolls" per category larger
FR_POINTS_PER_SHOVE_DIE_STEP = 3  # "for every 3 points of FR bonus ... one step"
FR_POINTS_PER_WALL_DIE = 2  # "Shove Die damage per 2 points of attacker's FR"
SHIELD_FD_BONUS = 2  # "Shield (any) | +2"
SHIELD_WRESTLING_PENALTY = -4  # "Shield | -4"
SHIELD_WRESTLING_NOTE = "Cannot initiate Grapple while shield is equipped"


@dataclass(frozen=True)
class Die:
    """One step of the shove die ladder: ``count`` dice of ``sides``."""

    count: int
    sides: int

    def __str__(self) -> str:
        return f"{self.count if self.count > 1 else ''}d{self.sides}"


# The seed's ladder (d4 -> ... -> 2d8) with the Tiny size's d2 below it (RULINGS D6).
SHOVE_DIE_LADDER: tuple[Die, ...] = (
    Die(1, 2),
    Die(1, 4),
    Die(1, 6),
    Die(1, 8),
    Die(1, 10),
    Die(1, 12),
    Die(2, 6),
    Die(2, 8),
)


# -- armor ----------------------------------------------------------------------
@dataclass(frozen=True)
class Armor:
    name: str
    av: int
    av_vs_missiles: int
    cost_sp: int | None  # None: not a purchase (wearing no armor)
    encumbrance_cn: int | None
    fd_bonus: int


ARMOR: dict[str, Armor] = {
    "none": Armor("No armor", 0, 0, None, None, 0),  # the tables' "None" row
    "leather": Armor("Leather", 2, 1, 20, 200, 1),
    "thyatian_leather": Armor("Thyatian Leather (Cuir Bouilli)", 3, 1, 200, 250, 1),
    "scale": Armor("Scale", 3, 1, 30, 300, 1),
    "chain_mail": Armor("Chain Mail", 4, 2, 40, 400, 2),
    "banded": Armor("Banded", 5, 2, 50, 450, 2),
    "plate_mail": Armor("Plate Mail", 6, 3, 60, 500, 4),
    "suit_armor": Armor("Suit Armor", 7, 3, 250, 750, 4),
    "elven_chain": Armor("Elven Chain", 4, 4, 400, 200, 2),
    "dwarven_plate": Armor("Dwarven Plate", 7, 4, 600, 600, 5),
}


@dataclass(frozen=True)
class WrestlingRow:
    """A row of the seed's Armor Wrestling Penalties table, with its note made usable."""

    fr_penalty: int
    printed: str  # the penalty cell as the seed prints it ("+0", "-0", "-3")
    note: str | None
    escape_bonus: int = 0  # Slippery
    maintain_bonus: int = 0  # Mesh Grip
    immovable_by_same_size: bool = False  # Immovable


# Elven Chain and Dwarven Plate have no row: the ruleset options say which row they use.
ARMOR_WRESTLING: dict[str, WrestlingRow] = {
    "none": WrestlingRow(0, "+0", "Slippery: +2 to Escape rolls", escape_bonus=2),
    "leather": WrestlingRow(0, "+0", "Supple: No penalties"),
    "thyatian_leather": WrestlingRow(0, "+0", "Supple: No penalties"),
    "scale": WrestlingRow(0, "-0", None),
    "chain_mail": WrestlingRow(-1, "-1", "Mesh Grip: +1 to Maintain holds", maintain_bonus=1),
    "banded": WrestlingRow(-2, "-2", None),
    "plate_mail": WrestlingRow(
        -3, "-3", "Immovable: Cannot be Thrown by same-size foes", immovable_by_same_size=True
    ),
    "suit_armor": WrestlingRow(-4, "-4", None),
}
ARMOR_WITHOUT_WRESTLING_ROW = ("elven_chain", "dwarven_plate")


# -- shields --------------------------------------------------------------------
@dataclass(frozen=True)
class Shield:
    name: str
    ac_bonus: int
    cost_sp: int | None
    encumbrance_cn: int | None
    fd_bonus: int  # "Shield (any) | +2" of the Armor FD Bonus table
    wrestling_fr_penalty: int  # "Shield | -4" of the Armor Wrestling Penalties table
    wrestling_note: str | None

    @property
    def can_initiate_grapple(self) -> bool:
        return self.wrestling_note != SHIELD_WRESTLING_NOTE


# Every shield has the +2 FD and the -4 wrestling penalty with its note; written out row
# by row (no helper called at import time) so each row reads like the printed table.
SHIELDS: dict[str, Shield] = {
    "none": Shield("No shield", 0, None, None, 0, 0, None),
    "small": Shield(
        "Small Shield", 1, 5, 50, SHIELD_FD_BONUS, SHIELD_WRESTLING_PENALTY, SHIELD_WRESTLING_NOTE
    ),
    "medium": Shield(
        "Medium Shield",
        2,
        10,
        100,
        SHIELD_FD_BONUS,
        SHIELD_WRESTLING_PENALTY,
        SHIELD_WRESTLING_NOTE,
    ),
    "large": Shield(
        "Large Shield", 3, 15, 200, SHIELD_FD_BONUS, SHIELD_WRESTLING_PENALTY, SHIELD_WRESTLING_NOTE
    ),
    "tower": Shield(
        "Tower Shield", 4, 25, 300, SHIELD_FD_BONUS, SHIELD_WRESTLING_PENALTY, SHIELD_WRESTLING_NOTE
    ),
}


# -- sizes ----------------------------------------------------------------------
@dataclass(frozen=True)
class Size:
    name: str
    height: str
    examples: str
    fd_modifier: int
    shove_die: Die
    shove_resist_base: int
    max_displacement_feet: int


SIZES: dict[str, Size] = {
    "tiny": Size("Tiny", "under 2ft", "House Cat, Sprite", -2, Die(1, 2), 1, 2),
    "small": Size("Small", "2-4ft", "Halfling, Kobold", -1, Die(1, 4), 2, 5),
    "medium": Size("Medium", "4-7ft", "Human, Orc", 0, Die(1, 6), 3, 5),
    "large": Size("Large", "7-12ft", "Ogre, Horse", 2, Die(1, 8), 4, 10),
    "huge": Size("Huge", "12-25ft", "Hill Giant, Elephant", 4, Die(1, 10), 5, 15),
    "gargantuan": Size("Gargantuan", "25ft+", "Dragon, Kraken", 8, Die(1, 12), 6, 20),
}
SIZE_ORDER: tuple[str, ...] = tuple(SIZES)


# -- terrain ----------------------------------------------------------------------
TERRAIN_TABLE: tuple[tuple[str, str], ...] = (
    ("Attacker on higher ground", "+1 to Shove die"),
    ("Defender on higher ground (shoving uphill)", "+2 to defender's Resist"),
    (
        "Defender near hazard (cliff, fire, pit)",
        "Defender may Save vs. Death Ray to catch edge or stop at threshold",
    ),
    (
        "Defender near wall or solid object",
        "If pushed into wall take Shove Die damage per 2 points of attacker's FR for unused "
        "travel distance",
    ),
    ("Slippery surface (ice, wet stone)", "+2 to all displacement distances on successful Shove"),
    ("Difficult terrain (rubble, mud)", "+2 to Resist for all creatures in affected area"),
)
HIGHER_GROUND_SHOVE_DIE_STEPS = 1
UPHILL_RESIST_BONUS = 2
SLIPPERY_EXTRA_FEET = 2
DIFFICULT_TERRAIN_RESIST_BONUS = 2


# -- ability modifiers (RULINGS D1) ------------------------------------------------
# (lowest score of the band, modifier); a band runs up to the next band's start.
ABILITY_MODIFIER_BANDS: tuple[tuple[int, int], ...] = (
    (3, -3),
    (4, -2),
    (6, -1),
    (9, 0),
    (13, 1),
    (16, 2),
    (18, 3),
)
LOWEST_SCORE = ABILITY_MODIFIER_BANDS[0][0]


def ability_modifier(score: int) -> int:
    """The D1 modifier of an ability score (3 and up; 18 and up is +3)."""
    if score < LOWEST_SCORE:
        raise ValueError(f"an ability score is {LOWEST_SCORE} or more, not {score}")
    modifier = ABILITY_MODIFIER_BANDS[0][1]
    for lowest, band_modifier in ABILITY_MODIFIER_BANDS:
        if score >= lowest:
            modifier = band_modifier
    return modifier
