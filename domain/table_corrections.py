"""How the one correction path treats the table's records (domain/table.py).

A replay keeps initiative rolls and turn changes as recorded (who was passed over is
decided when the turn moves, not again), and checks again each record that takes a
marker off: an expiry whose turn change no longer stands, or a removal or expiry of
a marker that no longer stands, is voided as a consequence, with the reason. So a
rewind to before an expiry, or a void of the turn change that caused it, brings the
marker back; a void of the marker's own record takes it off.

A turn change (or an initiative roll) is voided while it is the last one standing:
the turn goes back to where it stood before it, and the records it made on its way
(a new round's bleeding and re-rolled initiative) are voided with it. Anything that
happened in a round it began, other than those, must be undone first (or rewind).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from domain.actions import ActionRecord, as_ints
from domain.errors import ActionRefused
from domain.table import EXPIRE, MARK, POSITION_KINDS, TABLE_KINDS, UNMARK, Moved, Position
from domain.table_params import MarkPlaced, TakenOff

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
