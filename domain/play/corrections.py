"""Re-resolving an encounter's actions: the one path every correction takes.

Void, reroll, rewind and the campaign-wide carry-forward (domain/timeline.py) all
rebuild an encounter here, from its starting line-up, one record at a time. Each
record is kept as recorded, voided, superseded, rerolled with new dice, or
resolved again reading the faces its event recorded; a rerolled or re-resolved
record gets its summary, breakdown, effects and conditions from that resolution,
so a record never keeps what an earlier resolution said.

Only a roll that the original resolution never made (a defense the defender
could not roll back then, say) is rolled fresh, and the report says so. An
action that can no longer happen is voided as a consequence, with the reason.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import msgspec

from skald_campaign.domain.errors import ActionRefused, DomainError
from skald_campaign.domain.play.actions import ActionRecord, ConditionChange, Effects, RollRecord
from skald_campaign.domain.play.dice import DiceTray, Roller, seeded_roller
from skald_campaign.domain.play.exchanges import lenient_resolve
from skald_campaign.domain.play.gm_changes import (
    GM_KINDS,
    JOIN,
    CastChanged,
    GMParams,
    apply_gm_record,
)
from skald_campaign.domain.play.resolution import (
    apply_outcome,
    build_view,
    conditions_of,
    resolve,
)
from skald_campaign.domain.play.roll_preview import Preview, preview_rolls, technical_dice
from skald_campaign.domain.play.standing import KnownConditions
from skald_campaign.domain.play.table.corrections import (
    is_next_turn,
    made_with,
    no_longer_begun,
    rederive_next_turn,
    table_step_refusal,
)
from skald_campaign.domain.play.table.records import (
    INITIATIVE,
    POSITION_KINDS,
    TABLE_KINDS,
    Moved,
    Position,
)
from skald_campaign.domain.records import JSON, Combatant, JSONObject, Record, as_object, replace
from skald_campaign.domain.rulesets.base import EncounterView, Ruleset

ACTIVE = "active"
# What a replay does with one record.
KEEP = "keep"  # its recorded effects stand
RESOLVE = "resolve"  # resolved again with its recorded dice
VOID = "void"  # struck out by the correction
SUPERSEDE = "supersede"  # struck out by a rewind


@dataclass(frozen=True)
class Reroll:
    """Resolve the record with new dice: these faces, the roller for the rest."""

    dice: Mapping[str, list[int]] | None


Step = str | Reroll
Plan = Callable[[ActionRecord], Step]
# One report entry: what the correction did to one action (the answer's JSON).
Entry = dict[str, JSON]


class ReportLine(Record, frozen=True):
    """What a report entry says of its action's outcome, read back from its JSON."""

    status: str
    before: str | None = None
    after: str | None = None

    @classmethod
    def from_json(cls, entry: JSON) -> ReportLine:
        return msgspec.convert(entry, cls)


@dataclass
class Replay:
    combatants: dict[str, Combatant]
    records: list[ActionRecord]
    report: list[JSONObject] = field(default_factory=list)
    # The last turn change standing, when the replay moved where it landed (a lifted
    # skip, domain/play/table/corrections.py): where it stood, and where it stands now.
    turn_moved: tuple[Position, Position] | None = None
    # The conditions worked out so far (the encounter's, domain/play/standing.py): a
    # combatant's are asked of the rules only for values they never had.
    known: KnownConditions = field(default_factory=KnownConditions)

    @property
    def changed(self) -> list[JSONObject]:
        """The report's entries whose outcome is not what it was."""
        return [e for e in self.report if ReportLine.from_json(e).status != "unchanged"]


def correction_plan(first_changed: int, change: Step) -> Plan:
    """Action ``first_changed`` gets ``change``; active actions after it are resolved again."""

    def plan(record: ActionRecord) -> Step:
        if record.status != ACTIVE or record.number < first_changed:
            return KEEP
        return change if record.number == first_changed else RESOLVE

    return plan


def resolve_all(record: ActionRecord) -> Step:
    """The carry-forward's plan: the starting line-up changed, so every action follows."""
    return RESOLVE if record.status == ACTIVE else KEEP


def rewind_plan(
    past: Sequence[ActionRecord], current: Sequence[ActionRecord]
) -> tuple[list[ActionRecord], Plan]:
    """A rewind to how an encounter stood with the ``past`` actions: the records to replay
    (those, then the later current ones) and the plan (every active later action is
    superseded, kept on record; the rest stand). Open and ended fights both use it."""
    kept = len(past)

    def plan(record: ActionRecord) -> Step:
        later = record.number > kept and record.status == ACTIVE
        return SUPERSEDE if later else KEEP

    return [*past, *current[kept:]], plan


def replay(
    rules: Ruleset,
    options: JSONObject,
    initial: Mapping[str, Combatant],
    records: Sequence[ActionRecord],
    plan: Plan,
    roller: Roller,
    known: KnownConditions | None = None,
) -> Replay:
    """Rebuild the encounter from ``initial``, doing to each record what ``plan`` says
    (``known``: the encounter's conditions worked out so far, added to as it goes)."""
    state = Replay(dict(initial), [], known=KnownConditions() if known is None else known)
    # A turn change re-derived walks into its new round itself: the round's start
    # records wait for it, so what it passes over is judged before them, as it was.
    waits_for = _new_round_records(records, plan)
    waiting: dict[int, list[ActionRecord]] = {}
    last_turn = _last_turn_standing(records, plan)
    for record in records:
        step = plan(record)
        if record.number in waits_for:
            waiting.setdefault(waits_for[record.number], []).append(record)
            continue
        if step == RESOLVE and is_next_turn(record):
            made = waiting.pop(record.number, [])
            _replay_turn(rules, options, record, made, state, roller, last_turn)
            continue
        _replay_one(rules, options, record, step, state, roller)
    return state


def _replay_one(
    rules: Ruleset,
    options: JSONObject,
    record: ActionRecord,
    step: Step,
    state: Replay,
    roller: Roller,
) -> None:
    """One record's step of the replay."""
    if step == KEEP:
        if record.status == ACTIVE:
            _apply_effects(state.combatants, record.effects)
        state.records.append(record)
    elif step in (VOID, SUPERSEDE):
        status = "voided" if step == VOID else "superseded"
        state.records.append(replace(record, status=status))
        if step == SUPERSEDE:
            state.report.append(_entry(record, None, "superseded"))
    elif record.kind in GM_KINDS:
        state.records.append(_reapply_gm_record(rules, record, state))
    elif record.kind in TABLE_KINDS:
        state.records.append(_recheck_table_record(record, state))
    elif isinstance(step, Reroll):
        tray = DiceTray(roller, _rule_names(rules, options, record, state, step.dice))
        state.records.append(_resolve_record(rules, options, record, state, tray, True))
    else:
        recorded = {r.name: list(r.faces) for r in record.rolls}
        tray = DiceTray(roller, recorded, refitting=True)
        state.records.append(_resolve_record(rules, options, record, state, tray, False))
    if record.kind == JOIN:
        _out_if_struck(state, state.records[-1])


def _new_round_records(records: Sequence[ActionRecord], plan: Plan) -> dict[int, int]:
    """The records a "next turn" made as it began a new round (bleeding, initiative
    again), each to that turn change's number, where all are resolved again with it."""
    by_number = {r.number: r for r in records}
    waits: dict[int, int] = {}
    for record in records:
        if record.status != ACTIVE or not is_next_turn(record) or plan(record) != RESOLVE:
            continue
        made = sorted(made_with(record))
        if not made or made != list(range(made[0], record.number)):
            continue
        found = [by_number.get(n) for n in made]
        if all(r is not None and r.status == ACTIVE and plan(r) == RESOLVE for r in found):
            waits.update({n: record.number for n in made})
    return waits


@dataclass(frozen=True)
class LastTurn:
    """The last "next turn" a correction leaves standing (no record that moves the turn
    stands after it): the turn stands where it lands, so a lifted skip may move it.
    ``may_undo_round``: nothing but the table's records stands in the round it began
    after it, so landing before that round's start undoes no one's action."""

    number: int
    may_undo_round: bool


def _last_turn_standing(records: Sequence[ActionRecord], plan: Plan) -> LastTurn | None:
    standing = [r for r in records if r.status == ACTIVE and plan(r) not in (VOID, SUPERSEDE)]
    moves = [r for r in standing if r.kind in POSITION_KINDS]
    if not moves or not is_next_turn(moves[-1]):
        return None
    last = moves[-1]
    begun = Moved.from_json(last.params).before.round + 1
    acted = any(
        r.number > last.number and r.kind not in TABLE_KINDS and r.round >= begun for r in standing
    )
    return LastTurn(last.number, not acted)


def _replay_turn(
    rules: Ruleset,
    options: JSONObject,
    record: ActionRecord,
    made: list[ActionRecord],
    state: Replay,
    roller: Roller,
    last_turn: LastTurn | None,
) -> None:
    """A "next turn" re-derived on the corrected state (domain/play/table/corrections.py)."""

    def run_new_round() -> tuple[str, ...] | None:
        order = None
        for start_record in made:
            _replay_one(rules, options, start_record, RESOLVE, state, roller)
            replayed = state.records[-1]
            if replayed.kind == INITIATIVE and replayed.status == ACTIVE:
                order = Position.from_json(replayed.params["to"]).order
        return order

    may_move = last_turn is not None and record.number == last_turn.number
    if may_move and last_turn is not None and not last_turn.may_undo_round:
        before = Moved.from_json(record.params).before
        may_move = Position.from_json(record.params["to"]).round == before.round
    again, began = rederive_next_turn(
        rules, options, record, state.combatants, run_new_round, may_move, state.known
    )
    if made and not began:
        names = {cid: c.name for cid, c in state.combatants.items()}
        for start_record in made:
            why = no_longer_begun(again, start_record, names)
            state.report.append({**_entry(start_record, None, "voided"), "why": why})
            state.records.append(replace(start_record, status="voided", voided_because=why))
    state.records.append(again)
    same = again is record
    state.report.append(_entry(record, again.summary, "unchanged" if same else "changed"))
    if not same and may_move:
        was = Position.from_json(record.params["to"])
        now = Position.from_json(again.params["to"])
        if was != now:
            state.turn_moved = (was, now)


def _out_if_struck(state: Replay, record: ActionRecord) -> None:
    """A mid-fight join that the correction struck out (a rewind to before it, a void of
    it) leaves the joiner listed as out of the fight with the values they joined with:
    the encounter still names them, so its end hands them back to the roster as they
    came (and frees them for another fight), and what happened to them after the join
    is undone with the rest."""
    gm = GMParams.from_json(record.params)
    if record.status != ACTIVE and gm.target not in state.combatants:
        joined = Combatant.from_json(as_object(gm.combatant))
        state.combatants[gm.target] = replace(joined, present=False)


def _rule_names(
    rules: Ruleset,
    options: JSONObject,
    record: ActionRecord,
    state: Replay,
    dice: Mapping[str, list[int]] | None,
) -> dict[str, list[int]] | None:
    """A reroll's dice under the rolls' rule names: the table may name a roll as the
    action's record and the preview show it ("Ogre's hit") or by its short name
    ("hit"), as actions recorded before the human names were taken; both reroll."""
    if not dice:
        return None
    view = _reroll_view(rules, options, record, state)
    renamed, _ = technical_dice(rules, view, record.kind, record.actor, record.params, dice)
    return renamed


def refuse_unless_rerollable(record: ActionRecord) -> None:
    """A reroll rolls an active action of the rules again: not a GM's change (no dice), not
    a table record (initiative is voided and rolled again), not one already struck out."""
    number = record.number
    if record.status != ACTIVE:
        raise ActionRefused(f"action {number} is already {record.status}")
    if record.kind in GM_KINDS:
        raise ActionRefused(f"action {number} is the GM's change, with no dice to roll")
    if record.kind in TABLE_KINDS:
        raise ActionRefused(
            f"action {number} is the table's {record.kind}: void it (and roll initiative again)"
        )


def reroll_rolls(
    rules: Ruleset,
    options: JSONObject,
    initial: Mapping[str, Combatant],
    records: Sequence[ActionRecord],
    record: ActionRecord,
) -> Preview:
    """The rolls a reroll of ``record`` takes, by the names the table may use: the action
    as the reroll resolves it again, on the state the replay brings it to (every earlier
    record as it stands: the reroll's own plan), in its own round; never the fight as it
    stands now (a posture lapsed since, a pool shrunk since, change nothing here, as they
    change nothing in the reroll)."""
    refuse_unless_rerollable(record)
    earlier = [r for r in records if r.number < record.number]
    plan = correction_plan(record.number, Reroll(None))
    # Every earlier record is kept as it stands, and keeping never rolls.
    state = replay(rules, options, initial, earlier, plan, seeded_roller(0))
    view = _reroll_view(rules, options, record, state)
    return preview_rolls(rules, view, record.kind, record.actor, record.params)


def _reroll_view(
    rules: Ruleset, options: JSONObject, record: ActionRecord, state: Replay
) -> EncounterView:
    """What ``record`` meets when it is resolved again: the state so far, in its round."""
    # An action the GM let through out of turn or once too often (its record carries the
    # override) is replayed as allowed: a ruleset's own once-a-round rule yields to it.
    overridden = record.override is not None
    return build_view(
        rules,
        record.round,
        options,
        state.combatants,
        turn_overridden=overridden,
        known=state.known,
    )


def _voided(record: ActionRecord, state: Replay, error: DomainError) -> ActionRecord:
    state.report.append({**_entry(record, None, "voided"), "why": error.message})
    return replace(record, status="voided", voided_because=error.message)


def _resolve_record(
    rules: Ruleset,
    options: JSONObject,
    record: ActionRecord,
    state: Replay,
    tray: DiceTray,
    rerolled: bool,
) -> ActionRecord:
    """Resolve ``record`` against the state so far; the new record and a report entry."""
    view = _reroll_view(rules, options, record, state)
    try:
        if rerolled:  # the one rule for supplied dice (docs/corrections.md), as an action's
            resolved = lenient_resolve(
                rules, view, record.kind, record.actor, record.params, tray, known=state.known
            )
        else:
            resolved = resolve(
                rules,
                view,
                record.kind,
                record.actor,
                record.params,
                tray,
                strict_dice=False,
                known=state.known,
            )
    except DomainError as error:
        if rerolled:  # the GM's new dice do not fit: refuse the reroll itself
            raise
        return _voided(record, state, error)
    recorded = {r.name: r for r in record.rolls}
    if rerolled:
        rolls = resolved.rolls
    else:
        rolls = tuple(
            replace(roll, supplied=recorded[roll.name].supplied)
            if roll.name in recorded
            else replace(roll, new=True)
            for roll in resolved.rolls
        )
    apply_outcome(state.combatants, resolved.outcome)
    outcome = resolved.outcome
    new_record = replace(
        record,
        params=resolved.params,
        rolls=rolls,
        summary=outcome.summary,
        breakdown=outcome.breakdown,
        effects=Effects(tracks=outcome.tracks, state=outcome.state),
        conditions={
            cid: ConditionChange(tuple(before), resolved.conditions_after[cid])
            for cid, before in resolved.conditions_before.items()
        },
        told=None,  # its texts are the new resolution's (domain/encounter/telling.py)
    )
    if rerolled:
        state.report.append(_entry(record, outcome.summary, "rerolled"))
        return replace(new_record, rerolled=True)
    same = (outcome.summary, outcome.breakdown) == (record.summary, record.breakdown)
    state.report.append(
        {
            **_entry(record, outcome.summary, "unchanged" if same else "changed"),
            "new_rolls": [r.name for r in rolls if r.new],
            "refitted_rolls": _refitted(rolls),
            "unused_rolls": sorted(set(recorded) - {roll.name for roll in resolved.rolls}),
        }
    )
    return new_record


def _refitted(rolls: Sequence[RollRecord]) -> dict[str, JSON]:
    return {r.name: r.adjusted for r in rolls if r.adjusted is not None}


def _reapply_gm_record(rules: Ruleset, record: ActionRecord, state: Replay) -> ActionRecord:
    """A GM's change made again on the state as it now stands (no dice to read)."""
    try:
        changed = apply_gm_record(rules, record.kind, record.params, state.combatants)
    except DomainError as error:
        return _voided(record, state, error)
    effects = gm_effects(GMParams.from_json(record.params).target, changed.combatant)
    _apply_effects(state.combatants, effects)
    same = changed.breakdown == record.breakdown
    state.report.append(_entry(record, changed.summary, "unchanged" if same else "changed"))
    return replace(
        record,
        summary=changed.summary,
        breakdown=changed.breakdown,
        effects=effects,
        told=None,  # its texts are the change's made again (domain/encounter/telling.py)
    )


def _recheck_table_record(record: ActionRecord, state: Replay) -> ActionRecord:
    """A table record in its place again: it stands unless what it took off is gone."""
    why = table_step_refusal(record, state.records)
    if why is not None:
        state.report.append({**_entry(record, None, "voided"), "why": why})
        return replace(record, status="voided", voided_because=why)
    state.report.append(_entry(record, record.summary, "unchanged"))
    return record


def gm_effects(target: str, combatant: Combatant) -> Effects:
    """A GM record's effects: the whole combatant (sheet, rank, presence), tracks, state."""
    return Effects(
        tracks={target: dict(combatant.tracks)},
        state={target: dict(combatant.state)},
        combatants={target: combatant},
    )


def gm_record(
    rules: Ruleset,
    kind: str,
    params: JSONObject,
    changed: CastChanged,
    before: Sequence[str],
    number: int,
    round: int,
    by: str,
    known: KnownConditions | None = None,
) -> ActionRecord:
    """The record of a GM change made in the fight (``before``: the target's conditions;
    ``known``: the encounter's, where the target's new ones are worked out once)."""
    target = GMParams.from_json(params).target
    now = changed.combatant
    return ActionRecord(
        number=number,
        round=round,
        kind=kind,
        actor=None,
        params=params,
        rolls=(),
        summary=changed.summary,
        breakdown=changed.breakdown,
        by=by,
        status=ACTIVE,
        effects=gm_effects(target, now),
        conditions={
            target: ConditionChange(tuple(before), conditions_of(rules, known, target, now))
        },
    )


def _entry(record: ActionRecord, after: str | None, status: str) -> Entry:
    entry: Entry = {
        "number": record.number,
        "kind": record.kind,
        "before": record.summary,
        "after": after,
        "status": status,
    }
    if record.hidden:  # T3: its summaries state hidden dice; players see neither
        entry["hidden"] = True
    return entry


def _apply_effects(combatants: dict[str, Combatant], effects: Effects) -> None:
    combatants.update(effects.combatants or {})
    for cid, tracks in effects.tracks.items():
        combatants[cid] = replace(combatants[cid], tracks=dict(tracks))
    for cid, values in effects.state.items():
        combatants[cid] = replace(combatants[cid], state=values)
