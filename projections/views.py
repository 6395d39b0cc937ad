"""The shapes of the JSON documents the projections keep in Redis.

The projections build these (so the type checker sees every field they write), and
the reader reads them back: a value decoded from a view's key is the document the
projections wrote there (``stored``), the one edge where decoded JSON is taken at its
shape unchecked. Fields a view written by an older Skald may lack are NotRequired.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict, TypeVar, cast

from skald_campaign.domain.records import JSON, JSONObject, Sheet, State, Tracks

V = TypeVar("V")


def stored(kind: type[V], decoded: object) -> V:
    """A view document read back from its key: the shape the projections wrote there.
    (A TypedDict cannot be checked with isinstance; the object must at least be one.)"""
    if not isinstance(decoded, dict):
        raise TypeError(f"a view document was expected, not {decoded!r}")
    return cast(V, decoded)


# -- the board (one per encounter) ---------------------------------------------------


class ActionLine(TypedDict):
    """What the board shows of one action (the audit log has the whole of it)."""

    number: JSON
    round: JSON
    kind: JSON
    actor: JSON
    summary: JSON
    by: JSON
    status: JSON


class PendingExchange(TypedDict):
    number: JSON
    actor: JSON
    defender: JSON
    awaiting: JSON
    summary: JSON


class BoardCombatant(TypedDict):
    id: str
    name: str
    side: str
    rank: int
    sheet: Sheet
    tracks: Tracks
    maxima: dict[str, int]
    state: State
    conditions: list[str]
    present: NotRequired[JSON]  # written by a GM's change (join, leave, move, amend)
    # T3: the word a player or a viewer reads for its tracks (issue 38: as the event
    # recorded it); boards written before it have none.
    seen_as: NotRequired[str]


class Board(TypedDict):
    id: str
    campaign_id: str
    name: str
    ruleset: str
    options: NotRequired[JSONObject | None]  # boards written before options were kept
    round: int
    ended: bool
    combatants: dict[str, BoardCombatant]
    actions: int
    last_actions: list[ActionLine]
    order: NotRequired[list[str]]  # boards written before turn order (issue 13)
    turn: NotRequired[int | None]
    pending: NotRequired[list[PendingExchange]]
    events: int
    version: NotRequired[int]  # set at every event the board takes
    position: NotRequired[int]
    # Issue 23 (RULINGS T1, T2), from the first table record or correction on: the
    # standing markers with their rounds left, initiative totals, who the last turn
    # change passed over and why; and why the GM ended the fight, if they said.
    table: NotRequired[JSONObject]
    end_reason: NotRequired[str]


# -- the vitals (one meta document and one hash of characters per campaign) ------------


class EncounterLine(TypedDict):
    id: str
    name: str
    open: bool


class VitalsMeta(TypedDict):
    id: str
    name: str
    ruleset: str
    options: NotRequired[JSONObject | None]  # vitals written before options were kept
    day: int
    encounters: list[EncounterLine]
    characters: list[str]
    events: int
    position: int


class VitalsCharacter(TypedDict):
    id: str
    name: str
    sheet: Sheet
    tracks: Tracks
    maxima: dict[str, int]
    state: State
    conditions: list[str]
    encounter: str | None
    changes: int
    position: int
    # T3: the word a player or a viewer reads for its tracks (issue 38: as the event
    # recorded it); vitals written before it have none.
    seen_as: NotRequired[str]


# -- the audit log ----------------------------------------------------------------------


class AuditMeta(TypedDict):
    count: int
