"""S3/S9/S11: which attacks wait for the defender's declaration, and what the defender is shown.

An attack that does not name its defense rolls the hit first and waits, unless nothing
can be declared: a miss, or a defender who cannot answer (unconscious, Body 0, stunned
unless ``stunned_may_defend``). A wound alone never stops a defender from answering.
"""

from __future__ import annotations

from typing import Any

import pytest

from skald_campaign.domain.errors import InvalidInput
from skald_campaign.domain.play.dice import DiceExpression, DiceTray
from skald_campaign.domain.rulesets.base import Awaiting, CombatantView, EncounterView
from skald_campaign.domain.rulesets.stamina_body import StaminaBody, rules
from skald_campaign.domain.rulesets.stamina_body.combat import defend, unable_to_answer
from skald_campaign.domain.rulesets.stamina_body.declarations import CHOICES, awaiting_defense

RULES = StaminaBody()
AXE = {"name": "axe", "damage_class": 2, "damage_type": "piercing", "skill": 12}
SHEET: dict[str, Any] = {
    "st": 12,
    "con": 11,
    "parry": 9,
    "dodge": 7,
    "unarmed_skill": 8,
    "stamina_max": 12,
    "body_max": 10,
    "armour_resilience": 0,
    "shield_resilience": 0,
    "weapons": [AXE],
}
OPTIONS = {"extra_dice_per_option": 1, "stunned_may_defend": False, "bleed_per_round": 1}


def fighter(cid: str, stamina: int = 12, body: int = 10, **state: Any) -> CombatantView:
    tracks = {"stamina": stamina, "body": body}
    conditions = RULES.conditions(SHEET, tracks, state)
    return CombatantView(cid, cid.title(), cid, 1, SHEET, tracks, state, conditions)


def ask(
    defender: CombatantView | None = None,
    hit: list[int] | None = None,
    options: dict[str, Any] | None = None,
    kind: str = "attack",
    actor: str | None = "ann",
    **params: Any,
) -> tuple[Awaiting | None, DiceTray]:
    combatants = {c.id: c for c in (fighter("ann"), defender or fighter("bob"))}
    view = EncounterView(1, combatants, OPTIONS if options is None else options)
    tray = DiceTray(None, {"hit": hit or [2, 3, 4]})
    return awaiting_defense(view, kind, actor, {"target": "bob", **params}, tray), tray


def test_an_attack_without_a_defense_waits_and_shows_the_hit() -> None:
    awaiting, tray = ask(weapon="axe")
    # 2 + 3 + 4 = 9 against the axe's 12 (not the unarmed 8): hit score 3.
    assert awaiting == Awaiting(
        "bob",
        "defense",
        ("parry", "dodge", "none"),
        {
            "attacker": "Ann",
            "weapon": "axe",
            "hit": {"roll": 9, "target": 12, "success": True, "margin": 3, "note": "9 <= 12"},
            "hit_score": 3,
            "scores": {"parry": 9, "dodge": 7},
        },
    )
    assert CHOICES == ("parry", "dodge", "none")
    (roll,) = tray.rolls
    assert (roll.name, roll.expression, roll.faces) == ("hit", DiceExpression(3, 6), (2, 3, 4))


def test_fists_are_rolled_against_the_unarmed_skill() -> None:
    awaiting, _ = ask(hit=[1, 2, 3])
    assert awaiting is not None
    assert awaiting.shown["weapon"] == "unarmed"
    assert awaiting.shown["hit"]["target"] == 8
    assert awaiting.shown["hit_score"] == 2


@pytest.mark.parametrize(
    "state",
    [{"piercing_wound": True}, {"broken_bones": True}, {"severe_bruising": True}],
    ids=["piercing-wound", "broken-bones", "severe-bruising"],
)
def test_a_wounded_defender_is_still_asked(state: dict[str, Any]) -> None:
    bob = fighter("bob", **state)
    assert bob.conditions == tuple(state)
    awaiting, _ = ask(bob, weapon="axe")
    assert awaiting is not None
    assert awaiting.defender == "bob"


@pytest.mark.parametrize(
    ("stamina", "body", "conditions"),
    [
        (12, -1, ("unconscious", "cannot_act")),
        (12, 0, ("cannot_act",)),
        (-1, 10, ("stunned",)),
        (-1, -1, ("stunned", "unconscious", "cannot_act")),
    ],
    ids=["unconscious", "body-0", "stunned", "all-three"],
)
def test_a_defender_who_cannot_answer_is_not_asked_and_nothing_is_rolled(
    stamina: int, body: int, conditions: tuple[str, ...]
) -> None:
    bob = fighter("bob", stamina=stamina, body=body)
    assert bob.conditions == conditions
    awaiting, tray = ask(bob, weapon="axe")
    assert awaiting is None
    assert tray.rolls == ()  # the attack itself rolls the hit, once


def test_a_stunned_defender_is_asked_under_stunned_may_defend() -> None:
    bob = fighter("bob", stamina=-1)
    awaiting, _ = ask(bob, options={**OPTIONS, "stunned_may_defend": True}, weapon="axe")
    assert awaiting is not None
    assert awaiting.defender == "bob"


def test_without_the_option_recorded_a_stunned_defender_is_not_asked() -> None:
    awaiting, _ = ask(fighter("bob", stamina=-1), options={}, weapon="axe")
    assert awaiting is None


def test_stunned_may_defend_never_lets_the_unconscious_answer() -> None:
    bob = fighter("bob", body=-1)
    awaiting, _ = ask(bob, options={**OPTIONS, "stunned_may_defend": True}, weapon="axe")
    assert awaiting is None


def test_a_miss_needs_no_answer_but_its_roll_stays_in_the_tray() -> None:
    awaiting, tray = ask(hit=[4, 4, 5], weapon="axe")  # 13 > 12
    assert awaiting is None
    assert [roll.name for roll in tray.rolls] == ["hit"]


def test_a_natural_3_hits_whatever_the_skill() -> None:
    awaiting, _ = ask(hit=[1, 1, 1], weapon="axe")
    assert awaiting is not None
    assert awaiting.shown["hit"]["note"] == "a natural 3 always succeeds"


@pytest.mark.parametrize(
    ("kind", "actor", "params"),
    [
        ("recover", "ann", {}),
        ("take_hit", "ann", {}),
        ("attack", "ann", {"defense": "none"}),
        ("attack", "ann", {"defense": "parry"}),
        ("attack", None, {}),
        ("attack", "cat", {}),
    ],
    ids=["not-an-attack", "take-hit", "defense-none", "defense-parry", "no-actor", "no-such-actor"],
)
def test_what_never_waits(kind: str, actor: str | None, params: dict[str, Any]) -> None:
    awaiting, tray = ask(kind=kind, actor=actor, **params)
    assert awaiting is None
    assert tray.rolls == ()


def test_an_attack_on_nobody_or_on_oneself_is_left_to_the_resolver() -> None:
    for target in ("cat", "ann"):
        awaiting, tray = ask(target=target)
        assert awaiting is None
        assert tray.rolls == ()


def test_a_bad_parameter_is_refused_before_anything_is_rolled() -> None:
    with pytest.raises(InvalidInput) as refused:
        ask(weapon=7)
    assert "attack.weapon" in refused.value.message


def test_an_unknown_weapon_is_refused_by_name() -> None:
    with pytest.raises(InvalidInput) as refused:
        ask(weapon="halberd")
    assert refused.value.message == (
        "Ann has no weapon 'halberd'; weapons on the sheet: axe (or 'unarmed')"
    )


# -- what the breakdown says when nothing could be declared (S9) ---------------------------


@pytest.mark.parametrize(
    ("stamina", "body", "may_defend", "why"),
    [
        (-1, 10, False, "Bob is stunned and cannot answer (S9)"),
        (12, 0, False, "Bob is unable to act and cannot answer"),
        (12, -1, True, "Bob is unconscious and unable to act and cannot answer"),
        (-1, -1, False, "Bob is unconscious and unable to act and stunned and cannot answer (S9)"),
        (-1, 10, True, "no defense declared"),
        (12, 10, False, "no defense declared"),
    ],
)
def test_an_answer_of_nothing_says_why(stamina: int, body: int, may_defend: bool, why: str) -> None:
    bob = fighter("bob", stamina=stamina, body=body)
    hit = rules.check(9, 12)
    tray = DiceTray(None)
    result = defend(bob, "none", hit, tray, stunned_may_defend=may_defend)
    assert result == ("landed", {"kind": "none", "why": why}, None)
    assert tray.rolls == ()


def test_who_is_unable_to_answer_in_a_players_words() -> None:
    assert unable_to_answer(fighter("bob"), False) == ()
    assert unable_to_answer(fighter("bob", piercing_wound=True), False) == ()
    assert unable_to_answer(fighter("bob", stamina=-1), False) == ("stunned",)
    assert unable_to_answer(fighter("bob", stamina=-1), True) == ()
    assert unable_to_answer(fighter("bob", stamina=-1, body=-1), True) == (
        "unconscious",
        "unable to act",
    )
