"""The Elf's Riposte counter (M14, M15): a turned blow's leftover margin comes back.

Two things decide whether a turned blow earns a counter, and neither is how well
the elf defended: the attacker's weapon (a ranged one is never answered, at any
distance), and whether the elf has something that reaches the attacker right now.
"""

from __future__ import annotations

from dataclasses import dataclass

from skald_campaign.domain.rulesets.margin.ledger import Harm, Ledger
from skald_campaign.domain.rulesets.margin.rules import Damage, distance, reaches, weapon_damage
from skald_campaign.domain.rulesets.margin.sheet import FISTS, MarginSheet, Weapon
from skald_campaign.ruleset_api import JsonObject


def spends_ammunition(weapon: Weapon) -> bool:
    return weapon.category == "ranged" and weapon.ammunition is not None


def counter_candidates(sheet: MarginSheet, named: str | None) -> list[Weapon]:
    """M17: the weapons an elf may counter with, in the order tried.

    A weapon or spell named with the Riposte is the one she counters with, and only it.
    Otherwise every weapon and spell on her sheet in sheet order (weapons, then spells),
    those that spend no ammunition before those that do; fists, always at hand, last:
    an archer out of arrows still has them.
    """
    if named is not None:
        chosen = sheet.find_weapon(named) or sheet.find_spell(named)
        assert chosen is not None  # the Riposte checked the name when it was declared
        return [chosen]
    listed = [*sheet.weapons, *sheet.spells]
    free = [w for w in listed if not spends_ammunition(w)]
    spending = [w for w in listed if spends_ammunition(w)]
    return [*free, *spending, FISTS]


@dataclass(frozen=True)
class Counter:
    elf: str
    attacker: str
    answered: bool
    why: str
    counter_margin: int
    weapon: Weapon | None
    damage: Damage | None
    considered: tuple[JsonObject, ...]
    health: Harm | None
    ammunition: JsonObject | None

    def breakdown(self) -> JsonObject:
        return {
            "elf": self.elf,
            "attacker": self.attacker,
            "answered": self.answered,
            "why": self.why,
            "counter_margin": self.counter_margin,
            "weapon": self.weapon.name if self.weapon else None,
            "weapons_considered": [*self.considered],
            "damage": self.damage.breakdown() if self.damage else None,
            "health": None if self.health is None else self.health.as_json(),
            "ammunition": self.ammunition,
        }


def riposte(
    ledger: Ledger,
    elf: str,
    attacker: str,
    attack_weapon: Weapon,
    margin: int,
    named: str | None,
) -> Counter:
    """Answer a blow the elf turned (margin < 0) with the leftover margin; no roll.

    ``named`` is the weapon or spell the elf named with her Riposte, if any (M17).
    """
    counter_margin = -margin
    if attack_weapon.category == "ranged":
        why = (
            f"{attack_weapon.name} is a ranged weapon: a shot is evaded and that is the "
            "end of it, however close the archer stands"
        )
        return Counter(elf, attacker, False, why, counter_margin, None, None, (), None, None)
    elf_view, foe = ledger.view.combatants[elf], ledger.view.combatants[attacker]
    span = distance(elf_view.side, elf_view.rank, foe.side, foe.rank)
    state = ledger.state(elf)
    considered: list[JsonObject] = []
    chosen: Weapon | None = None
    for weapon in counter_candidates(ledger.sheet(elf), named):
        reach = reaches(weapon, span, state.shots_left(weapon), ledger.options)
        considered.append({"weapon": weapon.name, "reaches": reach.reaches, "why": reach.why})
        if reach.reaches:
            chosen = weapon
            break
    if chosen is None:
        if named is not None:
            why = f"{named}, named with the Riposte, does not reach {foe.name} at distance {span}"
        else:
            why = f"nothing {elf_view.name} holds reaches {foe.name} at distance {span} right now"
        return Counter(
            elf, attacker, False, why, counter_margin, None, None, tuple(considered), None, None
        )
    ammunition: JsonObject | None = None
    shots = state.shots_left(chosen)
    if shots is not None:
        ledger.set_state(elf, state.spend_shot(chosen))
        ammunition = {"weapon": chosen.name, "before": shots, "after": shots - 1}
    damage = weapon_damage(chosen, counter_margin, ledger.sheet(attacker), ledger.options)
    assert damage is not None  # a turned blow leaves a counter margin of at least 1
    health = ledger.harm(attacker, damage.final)
    why = (
        f"{elf_view.name} turned the blow by {counter_margin} and answers with "
        f"{chosen.name} at distance {span}"
    )
    return Counter(
        elf,
        attacker,
        True,
        why,
        counter_margin,
        chosen,
        damage,
        tuple(considered),
        health,
        ammunition,
    )
