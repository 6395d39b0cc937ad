"""Resolving one action against a frozen view: shared by new actions and by replays."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import msgspec

from skald_campaign.domain.errors import NotFound
from skald_campaign.domain.play.actions import ConditionChange, RollRecord
from skald_campaign.domain.play.dice import DiceTray
from skald_campaign.domain.play.remembered_params import written
from skald_campaign.domain.play.standing import KnownConditions
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
    # Each touched combatant's conditions once the outcome is applied, worked out once
    # here (the summary names what they gained) and found again by whatever reads them
    # next: the event's application, the answer, the next view (domain/play/standing.py).
    conditions_after: dict[str, tuple[str, ...]] = {}


def build_view(
    rules: Ruleset,
    round: int,
    options: JSONObject,
    combatants: Mapping[str, Combatant],
    *,
    turn_overridden: bool = False,
    known: KnownConditions | None = None,
) -> EncounterView:
    """The fight as the rules see it. ``known``: the conditions already worked out for
    these combatants (the encounter's, domain/play/standing.py), so that only those whose
    values changed since are asked of the rules; none, all of them are."""
    known = KnownConditions() if known is None else known
    return EncounterView(
        round=round,
        options=options,
        turn_overridden=turn_overridden,
        combatants={
            cid: combatant_view(rules, cid, c, known)
            for cid, c in combatants.items()
            if c.present  # one who left the fight (domain/play/gm_changes.py) is gone
        },
    )


def combatant_view(
    rules: Ruleset, cid: str, c: Combatant, known: KnownConditions | None = None
) -> CombatantView:
    sheet = rules.sheet(c.sheet)  # the typed sheet, read once per stored sheet
    known = KnownConditions() if known is None else known
    return CombatantView(
        id=cid,
        name=c.name,
        side=c.side,
        rank=c.rank,
        sheet=sheet,
        tracks=dict(c.tracks),
        state=dict(c.state),
        conditions=known.of(rules, cid, sheet, c.tracks, c.state),
    )


def conditions_of(
    rules: Ruleset, known: KnownConditions | None, cid: str, c: Combatant
) -> tuple[str, ...]:
    """One combatant's conditions as they stand: known, or worked out once."""
    known = KnownConditions() if known is None else known
    return known.of(rules, cid, rules.sheet(c.sheet), c.tracks, c.state)


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
    known: KnownConditions | None = None,
    note_conditions: bool = True,
) -> Resolved:
    """Validate and resolve; raises a DomainError when the action cannot happen now.

    ``valid``: ``params`` as the caller already validated them (an action that was
    checked for a waiting exchange first), so they are not validated a second time.
    ``known``: the conditions worked out so far (``build_view``'s), where the touched
    combatants' new ones are worked out once and kept. ``note_conditions`` False: what
    the action brings on is not worked out (a preview that only reads the rolls)."""
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
    if not note_conditions:
        return Resolved(written(valid), outcome, rolls, before)
    changes = new_conditions(rules, view, outcome, before, known)
    outcome = with_new_conditions(view, outcome, changes)
    after = {cid: change.after for cid, change in changes.items()}
    return Resolved(written(valid), outcome, rolls, before, after)


def new_conditions(
    rules: Ruleset,
    view: EncounterView,
    outcome: Outcome,
    before: Mapping[str, Sequence[str]],
    known: KnownConditions | None = None,
) -> dict[str, ConditionChange]:
    """Each touched combatant's conditions before and after the outcome, in the
    encounter's order (not the ids'): the after worked out once, and kept in ``known``."""
    known = KnownConditions() if known is None else known
    changes: dict[str, ConditionChange] = {}
    for cid, c in view.combatants.items():
        if cid not in before:
            continue
        tracks = outcome.tracks.get(cid, c.tracks)
        state = outcome.state.get(cid, c.state)
        changes[cid] = ConditionChange(
            tuple(before[cid]), known.of(rules, cid, c.sheet, tracks, state)
        )
    return changes


def with_new_conditions(
    view: EncounterView, outcome: Outcome, changes: Mapping[str, ConditionChange]
) -> Outcome:
    """The summary names the conditions the action brought on (issue 13)."""
    note = new_conditions_note(changes, view.combatants, outcome.summary)
    if not note:
        return outcome
    return Outcome(outcome.summary + note, outcome.breakdown, outcome.tracks, outcome.state)


def apply_outcome(combatants: dict[str, Combatant], outcome: Outcome) -> None:
    for cid, values in outcome.tracks.items():
        combatants[cid] = replace(combatants[cid], tracks=dict(values))
    for cid, state in outcome.state.items():
        combatants[cid] = replace(combatants[cid], state=dict(state))
