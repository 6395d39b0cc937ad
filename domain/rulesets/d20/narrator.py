"""d20's plain narrative of an action record (the action view's ``narrative``): every
d20 check in the breakdown with its terms, the damage dice and the hit points."""

from __future__ import annotations

from collections.abc import Mapping

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
            d20_checks(inner, lines)
    elif isinstance(value, list):
        for inner in value:
            d20_checks(inner, lines)


def d20(record: JSONObject, combatants: Roster) -> list[str]:
    told = read(record, bd.D20Told)
    lines: list[str] = []
    d20_checks(told.breakdown, lines)
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
