"""Seed 000 as pure functions over frozen values: pools, margin, damage, reach.

Nothing here rolls or reads an encounter; every function takes plain values and
returns a frozen result that carries its own breakdown.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from skald_campaign.domain.rulesets.margin.exact import fraction_text, round_half_up
from skald_campaign.domain.rulesets.margin.options import MarginOptions
from skald_campaign.domain.rulesets.margin.pools import Pool, PoolTerm
from skald_campaign.domain.rulesets.margin.sheet import (
    DEFENSE_TERMS,
    MarginSheet,
    Weapon,
    is_physical,
)
from skald_campaign.ruleset_api import JsonObject

DefenseMode = Literal["active", "passive"]


# -- pools ---------------------------------------------------------------------


def attack_pool(
    sheet: MarginSheet,
    weapon: Weapon,
    *,
    effort: int,
    exhaustion: int,
    wounded_penalty: int,
) -> Pool:
    """The weapon's attribute + the weapon's skill + effort - exhaustion - conditions.

    Only the weapon's own attribute and skill count: a Melee expert with a bow rolls
    Grace + Marksmanship. Might adds dice to a Might weapon, never damage.
    """
    return Pool(
        (
            PoolTerm(weapon.attribute, sheet.attribute(weapon.attribute)),
            PoolTerm(weapon.skill, sheet.attribute(weapon.skill)),
            PoolTerm("effort", effort),
            PoolTerm("exhaustion", -exhaustion),
            PoolTerm("wounded", -wounded_penalty),
        )
    )


def defense_pool(
    sheet: MarginSheet,
    defense: str,
    mode: DefenseMode,
    *,
    effort: int = 0,
    sharpening: int = 0,
    exhaustion: int = 0,
    wounded_penalty: int = 0,
) -> Pool:
    """M4: passive rolls the bare attribute; active adds skill and effort, less penalties.

    The passive pool is the floor: an exhausted, wounded defender in a posture never
    rolls fewer dice than one who did not defend at all.
    """
    attribute, skill = DEFENSE_TERMS[defense]
    bare = PoolTerm(attribute, sheet.attribute(attribute))
    if mode not in ("active", "passive"):
        raise ValueError(f"a defense rolls active or passive, not {mode!r}")
    if mode == "passive":
        return Pool((bare,))
    terms = [bare, PoolTerm(skill, sheet.attribute(skill)), PoolTerm("effort", effort)]
    if sharpening:
        terms.append(PoolTerm("riposte_sharpening", sharpening))
    terms += [PoolTerm("exhaustion", -exhaustion), PoolTerm("wounded", -wounded_penalty)]
    return Pool(tuple(terms), floor=bare.dice)


# -- margin --------------------------------------------------------------------


def margin(attack_total: int, defense_totals: list[int]) -> int:
    """M9: attack minus every defense; a below-nothing defense (-1) adds 1."""
    return attack_total - sum(defense_totals)


# -- damage --------------------------------------------------------------------


def nature_multiplier(nature: str | None, options: MarginOptions) -> Fraction:
    """M11: weak multiplies up, resistant down, immune makes it exactly 0."""
    if nature == "weak":
        return options.weakness_multiplier
    if nature == "resistant":
        return options.resistance_multiplier
    if nature == "immune":
        return Fraction(0)
    return Fraction(1)


def armor_multiplier(armor_rating: int, damage_type: str, options: MarginOptions) -> Fraction:
    """M12: (1 - blunting) ** Armor for physical harm; armor does nothing against the rest."""
    if not is_physical(damage_type):
        return Fraction(1)
    return (1 - options.armor_blunting) ** armor_rating


@dataclass(frozen=True)
class Damage:
    """A surviving margin turned into harm: weapon, then nature, then armor, then one rounding."""

    margin: int
    base: int
    per_margin: Fraction
    damage_type: str
    nature: str | None
    nature_multiplier: Fraction
    armor_rating: int
    armor_multiplier: Fraction
    real_threat: int

    @property
    def from_weapon(self) -> Fraction:
        return self.base + self.per_margin * self.margin

    @property
    def after_nature(self) -> Fraction:
        return self.from_weapon * self.nature_multiplier

    @property
    def exact(self) -> Fraction:
        return self.after_nature * self.armor_multiplier

    @property
    def is_real_threat(self) -> bool:
        """M16: physical harm of at least ``real_threat`` after nature, before armor."""
        return is_physical(self.damage_type) and self.after_nature >= self.real_threat

    @property
    def rounded(self) -> int:
        return round_half_up(self.exact)

    @property
    def final(self) -> int:
        """M10's one rounding; M16: armor never brings a real threat to nothing."""
        if self.is_real_threat:
            return max(1, self.rounded)
        return self.rounded

    def breakdown(self) -> JsonObject:
        return {
            "margin": self.margin,
            "weapon": {
                "base": self.base,
                "per_margin": fraction_text(self.per_margin),
                "damage": fraction_text(self.from_weapon),
                "formula": f"{self.base} + {self.per_margin} x {self.margin}",
            },
            "nature": {
                "damage_type": self.damage_type,
                "nature": self.nature,
                "multiplier": fraction_text(self.nature_multiplier),
                "damage": fraction_text(self.after_nature),
            },
            "armor": {
                "rating": self.armor_rating,
                "physical": is_physical(self.damage_type),
                "multiplier": fraction_text(self.armor_multiplier),
                "damage": fraction_text(self.exact),
            },
            "exact": fraction_text(self.exact),
            "rounded": self.rounded,
            "real_threat": {
                "threshold": self.real_threat,
                "is_real_threat": self.is_real_threat,
                "raised_to_1": self.final != self.rounded,
            },
            "final": self.final,
            "rounding": "half up, once, at the end",
        }


def damage_for_margin(
    *,
    base: int,
    per_margin: Fraction,
    damage_type: str,
    margin: int,
    nature: str | None,
    armor_rating: int,
    options: MarginOptions,
) -> Damage | None:
    """M9-M12: None when the margin is 0 or less, for then nothing of any kind happens."""
    if margin <= 0:
        return None
    return Damage(
        margin=margin,
        base=base,
        per_margin=per_margin,
        damage_type=damage_type,
        nature=nature,
        nature_multiplier=nature_multiplier(nature, options),
        armor_rating=armor_rating,
        armor_multiplier=armor_multiplier(armor_rating, damage_type, options),
        real_threat=options.real_threat,
    )


def weapon_damage(
    weapon: Weapon,
    margin: int,
    target: MarginSheet,
    options: MarginOptions,
) -> Damage | None:
    """A weapon's margin dealt to a target, through the target's own nature and armor."""
    return damage_for_margin(
        base=weapon.base_damage,
        per_margin=weapon.per_margin,
        damage_type=weapon.damage_type,
        margin=margin,
        nature=target.nature.get(weapon.damage_type),
        armor_rating=target.armor_rating,
        options=options,
    )


# -- distance and reach (M15) --------------------------------------------------


def distance(side_a: str, rank_a: int, side_b: str, rank_b: int) -> int:
    """M15: opponents are rank_a + rank_b - 1 apart (two front ranks touch).

    Two on the same side (a charmed friend, say) stand |rank_a - rank_b| apart, and at
    least 1: nobody stands inside anybody else.
    """
    if side_a != side_b:
        return rank_a + rank_b - 1
    return max(1, abs(rank_a - rank_b))


def reach_of(weapon: Weapon, options: MarginOptions) -> int | None:
    """How far a weapon strikes; None for a ranged weapon, which reaches any distance."""
    if weapon.category == "melee":
        return options.melee_reaches
    if weapon.category == "reach":
        return options.reach_reaches
    return None


@dataclass(frozen=True)
class Reach:
    reaches: bool
    why: str


def reaches(
    weapon: Weapon,
    span: int,
    shots_left: int | None,
    options: MarginOptions,
) -> Reach:
    """Whether ``weapon`` strikes something ``span`` away right now."""
    if weapon.category == "ranged":
        if shots_left is not None and shots_left <= 0:
            return Reach(False, f"{weapon.name} is out of ammunition")
        return Reach(True, f"{weapon.name} is ranged and reaches any distance")
    limit = reach_of(weapon, options)
    assert limit is not None  # only ranged weapons have no limit
    if span <= limit:
        return Reach(True, f"{weapon.name} ({weapon.category}) reaches {limit}; distance {span}")
    return Reach(
        False,
        f"{weapon.name} ({weapon.category}) reaches only {limit}; distance is {span}",
    )
