"""Issue 16's rulings for seed 001 as pure functions: S8's clamp, S9, S10, S11, the
Take-hit refusal, wound marks and strict types."""

from __future__ import annotations

from typing import Any

import pytest

from skald_campaign.domain.errors import ActionRefused, InvalidInput
from skald_campaign.domain.play.dice import DiceTray
from skald_campaign.domain.rulesets.base import CombatantView, EncounterView
from skald_campaign.domain.rulesets.stamina_body import StaminaBody
from skald_campaign.domain.rulesets.stamina_body.bleeding import (
    Bleed,
    Stabilise,
    bleeding,
    resolve_bleed,
    resolve_stabilise,
)
from skald_campaign.domain.rulesets.stamina_body.healing import DayPlan, body_rate, daily_heal
from skald_campaign.domain.validation import InvalidFields

RULES = StaminaBody()
SHEET = {"st": 8, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10}


def combatant(cid: str, stamina: int = 12, body: int = 10, **state: Any) -> CombatantView:
    tracks = {"stamina": stamina, "body": body}
    return CombatantView(
        id=cid,
        name=cid.title(),
        side=cid,
        rank=1,
        sheet=SHEET,
        tracks=tracks,
        state=state,
        conditions=RULES.conditions(SHEET, tracks, state),
    )


def view(*who: CombatantView, round: int = 2, **options: Any) -> EncounterView:
    return EncounterView(round=round, combatants={c.id: c for c in who}, options=options)


# -- S8: the clamp comes right after the wound ---------------------------------------------


def test_con_4_wound_bones_and_healer_keeps_the_healers_point() -> None:
    state = {"piercing_wound": True, "broken_bones": True}
    rate, steps = body_rate(4, DayPlan(healer=True), piercing_wound=True, slowed=True)
    assert rate == 1
    assert steps == [
        "with care: CON 4 // 5 = 0",
        "untreated piercing wound: 0 - 1 = -1",
        "never below 0 from here on: -1 -> 0",
        "broken bones or severe bruising: 0 // 2 = 0",
        "healer: 0 + 1 = 1",
    ]
    heal = daily_heal({**SHEET, "con": 4}, {"stamina": 12, "body": 2}, state, DayPlan(healer=True))
    assert heal.body_gain == 1


def test_severe_bruising_halves_the_rate_like_broken_bones() -> None:
    heal = daily_heal(
        {**SHEET, "con": 20}, {"stamina": 12, "body": 1}, {"severe_bruising": True}, DayPlan()
    )
    assert heal.body_gain == 2  # 20 // 5 = 4, halved: 2
    assert "broken bones or severe bruising: 4 // 2 = 2" in heal.steps


# -- S9: stunned -------------------------------------------------------------------------


def test_a_stunned_actor_may_only_recover() -> None:
    stunned = combatant("ann", stamina=-1)
    assert stunned.conditions == ("stunned",)
    RULES.refuse_if_cannot_act(stunned, "recover")
    RULES.refuse_if_cannot_act(stunned, "take_hit")  # a GM tool, not an action
    for kind in ("attack", "stabilise", "treat_wound"):
        with pytest.raises(ActionRefused, match=r"^Ann cannot .*: stunned, and a stunned"):
            RULES.refuse_if_cannot_act(stunned, kind)
    RULES.refuse_if_cannot_act(combatant("bob", stamina=0), "attack")


# -- S10: bleeding -----------------------------------------------------------------------


def test_only_the_unconscious_unstabilised_not_yet_bled_bleed() -> None:
    out = combatant("out", body=-1)
    held = combatant("held", body=-1, stabilised=True)
    bled = combatant("bled", body=-1, bled_round=2)
    zero = combatant("zero", body=0)
    v = view(out, held, bled, zero, bleed_per_round=2)
    assert [c.id for c in bleeding(v)] == ["out"]
    assert RULES.round_start_actions(v) == ("bleed",)
    outcome = resolve_bleed(v, None, Bleed(), DiceTray(None))
    assert outcome.tracks == {"out": {"stamina": 12, "body": -3}}
    assert outcome.state == {"out": {"bled_round": 2}}
    assert outcome.summary == "Out bleeds 2 Body"


def test_bleeding_is_off_at_zero_and_the_default_is_one() -> None:
    out = combatant("out", body=-1)
    assert bleeding(view(out, bleed_per_round=0)) == []
    assert RULES.round_start_actions(view(out, bleed_per_round=0)) == ()
    two = view(out, combatant("two", body=-5))
    outcome = resolve_bleed(two, None, Bleed(), DiceTray(None))
    assert outcome.tracks["two"]["body"] == -6
    assert outcome.summary == "Out, Two bleed 1 Body"


def test_nobody_to_bleed_is_refused() -> None:
    with pytest.raises(ActionRefused, match="nobody bleeds in round 3"):
        resolve_bleed(view(combatant("ann"), round=3), None, Bleed(), DiceTray(None))


def test_stabilise_marks_the_unconscious_and_refuses_the_rest() -> None:
    ann, out = combatant("ann"), combatant("out", body=-1)
    outcome = resolve_stabilise(view(ann, out), "ann", Stabilise(target="out"), DiceTray(None))
    assert outcome.state == {"out": {"stabilised": True}}
    assert RULES.conditions(SHEET, out.tracks, {"stabilised": True}) == (
        "unconscious",
        "cannot_act",
        "stabilised",
    )
    held = combatant("held", body=-1, stabilised=True)
    cases = [
        ("ann", "ann", InvalidInput, "Ann cannot stabilise themself"),
        ("ann", "bob", ActionRefused, "Bob is not unconscious"),
        ("ann", "held", ActionRefused, "Held is already stabilised"),
    ]
    everyone = view(ann, combatant("bob"), held)
    for actor, target, error, message in cases:
        with pytest.raises(error, match=message):
            resolve_stabilise(everyone, actor, Stabilise(target=target), DiceTray(None))
    with pytest.raises(InvalidInput, match="needs an actor"):
        resolve_stabilise(everyone, None, Stabilise(target="held"), DiceTray(None))


def test_the_encounter_end_stabilises_whoever_bled_and_forgets_the_round() -> None:
    assert RULES.state_after_encounter({"bled_round": 4, "piercing_wound": True}) == {
        "piercing_wound": True,
        "stabilised": True,
    }
    assert RULES.state_after_encounter({"broken_bones": True}) == {"broken_bones": True}


# -- wound marks ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("wound", "message"),
    [
        ("piercing_wound", "Hero has no untreated piercing wound to treat"),
        ("broken_bones", "Hero has no broken bones to end"),
        ("severe_bruising", "Hero has no severe bruising to end"),
    ],
)
def test_ending_an_absent_wound_is_refused(wound: str, message: str) -> None:
    with pytest.raises(ActionRefused, match=f"^{message}$"):
        RULES.refuse_wound_mark("Hero", {}, wound, False)
    RULES.refuse_wound_mark("Hero", {wound: True}, wound, False)
    RULES.refuse_wound_mark("Hero", {}, wound, True)


# -- S11 and strict types ------------------------------------------------------------------


def problems(what: str, data: dict[str, Any]) -> list[dict[str, str]]:
    with pytest.raises(InvalidFields) as refused:
        if what == "sheet":
            RULES.validate_sheet(data)
        else:
            RULES.validate_options(data)
    return [problem.as_json() for problem in refused.value.problems]


def test_extra_dice_per_option_is_one_or_more() -> None:
    assert problems("options", {"extra_dice_per_option": 0}) == [
        {
            "field": "options.extra_dice_per_option",
            "problem": "Input should be greater than or equal to 1",
        }
    ]
    assert RULES.validate_options({}) == {
        "actions_per_round": 1,
        "initiative": {"mode": "manual"},  # T1
        "skip_unable": True,
        "show_npc_numbers": False,
        "extra_dice_per_option": 1,
        "stunned_may_defend": False,
        "bleed_per_round": 1,
    }


def test_a_weapon_named_unarmed_is_refused() -> None:
    weapon = {"name": "Unarmed", "damage_class": 1, "damage_type": "impact", "skill": 10}
    (problem,) = problems("sheet", {**SHEET, "weapons": [weapon]})
    assert problem["field"] == "sheet.weapons.0.name"
    assert "'unarmed' is reserved: fists are always at hand (S11)" in problem["problem"]
    named = {**weapon, "name": "unarmed blade"}
    assert RULES.validate_sheet({**SHEET, "weapons": [named]})["weapons"][0]["name"] == (
        "unarmed blade"
    )


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        ("st", True, "Input should be a valid integer"),
        ("con", "12", "Input should be a valid integer"),
        ("body_max", 10.0, "Input should be a valid integer"),
    ],
)
def test_sheet_numbers_are_strict(field: str, value: Any, expected: str) -> None:
    assert problems("sheet", {**SHEET, field: value}) == [
        {"field": f"sheet.{field}", "problem": expected}
    ]


def test_day_plan_flags_are_strict() -> None:
    with pytest.raises(ValueError, match="Input should be a valid boolean"):
        DayPlan.model_validate({"healer": 1})
