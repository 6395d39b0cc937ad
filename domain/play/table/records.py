"""The table's records (RULINGS T1, T2): initiative, turn changes and markers.

They are kept among an encounter's actions, like the GM's changes, so that the one
correction path (void, reroll, rewind: domain/play/corrections.py) replays them in their
place: a rewind to before an expiry brings the marker back, a void of the turn change
that expired it restores it. What stands now (the markers with their rounds left, the
initiative totals, who the last turn change passed over) is folded from the standing
records by :func:`table_of`, never kept beside them.

A turn change records the turn boundaries it passed (``[combatant, "start"|"end"]``):
the end of the turn it left, the start and end of each combatant it skipped, the start
of the turn it reached. A marker with a duration counts the boundaries of its watched
combatant's turn (its start or its end) recorded after it was placed, and expires at
the Nth, as an ``expire`` record naming the turn change that caused it.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from skald_campaign.domain.play.actions import ActionRecord, Effects, RollRecord, as_list, as_strs
from skald_campaign.domain.play.fight import Fight
from skald_campaign.domain.play.table.params import MarkPlaced, Rolled, TakenOff
from skald_campaign.domain.records import JSON, JSONObject, Record, as_int, as_object, as_str

INITIATIVE = "initiative"  # rolls (or places) combatants and sets the order from it
TURN = "turn"  # next turn, previous turn, delay: the turn moves
MARK = "mark"
UNMARK = "unmark"
EXPIRE = "expire"
TABLE_KINDS = frozenset({INITIATIVE, TURN, MARK, UNMARK, EXPIRE})
POSITION_KINDS = frozenset({INITIATIVE, TURN})
START, END = "start", "end"


class Position(Record, frozen=True):
    """Where the turn stands: the round, the order and the index of whose turn it is."""

    round: int
    order: tuple[str, ...]
    turn: int

    @property
    def current(self) -> str | None:
        return self.order[self.turn % len(self.order)] if self.order else None

    @classmethod
    def from_json(cls, stored: JSON) -> Position:
        p = as_object(stored)
        return cls(as_int(p["round"]), as_strs(p["order"]), as_int(p["turn"]))

    def as_json(self) -> dict[str, JSON]:
        return {
            "round": self.round,
            "order": list(self.order),
            "turn": self.turn,
            "current": self.current,
        }


class Moved(Record, frozen=True):
    """A turn change's or an initiative roll's parameters: where the turn stood before."""

    before: Position

    @classmethod
    def from_json(cls, params: Mapping[str, JSON]) -> Moved:
        return cls(Position.from_json(params["from"]))


@dataclass(frozen=True)
class Marker:
    """A marker standing on a combatant; ``number`` is the record that placed it."""

    number: int
    target: str
    name: str
    note: str | None
    rounds: int | None  # None: until removed
    watch: str | None  # whose turn's boundaries it counts
    at: str | None  # START or END
    passed: int = 0

    @property
    def rounds_left(self) -> int | None:
        return None if self.rounds is None else self.rounds - self.passed

    def as_json(self, names: Mapping[str, str]) -> dict[str, JSON]:
        return {
            "number": self.number,
            "target": self.target,
            "target_name": names.get(self.target, self.target),
            "name": self.name,
            "note": self.note,
            "rounds": self.rounds,
            "rounds_left": self.rounds_left,
            "watch": self.watch,
            "watch_name": names.get(self.watch, self.watch) if self.watch else None,
            "at": self.at,
        }


@dataclass(frozen=True)
class Table:
    """What the standing table records add up to."""

    markers: Mapping[int, Marker]
    initiative: Mapping[str, int]
    skipped: tuple[JSONObject, ...]

    def as_json(self, names: Mapping[str, str]) -> dict[str, JSON]:
        return {
            "markers": [m.as_json(names) for m in self.markers.values()],
            "initiative": dict(self.initiative),
            "skipped": list(self.skipped),
        }


def table_of(records: Iterable[ActionRecord]) -> Table:
    """Fold the standing table records, oldest first."""
    markers: dict[int, Marker] = {}
    initiative: dict[str, int] = {}
    skipped: tuple[JSONObject, ...] = ()
    for record in records:
        if record.status != "active" or record.kind not in TABLE_KINDS:
            continue
        if record.kind == MARK:
            markers[record.number] = marker_of(record)
        elif record.kind in (UNMARK, EXPIRE):
            markers.pop(TakenOff.from_json(record.params).marker, None)
        elif record.kind == INITIATIVE:
            for entry in as_list(record.breakdown.get("entries", [])):
                rolled = Rolled.from_json(entry)
                if rolled.total is not None:
                    initiative[rolled.id] = rolled.total
        else:
            passed = boundaries_of(record)
            markers = {n: _count(m, passed) for n, m in markers.items()}
            skipped = tuple(as_object(s) for s in as_list(record.breakdown.get("skipped", [])))
    return Table(markers, initiative, skipped)


def marker_of(record: ActionRecord) -> Marker:
    placed = MarkPlaced.from_json(record.params)
    rounds = placed.rounds
    return Marker(
        number=record.number,
        target=placed.target,
        name=placed.name,
        note=placed.note,
        rounds=rounds,
        watch=None if rounds is None else placed.watch,
        at=None if rounds is None else placed.at,
    )


def boundaries_of(record: ActionRecord) -> list[tuple[str, str]]:
    return [
        (as_str(as_list(b)[0]), as_str(as_list(b)[1]))
        for b in as_list(record.breakdown.get("boundaries", []))
    ]


def _count(marker: Marker, passed: Sequence[tuple[str, str]]) -> Marker:
    if marker.rounds is None:
        return marker
    hits = sum(1 for boundary in passed if boundary == (marker.watch, marker.at))
    return replace(marker, passed=marker.passed + hits) if hits else marker


def expired(table: Table) -> list[Marker]:
    return [m for m in table.markers.values() if m.rounds_left is not None and m.rounds_left <= 0]


def position(e: Fight) -> Position:
    return Position(e.round, tuple(e.order), e.turn_index)


@dataclass(frozen=True)
class TableRecorded:
    """The decision to record a table record: the Encounter's TableRecorded event."""

    record: JSONObject
    summary: str
    position: JSONObject | None
    table: JSONObject


def table_record(
    e: Fight,
    kind: str,
    params: Mapping[str, JSON],
    summary: str,
    breakdown: Mapping[str, JSON],
    by: str,
    rolls: Sequence[RollRecord] = (),
    moved_to: Position | None = None,
) -> Generator[TableRecorded, None, ActionRecord]:
    """Record one table record (and where the turn now stands, if it moved it): the
    record as the encounter keeps it, once recorded."""
    record = ActionRecord(
        number=len(e.actions) + 1,
        round=e.round if moved_to is None else moved_to.round,
        kind=kind,
        actor=None,
        params=dict(params),
        rolls=tuple(rolls),
        summary=summary,
        breakdown=dict(breakdown),
        by=by,
        status="active",
        effects=Effects({}, {}),
    )
    table = table_of([*e.actions, record]).as_json(e.names)
    where = None if moved_to is None else moved_to.as_json()
    yield TableRecorded(record.as_json(), record.summary, where, table)
    return e.actions[-1]
