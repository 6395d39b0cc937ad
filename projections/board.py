"""The encounter board: round, combatants with side, rank, tracks, state and
conditions, and the last actions, one JSON document per encounter."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from eventsourcing.persistence import Tracking

from skald_campaign.domain.events import (
    CAMPAIGN_EVENTS,
    NOT_A_CAMPAIGNS,
    ActionResolved,
    Corrected,
    DefenseDeclared,
    EncounterEnded,
    EncounterStarted,
    Event,
    EventHandlers,
    ExchangeOpened,
    ExchangeWithdrawn,
    GMChanged,
    OrderSet,
    Recomputed,
    RoundStarted,
    TableRecorded,
    TurnAdvanced,
    TurnOverridden,
)
from skald_campaign.domain.records import (
    JSON,
    Combatant,
    JSONObject,
    as_object,
    combatants_from_json,
)
from skald_campaign.projections.base import (
    Facts,
    ViewProjection,
    as_event,
    conditions,
    facts,
    maxima,
    seen_as,
)
from skald_campaign.projections.narrow import (
    field,
    integer,
    json_list,
    json_object,
    optional_object,
    text,
)
from skald_campaign.projections.views import ActionLine, Board, BoardCombatant, stored

LAST_ACTIONS = 10


def action_line(record: Mapping[str, object]) -> ActionLine:
    """What the board shows of one action (the audit log has the whole of it)."""
    return {
        "number": _json(record.get("number")),
        "round": _json(record.get("round")),
        "kind": _json(record.get("kind")),
        "actor": _json(record.get("actor")),
        "summary": _json(record.get("summary")),
        "by": _json(record.get("by")),
        "status": _json(record.get("status", "active")),
    }


def _json(value: object) -> JSON:
    """An action's field as the board copies it (a number, a name, a status: JSON)."""
    if value is None or isinstance(value, (str, int, float, list, dict)):
        return value
    raise TypeError(f"a JSON value was expected in an action's record, not {value!r}")


# What an event of one class changes on the board beyond the tracks/state contract.
OwnChange = Callable[[Board, Event], None]
CHANGES = EventHandlers[OwnChange]("the board projection")


class BoardProjection(ViewProjection):
    name = "board"

    def process_event(self, domain_event: object, tracking: Tracking) -> None:
        own_change = CHANGES(type(domain_event))
        if own_change is None:
            return
        event = as_event(domain_event)
        known = facts(event)
        staged = self.view.staged
        key = self.view.keys.board(known.aggregate_id)
        if type(event) is EncounterStarted:  # the encounter's first event opens its board
            board = self._started(event)
        else:
            found = staged.get(key)
            if found is None:
                return
            board = stored(Board, found)
        # Boards written before turn order and exchanges (issue 13) gain their list here.
        board.setdefault("pending", [])
        own_change(board, event)
        combatants = board["combatants"]
        tracks, state = known.tracks, known.state
        for combatant_id in set(tracks) | set(state):
            combatant = combatants.get(combatant_id)
            if combatant is None:
                continue
            combatant["tracks"] = tracks.get(combatant_id, combatant["tracks"])
            combatant["state"] = state.get(combatant_id, combatant["state"])
            combatant["conditions"] = conditions(
                known,
                combatant_id,
                board["ruleset"],
                combatant["sheet"],
                combatant["tracks"],
                combatant["state"],
                board.get("options"),
            )
            combatant["seen_as"] = seen_as(
                known, combatant_id, board["ruleset"], combatant["tracks"], combatant["maxima"],
                board.get("options"),
            )  # fmt: skip
        round_ = getattr(event, "round", None)
        if isinstance(round_, int):
            board["round"] = round_
        board["events"] += 1
        board["version"] = event.originator_version
        board["position"] = tracking.notification_id
        staged.put(key, board)

    @staticmethod
    def _entry(
        known: Facts,
        ruleset: str,
        combatant_id: str,
        c: Combatant,
        options: JSONObject | None,
        presence: bool,
    ) -> BoardCombatant:
        limits = maxima(known, combatant_id, ruleset, c.sheet, options)
        entry: BoardCombatant = {
            "id": combatant_id,
            "name": c.name,
            "side": c.side,
            "rank": c.rank,
            "sheet": c.sheet,
            "tracks": dict(c.tracks),
            "maxima": limits,
            "state": dict(c.state),
            "conditions": conditions(
                known, combatant_id, ruleset, c.sheet, c.tracks, c.state, options
            ),
            "seen_as": seen_as(known, combatant_id, ruleset, c.tracks, limits, options),
        }
        if presence:  # a GM's change writes it; the entries the Started event made have none
            entry["present"] = c.present
        return entry

    @staticmethod
    def _started(event: Event) -> Board:
        ruleset = text(field(event, "ruleset"))
        options = optional_object(field(event, "options"))
        started = combatants_from_json(json_object(field(event, "combatants")))
        known = facts(event)
        combatants = {
            cid: BoardProjection._entry(known, ruleset, cid, c, options, presence=False)
            for cid, c in started.items()
        }
        return {
            "id": str(event.originator_id),
            "campaign_id": str(field(event, "campaign_id")),
            "name": text(field(event, "name")),
            "ruleset": ruleset,
            "options": options,
            "round": 1,
            "ended": False,
            "combatants": combatants,
            "actions": 0,
            "last_actions": [],
            "order": [],
            "turn": None,
            "pending": [],
            "events": 0,
        }


@CHANGES.register(GMChanged)
def _gm_changed(board: Board, event: Event) -> None:
    """A join, leave, move or amendment: the whole entry of each combatant it names."""
    combatants = board["combatants"]
    record = json_object(field(event, "record"))
    changed = combatants_from_json(as_object(as_object(record["effects"])["combatants"]))
    known = facts(event)
    for combatant_id, c in changed.items():
        combatants[combatant_id] = BoardProjection._entry(
            known, board["ruleset"], combatant_id, c, board.get("options"), presence=True
        )
    board["actions"] += 1
    board["last_actions"] = [*board["last_actions"], action_line(record)][-LAST_ACTIONS:]


@CHANGES.register(ActionResolved)
def _action_resolved(board: Board, event: Event) -> None:
    board["actions"] += 1
    last_actions = board["last_actions"]
    last_actions.append(action_line(vars(event)))
    del last_actions[:-LAST_ACTIONS]


@CHANGES.register(Corrected, Recomputed)
def _actions_rewritten(board: Board, event: Event) -> None:
    """A correction carries the whole rewritten list of actions (and, since issue 23,
    the table's standing and where the turn stands, if it moved it)."""
    actions = getattr(event, "actions", None)
    if isinstance(actions, list):
        board["actions"] = len(actions)
        board["last_actions"] = [action_line(as_object(r)) for r in actions[-LAST_ACTIONS:]]
    _table(board, event)


@CHANGES.register(TableRecorded)
def _table_recorded(board: Board, event: Event) -> None:
    """Initiative, a turn change or a marker: a record among the actions, the table's
    standing after it, and where the turn moved."""
    board["actions"] += 1
    line = action_line(json_object(field(event, "record")))
    board["last_actions"] = [*board["last_actions"], line][-LAST_ACTIONS:]
    _table(board, event)


def _table(board: Board, event: Event) -> None:
    table = getattr(event, "table", None)
    if table is not None:
        board["table"] = json_object(table)
    position = getattr(event, "position", None)
    if position is not None:
        moved = json_object(position)
        board["order"] = [text(c) for c in json_list(moved["order"])]
        board["turn"] = integer(moved["turn"])
        board["round"] = integer(moved["round"])


@CHANGES.register(EncounterEnded)
def _ended(board: Board, event: Event) -> None:
    board["ended"] = True
    reason = getattr(event, "reason", None)
    if reason is not None:  # older Ended events have none, and their boards no key
        board["end_reason"] = text(reason)


# Turn order and exchanges waiting for a declaration (issue 13's events).


@CHANGES.register(OrderSet)
def _order_set(board: Board, event: Event) -> None:
    board["order"] = [text(c) for c in json_list(field(event, "order"))]
    board["turn"] = 0


@CHANGES.register(TurnAdvanced)
def _turn_advanced(board: Board, event: Event) -> None:
    board["turn"] = integer(field(event, "turn"))


@CHANGES.register(RoundStarted)
def _round_started(board: Board, _: Event) -> None:
    board["turn"] = 0 if board.get("order") else None


@CHANGES.register(ExchangeOpened)
def _exchange_opened(board: Board, event: Event) -> None:
    x = json_object(field(event, "exchange"))
    board["pending"].append(
        {
            "number": x["number"],
            "actor": x["actor"],
            "defender": x["defender"],
            "awaiting": x["awaiting"],
            "summary": text(field(event, "summary")),
        }
    )


@CHANGES.register(DefenseDeclared, ExchangeWithdrawn)
def _exchange_settled(board: Board, event: Event) -> None:
    number = field(event, "number")
    board["pending"] = [p for p in board["pending"] if p["number"] != number]


@CHANGES.register(EncounterStarted, TurnOverridden)
def _contract_only(board: Board, event: Event) -> None:
    """The board is made from the Started event itself; an overridden turn changes
    only what the contract and the round carry."""


CHANGES.ignore(CAMPAIGN_EVENTS)  # the campaign's own events: the vitals and the audit's
CHANGES.ignore(NOT_A_CAMPAIGNS)  # idempotency records, webhooks, bestiaries: no encounter's
