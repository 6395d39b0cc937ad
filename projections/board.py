"""The encounter board: round, combatants with side, rank, tracks, state and
conditions, and the last actions, one JSON document per encounter."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from eventsourcing.persistence import Tracking

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


def table_event(board: dict[str, Any], name: str, event: Any) -> None:
    """Turn order and exchanges waiting for a declaration (issue 13's events)."""
    pending: list[dict[str, Any]] = board.setdefault("pending", [])
    match name:
        case "Encounter.OrderSet":
            board["order"] = list(event.order)
            board["turn"] = 0
        case "Encounter.TurnAdvanced":
            board["turn"] = event.turn
        case "Encounter.RoundStarted":
            board["turn"] = 0 if board.get("order") else None
        case "Encounter.ExchangeOpened":
            x = event.exchange
            pending.append(
                {
                    "number": x["number"],
                    "actor": x["actor"],
                    "defender": x["defender"],
                    "awaiting": x["awaiting"],
                    "summary": event.summary,
                }
            )
        case "Encounter.DefenseDeclared" | "Encounter.ExchangeWithdrawn":
            board["pending"] = [p for p in pending if p["number"] != event.number]


class BoardProjection(ViewProjection):
    name = "board"

    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        event, known = domain_event, facts(domain_event)
        name = known.name
        if not name.startswith("Encounter."):
            return
        staged = self.view.staged
        key = self.view.keys.board(known.aggregate_id)
        if name == "Encounter.Started":
            board: Any = self._started(event)
        else:
            board = staged.get(key)
            if board is None:
                return
        combatants = board["combatants"]
        if name == "Encounter.GMChanged":  # a join, leave, move or amendment: the whole entry
            for combatant_id, c in event.record["effects"]["combatants"].items():
                combatants[combatant_id] = self._entry(
                    board["ruleset"], combatant_id, c, board.get("options")
                )
            board["actions"] += 1
            board["last_actions"] = [*board["last_actions"], action_line(event.record)][
                -LAST_ACTIONS:
            ]
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
        if name == "Encounter.ActionResolved":
            board["actions"] += 1
            last_actions = board["last_actions"]
            last_actions.append(action_line(vars(event)))
            del last_actions[:-LAST_ACTIONS]
        elif isinstance(getattr(event, "actions", None), list):
            # A correction carries the whole rewritten list of actions.
            board["actions"] = len(event.actions)
            board["last_actions"] = [action_line(r) for r in event.actions[-LAST_ACTIONS:]]
        elif name == "Encounter.Ended":
            board["ended"] = True
        table_event(board, name, event)
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
