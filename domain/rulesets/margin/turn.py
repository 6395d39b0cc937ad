"""The turn: who may act, once per round (M5), and how much effort they may buy (M6)."""

from __future__ import annotations

from domain.errors import ActionRefused, InvalidInput
from domain.rulesets.margin.ledger import Ledger


def require_actor(ledger: Ledger, actor: str | None, kind: str) -> str:
    if actor is None:
        raise InvalidInput(f"{kind} needs an actor: the combatant who takes the action")
    return ledger.combatant(actor, "actor").id


def refuse_second_action(ledger: Ledger, actor: str) -> None:
    """M5: one action per combatant per round; a posture is that action.

    The GM has the last word: an action the GM let through with an override (recorded
    as TurnOverridden, and on the action record so that corrections replay it) is not
    refused here. The view says so only when the override came from the GM's key.
    """
    if ledger.view.turn_overridden:
        return
    if ledger.state(actor).has_acted_in(ledger.view.round):
        raise ActionRefused(
            f"{ledger.name(actor)} has already acted in round {ledger.view.round}: "
            "one action per combatant per round; start the next round first"
        )


def check_effort(ledger: Ledger, effort: int) -> None:
    most = ledger.options.max_effort
    if effort > most:
        raise InvalidInput(
            f"effort {effort} is more than this campaign allows: at most {most} effort dice"
        )
