"""The odds of one action, before anyone rolls: exact, from the resolver that will roll it."""

from __future__ import annotations

import time
from collections.abc import Mapping
from fractions import Fraction
from typing import cast

from pydantic import JsonValue

from skald_campaign.domain.odds.cost import COST_BUDGET, run_cost
from skald_campaign.domain.odds.explore import Explorer, TooLarge
from skald_campaign.domain.odds.faces import FaceModel, Faces, Rolled
from skald_campaign.domain.odds.memo import memo_for
from skald_campaign.domain.odds.models import face_model
from skald_campaign.domain.odds.readers import Features, reader
from skald_campaign.domain.odds.report import summarise
from skald_campaign.domain.play.dice import DiceTray
from skald_campaign.domain.play.resolution import Resolved, resolve
from skald_campaign.domain.play.roll_preview import would_wait
from skald_campaign.domain.rulesets.base import EncounterView, JsonMapping, JsonObject, Ruleset
from skald_campaign.domain.rulesets.jsonread import as_int

ESTIMATE_CAP = 10**15


def action_odds(
    rules: Ruleset,
    view: EncounterView,
    kind: str,
    actor: str | None,
    params: JsonMapping,
    *,
    budget: int = COST_BUDGET,
    rolled: Mapping[str, Faces] | None = None,
) -> JsonObject:
    """Every outcome of ``kind`` by ``actor`` with ``params`` now, with its exact probability.

    Raises what the action itself would raise (unknown action, bad parameters, an actor
    who cannot act) and :class:`TooLarge` when an exact answer would cost more than
    ``budget`` (cost units, domain/odds/cost.py).
    Nothing is written and the view is not changed.
    """
    started = time.perf_counter()

    def run(tray: DiceTray) -> Resolved:
        return resolve(rules, view, kind, actor, params, tray)

    table = rules.odds_damage_type(view, kind, actor, params)

    def model_for(roll: str) -> FaceModel:
        if rolled is not None and roll in rolled:  # made already: its faces stand
            return Rolled(roll, faces=tuple(rolled[roll]))
        return face_model(rules.id, view.options, roll, table)

    memo = memo_for(rules.id, view, kind, actor, params)
    cost = run_cost(rules.id)
    tree = Explorer(run, reader(rules, view, kind), model_for, memo=memo, budget=budget, cost=cost)
    paths = tree.estimate(ESTIMATE_CAP)
    affordable = tree.affordable()  # each path is a run at least, at this action's cost
    if memo is None and paths > affordable:
        raise TooLarge(paths, affordable, tree.spent)
    found = tree.explore()
    valid = rules.validate_params(kind, params).model_dump(mode="json")
    return {
        "ruleset": rules.id,
        "kind": kind,
        "actor": actor,
        "params": valid,
        "round": view.round,
        "exact": True,
        "outcomes": paths,
        "resolutions": found.runs,
        "cost": found.cost,
        **summarise(view, cast(dict[Features, Fraction], found.distribution.probabilities())),
        "elapsed_ms": round((time.perf_counter() - started) * 1000, 1),
    }


def odds_now(
    rules: Ruleset,
    view: EncounterView,
    kind: str,
    actor: str | None,
    params: JsonMapping,
    *,
    budget: int = COST_BUDGET,
) -> JsonObject:
    """The odds of the action as a request with these ``params`` would play it.

    An action that waits for its defender's declaration when it hits (seed 001 S3:
    "the defender answers one attack with a parry, a dodge or nothing"; an attack that
    does not name the defense waits for it) has no single answer before the dice: what
    it does depends on the answer. Its ``results`` are then the rolls before the answer
    (``hit``: the defender is asked; ``miss``), with no damage or condition of their own,
    ``awaits`` says who declares what, and ``answers`` holds each answer's odds, exactly
    as the action naming that answer would have them. They share one budget.
    Any other action: :func:`action_odds`.
    """
    valid = rules.validate_params(kind, params)  # refused as the action would be, first
    if actor is not None and actor in view.combatants:
        rules.refuse_if_cannot_act(view.combatants[actor], kind)
    waiting = would_wait(rules, view, kind, actor, params)
    if waiting is None:
        return action_odds(rules, view, kind, actor, params, budget=budget)
    started = time.perf_counter()
    table = rules.odds_damage_type(view, kind, actor, params)

    def asked(tray: DiceTray) -> Features:
        # The ruleset's own: the rolls before the answer, and whether it is asked.
        answered = rules.awaiting(view, kind, actor, params, tray) is not None
        return Features("hit" if answered else "miss", (), (), (), (), ())

    tree = Explorer(
        asked,
        lambda features: features,
        lambda roll: face_model(rules.id, view.options, roll, table),
        budget=budget,
        cost=run_cost(rules.id),
    )
    paths = tree.estimate(ESTIMATE_CAP)
    found = tree.explore()
    spent, runs = found.cost, found.runs
    answers: dict[str, JsonValue] = {}
    for choice in waiting.choices:
        answer = action_odds(
            rules, view, kind, actor, {**params, waiting.param: choice}, budget=budget - spent
        )
        answers[choice] = answer
        paths += as_int(answer["outcomes"])
        runs += as_int(answer["resolutions"])
        spent += as_int(answer["cost"])
    defender = view.combatants[waiting.defender]
    dumped = valid.model_dump(mode="json")
    return {
        "ruleset": rules.id,
        "kind": kind,
        "actor": actor,
        "params": {name: value for name, value in dumped.items() if name != waiting.param},
        "round": view.round,
        "exact": True,
        "outcomes": paths,
        "resolutions": runs,
        "cost": spent,
        **summarise(view, cast(dict[Features, Fraction], found.distribution.probabilities())),
        "awaits": {
            "defender": defender.id,
            "name": defender.name,
            "param": waiting.param,
            "choices": list(waiting.choices),
        },
        "answers": answers,
        "elapsed_ms": round((time.perf_counter() - started) * 1000, 1),
    }
