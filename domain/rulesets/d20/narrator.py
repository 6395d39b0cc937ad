"""d20's plain narrative of an action record (the action view's ``narrative``): every
d20 check in the breakdown with its terms, the damage dice and the hit points."""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from skald_campaign.domain.rulesets.d20 import records as bd
from skald_campaign.ruleset_api import JSONObject
from skald_campaign.ruleset_api.narrative import Roster, faces, name_of
from skald_campaign.ruleset_api.records import given, read, target_of


def forceful_verdict(double_success: Mapping[str, object]) -> str:
    """What Forceful Defense did to a shove's double success: ruled it out only when the
    defender's FR bonus exceeds the attacker's (seed 004); otherwise a double success
    stands or falls on the roll alone. A record without the flag reads as before."""
    if double_success.get("forceful_defense") is False:
        return "a double success is not ruled out"
    return "no double success"


def behind(feet: int) -> str:
    """Where the wall or the hazard is: '2 ft behind them', or 'right behind them' at
    0 ft (the push meets it at once), where '0 ft behind them' was true but odd."""
    return "right behind them" if feet == 0 else f"{feet} ft behind them"


def pit_stop(pushed: bd.Pushed, target: str) -> tuple[str, tuple[str, str, str]]:
    """Seed 004's Pit-Stop Rule, told: "If a Shove would push a defender into a hazard
    [...] the defender gets an immediate Save vs. Death Ray to catch the ledge or stop at
    the very edge before the hazard triggers". The push and the edge, then the save in
    three pieces: the die, its comparison with the target's save number (its sheet's),
    and the verdict with what it did (the rules' words)."""
    h, feet, at = pushed.hazard, pushed.displacement.value, pushed.terrain.hazard_at_feet
    push = (
        f"{target} is pushed towards {h.hazard}, {behind(at)}, within the shove's "
        f"{feet} ft: a Save vs Death Ray to stop at the very edge"
    )
    compared = f" {'>=' if h.saved else '<'} {h.save_vs_death_ray}"
    verdict = f": {'success' if h.saved else 'failure'}; {target} {h.result}"
    return push, (f"Save vs Death Ray: d20 {h.d20}", compared, verdict)


class WallWords(NamedTuple):
    """A push into a wall, told in pieces, each its owner's: the push and the wall
    (every reader's), the dice's why (it states the attacker's FR bonus), the dice
    (open), the damage through AV (the target's) and the target's hit points."""

    push: str
    why: str
    dice: str | None
    arithmetic: str | None
    hp: bd.BeforeAfter | None


def into_the_wall(walled: bd.Walled, target: str) -> WallWords:
    """Seed 004: "A target pushed into a wall before its distance is spent takes one
    shove die of damage per full 2 points of the attacker's FR bonus (at least one),
    through AV" (RULINGS D6)."""
    wall, feet, at = walled.wall, walled.displacement.value, walled.terrain.wall_at_feet
    push = (
        f"{target} is pushed into the wall, {behind(at)}, with {wall.unused_feet} of "
        f"the shove's {feet} ft unspent"
    )
    dice = None
    if wall.faces is not None and walled.shove_die is not None:
        n = wall.shove_dice
        dice = (
            f"Wall damage: {n} shove {'die' if n == 1 else 'dice'} ({walled.shove_die.die}), "
            f"rolled {faces(wall.faces)}"
        )
    arithmetic = None if wall.damage is None else wall.damage.arithmetic
    return WallWords(push, wall.why, dice, arithmetic, wall.hp)


class ThrowWords(NamedTuple):
    """A throw's damage, told in pieces, each its owner's: the dice (open), the damage
    through AV (the thrown one's AV) and the thrown one's hit points."""

    dice: str
    arithmetic: str | None
    hp: bd.BeforeAfter | None


def thrown_down(threw: bd.Threw) -> ThrowWords | None:
    """A successful throw's shove dice through AV (RULES.md: `throw_damage_dice` shove
    dice, the thrown one's size die stepped by the thrower's FR; seed 004: "AV applies to
    all physical damage including [...] Wrestling damage"). None when no die was rolled."""
    thrown = threw.throw_damage
    if thrown.faces is None or thrown.shove_die is None:
        return None
    n = thrown.shove_dice
    dice = (
        f"Throw damage: {n} shove {'die' if n == 1 else 'dice'} ({thrown.shove_die.die}), "
        f"rolled {faces(thrown.faces)}"
    )
    arithmetic = None if thrown.damage is None else thrown.damage.arithmetic
    return ThrowWords(dice, arithmetic, thrown.hp)


def thrown_one(summary: str, combatants: Roster) -> str:
    """The one a throw's summary says was thrown ('Bran throws Ogre to the ground'): a
    throw names nobody in its parameters (the hold says whom); the longest name that
    fits ('Goblin 2' before 'Goblin'), names being unique in a campaign."""
    names = [c.name for c in combatants.values() if f" throws {c.name} to the ground" in summary]
    return max(names, key=len, default="")


def d20_checks(value: object, lines: list[str]) -> None:
    """Every d20 check in the breakdown, in order, with its terms and any surprise."""
    if isinstance(value, Mapping):
        if "d20" in value and "comparison" in value:
            check = read(value, bd.D20Check)
            terms = " ".join(f"{t.value:+d} {t.name}" for t in check.terms)
            verdict = "success" if check.success else "failure"
            lines.append(f"d20 {check.d20} {terms} = {check.total}: {check.comparison}")
            lines.append(f"{check.against} {check.target}: {verdict}")
            if check.note:
                lines.append(check.note)
            return
        for key, inner in value.items():
            if key == "forceful_defense_why" and inner:
                lines.append(f"Forceful Defense: {inner}; {forceful_verdict(value)}")
            if key == "hazard" and isinstance(inner, Mapping):
                continue  # a save, not a check: told by pit_stop, after the checks
            d20_checks(inner, lines)
    elif isinstance(value, list):
        for inner in value:
            d20_checks(inner, lines)


def d20(record: JSONObject, combatants: Roster) -> list[str]:
    told = read(record, bd.D20Told)
    lines: list[str] = []
    d20_checks(told.breakdown, lines)
    if isinstance(told.breakdown.get("hazard"), Mapping):
        target = name_of(combatants, target_of(given(told.params), ""))
        push, save = pit_stop(read(told.breakdown, bd.Pushed), target)
        lines += [push, "".join(save)]
    if isinstance(told.breakdown.get("wall"), Mapping):
        target = name_of(combatants, target_of(given(told.params), ""))
        wall = into_the_wall(read(told.breakdown, bd.Walled), target)
        lines.append(f"{wall.push}: {wall.why}")
        lines += [said for said in (wall.dice, wall.arithmetic) if said]
        if wall.hp is not None:
            lines.append(f"{target}: HP {wall.hp.before} -> {wall.hp.after}")
    if isinstance(told.breakdown.get("throw_damage"), Mapping):
        throw = thrown_down(read(told.breakdown, bd.Threw))
        if throw is not None:
            lines += [said for said in (throw.dice, throw.arithmetic) if said]
            if throw.hp is not None:
                target = thrown_one(told.summary, combatants)
                lines.append(f"{target}: HP {throw.hp.before} -> {throw.hp.after}")
    b = read(told.breakdown, bd.D20Breakdown)
    if isinstance(b.damage, Mapping) and "faces" in b.damage:
        damage = read(b.damage, bd.D20Damage)
        lines.append(f"Damage {damage.dice}: rolled {faces(damage.faces)}")
        lines += [said for said in (damage.why, damage.formula, damage.arithmetic) if said]
    if isinstance(b.hp, Mapping):
        hp = read(b.hp, bd.BeforeAfter)
        target = name_of(combatants, target_of(given(told.params), ""))
        lines.append(f"{target}: HP {hp.before} -> {hp.after}")
    lines.append(told.summary)
    return lines
