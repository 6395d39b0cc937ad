"""d20's odds helpers (docs/odds.md): an outcome's result and a shove's extras, and the
attacks a combatant can make."""

from __future__ import annotations

from skald_campaign.domain.rulesets.d20.sheet import D20Sheet
from skald_campaign.ruleset_api import CombatantView, JsonMapping, read_sheet
from skald_campaign.ruleset_api.odds import Choice, Extras, count, object_at, success_at


def result(kind: str, b: JsonMapping) -> str | None:
    if kind == "attack":
        return "hit" if success_at(b, "hit") else "miss"
    if b.get("refused"):
        return "refused"
    if kind == "shove":
        if not success_at(b, "roll"):
            return "failure"
        return "double_success" if object_at(b, "double_success")["result"] else "success"
    return None


def extras(kind: str, b: JsonMapping) -> Extras:
    if kind != "shove":
        return ()
    moved = object_at(b, "displacement")
    return (
        ("distance_feet", count(moved.get("moved_feet", 0))),
        ("stopped_by", str(moved.get("stopped_by") or "nothing")),
    )


def attack_choices(attacker: CombatantView, target: str) -> list[Choice]:
    """Each weapon, then a shove."""
    return [
        Choice(name, "attack", {"target": target, "weapon": name})
        for name in (w.name for w in read_sheet(D20Sheet, attacker.sheet).weapons)
    ] + [Choice("shove", "shove", {"target": target})]
