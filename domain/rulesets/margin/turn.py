"""The turn: who may act, once per round (M5), and how much effort they may buy (M6)."""

from __future__ import annotations

from skald_campaign.domain.rulesets.margin.ledger import Ledger
from skald_campaign.domain.rulesets.margin.state import CharacterState
from skald_campaign.ruleset_api import ActionRefused, InvalidInput


def require_actor(ledger: Ledger, actor: str | None, kind: str) -> str:
    if actor is None:
        raise InvalidInput(f"{kind} needs an actor: the combatant who takes the action")
    return ledger.combatant(actor, "actor").id


def m5_refusal(name: str, state: CharacterState, round_number: int) -> str | None:
    """M5: one action per combatant per round; a posture is that action. Why not, or None."""
    if state.has_acted_in(round_number):
        return (
            f"{name} has already acted in round {round_number}: "
            "one action per combatant per round; start the next round first"
        )
    return None


def refuse_second_action(ledger: Ledger, actor: str) -> None:
    """M5, unless the GM has the last word.

    An action the GM let through with an override (recorded as TurnOverridden, and on
    the action record so that corrections replay it) is not refused here. The view
    says so only when the override came from the GM's key (the encounter checks it).
    """
    if ledger.view.turn_overridden:
        return
    why = m5_refusal(ledger.name(actor), ledger.state(actor), ledger.view.round)
    if why is not None:
        raise ActionRefused(why)


def check_effort(ledger: Ledger, effort: int) -> None:
    most = ledger.options.max_effort
    if effort > most:
        raise InvalidInput(
            f"effort {effort} is more than this campaign allows: at most {most} effort dice"
        )
