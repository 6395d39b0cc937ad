"""Markers on combatants (RULINGS T2): put on, taken off, and expired at the Nth turn
boundary they count (domain/play/table/records.py says how boundaries are counted)."""

from __future__ import annotations

from collections.abc import Generator

from skald_campaign.domain.errors import ActionRefused, InvalidInput, NotFound
from skald_campaign.domain.play.actions import ActionRecord
from skald_campaign.domain.play.fight import Fight
from skald_campaign.domain.play.table.records import (
    END,
    EXPIRE,
    MARK,
    START,
    UNMARK,
    TableRecorded,
    expired,
    table_of,
    table_record,
)
from skald_campaign.domain.records import JSON

MAX_MARKER_NAME = 40
MAX_MARKER_NOTE = 200
MAX_MARKER_ROUNDS = 100


def mark(
    e: Fight,
    target: str,
    name: str,
    note: str | None,
    rounds: int | None,
    watch: str | None,
    at: str,
    by: str,
) -> Generator[TableRecorded, None, ActionRecord]:
    if e.ended:
        raise ActionRefused(f"encounter '{e.name}' has ended; start a new one")
    if target not in e.combatants:
        raise NotFound(f"'{target}' is not a combatant in this encounter")
    cleaned = name.strip()
    if not 1 <= len(cleaned) <= MAX_MARKER_NAME:
        raise InvalidInput(f"a marker's name is 1 to {MAX_MARKER_NAME} characters")
    own = e.rules.own_markers.get(cleaned.casefold())
    if own is not None:
        raise ActionRefused(own)
    if note is not None and len(note) > MAX_MARKER_NOTE:
        raise InvalidInput(f"a marker's note is at most {MAX_MARKER_NOTE} characters")
    if rounds is not None and not 1 <= rounds <= MAX_MARKER_ROUNDS:
        raise InvalidInput(f"a marker lasts 1 to {MAX_MARKER_ROUNDS} rounds, not {rounds}")
    if at not in (START, END):
        raise InvalidInput(f"a marker counts the start or the end of a turn, not '{at}'")
    watched = watch or target
    if rounds is not None and watched not in e.combatants:
        raise NotFound(f"'{watched}' is not a combatant in this encounter")
    names = {cid: c.name for cid, c in e.combatants.items()}
    params: dict[str, JSON] = {"target": target, "name": cleaned, "note": note}
    lasting = "until removed"
    if rounds is not None:
        params.update(rounds=rounds, watch=watched, at=at)
        plural = "round" if rounds == 1 else "rounds"
        lasting = f"{rounds} {plural}, to the {at} of {names[watched]}'s turn"
    summary = f"{names[target]}: {cleaned} ({lasting})" + (f": {note}" if note else "")
    return (yield from table_record(e, MARK, params, summary, {}, by))


def unmark(e: Fight, number: int, by: str) -> Generator[TableRecorded, None, ActionRecord]:
    if e.ended:
        raise ActionRefused(f"encounter '{e.name}' has ended; start a new one")
    marker = table_of(e.actions).markers.get(number)
    if marker is None:
        raise NotFound(f"no marker {number} stands in this encounter")
    target = e.combatants[marker.target].name
    summary = f"{marker.name} taken off {target}"
    return (yield from table_record(e, UNMARK, {"marker": number}, summary, {}, by))


def expire_markers(e: Fight, cause: int, by: str) -> Generator[TableRecorded, None, None]:
    names = {cid: c.name for cid, c in e.combatants.items()}
    for marker in expired(table_of(e.actions)):
        target, watch = names.get(marker.target, marker.target), names.get(marker.watch or "", "")
        summary = f"{marker.name} on {target} expires ({marker.at} of {watch}'s turn)"
        params: dict[str, JSON] = {"marker": marker.number, "cause": cause}
        yield from table_record(e, EXPIRE, params, summary, {"rounds": marker.rounds}, by)
