"""Resolving one action against a frozen view: shared by new actions and by replays."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import msgspec

from skald_campaign.domain.errors import NotFound
from skald_campaign.domain.play.actions import ConditionChange, RollRecord
from skald_campaign.domain.play.dice import DiceTray
from skald_campaign.domain.play.remembered_params import written
from skald_campaign.domain.reading.narrative import new_conditions_note
from skald_campaign.domain.records import Combatant, JSONObject, replace
from skald_campaign.domain.rulesets.base import (
    CombatantView,
    EncounterView,
    Frozen,
    Outcome,
    Ruleset,
)


class Resolved(msgspec.Struct, frozen=True):
    params: JSONObject
    outcome: Outcome
    rolls: tuple[RollRecord, ...]
    conditions_before: dict[str, list[str]]


def build_view(
    rules: Ruleset,
    round: int,
    options: JSONObject,
    combatants: Mapping[str, Combatant],
    *,
    turn_overridden: bool = False,
) -> EncounterView:
    return EncounterView(
        round=round,
        options=options,
        turn_overridden=turn_overridden,
        combatants={
            cid: combatant_view(rules, cid, c)
            for cid, c in combatants.items()
            if c.present  # one who left the fight (domain/play/gm_changes.py) is gone
        },
    )


def combatant_view(rules: Ruleset, cid: str, c: Combatant) -> CombatantView:
    sheet = rules.sheet(c.sheet)  # the typed sheet, read once per stored sheet
    return CombatantView(
        id=cid,
        name=c.name,
        side=c.side,
        rank=c.rank,
        sheet=sheet,
        tracks=dict(c.tracks),
        state=dict(c.state),
        conditions=rules.conditions(sheet, c.tracks, c.state),
    )


def resolve(
    rules: Ruleset,
    view: EncounterView,
    kind: str,
    actor: str | None,
    params: JSONObject,
    tray: DiceTray,
    *,
    strict_dice: bool = True,
    valid: Frozen | None = None,
) -> Resolved:
    """Validate and resolve; raises a DomainError when the action cannot happen now.

    ``valid``: ``params`` as the caller already validated them (an action that was
    checked for a waiting exchange first), so they are not validated a second time."""
    action_type = rules.action_type(kind)
    if valid is None:
        valid = rules.validate_params(kind, params)
    if actor is not None:
        if actor not in view.combatants:
            raise NotFound(f"actor '{actor}' is not a combatant in this encounter")
        rules.refuse_if_cannot_act(view.combatants[actor], kind)
    outcome = action_type.resolve(view, actor, valid, tray)
    if strict_dice:
        tray.close()  # refuses dice supplied for rolls the action did not make
    rolls = tuple(RollRecord.of(roll) for roll in tray.rolls)
    touched = sorted(set(outcome.tracks) | set(outcome.state))
    before = {cid: list(view.combatants[cid].conditions) for cid in touched}
    outcome = with_new_conditions(rules, view, outcome, before)
    return Resolved(written(valid), outcome, rolls, before)


def with_new_conditions(
    rules: Ruleset, view: EncounterView, outcome: Outcome, before: Mapping[str, Sequence[str]]
) -> Outcome:
    """The summary names the conditions the action brought on (issue 13)."""
    changes: dict[str, ConditionChange] = {}
    for cid, c in view.combatants.items():  # in the encounter's order, not the ids'
        if cid not in before:
            continue
        had = before[cid]
        after = rules.conditions(
            c.sheet, outcome.tracks.get(cid, c.tracks), outcome.state.get(cid, c.state)
        )
        changes[cid] = ConditionChange(tuple(had), after)
    note = new_conditions_note(changes, view.combatants, outcome.summary)
    if not note:
        return outcome
    return Outcome(outcome.summary + note, outcome.breakdown, outcome.tracks, outcome.state)


def apply_outcome(combatants: dict[str, Combatant], outcome: Outcome) -> None:
    for cid, values in outcome.tracks.items():
        combatants[cid] = replace(combatants[cid], tracks=dict(values))
    for cid, state in outcome.state.items():
        combatants[cid] = replace(combatants[cid], state=dict(state))
