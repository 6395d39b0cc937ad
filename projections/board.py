"""The encounter board: round, combatants with side, rank, tracks, state and
conditions, and the last actions, one JSON document per encounter."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from eventsourcing.persistence import Tracking

from domain.events import (
    CAMPAIGN_EVENTS,
    REQUEST_EVENTS,
    ActionResolved,
    Corrected,
    DefenseDeclared,
    EncounterEnded,
    EncounterStarted,
    EventHandlers,
    ExchangeOpened,
    ExchangeWithdrawn,
    GMChanged,
    OrderSet,
    Recomputed,
    RoundStarted,
    TurnAdvanced,
    TurnOverridden,
)
from projections.base import ViewProjection, conditions, facts, maxima

LAST_ACTIONS = 10


def action_line(record: Any) -> dict[str, Any]:
    """What the board shows of one action (the audit log has the whole of it)."""
    return {
        "number": record.get("number"),
        "round": record.get("round"),
        "kind": record.get("kind"),
        "actor": record.get("actor"),
        "summary": record.get("summary"),
        "by": record.get("by"),
        "status": record.get("status", "active"),
    }


Board = dict[str, Any]  # one encounter's board document
# What an event of one class changes on the board beyond the tracks/state contract.
OwnChange = Callable[[Board, Any], None]
CHANGES = EventHandlers[OwnChange]("the board projection")


class BoardProjection(ViewProjection):
    name = "board"

    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        own_change = CHANGES(type(domain_event))
        if own_change is None:
            return
        event, known = domain_event, facts(domain_event)
        staged = self.view.staged
        key = self.view.keys.board(known.aggregate_id)
        if type(event) is EncounterStarted:  # the encounter's first event opens its board
            board: Any = self._started(event)
        else:
            board = staged.get(key)
            if board is None:
                return
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
                board["ruleset"],
                combatant["sheet"],
                combatant["tracks"],
                combatant["state"],
                board.get("options"),
            )
        if isinstance(getattr(event, "round", None), int):
            board["round"] = event.round
        board["events"] += 1
        board["version"] = event.originator_version
        board["position"] = tracking.notification_id
        staged.put(key, board)

    @staticmethod
    def _entry(
        ruleset: str, combatant_id: str, c: Any, options: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        return {
            "id": combatant_id,
            "name": c["name"],
            "side": c["side"],
            "rank": c["rank"],
            "sheet": c["sheet"],
            "tracks": dict(c["tracks"]),
            "maxima": maxima(ruleset, c["sheet"], options),
            "state": dict(c["state"]),
            "conditions": conditions(ruleset, c["sheet"], c["tracks"], c["state"], options),
            "present": c.get("present", True),
        }

    @staticmethod
    def _started(event: Any) -> dict[str, Any]:
        ruleset, options = event.ruleset, event.options
        return {
            "id": str(event.originator_id),
            "campaign_id": str(event.campaign_id),
            "name": event.name,
            "ruleset": ruleset,
            "options": options,
            "round": 1,
            "ended": False,
            "combatants": {
                combatant_id: {
                    "id": combatant_id,
                    "name": c["name"],
                    "side": c["side"],
                    "rank": c["rank"],
                    "sheet": c["sheet"],
                    "tracks": dict(c["tracks"]),
                    "maxima": maxima(ruleset, c["sheet"], options),
                    "state": dict(c["state"]),
                    "conditions": conditions(ruleset, c["sheet"], c["tracks"], c["state"], options),
                }
                for combatant_id, c in event.combatants.items()
            },
            "actions": 0,
            "last_actions": [],
            "order": [],
            "turn": None,
            "pending": [],
            "events": 0,
        }


@CHANGES.register(GMChanged)
def _gm_changed(board: Board, event: Any) -> None:
    """A join, leave, move or amendment: the whole entry of each combatant it names."""
    combatants = board["combatants"]
    for combatant_id, c in event.record["effects"]["combatants"].items():
        combatants[combatant_id] = BoardProjection._entry(
            board["ruleset"], combatant_id, c, board.get("options")
        )
    board["actions"] += 1
    board["last_actions"] = [*board["last_actions"], action_line(event.record)][-LAST_ACTIONS:]


@CHANGES.register(ActionResolved)
def _action_resolved(board: Board, event: Any) -> None:
    board["actions"] += 1
    last_actions = board["last_actions"]
    last_actions.append(action_line(vars(event)))
    del last_actions[:-LAST_ACTIONS]


@CHANGES.register(Corrected, Recomputed)
def _actions_rewritten(board: Board, event: Any) -> None:
    """A correction carries the whole rewritten list of actions."""
    if isinstance(getattr(event, "actions", None), list):
        board["actions"] = len(event.actions)
        board["last_actions"] = [action_line(r) for r in event.actions[-LAST_ACTIONS:]]


@CHANGES.register(EncounterEnded)
def _ended(board: Board, _: Any) -> None:
    board["ended"] = True


# Turn order and exchanges waiting for a declaration (issue 13's events).


@CHANGES.register(OrderSet)
def _order_set(board: Board, event: Any) -> None:
    board["order"] = list(event.order)
    board["turn"] = 0


@CHANGES.register(TurnAdvanced)
def _turn_advanced(board: Board, event: Any) -> None:
    board["turn"] = event.turn


@CHANGES.register(RoundStarted)
def _round_started(board: Board, _: Any) -> None:
    board["turn"] = 0 if board.get("order") else None


@CHANGES.register(ExchangeOpened)
def _exchange_opened(board: Board, event: Any) -> None:
    x = event.exchange
    board["pending"].append(
        {
            "number": x["number"],
            "actor": x["actor"],
            "defender": x["defender"],
            "awaiting": x["awaiting"],
            "summary": event.summary,
        }
    )


@CHANGES.register(DefenseDeclared, ExchangeWithdrawn)
def _exchange_settled(board: Board, event: Any) -> None:
    board["pending"] = [p for p in board["pending"] if p["number"] != event.number]


@CHANGES.register(EncounterStarted, TurnOverridden)
def _contract_only(board: Board, event: Any) -> None:
    """The board is made from the Started event itself; an overridden turn changes
    only what the contract and the round carry."""


CHANGES.ignore(CAMPAIGN_EVENTS)  # the campaign's own events: the vitals and the audit's
CHANGES.ignore(REQUEST_EVENTS)  # the idempotency records: no encounter's
