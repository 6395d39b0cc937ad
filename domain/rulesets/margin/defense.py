"""Defending a blow: the target's own defenses, then a Dwarf's Ward (M4, M5, M13, M14).

One declaration rolls every defense the attack allows, all at once, and each one
subtracts from the attacker. Whether a defense rolls active or passive depends
only on the posture the defender holds this round.
"""

from __future__ import annotations

from dataclasses import dataclass

from skald_campaign.domain.rulesets.margin.ledger import Ledger
from skald_campaign.domain.rulesets.margin.pools import Pool, PoolRoll, roll_pool
from skald_campaign.domain.rulesets.margin.rules import DefenseMode, defense_pool
from skald_campaign.domain.rulesets.margin.sheet import Weapon
from skald_campaign.domain.rulesets.margin.state import Posture
from skald_campaign.ruleset_api import DiceTray, JsonObject


@dataclass(frozen=True)
class DefenseRoll:
    defense: str
    mode: DefenseMode
    roll: PoolRoll
    counted: int  # what it takes off the attack (a Ward counts below-nothing as 0)

    def breakdown(self) -> JsonObject:
        return {
            "defense": self.defense,
            "mode": self.mode,
            **self.roll.breakdown(),
            "counts_as": self.counted,
        }


@dataclass(frozen=True)
class Defense:
    """Every defense one combatant rolled against one blow."""

    defender: str
    posture: Posture | None
    why: str
    rolls: tuple[DefenseRoll, ...]

    @property
    def totals(self) -> list[int]:
        return [r.counted for r in self.rolls]

    def breakdown(self) -> JsonObject:
        return {
            "defender": self.defender,
            "posture": self.posture.as_json() if self.posture else None,
            "why": self.why,
            "rolls": [r.breakdown() for r in self.rolls],
            "totals": [*self.totals],
            "sum": sum(self.totals),
        }


def _pool_for(
    ledger: Ledger,
    cid: str,
    defense: str,
    posture: Posture | None,
) -> tuple[DefenseMode, Pool]:
    """M4 and M14: which mode a defense rolls under this posture, and its pool."""
    sheet = ledger.sheet(cid)
    if posture is None or (posture.kind == "riposte" and defense != "evasion"):
        return "passive", defense_pool(sheet, defense, "passive")
    sharpening = ledger.options.riposte_sharpening if posture.kind == "riposte" else 0
    return "active", defense_pool(
        sheet,
        defense,
        "active",
        effort=posture.effort,
        sharpening=sharpening,
        exhaustion=posture.exhaustion,
        wounded_penalty=ledger.wounded_penalty(cid),
    )


def _posture_note(ledger: Ledger, cid: str, posture: Posture | None) -> str:
    name = ledger.name(cid)
    if ledger.is_down(cid):
        return f"{name} is down and defends passively: the bare attribute for every defense"
    if posture is None:
        return (
            f"{name} holds no posture this round and defends passively: "
            "the bare attribute for every defense"
        )
    if posture.kind == "riposte":
        return (
            f"{name} is in Riposte: evasion active and sharpened, every other defense "
            "at the bare passive floor"
        )
    return (
        f"{name} is in {posture.kind.capitalize()}: every allowed defense active, "
        f"with {posture.effort} effort dice on each"
    )


def _roll_all(
    ledger: Ledger,
    tray: DiceTray,
    cid: str,
    weapon: Weapon,
    prefix: str,
    posture: Posture | None,
    *,
    floor_at_zero: bool,
) -> tuple[DefenseRoll, ...]:
    rolls = []
    for defense in weapon.defenses:
        mode, pool = _pool_for(ledger, cid, defense, posture)
        roll = roll_pool(
            tray,
            f"{prefix}.{cid}.{defense}",
            pool,
            success_on=ledger.options.success_on,
            luck_available=ledger.has_luck(cid),
        )
        if roll.luck_spent:
            ledger.spend_luck(cid)
        counted = max(0, roll.total) if floor_at_zero else roll.total
        rolls.append(DefenseRoll(defense, mode, roll, counted))
    return tuple(rolls)


def defend(ledger: Ledger, tray: DiceTray, target: str, weapon: Weapon) -> Defense:
    """The target's own defense: every defense the weapon allows, rolled together."""
    posture = ledger.posture(target)
    rolls = _roll_all(ledger, tray, target, weapon, "defense", posture, floor_at_zero=False)
    return Defense(target, posture, _posture_note(ledger, target, posture), rolls)


# -- the Dwarf's Ward (M13) ------------------------------------------------------


def warden_for(ledger: Ledger, target: str) -> tuple[str | None, list[JsonObject]]:
    """The front-most warding dwarf covering ``target``, with why each candidate was or was not.

    A dwarf covers allies at his own rank or behind him (a higher rank number), never
    one standing further forward, and never himself. On a tie of rank the one listed
    first in the encounter is taken, so that the choice never depends on chance.
    """
    victim = ledger.view.combatants[target]
    considered: list[JsonObject] = []
    wardens: list[tuple[int, int, str]] = []
    for order, (cid, c) in enumerate(ledger.view.combatants.items()):
        if cid == target or c.side != victim.side:
            continue
        posture = ledger.posture(cid)
        if posture is None or posture.kind != "ward":
            continue
        if c.rank > victim.rank:
            considered.append(
                {
                    "dwarf": cid,
                    "covers": False,
                    "why": f"{c.name} stands at rank {c.rank}, behind "
                    f"{victim.name} at rank {victim.rank}",
                }
            )
            continue
        considered.append(
            {
                "dwarf": cid,
                "covers": True,
                "why": f"{c.name} wards from rank {c.rank}; {victim.name} "
                f"stands at rank {victim.rank}",
            }
        )
        wardens.append((c.rank, order, cid))
    return (min(wardens)[2] if wardens else None), considered


@dataclass(frozen=True)
class Interception:
    dwarf: str
    margin_before: int
    defense: Defense

    @property
    def remaining(self) -> int:
        return self.margin_before - sum(self.defense.totals)

    @property
    def stopped(self) -> bool:
        return self.remaining <= 0

    def breakdown(self) -> JsonObject:
        return {
            "dwarf": self.dwarf,
            "margin_before": self.margin_before,
            **{k: v for k, v in self.defense.breakdown().items() if k != "defender"},
            "remaining": self.remaining,
            "stopped": self.stopped,
        }


def intercept(
    ledger: Ledger,
    tray: DiceTray,
    dwarf: str,
    weapon: Weapon,
    margin: int,
) -> Interception:
    """The dwarf throws his weight in: every allowed defense, active, each counted >= 0.

    Counting a below-nothing total as 0 is what keeps a fumbled interception from ever
    being the reason a blow lands.
    """
    posture = ledger.posture(dwarf)
    note = (
        f"{ledger.name(dwarf)} intercepts with every defense the attack allows, "
        "actively; a total below nothing counts as 0"
    )
    rolls = _roll_all(ledger, tray, dwarf, weapon, "ward", posture, floor_at_zero=True)
    return Interception(dwarf, margin, Defense(dwarf, posture, note, rolls))
