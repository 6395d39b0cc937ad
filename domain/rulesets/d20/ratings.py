"""The seven derived ratings of the seed's quick reference, each with its terms.

A rating is a sum of named terms, so the character view and every action's
breakdown can show where each point comes from. Situational terms (Defensive
Stance, uphill, difficult terrain) are listed beside a rating and added only
when the situation holds.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import JsonValue

from skald_campaign.domain.rulesets.d20.sheet import SHIELD_BASH, UNARMED_STRIKE, D20Sheet
from skald_campaign.domain.rulesets.d20.tables import (
    ARMOR,
    BASE_AC,
    BASE_FD,
    BASE_INSIGHT_DEFENSE,
    DIFFICULT_TERRAIN_RESIST_BONUS,
    SHIELDS,
    SIZES,
    UPHILL_RESIST_BONUS,
)
from skald_campaign.ruleset_api import JsonObject


@dataclass(frozen=True)
class Term:
    name: str
    value: int

    def as_dict(self) -> JsonObject:
        return {"name": self.name, "value": self.value}


@dataclass(frozen=True)
class Rating:
    """A total built from terms; ``situational`` terms are shown, not added."""

    terms: tuple[Term, ...]
    situational: tuple[Term, ...] = ()

    @property
    def value(self) -> int:
        return sum(term.value for term in self.terms)

    def as_dict(self) -> JsonObject:
        shown: JsonObject = {
            "value": self.value,
            "terms": [term.as_dict() for term in self.terms],
        }
        if self.situational:
            shown["situational"] = [term.as_dict() for term in self.situational]
        return shown


def _bonus(sheet: D20Sheet, slots: int, magic: int) -> Rating:
    return Rating(
        (
            Term("Class Skill slots", slots),
            Term(sheet.strength.describe("STR"), sheet.strength.value),
            Term("magic bonuses", magic),
        )
    )


def hr_bonus(sheet: D20Sheet) -> Rating:
    """Class Skill slots invested + STR modifier + magic bonuses."""
    return _bonus(sheet, sheet.hr_skill_slots, sheet.hr_magic_bonus)


def hr_bonus_with(sheet: D20Sheet, weapon: str, weapon_magic: int) -> Rating:
    """D12: the HR bonus with one weapon, its own magic bonus a term of it, counted once."""
    return Rating((*hr_bonus(sheet).terms, Term(f"magic bonus of {weapon}", weapon_magic)))


def attacks_of(sheet: D20Sheet) -> tuple[tuple[str, int], ...]:
    """(name, weapon magic bonus) of every HR attack the character has (D10: fists, a shield)."""
    built_in = [(UNARMED_STRIKE, 0)]
    if sheet.shield != "none":
        built_in.append((SHIELD_BASH, 0))
    return (*((w.name, w.magic_bonus) for w in sheet.weapons), *built_in)


def fr_bonus(sheet: D20Sheet) -> Rating:
    """Class Skill slots invested + STR modifier + magic bonuses (same progression as HR)."""
    return _bonus(sheet, sheet.fr_skill_slots, sheet.fr_magic_bonus)


def armor_class(sheet: D20Sheet) -> Rating:
    """11 + shield bonus + DEX modifier + active technique bonuses; armor plays no part."""
    shield = SHIELDS[sheet.shield]
    return Rating(
        (
            Term("base", BASE_AC),
            Term(f"shield bonus ({shield.name})", shield.ac_bonus),
            Term(sheet.dexterity.describe("DEX"), sheet.dexterity.value),
            Term("active technique bonuses", sheet.ac_technique_bonus),
        )
    )


def stance_term(sheet: D20Sheet) -> Term:
    return Term("Defensive Stance mastery bonus", sheet.defensive_stance_mastery)


def force_defense(sheet: D20Sheet, in_defensive_stance: bool = False) -> Rating:
    """10 + the higher of STR and CON + size + armor FD + shield FD (+ stance mastery)."""
    strength, constitution = sheet.strength.value, sheet.constitution.value
    if strength >= constitution:
        higher = Term(f"{sheet.strength.describe('STR')}, not CON {constitution:+d}", strength)
    else:
        higher = Term(f"{sheet.constitution.describe('CON')}, not STR {strength:+d}", constitution)
    size, armor, shield = SIZES[sheet.size], ARMOR[sheet.armor], SHIELDS[sheet.shield]
    terms = (
        Term("base", BASE_FD),
        higher,
        Term(f"size modifier ({size.name})", size.fd_modifier),
        Term(f"armor FD bonus ({armor.name})", armor.fd_bonus),
        Term(f"shield FD bonus ({shield.name})", shield.fd_bonus),
    )
    if in_defensive_stance:
        return Rating((*terms, stance_term(sheet)))
    return Rating(terms, (stance_term(sheet),) if sheet.defensive_stance_mastery else ())


def armor_value(sheet: D20Sheet, against_missiles: bool = False) -> Rating:
    armor = ARMOR[sheet.armor]
    if against_missiles:
        return Rating((Term(f"{armor.name} AV vs. missiles", armor.av_vs_missiles),))
    return Rating((Term(f"{armor.name} AV", armor.av),))


def insight_defense(sheet: D20Sheet) -> Rating:
    """10 + WIS modifier + level or HD (the defense against a Feint)."""
    which, number = sheet.level_or_hd
    return Rating(
        (
            Term("base", BASE_INSIGHT_DEFENSE),
            Term(sheet.wisdom.describe("WIS"), sheet.wisdom.value),
            Term(which, number),
        )
    )


def uphill_term() -> Term:
    return Term("defender on higher ground (shoving uphill)", UPHILL_RESIST_BONUS)


def difficult_terrain_term() -> Term:
    return Term("difficult terrain", DIFFICULT_TERRAIN_RESIST_BONUS)


def terrain_terms(defender_higher_ground: bool, difficult_terrain: bool) -> tuple[Term, ...]:
    """D8: the terrain rows that raise the target number of an FR contest."""
    terrain = (
        (defender_higher_ground, uphill_term()),
        (difficult_terrain, difficult_terrain_term()),
    )
    return tuple(term for holds, term in terrain if holds)


def shove_resist(sheet: D20Sheet, uphill: bool = False, difficult_terrain: bool = False) -> Rating:
    """Size base + 1/2 level or HD (rounded down) + STR modifier + FR bonus (+ terrain)."""
    size = SIZES[sheet.size]
    which, number = sheet.level_or_hd
    terms = (
        Term(f"size base ({size.name})", size.shove_resist_base),
        Term(f"1/2 {which} {number}, rounded down", number // 2),
        Term(sheet.strength.describe("STR"), sheet.strength.value),
        Term("FR bonus", fr_bonus(sheet).value),
    )
    terrain = ((uphill, uphill_term()), (difficult_terrain, difficult_terrain_term()))
    applied = tuple(term for holds, term in terrain if holds)
    shown_only = tuple(term for holds, term in terrain if not holds)
    return Rating(terms + applied, shown_only)


def derived_ratings(sheet: D20Sheet) -> JsonObject:
    """What the character view shows: all seven ratings of the quick reference."""
    by_weapon: list[JsonValue] = [
        {"weapon": name, **hr_bonus_with(sheet, name, magic).as_dict()}
        for name, magic in attacks_of(sheet)
    ]
    return {
        "hr_bonus": {**hr_bonus(sheet).as_dict(), "by_weapon": by_weapon},
        "fr_bonus": fr_bonus(sheet).as_dict(),
        "ac": armor_class(sheet).as_dict(),
        "fd": force_defense(sheet).as_dict(),
        "av": {
            "melee": armor_value(sheet).as_dict(),
            "vs_missiles": armor_value(sheet, against_missiles=True).as_dict(),
        },
        "insight_defense": insight_defense(sheet).as_dict(),
        "shove_resist": shove_resist(sheet).as_dict(),
    }


def equipment(sheet: D20Sheet) -> JsonObject:
    """The armor and shield rows' cost (sp) and encumbrance (cn); null for wearing none."""
    armor, shield = ARMOR[sheet.armor], SHIELDS[sheet.shield]
    return {
        "armor": {
            "id": sheet.armor,
            "name": armor.name,
            "cost_sp": armor.cost_sp,
            "encumbrance_cn": armor.encumbrance_cn,
        },
        "shield": {
            "id": sheet.shield,
            "name": shield.name,
            "cost_sp": shield.cost_sp,
            "encumbrance_cn": shield.encumbrance_cn,
        },
    }
