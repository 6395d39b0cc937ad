"""Seed 004 as pure functions over plain values: checks, armor value, size, shove, wrestling.

Each function returns its result together with the breakdown that explains it,
so an action only has to assemble them. No dice are rolled here: faces come in.
"""

from __future__ import annotations

from dataclasses import dataclass

from skald_campaign.domain.rulesets.d20.ratings import Rating, Term
from skald_campaign.domain.rulesets.d20.sheet import D20Options, D20Sheet
from skald_campaign.domain.rulesets.d20.tables import (
    ARMOR,
    ARMOR_WRESTLING,
    FR_POINTS_PER_SHOVE_DIE_STEP,
    FR_POINTS_PER_WALL_DIE,
    GUARANTEED_PENETRATION,
    HIGHER_GROUND_SHOVE_DIE_STEPS,
    SHIELDS,
    SHOVE_DIE_LADDER,
    SIZE_ORDER,
    SIZE_PENALTY_PER_CATEGORY,
    SIZES,
    Die,
    WrestlingRow,
)
from skald_campaign.ruleset_api import JsonObject

SEED_DOUBLE_SUCCESS_FEET = 10  # "the 10ft displacement and Prone result"
NATURAL_20, NATURAL_1 = 20, 1


# -- d20 checks ---------------------------------------------------------------------
@dataclass(frozen=True)
class Check:
    """d20 + bonus terms against a target rating; meeting the target succeeds."""

    face: int
    bonus: Rating
    against: str
    target: Rating
    success: bool
    note: str | None = None

    @property
    def total(self) -> int:
        return self.face + self.bonus.value

    def comparison(self) -> str:
        if self.note is not None:
            # The natural die decided, whatever the sum says: no "20 < AC 31" beside a hit.
            return f"{self.note}, {self.total} vs {self.against} {self.target.value}"
        sign = ">=" if self.total >= self.target.value else "<"
        return f"{self.total} {sign} {self.against} {self.target.value}"

    def breakdown(self) -> JsonObject:
        shown: JsonObject = {
            "d20": self.face,
            "terms": [term.as_dict() for term in self.bonus.terms],
            "total": self.total,
            "against": self.against,
            "target": self.target.value,
            "target_terms": [term.as_dict() for term in self.target.terms],
            "comparison": self.comparison(),
            "success": self.success,
        }
        if self.note:
            shown["note"] = self.note
        return shown


def d20_check(
    face: int,
    bonus: Rating,
    against: str,
    target: Rating,
    *,
    natural_20_succeeds: bool = False,
    natural_1_fails: bool = False,
) -> Check:
    if natural_20_succeeds and face == NATURAL_20:
        return Check(face, bonus, against, target, True, "natural 20 hit")
    if natural_1_fails and face == NATURAL_1:
        return Check(face, bonus, against, target, False, "natural 1 miss")
    return Check(face, bonus, against, target, face + bonus.value >= target.value)


# -- damage through armor -----------------------------------------------------------
@dataclass(frozen=True)
class Damage:
    dealt: int
    breakdown: JsonObject


def physical_damage(raw: int, av: Rating) -> Damage:
    """One point always penetrates; the rest is reduced by AV; a hit deals at least 1."""
    armor = av.value
    if raw < GUARANTEED_PENETRATION:
        return Damage(
            GUARANTEED_PENETRATION,
            {
                "raw": raw,
                "av": armor,
                "av_terms": [t.as_dict() for t in av.terms],
                "dealt": GUARANTEED_PENETRATION,
                "arithmetic": f"raw {raw} is below 1; a hit still deals the guaranteed point",
            },
        )
    remaining = raw - GUARANTEED_PENETRATION
    after_av = max(0, remaining - armor)
    dealt = GUARANTEED_PENETRATION + after_av
    return Damage(
        dealt,
        {
            "raw": raw,
            "guaranteed": GUARANTEED_PENETRATION,
            "remaining": remaining,
            "av": armor,
            "av_terms": [t.as_dict() for t in av.terms],
            "absorbed": remaining - after_av,
            "after_av": after_av,
            "dealt": dealt,
            "arithmetic": (
                f"1 penetrates; remaining {raw} - 1 = {remaining}; {remaining} - AV {armor} "
                f"= {remaining - armor}{' -> 0' if remaining < armor else ''}; "
                f"1 + {after_av} = {dealt}"
            ),
        },
    )


def magic_damage(raw: int, minimum: int) -> Damage:
    dealt = max(minimum, raw)
    return Damage(
        dealt,
        {
            "raw": raw,
            "av": None,
            "dealt": dealt,
            "arithmetic": (
                f"magic ignores AV: {raw}"
                + (f", raised to the minimum {minimum}" if dealt != raw else "")
            ),
        },
    )


# -- size ---------------------------------------------------------------------------
@dataclass(frozen=True)
class SizePenalty:
    attacker: str
    target: str
    categories_larger: int
    mastery_reduction: int

    @property
    def penalty(self) -> int:
        return SIZE_PENALTY_PER_CATEGORY * self.categories_larger

    @property
    def reduction_used(self) -> int:
        # Mastery reduces the penalty; it never turns it into a bonus.
        return min(self.penalty, self.mastery_reduction)

    @property
    def modifier(self) -> int:
        return self.reduction_used - self.penalty

    def term(self) -> Term:
        return Term("size penalty", self.modifier)

    def breakdown(self) -> JsonObject:
        return {
            "attacker_size": SIZES[self.attacker].name,
            "target_size": SIZES[self.target].name,
            "categories_larger": self.categories_larger,
            "penalty": -self.penalty,
            "mastery_reduction": self.reduction_used,
            "modifier": self.modifier,
            "why": f"-{SIZE_PENALTY_PER_CATEGORY} per size category the target is larger",
        }


def size_penalty(attacker: D20Sheet, target: D20Sheet) -> SizePenalty:
    larger = max(0, SIZE_ORDER.index(target.size) - SIZE_ORDER.index(attacker.size))
    return SizePenalty(attacker.size, target.size, larger, attacker.size_penalty_mastery_reduction)


# -- the force multiplier: the stepped shove die ----------------------------------------
@dataclass(frozen=True)
class ShoveDie:
    die: Die
    breakdown: JsonObject


def shove_die(target_size: str, attacker_fr_bonus: int, higher_ground: bool = False) -> ShoveDie:
    """The target size's die, one step per full 3 points of FR, one for higher ground; 2d8 tops."""
    size = SIZES[target_size]
    start = SHOVE_DIE_LADDER.index(size.shove_die)
    fr_steps = max(0, attacker_fr_bonus) // FR_POINTS_PER_SHOVE_DIE_STEP
    ground_steps = HIGHER_GROUND_SHOVE_DIE_STEPS if higher_ground else 0
    wanted = start + fr_steps + ground_steps
    end = min(wanted, len(SHOVE_DIE_LADDER) - 1)
    die = SHOVE_DIE_LADDER[end]
    return ShoveDie(
        die,
        {
            "size_die": f"{size.shove_die} ({size.name} target)",
            "fr_steps": fr_steps,
            "fr_steps_why": (
                f"FR bonus {attacker_fr_bonus:+d}: one step per full "
                f"{FR_POINTS_PER_SHOVE_DIE_STEP} points"
            ),
            "higher_ground_steps": ground_steps,
            "ladder": [str(step) for step in SHOVE_DIE_LADDER[start : end + 1]],
            "capped_at_top": wanted > end,
            "die": str(die),
        },
    )


def wall_damage_dice(attacker_fr_bonus: int, minimum: int) -> int:
    """One shove die per full 2 points of the attacker's FR bonus, at least ``minimum``."""
    return max(minimum, max(0, attacker_fr_bonus) // FR_POINTS_PER_WALL_DIE)


def forceful_defense(attacker_fr_bonus: int, defender_fr_bonus: int) -> bool:
    """A defender whose FR bonus exceeds the attacker's denies the double success."""
    return defender_fr_bonus > attacker_fr_bonus


def success_distance(attacker_size: str, double: bool, options: D20Options) -> Term:
    max_displacement = SIZES[attacker_size].max_displacement_feet
    name = SIZES[attacker_size].name
    if not double:
        return Term(f"Max Displacement of a {name} attacker", max_displacement)
    if options.double_success_distance == "twice_max_displacement":
        return Term(f"double success: twice the {name} Max Displacement", 2 * max_displacement)
    return Term("double success: the seed's 10ft displacement", SEED_DOUBLE_SUCCESS_FEET)


# -- wrestling ------------------------------------------------------------------------
@dataclass(frozen=True)
class WrestlingArmor:
    row: WrestlingRow
    label: str  # the armor's name, and which row it borrows when it has none


def wrestling_armor(sheet: D20Sheet, options: D20Options) -> WrestlingArmor:
    armor_id: str = sheet.armor
    name = ARMOR[armor_id].name
    borrowed = {
        "elven_chain": options.elven_chain_wrestles_as,
        "dwarven_plate": options.dwarven_plate_wrestles_as,
    }.get(armor_id)
    if borrowed is None:
        return WrestlingArmor(ARMOR_WRESTLING[armor_id], name)
    label = f"{name}, wrestling as {ARMOR[borrowed].name}"
    return WrestlingArmor(ARMOR_WRESTLING[borrowed], label)


ESCAPE = "escape"


def wrestling_terms(sheet: D20Sheet, options: D20Options, move: str) -> list[Term]:
    """The armor and shield wrestling penalties, and the bonus a note grants for ``move``.

    D11: the penalties hinder offensive FR only (grapple, maintain, throw); an
    escape takes none of them, and the unarmored Slippery +2 stands.
    """
    armor = wrestling_armor(sheet, options)
    if move == ESCAPE:
        bonus = armor.row.escape_bonus
        return [Term(f"{armor.row.note} ({armor.label})", bonus)] if bonus else []
    shield = SHIELDS[sheet.shield]
    terms = [Term(f"armor wrestling penalty ({armor.label})", armor.row.fr_penalty)]
    if shield.wrestling_fr_penalty:
        terms.append(Term(f"shield wrestling penalty ({shield.name})", shield.wrestling_fr_penalty))
    if move == "maintain" and armor.row.maintain_bonus:
        terms.append(Term(f"{armor.row.note} ({armor.label})", armor.row.maintain_bonus))
    return terms


def grapple_refusal(sheet: D20Sheet) -> str | None:
    shield = SHIELDS[sheet.shield]
    if shield.can_initiate_grapple:
        return None
    return f"{shield.name}: {shield.wrestling_note}"


def throw_refusal(thrower: D20Sheet, target: D20Sheet, options: D20Options) -> str | None:
    armor = wrestling_armor(target, options)
    if armor.row.immovable_by_same_size and thrower.size == target.size:
        return f"{armor.row.note} ({armor.label}; both are {SIZES[target.size].name})"
    return None
