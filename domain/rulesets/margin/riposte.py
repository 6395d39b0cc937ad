"""The Elf's Riposte counter (M14, M15): a turned blow's leftover margin comes back.

Two things decide whether a turned blow earns a counter, and neither is how well
the elf defended: the attacker's weapon (a ranged one is never answered, at any
distance), and whether the elf has something that reaches the attacker right now.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.rulesets.margin.ledger import Ledger
from domain.rulesets.margin.rules import Damage, distance, reaches, weapon_damage
from domain.rulesets.margin.sheet import FISTS, Weapon


def counter_candidates(preferred: str | None, weapons: tuple[Weapon, ...]) -> list[Weapon]:
    """The weapons an elf may counter with, in the order tried.

    The weapon named with the Riposte first, then the sheet's weapons in order, then
    fists, which are always at hand: an archer out of arrows still has them.
    """
    ordered = [*weapons, FISTS]
    first = [w for w in ordered if w.name == preferred]
    return first + [w for w in ordered if w.name != preferred]


@dataclass(frozen=True)
class Counter:
    elf: str
    attacker: str
    answered: bool
    why: str
    counter_margin: int
    weapon: Weapon | None
    damage: Damage | None
    considered: tuple[dict[str, Any], ...]
    health: dict[str, int] | None
    ammunition: dict[str, Any] | None

    def breakdown(self) -> dict[str, Any]:
        return {
            "elf": self.elf,
            "attacker": self.attacker,
            "answered": self.answered,
            "why": self.why,
            "counter_margin": self.counter_margin,
            "weapon": self.weapon.name if self.weapon else None,
            "weapons_considered": list(self.considered),
            "damage": self.damage.breakdown() if self.damage else None,
            "health": self.health,
            "ammunition": self.ammunition,
        }


def riposte(
    ledger: Ledger,
    elf: str,
    attacker: str,
    attack_weapon: Weapon,
    margin: int,
) -> Counter:
    """Answer a blow the elf turned (margin < 0) with the leftover margin; no roll."""
    counter_margin = -margin
    if attack_weapon.category == "ranged":
        why = (
            f"{attack_weapon.name} is a ranged weapon: a shot is evaded and that is the "
            "end of it, however close the archer stands"
        )
        return Counter(elf, attacker, False, why, counter_margin, None, None, (), None, None)
    elf_view, foe = ledger.view.combatants[elf], ledger.view.combatants[attacker]
    span = distance(elf_view.side, elf_view.rank, foe.side, foe.rank)
    posture = ledger.posture(elf)
    state = ledger.state(elf)
    considered: list[dict[str, Any]] = []
    chosen: Weapon | None = None
    for weapon in counter_candidates(
        posture.weapon if posture else None, ledger.sheet(elf).weapons
    ):
        reach = reaches(weapon, span, state.shots_left(weapon), ledger.options)
        considered.append({"weapon": weapon.name, "reaches": reach.reaches, "why": reach.why})
        if reach.reaches:
            chosen = weapon
            break
    if chosen is None:
        why = f"nothing {elf_view.name} holds reaches {foe.name} at distance {span} right now"
        return Counter(
            elf, attacker, False, why, counter_margin, None, None, tuple(considered), None, None
        )
    ammunition = None
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
