"""Odds for an open encounter: the same gate as acting, and a combatant's attacks at a glance."""

from __future__ import annotations

from functools import partial
from typing import cast

from pydantic import JsonValue

from skald_campaign.domain.access import Access, Forbidden
from skald_campaign.domain.encounter.aggregate import Encounter
from skald_campaign.domain.errors import ActionRefused, DomainError
from skald_campaign.domain.odds.cache import ODDS
from skald_campaign.domain.odds.choices import Choice as Choice
from skald_campaign.domain.odds.cost import COST_BUDGET
from skald_campaign.domain.odds.explore import TooLarge
from skald_campaign.domain.odds.odds import action_odds, odds_now
from skald_campaign.domain.play import exchanges
from skald_campaign.domain.rulesets.base import JsonMapping, JsonObject
from skald_campaign.domain.rulesets.jsonread import as_int


def _open(encounter: Encounter) -> None:
    if encounter.ended:
        raise ActionRefused(f"encounter '{encounter.name}' has ended; nothing is left to roll")


def encounter_odds(
    encounter: Encounter,
    kind: str,
    actor: str | None,
    params: JsonMapping,
    *,
    role: str,
) -> JsonObject:
    """The odds of an action as it would be resolved now; refused as the action would be.
    An attack left to wait for its defender's answer has each answer's (``odds_now``)."""
    _open(encounter)
    rules = encounter.rules
    if role != "gm" and rules.action_type(kind).gm_only:
        raise Forbidden(f"only the GM may use '{kind}', a GM's tool; this is a {role} key")
    key = ODDS.key(encounter.id, encounter.version, kind, actor, params)
    return ODDS.answer(key, lambda: odds_now(rules, encounter.view(), kind, actor, params))[0]


# A character view answers for many attacks at once; together they share one request's
# cost budget, so a sheet of twenty weapons is not twenty slow answers in a row.
VIEW_BUDGET = COST_BUDGET


def attack_odds(
    encounter: Encounter,
    combatant: str,
    against: str,
    *,
    effort: int = 0,
    budget: int = VIEW_BUDGET,
    unseen: bool = False,
) -> JsonObject:
    """For a chosen opponent, the odds of each of a combatant's attacks (or why it cannot).

    ``unseen``: the reader may not see the opponent's numbers (RULINGS T3a); each attack
    is then listed as that reader reads it (``Choice.unseen``), once."""
    _open(encounter)
    view = encounter.view()
    attacker = view.combatant(combatant, "combatant")
    opponent = view.combatant(against, "opponent")
    attacks: list[JsonValue] = []
    left = budget
    for choice in _as_read(encounter.rules.attack_choices(attacker, opponent.id, effort), unseen):
        entry: JsonObject = {"label": choice.label, "kind": choice.kind}
        key = ODDS.key(encounter.id, encounter.version, choice.kind, attacker.id, choice.params)
        try:
            compute = partial(
                action_odds,
                encounter.rules,
                view,
                choice.kind,
                attacker.id,
                choice.params,
                budget=min(COST_BUDGET, left),
            )
            odds, kept = ODDS.answer(key, compute)
        except TooLarge as refused:
            shared = left < COST_BUDGET
            why = " (this view's budget is spent: ask for this attack alone)" if shared else ""
            entry.update(params=choice.params, refused=refused.message + why)
            left -= refused.spent
        except DomainError as refused:
            entry.update(params=choice.params, refused=refused.message)
        else:
            entry.update(odds=odds, params=odds["params"])
            left -= 0 if kept else as_int(odds["cost"])
        attacks.append(entry)
    return {
        "combatant": attacker.id,
        "name": attacker.name,
        "against": opponent.id,
        "against_name": opponent.name,
        "attacks": attacks,
    }


def _as_read(choices: list[Choice], unseen: bool) -> list[Choice]:
    """The choices, or (``unseen``) each as a reader who may not see the target's numbers
    reads it: those told apart only by those numbers are one, in the order first met."""
    if not unseen:
        return choices
    read = [choice.unseen or choice for choice in choices]
    return [choice for n, choice in enumerate(read) if choice not in read[:n]]


def answer_odds(encounter: Encounter, number: int, access: Access) -> JsonObject:
    """A pending attack's answers, each with the exact odds of its results: the rolls made
    before the answer (the hit) stand as they fell; the defender's player or the GM ask.
    A hidden roll's odds would tell its hit: the GM's alone (T3)."""
    _open(encounter)
    exchange = exchanges.find(encounter.exchange_list, number)
    access.require_writer_for(exchange.defender, "see the odds of this defense")
    exchanges.refuse_unless_pending(exchange, "see the odds of")
    if exchange.hidden and access.role != "gm":
        raise Forbidden("the GM rolled this attack hidden: its odds would tell its hit")
    view = encounter.view(turn_overridden=exchange.override is not None)
    rolled = {roll.name: roll.faces for roll in exchange.rolls}
    answers: dict[str, JsonValue] = {}
    for choice in exchange.choices:
        params = {**exchange.params, exchange.param: choice}
        answers[choice] = action_odds(
            encounter.rules, view, exchange.kind, exchange.actor, params, rolled=rolled
        )
    return {
        "exchange": number,
        "param": exchange.param,
        "shown": cast(JsonValue, exchange.shown),  # JSON as stored
        "answers": answers,
    }
