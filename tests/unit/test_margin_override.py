"""M5 and the GM's last word: margin's own once-a-round rule yields to the GM's override,
only to it, and a correction replays an overridden action as it was allowed."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from skald_campaign.application.commands import PerformAction
from skald_campaign.domain.errors import ActionRefused
from skald_campaign.domain.play.corrections import VOID, correction_plan, replay
from skald_campaign.domain.play.dice import DiceTray
from skald_campaign.domain.play.resolution import build_view, resolve
from skald_campaign.domain.records import replace
from skald_campaign.domain.rulesets.margin import Margin
from tests.unit.test_margin_table import AXE, SWORD, NoRoller, Table, sheet

HASTE = "brenna is hasted"
M5 = (
    "brenna has already acted in round 1: one action per combatant per round; "
    "start the next round first"
)


def blanks(n: int) -> list[int]:
    return [2] * n


@pytest.fixture
def table() -> Table:
    table = Table()
    table.enrol("brenna", sheet(might=4, melee=4, weapons=[SWORD]))
    table.enrol("orc", sheet(might=3, melee=2, health=20, weapons=[AXE]))
    table.start(("brenna", "pcs", 1), ("orc", "foes", 1))
    return table


def overridden(table: Table, kind: str, actor: str, dice: Any = None, **params: Any) -> Any:
    if "target" in params:
        params["target"] = table.ids[params["target"]]
    _, record = table.app.perform_action(
        PerformAction(
            table.campaign,
            table._eid(),
            kind,
            params,
            actor=table.ids[actor],
            dice={table.roll_name(k): v for k, v in (dice or {}).items()},
            override_reason=HASTE,
        )
    )
    return record


def test_m5_yields_only_to_a_view_that_says_the_gm_overrode_it(table: Table) -> None:
    table.act("defend", "brenna")
    encounter = table.app.encounter(table.campaign, table._eid())
    rules = Margin()
    view = build_view(rules, 1, encounter.options, encounter.combatants)
    brenna = table.ids["brenna"]
    with pytest.raises(ActionRefused) as refused:
        resolve(rules, view, "defend", brenna, {"effort": 1}, DiceTray(NoRoller()))
    assert refused.value.message == M5
    allowed = dataclasses.replace(view, turn_overridden=True)
    again = resolve(rules, allowed, "defend", brenna, {"effort": 1}, DiceTray(NoRoller()))
    state = again.outcome.state[brenna]
    assert (state["acted_round"], state["fatigue"], state["posture"]["effort"]) == (1, 1, 1)


def test_an_overridden_posture_after_a_blow_is_the_round_s_posture(table: Table) -> None:
    quiet = {"defense.orc.evasion": blanks(2), "defense.orc.guard": blanks(2)}
    table.act("attack", "brenna", {"attack": blanks(8), **quiet}, target="orc", weapon="sword")
    record = overridden(table, "defend", "brenna", effort=2)
    assert record["summary"] == "brenna takes up Defend for round 1 with 2 effort dice"
    assert record["override"] == {
        "refusal": "brenna has already acted once in round 1 (actions_per_round is 1); "
        "no turn order is set: anyone may act in round 1",
        "reason": HASTE,
        "by": "gm",
    }
    state = table.state("brenna")
    assert (state["acted_round"], state["fatigue"], state["posture"]["kind"]) == (1, 2, "defend")


def test_the_replay_reads_the_override_from_the_record(table: Table) -> None:
    quiet = {"defense.orc.evasion": blanks(2), "defense.orc.guard": blanks(2)}
    table.act("attack", "brenna", {"attack": blanks(8), **quiet}, target="orc", weapon="sword")
    table.act("defend", "orc")
    overridden(table, "defend", "brenna", effort=1)
    encounter = table.app.encounter(table.campaign, table._eid())
    rules, options = encounter.rules, encounter.options
    plan = correction_plan(2, VOID)

    kept = replay(rules, options, encounter.initial_combatants, encounter.actions, plan, NoRoller())
    assert [(r.number, r.status) for r in kept.records] == [
        (1, "active"),
        (2, "voided"),
        (3, "active"),
    ]
    assert kept.report == [
        {
            "number": 3,
            "kind": "defend",
            "before": "brenna takes up Defend for round 1 with 1 effort dice",
            "after": "brenna takes up Defend for round 1 with 1 effort dice",
            "status": "unchanged",
            "new_rolls": [],
            "refitted_rolls": {},
            "unused_rolls": [],
        }
    ]

    # The same record without the GM's override is what M5 refuses, on replay as anywhere.
    plain = [replace(r, override=None) for r in encounter.actions]
    assert [r.override is None for r in encounter.actions] == [True, True, False]
    refused = replay(rules, options, encounter.initial_combatants, plain, plan, NoRoller())
    assert refused.records[2].status == "voided"
    assert refused.records[2].voided_because == M5


def test_a_reloaded_encounter_keeps_the_override_on_its_record(table: Table) -> None:
    table.act("defend", "brenna")
    overridden(table, "defend", "brenna", effort=1)
    stored = table.app.repository.get(table._eid())
    records = [r.as_json() for r in stored.actions]
    assert [r.get("override", {}).get("reason") for r in records] == [None, HASTE]
    assert "override" not in records[0]  # an action nobody overrode records none


def test_the_encounters_turn_check_names_who_already_acted() -> None:
    """M5 as the encounter asks it before resolving (``Margin.turn_refusal``)."""
    rules = Margin()
    assert rules.turn_refusal("Ann", {"acted_round": 1}, 2) is None
    assert rules.turn_refusal("Ann", {}, 2) is None
    assert rules.turn_refusal("Ann", {"acted_round": 2}, 2) == (
        "Ann has already acted in round 2: one action per combatant per round; "
        "start the next round first"
    )
