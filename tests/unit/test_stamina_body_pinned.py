"""Seed 001's rules pinned value by value: the cases mutation testing found unpinned
(CON // 5, the halving, natural 3 and 18, the shield without a hit score, absorb's
stamina 0 / body 1 example) and the exact breakdowns every action records."""

from __future__ import annotations

from typing import Any

import pytest

from skald_campaign.domain.errors import ActionRefused, InvalidInput, NotFound
from skald_campaign.domain.play.dice import DiceTray
from skald_campaign.domain.rulesets.base import CombatantView, EncounterView
from skald_campaign.domain.rulesets.stamina_body import StaminaBody, rules
from skald_campaign.domain.rulesets.stamina_body.care import (
    MarkWound,
    Recover,
    TreatWound,
    recovery_gain,
    resolve_mark_wound,
    resolve_recover,
    resolve_treat_wound,
)
from skald_campaign.domain.rulesets.stamina_body.healing import (
    DayPlan,
    body_rate,
    daily_heal,
    stamina_for_rest,
)

RULES = StaminaBody()
SHEET: dict[str, Any] = {
    "st": 13,
    "con": 12,
    "parry": 11,
    "dodge": 10,
    "unarmed_skill": 10,
    "stamina_max": 12,
    "body_max": 10,
    "armour_resilience": 0,
    "shield_resilience": 0,
    "weapons": [],
}


def fighter(cid: str, stamina: int = 12, body: int = 10, **sheet: Any) -> CombatantView:
    full = {**SHEET, **sheet}
    tracks = {"stamina": stamina, "body": body}
    return CombatantView(
        cid, cid.title(), cid, 1, full, tracks, {}, RULES.conditions(full, tracks, {})
    )


def view(*who: CombatantView, **options: Any) -> EncounterView:
    return EncounterView(round=1, combatants={c.id: c for c in who}, options=options)


# -- checks (S1) ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("roll", "target", "success", "note"),
    [
        (3, 0, True, "a natural 3 always succeeds"),
        (4, 3, False, "4 > 3"),
        (4, 4, True, "4 <= 4"),
        (17, 16, False, "17 > 16"),
        (17, 30, True, "17 <= 30"),
        (18, 40, False, "a natural 18 always fails"),
    ],
)
def test_a_check_and_its_note(roll: int, target: int, success: bool, note: str) -> None:
    result = rules.check(roll, target)
    assert result.breakdown() == {
        "roll": roll,
        "target": target,
        "success": success,
        "margin": target - roll,
        "note": note,
    }


# -- reading, dice, shield, resilience, absorption -------------------------------------------


def test_a_reading_breakdown_lists_every_die() -> None:
    assert rules.read_damage([6, 1], "impact").breakdown() == {
        "table": "impact",
        "readings": [{"die": 6, "stamina": 5, "body": 1}, {"die": 1, "stamina": 1, "body": 0}],
        "raw": {"stamina": 6, "body": 1},
    }


def test_damage_dice_add_per_option_for_each_option_taken() -> None:
    dice = rules.damage_dice(2, per_option=3, charge=True)
    assert dice.breakdown() == {"class": 2, "options": ["charge"], "added": 3, "count": 5}
    assert rules.damage_dice(2).breakdown()["count"] == 2
    assert rules.damage_dice(1, set_weapon=True).options == ("set_weapon",)
    assert rules.damage_dice(1, extra_strength=True).options == ("extra_strength",)


def test_the_shield_after_a_successful_parry_without_a_hit_score_counts() -> None:
    decision = rules.shield_decision(parried=True, hit_score=None, parry_score=3)
    assert decision == rules.ShieldDecision(
        True, "successful parry and no hit score given: the shield counts"
    )


def test_the_shield_reasons_name_the_subtraction() -> None:
    assert rules.shield_decision(parried=True, hit_score=5, parry_score=3).reason == (
        "hit score 5 - parry score 3 = 2 <= 2"
    )
    assert rules.shield_decision(parried=True, hit_score=6, parry_score=3).reason == (
        "hit score 6 - parry score 3 = 3 > 2: it goes around"
    )
    no_score = rules.shield_decision(parried=True, hit_score=5, parry_score=None)
    assert no_score == rules.ShieldDecision(False, "no successful parry: the shield does not help")


def test_resilience_notes_say_what_was_removed() -> None:
    both = rules.effective_resilience(
        armour=3, shield=2, shield_counts=True, ignore_armour=True, ignore_shield=True
    )
    assert both == rules.Resilience(
        0,
        0,
        0,
        (
            "ignore armour: armour resilience 3 removed",
            "ignore shield: shield resilience 2 removed",
        ),
    )
    unused = rules.effective_resilience(armour=3, shield=2, shield_counts=False, ignore_shield=True)
    assert unused == rules.Resilience(3, 0, 3, ())


def test_absorb_stamina_0_body_1_soaks_the_body_point() -> None:
    soak = rules.absorb(stamina=0, body=1, resilience=3)
    assert soak.steps == ((1, "body", 0, 2),)
    assert (soak.stamina, soak.body, soak.absorbed) == (0, 0, 1)


def test_absorb_stamina_1_body_0_soaks_the_stamina_point() -> None:
    soak = rules.absorb(stamina=1, body=0, resilience=3)
    assert soak.steps == ((1, "stamina", 0, 2),)


def test_absorption_breakdown() -> None:
    assert rules.absorb(stamina=2, body=1, resilience=2).breakdown() == {
        "resilience": 2,
        "steps": [
            {"step": 1, "pool": "body", "after": 0, "resilience_left": 1},
            {"step": 2, "pool": "stamina", "after": 1, "resilience_left": 0},
        ],
        "absorbed": 2,
        "net": {"stamina": 1, "body": 0},
    }


# -- recovery (S7) ----------------------------------------------------------------------------


def test_recovery_on_a_natural_18_gives_nothing_even_against_con_40() -> None:
    assert recovery_gain(rules.check(18, 40)) == (0, "natural 18: nothing, the moment is wasted")
    assert recovery_gain(rules.check(13, 12)) == (1, "failure (13 > 12): +1")
    assert recovery_gain(rules.check(12, 12)) == (1, "success by 0: +max(1, 0)")
    assert recovery_gain(rules.check(9, 12)) == (3, "success by 3: +max(1, 3)")


def test_recovery_breakdown_and_cap() -> None:
    me = fighter("ann", stamina=10)
    tray = DiceTray(None, {"recovery": [1, 2, 3]})
    outcome = resolve_recover(view(me), "ann", Recover(), tray)
    assert outcome.summary == "Ann recovers 2 Stamina"
    assert outcome.tracks == {"ann": {"stamina": 12, "body": 10}}
    assert outcome.breakdown == {
        "check": rules.check(6, 12).breakdown(),
        "gain": 6,
        "why": "success by 6: +max(1, 6)",
        "stamina": {"before": 10, "after": 12, "max": 12},
        "capped": True,
        "body": "recovery never heals Body",
    }
    exact = resolve_recover(
        view(fighter("ann", stamina=6)), "ann", Recover(), DiceTray(None, {"recovery": [1, 2, 3]})
    )
    assert exact.breakdown["capped"] is False
    with pytest.raises(InvalidInput, match="recovery needs an actor"):
        resolve_recover(view(me), None, Recover(), DiceTray(None))


# -- wounds -------------------------------------------------------------------------------------


def test_mark_and_treat_wounds_record_what_changed() -> None:
    me = fighter("ann")
    marked = resolve_mark_wound(
        view(me), None, MarkWound(target="ann", wound="broken_bones", reason="fell"), DiceTray(None)
    )
    assert marked.summary == "Ann now has broken bones"
    assert marked.breakdown == {
        "wound": "broken_bones",
        "before": False,
        "after": True,
        "reason": "fell",
    }
    assert marked.state == {"ann": {"broken_bones": True}}
    hurt = CombatantView("ann", "Ann", "a", 1, SHEET, me.tracks, {"piercing_wound": True}, ())
    ended = resolve_mark_wound(
        view(hurt), None, MarkWound(target="ann", wound="piercing_wound", present=False),
        DiceTray(None),
    )  # fmt: skip
    assert ended.summary == "Ann no longer has piercing wound"
    assert ended.breakdown["before"] is True
    treated = resolve_treat_wound(view(hurt), None, TreatWound(target="ann"), DiceTray(None))
    assert treated.summary == "Ann's piercing wound is treated"
    assert treated.state == {"ann": {"piercing_wound": False}}
    assert treated.breakdown == {"wound": "piercing_wound", "treated": True, "reason": ""}
    with pytest.raises(NotFound, match="target 'bob' is not a combatant"):
        resolve_treat_wound(view(hurt), None, TreatWound(target="bob"), DiceTray(None))


# -- a day (S8) ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("con", "rate"), [(4, 0), (5, 1), (9, 1), (10, 2), (30, 6), (40, 8)])
def test_the_care_rate_is_con_over_five(con: int, rate: int) -> None:
    assert body_rate(con, DayPlan(), piercing_wound=False, slowed=False) == (
        rate,
        [f"with care: CON {con} // 5 = {rate}"],
    )


def test_without_care_the_rate_is_halved_rounding_down() -> None:
    rate, steps = body_rate(15, DayPlan(care=False), piercing_wound=False, slowed=False)
    assert (rate, type(rate)) == (1, int)
    assert steps == ["without care: (CON 15 // 5) // 2 = 3 // 2 = 1"]


def test_slowed_halving_rounds_down_too() -> None:
    rate, steps = body_rate(15, DayPlan(), piercing_wound=False, slowed=True)
    assert (rate, type(rate)) == (1, int)
    assert steps[-1] == "broken bones or severe bruising: 3 // 2 = 1"


def test_stamina_for_each_rest() -> None:
    assert stamina_for_rest(7, "full") == (7, "full rest: all 7 lost Stamina back")
    assert stamina_for_rest(7, "light") == (3, "light activity: 7 lost // 2 = 3")
    assert stamina_for_rest(7, "none") == (0, "no rest: no Stamina back")


def test_a_day_breakdown_step_by_step() -> None:
    sheet = {**SHEET, "con": 15}
    heal = daily_heal(sheet, {"stamina": 4, "body": 9}, {}, DayPlan(rest="light", healer=True))
    assert heal.breakdown() == {
        "stamina_gain": 4,
        "body_gain": 1,
        "tracks": {"stamina": 8, "body": 10},
        "steps": [
            "light activity: 8 lost // 2 = 4",
            "with care: CON 15 // 5 = 3",
            "healer: 3 + 1 = 4",
            "never past max 10: +1",
        ],
    }
    none = daily_heal(sheet, {"stamina": 14, "body": 3}, {}, DayPlan(rest="none"))
    assert none.breakdown()["steps"] == ["no rest: no Stamina back", "no rest: Body does not heal"]
    assert none.tracks == {"stamina": 14, "body": 3}
    whole = daily_heal(sheet, {"stamina": 12, "body": 3}, {}, DayPlan())
    assert whole.steps == ("full rest: all 0 lost Stamina back", "with care: CON 15 // 5 = 3")


def test_the_ruleset_daily_breakdown_names_its_inputs() -> None:
    plan = DayPlan(care=False)
    outcome = RULES.daily(
        {**SHEET, "con": 10}, {"stamina": 12, "body": 5}, {"broken_bones": True}, plan
    )
    assert outcome.tracks == {"stamina": 12, "body": 5}
    assert outcome.state == {"broken_bones": True}
    assert outcome.breakdown["inputs"] == {
        "plan": {"rest": "full", "care": False, "healer": False},
        "con": 10,
        "broken_bones": True,
        "piercing_wound": False,
        "severe_bruising": False,
    }
    assert outcome.breakdown["before"] == {"stamina": 12, "body": 5}
    assert outcome.breakdown["body_gain"] == 0


def test_track_maxima_and_conditions() -> None:
    assert RULES.track_maxima(SHEET) == {"stamina": 12, "body": 10}
    assert RULES.conditions(SHEET, {"stamina": 0, "body": 1}, {}) == ()
    assert RULES.conditions(SHEET, {"stamina": -1, "body": 0}, {"severe_bruising": True}) == (
        "stunned",
        "cannot_act",
        "severe_bruising",
    )


def test_a_wound_that_leaves_the_rate_at_zero_needs_no_clamp() -> None:
    rate, steps = body_rate(5, DayPlan(), piercing_wound=True, slowed=False)
    assert (rate, steps) == (
        0,
        ["with care: CON 5 // 5 = 1", "untreated piercing wound: 1 - 1 = 0"],
    )


def test_without_care_con_20_halves_4_to_2() -> None:
    rate, steps = body_rate(20, DayPlan(care=False), piercing_wound=False, slowed=False)
    assert (rate, steps) == (2, ["without care: (CON 20 // 5) // 2 = 4 // 2 = 2"])


def test_refusals_name_the_character_and_the_role() -> None:
    me = fighter("ann")
    with pytest.raises(InvalidInput) as no_actor:
        resolve_recover(view(me), None, Recover(), DiceTray(None))
    assert no_actor.value.message == (
        "recovery needs an actor: the combatant catching their breath"
    )
    with pytest.raises(NotFound) as unknown:
        resolve_recover(view(me), "cat", Recover(), DiceTray(None))
    assert unknown.value.message == "actor 'cat' is not a combatant in this encounter"
    with pytest.raises(NotFound) as unknown_target:
        resolve_mark_wound(
            view(me), None, MarkWound(target="cat", wound="broken_bones"), DiceTray(None)
        )
    assert unknown_target.value.message == "target 'cat' is not a combatant in this encounter"
    with pytest.raises(ActionRefused) as absent:
        resolve_mark_wound(
            view(me),
            None,
            MarkWound(target="ann", wound="severe_bruising", present=False),
            DiceTray(None),
        )
    assert absent.value.message == "Ann has no severe bruising to end"
    with pytest.raises(ActionRefused) as untreated:
        resolve_treat_wound(view(me), None, TreatWound(target="ann"), DiceTray(None))
    assert untreated.value.message == "Ann has no untreated piercing wound to treat"


@pytest.mark.parametrize(
    ("body", "state", "found"),
    [
        (-1, {"stabilised": True}, ("unconscious", "cannot_act", "stabilised")),
        (0, {"stabilised": True}, ("cannot_act",)),
        (5, {"stabilised": True, "broken_bones": True}, ("broken_bones",)),
        (5, {"piercing_wound": True, "severe_bruising": False}, ("piercing_wound",)),
    ],
)
def test_the_stabilised_chip_shows_only_while_unconscious(
    body: int, state: dict[str, bool], found: tuple[str, ...]
) -> None:
    assert RULES.conditions(SHEET, {"stamina": 1, "body": body}, state) == found
