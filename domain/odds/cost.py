"""What an odds answer may cost: CPU, modelled per ruleset, not counted in resolver runs.

A resolver run's cost depends on its ruleset (its ``odds_run_cost``, in its package)
and on how many dice it rolls: a margin run (pools, postures, luck, Wards) costs
several stamina-body runs, and a run of an 11-die pool more than one of a 5-die pool.
Counting runs alone let the dearest request, a margin combatant's odds view, take 4.5 s
of CPU within its 1,600 runs (issue 28). Each run is charged
``base + per_die * dice rolled`` cost units; a unit is about a microsecond of CPU on the
development machine, fitted (rounded up) from bench/odds.py's cases under load
(`bench/README.md`, issue 28), so a whole answer stays within ``COST_BUDGET``: about
300 ms. Deterministic: the same request is answered or refused the same way every time,
whatever else the machine is doing.
"""

from __future__ import annotations

from skald_campaign.domain.odds.explore import ONE_RUN as ONE_RUN
from skald_campaign.domain.odds.explore import RunCost as RunCost
from skald_campaign.domain.rulesets import RULESETS

COST_BUDGET = 300_000  # cost units one odds request may spend: about 300 ms of CPU
DEAREST_PER_DIE = 30  # an unmeasured ruleset's cost per die


def run_costs() -> dict[str, RunCost]:
    """Each installed ruleset's measured cost per run (its ``odds_run_cost``), by id."""
    return {
        rules.id: rules.odds_run_cost
        for rules in RULESETS.values()
        if rules.odds_run_cost is not None
    }


def run_cost(ruleset: str) -> RunCost:
    """A ruleset's cost per run; a ruleset not measured yet is charged the dearest."""
    rules = RULESETS.get(ruleset)
    if rules is not None and rules.odds_run_cost is not None:
        return rules.odds_run_cost
    measured = run_costs().values()
    return RunCost(base=max((c.base for c in measured), default=1), per_die=DEAREST_PER_DIE)
