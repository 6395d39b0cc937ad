"""Recovery in the fight, and the GM's wound bookkeeping."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, StrictBool

from skald_campaign.domain.rulesets.stamina_body import rules
from skald_campaign.domain.rulesets.stamina_body.sheet import sheet_of
from skald_campaign.domain.rulesets.stamina_body.tracks import Pools, pools_of
from skald_campaign.ruleset_api import (
    ActionRefused,
    DiceTray,
    EncounterView,
    Frozen,
    InvalidInput,
    JsonMapping,
    JsonObject,
    Outcome,
)


class Recover(Frozen):
    """Spend the action catching breath: 3d6 against CON, Stamina only."""


def recovery_gain(check: rules.Check) -> tuple[int, str]:
    if check.roll == 18:
        return 0, "natural 18: nothing, the moment is wasted"
    if not check.success:
        return 1, f"failure ({check.note}): +1"
    return max(1, check.margin), f"success by {check.margin}: +max(1, {check.margin})"


def resolve_recover(
    view: EncounterView, actor: str | None, params: Recover, tray: DiceTray
) -> Outcome:
    if actor is None:
        raise InvalidInput("recovery needs an actor: the combatant catching their breath")
    who = view.combatant(actor, "actor")
    sheet = sheet_of(who)
    result = rules.check(tray.roll("recovery", 3, 6).total, sheet.con)
    gain, why = recovery_gain(result)
    maximum = sheet.stamina_max
    pools = pools_of(who)
    before = pools.stamina
    after = max(before, min(maximum, before + gain))
    breakdown: JsonObject = {
        "check": result.breakdown(),
        "gain": gain,
        "why": why,
        "stamina": {"before": before, "after": after, "max": maximum},
        "capped": before + gain > after,
        "body": "recovery never heals Body",
    }
    tracks = Pools(after, pools.body).as_json()
    summary = f"{who.name} recovers {after - before} Stamina"
    return Outcome(summary, breakdown, {who.id: tracks})


WoundFlag = Literal["piercing_wound", "broken_bones", "severe_bruising"]


class MarkWound(Frozen):
    """The GM records (present=true) or ends (present=false) a wound condition."""

    target: str = Field(description="the one whose wound is marked or ended: their combatant id")
    wound: WoundFlag
    present: StrictBool = True
    reason: str = Field(default="", max_length=500)


def refuse_ending_an_absent_wound(name: str, state: JsonMapping, wound: str, present: bool) -> None:
    """Ending a wound the character does not have is refused, in a fight or between fights,
    as treat_wound refuses treating a piercing wound that is not there."""
    if present or state.get(wound):
        return
    if wound == "piercing_wound":
        raise ActionRefused(f"{name} has no untreated piercing wound to treat")
    raise ActionRefused(f"{name} has no {wound.replace('_', ' ')} to end")


def resolve_mark_wound(
    view: EncounterView, actor: str | None, params: MarkWound, tray: DiceTray
) -> Outcome:
    who = view.combatant(params.target, "target")
    refuse_ending_an_absent_wound(who.name, who.state, params.wound, params.present)
    state = dict(who.state)
    was = bool(state.get(params.wound))
    state[params.wound] = params.present
    verb = "now has" if params.present else "no longer has"
    breakdown: JsonObject = {
        "wound": params.wound,
        "before": was,
        "after": params.present,
        "reason": params.reason,
    }
    label = params.wound.replace("_", " ")
    return Outcome(f"{who.name} {verb} {label}", breakdown, state={who.id: state})


class TreatWound(Frozen):
    """Treat a piercing wound: it stops slowing Body's healing."""

    target: str = Field(description="the one treated: their combatant id")
    reason: str = Field(default="", max_length=500)


def resolve_treat_wound(
    view: EncounterView, actor: str | None, params: TreatWound, tray: DiceTray
) -> Outcome:
    who = view.combatant(params.target, "target")
    refuse_ending_an_absent_wound(who.name, who.state, "piercing_wound", False)
    state = {**who.state, "piercing_wound": False}
    breakdown: JsonObject = {"wound": "piercing_wound", "treated": True, "reason": params.reason}
    return Outcome(f"{who.name}'s piercing wound is treated", breakdown, state={who.id: state})
