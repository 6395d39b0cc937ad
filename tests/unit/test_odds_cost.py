"""Odds bounded by cost (issue 28 item 5): each resolver run is charged by its ruleset and
the dice it rolls (domain/odds/cost.py), an answer never costs more than its budget, a
request over it is refused saying how to narrow it, and answers are kept by their inputs."""

from __future__ import annotations

from typing import Any

import pytest

from skald_campaign.domain.odds import COST_BUDGET, TooLarge, action_odds
from skald_campaign.domain.odds.cache import ODDS, OddsCache
from skald_campaign.domain.odds.cost import RunCost, run_cost, run_costs
from skald_campaign.domain.odds.encounter import attack_odds, encounter_odds
from tests.unit.test_margin_table import Table
from tests.unit.test_odds_support import SWORD, encounter, margin_sheet, sb_sheet
from tests.unit.test_odds_view import fight


def recovery() -> tuple[Any, Any]:
    return encounter(
        "stamina-body", {"a": ("x", 1, sb_sheet(con=12))}, tracks={"a": {"stamina": 5}}
    )


def test_a_run_is_charged_its_rulesets_base_and_each_die_it_rolls() -> None:
    rules, view = recovery()
    report = action_odds(rules, view, "recover", "a", {})
    # 16 runs of the 3d6 recovery roll, each 120 + 3 x 15 units.
    assert run_cost("stamina-body") == RunCost(base=120, per_die=15)
    assert report["resolutions"] == 16
    assert report["cost"] == 16 * (120 + 3 * 15) == 2640


def test_an_answer_never_costs_more_than_its_budget() -> None:
    rules, view = recovery()
    assert action_odds(rules, view, "recover", "a", {}, budget=2640)["cost"] == 2640
    with pytest.raises(TooLarge) as refused:
        action_odds(rules, view, "recover", "a", {}, budget=2639)
    # The roll's 16 outcomes are a run of 3 dice each at least: 15 are paid for, so it is
    # refused before its outcomes are listed and before a run is charged.
    assert (refused.value.outcomes, refused.value.limit, refused.value.spent) == (16, 15, 0)
    assert refused.value.message.endswith("fewer dice, effort or defenders bring it within reach")


def test_rulesets_cost_what_was_measured_and_an_unmeasured_one_the_dearest() -> None:
    assert {
        "stamina-body": RunCost(base=120, per_die=15),
        "margin": RunCost(base=450, per_die=5),
        "d20": RunCost(base=100, per_die=30),
    } == run_costs()
    assert run_cost("homebrew") == RunCost(base=450, per_die=30)
    assert COST_BUDGET == 300_000


def test_a_margin_pool_is_refused_by_its_cost_where_its_runs_alone_would_pass() -> None:
    """Eight might against a Defend, luck on both sides: fewer than 800 runs (the old
    bound), and a budget that pays for its runs without their dice does not pay for it."""
    rules, view = encounter(
        "margin",
        {
            "a": ("x", 1, margin_sheet(might=8, melee=3, luck=2, weapons=[SWORD])),
            "b": ("y", 1, margin_sheet(grace=5, evasion=4, vigor=5, guard=4, luck=2)),
        },
        states={"b": {"posture": {"kind": "defend", "effort": 2, "round": 1}}},
    )
    params = {"target": "b", "weapon": "sword", "effort": 0}
    answer = action_odds(rules, view, "attack", "a", params)
    assert answer["resolutions"] < 800 and answer["cost"] <= COST_BUDGET
    budget = 450 * answer["resolutions"]  # its runs, were they bare
    with pytest.raises(TooLarge):
        action_odds(rules, view, "attack", "a", params, budget=budget)


def test_the_view_of_many_attacks_stays_within_one_requests_budget() -> None:
    table = fight()
    assert table.encounter is not None
    encounter_ = table.app.encounter(table.campaign, table.encounter)
    report = attack_odds(encounter_, table.ids["hero"], table.ids["foe"], effort=3)
    answered = [a for a in report["attacks"] if a.get("odds")]
    assert answered
    assert sum(a["odds"]["cost"] for a in answered) <= COST_BUDGET


def test_an_answer_is_kept_by_its_inputs_until_the_encounter_changes() -> None:
    table: Table = fight()
    assert table.encounter is not None
    encounter_ = table.app.encounter(table.campaign, table.encounter)
    hero, foe = table.ids["hero"], table.ids["foe"]
    params = {"target": foe, "weapon": "sword", "effort": 0}  # as the view asks it
    hits = ODDS.hits
    first = encounter_odds(encounter_, "attack", hero, params, role="gm")
    again = encounter_odds(encounter_, "attack", hero, dict(reversed(params.items())), role="gm")
    assert again is first and ODDS.hits == hits + 1
    # The view's sword is the same question: kept, and charged nothing against its budget.
    view = attack_odds(encounter_, hero, foe, budget=1)
    sword = view["attacks"][0]
    assert sword["label"] == "sword (effort 0)" and sword["odds"] == first
    assert all(a.get("refused") for a in view["attacks"][1:])  # the budget of 1 pays for none

    small = OddsCache(kept=1)
    small.answer("a", lambda: {"n": 1})
    small.answer("b", lambda: {"n": 2})
    assert small.get("a") is None and small.get("b") == {"n": 2}
