"""How the one correction path treats the table's records (domain/play/table/records.py).

A replay keeps initiative rolls, previous turns and delays as recorded. A "next turn"
it re-derives (RULINGS T1 amended: a correction lifts what it undoes): each one it
passed over is checked again on the corrected state, so a combatant the corrected
history leaves able to act is no longer "passed over" with a reason that is gone.
The last turn change standing (the one the turn stands on now) lands on the first
of them: the turn is theirs again, and a new round it began only by passing them is
not begun (its bleeding and re-rolled initiative are voided with the reason), unless
something other than the table already happened in that round. An earlier turn
change keeps where it landed, since the turns after it were played from there; it
only stops naming them. Conditions are never stored, so they follow the tracks.

It also checks again each record that takes a marker off: an expiry whose turn
change no longer stands, or a removal or expiry of a marker that no longer stands,
is voided as a consequence, with the reason. So a rewind to before an expiry, or a
void of the turn change that caused it, brings the marker back; a void of the
marker's own record takes it off.

A turn change (or an initiative roll) is voided while it is the last one standing:
the turn goes back to where it stood before it, and the records it made on its way
(a new round's bleeding and re-rolled initiative) are voided with it. Anything that
happened in a round it began, other than those, must be undone first (or rewind).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from skald_campaign.domain.errors import ActionRefused
from skald_campaign.domain.play.actions import ActionRecord, as_ints, as_list
from skald_campaign.domain.play.options import table_options
from skald_campaign.domain.play.standing import KnownConditions
from skald_campaign.domain.play.table.commands import turn_summary, unable
from skald_campaign.domain.play.table.params import MarkPlaced, TakenOff
from skald_campaign.domain.play.table.records import (
    END,
    EXPIRE,
    MARK,
    POSITION_KINDS,
    START,
    TABLE_KINDS,
    TURN,
    UNMARK,
    Moved,
    Position,
)
from skald_campaign.domain.records import JSON, Combatant, JSONObject, as_object, replace
from skald_campaign.domain.rulesets.base import Ruleset

ACTIVE = "active"
KEEP, RESOLVE, VOID = "keep", "resolve", "void"


def made_with(record: ActionRecord) -> set[int]:
    """The records a turn change made on its way (a new round's)."""
    made = record.params.get("with")
    return set(as_ints(made)) if made is not None else set()


def position_void(
    records: Sequence[ActionRecord], found: ActionRecord
) -> tuple[Callable[[ActionRecord], str], Position]:
    """The plan of a void of turn change (or initiative roll) ``found``, and where the
    turn then stands: where it stood before it."""
    number = found.number
    before = Moved.from_json(found.params).before
    made = made_with(found)
    standing = [r for r in records[number:] if r.status == ACTIVE and r.number not in made]
    for later in sorted(standing, key=lambda r: (r.kind not in POSITION_KINDS, r.number)):
        if later.kind in POSITION_KINDS:
            raise ActionRefused(
                f"action {later.number} ({later.summary}) moved the turn after it: void "
                f"that first, or rewind"
            )
        if later.kind not in TABLE_KINDS and later.round > before.round:
            raise ActionRefused(
                f"action {later.number} ({later.summary}) happened in round {later.round}, "
                f"which action {number} began: void it first, or rewind"
            )
    struck = {number, *made}

    first = min(struck)  # a new round's records come before the turn change that made them

    def plan(record: ActionRecord) -> str:
        if record.status != ACTIVE or record.number < first:
            return KEEP
        return VOID if record.number in struck else RESOLVE

    return plan, before


def table_step_refusal(record: ActionRecord, replayed: Sequence[ActionRecord]) -> str | None:
    """Why a table record re-resolved by a replay can no longer stand, or None."""
    if record.kind not in (UNMARK, EXPIRE):
        return None
    taken_off = TakenOff.from_json(record.params)
    marker = taken_off.marker
    standing = {r.number: r for r in replayed if r.status == ACTIVE}
    placed = standing.get(marker)
    if placed is None or placed.kind != MARK:
        return f"marker {marker} no longer stands"
    for later in replayed:
        off = later.status == ACTIVE and later.kind in (UNMARK, EXPIRE)
        if off and TakenOff.from_json(later.params).marker == marker:
            name = MarkPlaced.from_json(placed.params).name
            return f"marker {marker} ({name}) was already taken off"
    cause = taken_off.cause
    if record.kind == EXPIRE and cause not in standing:
        return f"the turn change (action {cause}) that expired it was struck out"
    return None


def is_next_turn(record: ActionRecord) -> bool:
    return record.kind == TURN and record.params.get("move") == "next"


def rederive_next_turn(
    rules: Ruleset,
    options: JSONObject,
    record: ActionRecord,
    combatants: Mapping[str, Combatant],
    run_new_round: Callable[[], tuple[str, ...] | None],
    may_land_earlier: bool,
    known: KnownConditions | None = None,
) -> tuple[ActionRecord, bool]:
    """A "next turn" walked again along the path it took, on ``combatants`` as the
    replay has them: the record as the corrected history makes it, and whether the new
    round it crossed into was begun (``run_new_round`` replays that round's start
    records when the walk reaches the round's end, and gives the order they leave).
    With ``may_land_earlier`` it stops at the first one it passed over who may act
    now; otherwise it lands where it did, naming only those still unable."""
    moved = Moved.from_json(record.params)
    before, landed = moved.before, Position.from_json(record.params["to"])
    recorded = [as_object(s) for s in as_list(record.breakdown.get("skipped", []))]
    skip = table_options(options).skip_unable
    order, index, round = list(before.order), before.turn + 1, before.round
    began = False
    skipped: list[JSON] = []
    passed: list[JSON] = [[before.current, END]] if before.current is not None else []
    for entry in [*recorded, None]:  # those it passed over, then where it landed
        if index >= len(order):
            began, round, index = True, round + 1, 0
            order = list(run_new_round() or order)
        if not order:
            break
        cid = order[index]
        if entry is None:
            break
        if entry.get("id") != cid or cid not in combatants:  # not the path it took
            return _as_recorded(record, began, run_new_round, landed.round > before.round)
        why = unable(rules, cid, combatants[cid], known) if skip else None
        if why is None and may_land_earlier:
            break
        if why is not None:
            skipped.append({"id": cid, "name": combatants[cid].name, "why": why})
        passed += [[cid, START], [cid, END]]
        index += 1
    after = Position(round, tuple(order), index)
    if entry is None and (after.round, after.current) != (landed.round, landed.current):
        return _as_recorded(record, began, run_new_round, landed.round > before.round)
    if after.current is not None:
        passed.append([after.current, START])
    names = {cid: c.name for cid, c in combatants.items()}
    params = {**record.params, "to": after.as_json()}
    if not began:
        params.pop("with", None)
    breakdown = {**record.breakdown, "skipped": skipped, "boundaries": passed}
    summary = turn_summary(names, "next", after, skipped)
    again = replace(record, round=after.round, params=params, breakdown=breakdown, summary=summary)
    same = (again.params, again.breakdown, again.summary) == (
        record.params,
        record.breakdown,
        record.summary,
    )
    return (record if same else again), began


def _as_recorded(
    record: ActionRecord,
    began: bool,
    run_new_round: Callable[[], tuple[str, ...] | None],
    crossed: bool,
) -> tuple[ActionRecord, bool]:
    """A turn change the walk cannot follow (the order changed under it): as recorded,
    its new round begun as it was."""
    if crossed and not began:
        run_new_round()
    return record, crossed


def no_longer_begun(turn: ActionRecord, made: ActionRecord, names: Mapping[str, str]) -> str:
    """Why a new round's start record goes with the lifted skip that began the round."""
    after = Position.from_json(turn.params["to"])
    who = names.get(after.current, after.current) if after.current else "nobody"
    return (
        f"the turn change (action {turn.number}) no longer begins round {made.round}: "
        f"it is {who}'s turn in round {after.round}"
    )
