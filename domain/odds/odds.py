"""The odds of one action, before anyone rolls: exact, from the resolver that will roll it."""

from __future__ import annotations

import time
from collections.abc import Mapping
from fractions import Fraction
from typing import cast

from skald_campaign.domain.odds.cost import COST_BUDGET, run_cost
from skald_campaign.domain.odds.explore import Explorer, TooLarge
from skald_campaign.domain.odds.faces import FaceModel, Faces, Rolled
from skald_campaign.domain.odds.memo import memo_for
from skald_campaign.domain.odds.models import face_model
from skald_campaign.domain.odds.readers import Features, reader
from skald_campaign.domain.odds.report import summarise
from skald_campaign.domain.play.dice import DiceTray
from skald_campaign.domain.play.resolution import Resolved, resolve
from skald_campaign.domain.rulesets.base import EncounterView, JsonMapping, JsonObject, Ruleset

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
