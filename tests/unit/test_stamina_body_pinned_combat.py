"""Seed 001's attack, Take-hit, bleeding and stabilising pinned value by value: every
branch of the defense, every line of the breakdown a table reads."""

from __future__ import annotations

from typing import Any

import pytest

from skald_campaign.domain.errors import ActionRefused, InvalidInput, NotFound
from skald_campaign.domain.play.dice import DiceTray
from skald_campaign.domain.rulesets.base import CombatantView, EncounterView
from skald_campaign.domain.rulesets.stamina_body import StaminaBody, rules
from skald_campaign.domain.rulesets.stamina_body.actions import TakeHit, resolve_take_hit
from skald_campaign.domain.rulesets.stamina_body.bleeding import (
    Bleed,
    Stabilise,
    resolve_bleed,
    resolve_stabilise,
)
from skald_campaign.domain.rulesets.stamina_body.combat import (
    Attack,
    defend,
    resolve_attack,
    weapon_of,
)

RULES = StaminaBody()
SPEAR = {"name": "spear", "damage_class": 2, "damage_type": "piercing", "skill": 13}
SHEET: dict[str, Any] = {
    "st": 13,
    "con": 12,
    "parry": 11,
    "dodge": 10,
    "unarmed_skill": 9,
    "stamina_max": 12,
    "body_max": 10,
    "armour_resilience": 1,
    "shield_resilience": 2,
    "weapons": [SPEAR],
}
OPTIONS = {"extra_dice_per_option": 1, "stunned_may_defend": False, "bleed_per_round": 1}


def fighter(cid: str, stamina: int = 12, body: int = 10, **state: Any) -> CombatantView:
    tracks = {"stamina": stamina, "body": body}
    return CombatantView(
        cid, cid.title(), cid, 1, SHEET, tracks, state, RULES.conditions(SHEET, tracks, state)
    )


def attack(
    bob: CombatantView | None = None,
    dice: dict[str, list[int]] | None = None,
    options: dict[str, Any] | None = None,
    **params: Any,
) -> Any:
    who = view(fighter("ann"), bob or fighter("bob"), **(options or {}))
    tray = DiceTray(None, dice)
    outcome = resolve_attack(who, "ann", Attack(target="bob", **params), tray)
    tray.close()
    return outcome


def view(*who: CombatantView, round: int = 1, **options: Any) -> EncounterView:
    return EncounterView(round, {c.id: c for c in who}, {**OPTIONS, **options})


HIT_7 = {"roll": 7, "target": 13, "success": True, "margin": 6, "note": "7 <= 13"}
PARRY_7 = {"roll": 7, "target": 11, "success": True, "margin": 4, "note": "7 <= 11"}


def test_a_parried_blow_within_two_lands_through_armour_and_shield() -> None:
    bob = fighter("bob", stabilised=True)
    dice = {"hit": [2, 2, 3], "defense": [2, 2, 3], "damage": [6, 4, 1]}
    outcome = attack(bob, dice, weapon="spear", defense="parry", charge=True)
    assert outcome.summary == "Ann hits: Bob takes 6 Stamina and 1 Body (7/3 raw)"
    assert outcome.tracks == {"bob": {"stamina": 6, "body": 9}}
    assert outcome.state == {"bob": {"piercing_wound": True}}  # no longer stabilised
    assert outcome.breakdown == {
        "weapon": SPEAR,
        "hit": HIT_7,
        "hit_score": 6,
        "defense": {
            "kind": "parry",
            "rolled": True,
            "check": PARRY_7,
            "why": "parry score 4 < hit score 6: it lands",
        },
        "result": "landed",
        "damage": {
            "damage_dice": {
                "class": 2,
                "options": ["charge"],
                "added": 1,
                "count": 3,
                "faces": [6, 4, 1],
            },
            "reading": {
                "table": "piercing",
                "readings": [
                    {"die": 6, "stamina": 4, "body": 2},
                    {"die": 4, "stamina": 2, "body": 1},
                    {"die": 1, "stamina": 1, "body": 0},
                ],
                "raw": {"stamina": 7, "body": 3},
            },
            "shield": {"counts": True, "why": "hit score 6 - parry score 4 = 2 <= 2"},
            "resilience": {"armour": 1, "shield": 2, "total": 3, "notes": []},
            "absorption": {
                "resilience": 3,
                "steps": [
                    {"step": 1, "pool": "body", "after": 2, "resilience_left": 2},
                    {"step": 2, "pool": "stamina", "after": 6, "resilience_left": 1},
                    {"step": 3, "pool": "body", "after": 1, "resilience_left": 0},
                ],
                "absorbed": 3,
                "net": {"stamina": 6, "body": 1},
            },
            "tracks": {
                "stamina": {"before": 12, "after": 6},
                "body": {"before": 10, "after": 9},
            },
            "piercing_wound": True,
        },
    }


def test_an_impact_blow_leaves_no_wound_and_keeps_the_stabilising() -> None:
    bob = fighter("bob", stamina=3, body=-1, stabilised=True)
    outcome = attack(bob, {"hit": [1, 1, 2], "damage": [5, 5, 5]})
    assert outcome.breakdown["weapon"] == {
        "name": "unarmed",
        "damage_class": 3,
        "damage_type": "impact",
        "skill": 9,
    }
    assert outcome.breakdown["damage"]["piercing_wound"] is False
    assert outcome.state == {"bob": {"stabilised": True}}
    assert outcome.tracks == {"bob": {"stamina": -8, "body": -1}}


def test_a_parry_scoring_the_hit_score_stops_the_blow() -> None:
    outcome = attack(None, {"hit": [2, 2, 5], "defense": [2, 2, 3]}, defense="parry")
    # unarmed: hit 9 vs 9, score 0; parry 7 vs 11, score 4.
    assert outcome.summary == "Bob parried Ann's blow"
    assert outcome.tracks == {}
    assert outcome.breakdown["result"] == "parried"
    assert outcome.breakdown["defense"]["why"] == "parry score 4 >= hit score 0: stopped"


def test_a_dodge_scoring_exactly_the_hit_score_stops_it() -> None:
    outcome = attack(None, {"hit": [2, 2, 2], "defense": [2, 2, 3]}, defense="dodge")
    # unarmed: hit 6 vs 9, score 3; dodge 7 vs 10, score 3.
    assert outcome.summary == "Bob dodged Ann's blow"
    assert outcome.breakdown["defense"] == {
        "kind": "dodge",
        "rolled": True,
        "check": {"roll": 7, "target": 10, "success": True, "margin": 3, "note": "7 <= 10"},
        "why": "dodge score 3 >= hit score 3: stopped",
    }


def test_a_failed_parry_lets_the_blow_land_without_the_shield() -> None:
    dice = {"hit": [2, 2, 2], "defense": [6, 6, 1], "damage": [1, 1, 1]}
    outcome = attack(None, dice, defense="parry")
    assert outcome.breakdown["defense"]["why"] == "the parry failed (13 > 11)"
    assert outcome.breakdown["damage"]["shield"] == {
        "counts": False,
        "why": "no successful parry: the shield does not help",
    }
    assert outcome.breakdown["damage"]["resilience"]["total"] == 1


def test_a_successful_dodge_that_scores_less_never_brings_the_shield() -> None:
    dice = {"hit": [1, 1, 2], "defense": [3, 3, 3], "damage": [1, 1, 1]}
    outcome = attack(None, dice, defense="dodge")  # score 5 against dodge score 1
    assert outcome.breakdown["defense"]["why"] == "dodge score 1 < hit score 5: it lands"
    assert outcome.breakdown["damage"]["shield"]["counts"] is False


def test_no_defense_and_a_miss() -> None:
    landed = attack(None, {"hit": [3, 3, 3], "damage": [1, 1, 1]})
    assert landed.breakdown["defense"] == {"kind": "none", "why": "no defense declared"}
    missed = attack(None, {"hit": [4, 4, 4]}, defense="parry")
    assert missed.summary == "Ann misses Bob"
    assert missed.breakdown == {
        "weapon": weapon_of(fighter("ann"), "unarmed"),
        "hit": {"roll": 12, "target": 9, "success": False, "margin": -3, "note": "12 > 9"},
        "result": "missed",
    }
    assert missed.tracks == {}


@pytest.mark.parametrize(
    ("bob", "options", "why"),
    [
        (fighter("bob", stamina=-1), {}, "Bob is stunned and cannot parry"),
        (fighter("bob", body=0), {}, "Bob is unable to act and cannot parry"),
        (
            fighter("bob", stamina=-1, body=-1),
            {},
            "Bob is unconscious and unable to act and stunned and cannot parry",
        ),
        (fighter("bob", body=-1), {"stunned_may_defend": True}, None),
    ],
)
def test_who_cannot_parry(bob: CombatantView, options: dict[str, Any], why: str | None) -> None:
    outcome = attack(bob, {"hit": [3, 3, 3], "damage": [1, 1, 1]}, options, defense="parry")
    if why is None:
        why = "Bob is unconscious and unable to act and cannot parry"
    assert outcome.breakdown["defense"] == {"kind": "parry", "rolled": False, "why": why}
    assert outcome.breakdown["damage"]["shield"]["counts"] is False


def test_a_stunned_defender_may_parry_under_the_option() -> None:
    bob = fighter("bob", stamina=-1)
    dice = {"hit": [3, 3, 3], "defense": [1, 1, 2]}
    outcome = attack(bob, dice, {"stunned_may_defend": True}, defense="parry")
    assert outcome.breakdown["result"] == "parried"


def test_extra_dice_per_option_multiplies() -> None:
    dice = {"hit": [3, 3, 3], "damage": [1] * 9}
    outcome = attack(
        None, dice, {"extra_dice_per_option": 2}, set_weapon=True, charge=True, extra_strength=True
    )
    assert outcome.breakdown["damage"]["damage_dice"]["count"] == 9


def test_attack_refusals() -> None:
    who = view(fighter("ann"), fighter("bob"))
    with pytest.raises(InvalidInput, match=r"^an attack needs an actor"):
        resolve_attack(who, None, Attack(target="bob"), DiceTray(None))
    with pytest.raises(InvalidInput, match=r"^Ann cannot attack themself$"):
        resolve_attack(who, "ann", Attack(target="ann"), DiceTray(None))
    with pytest.raises(NotFound, match=r"^target 'cat' is not a combatant"):
        resolve_attack(who, "ann", Attack(target="cat"), DiceTray(None))
    with pytest.raises(InvalidInput) as refused:
        resolve_attack(who, "ann", Attack(target="bob", weapon="axe"), DiceTray(None))
    assert refused.value.message == (
        "Ann has no weapon 'axe'; weapons on the sheet: spear (or 'unarmed')"
    )
    bare = CombatantView("cat", "Cat", "c", 1, {**SHEET, "weapons": []}, {}, {}, ())
    with pytest.raises(InvalidInput, match="weapons on the sheet: none"):
        weapon_of(bare, "axe")


# -- the Take-hit panel --------------------------------------------------------------------


def test_take_hit_reads_soaks_and_summarises() -> None:
    tray = DiceTray(None, {"damage": [6, 6]})
    params = TakeHit(
        target="bob",
        damage_type="impact",
        damage_class=1,
        extra_strength=True,
        parried=True,
        hit_score=4,
        parry_score=3,
        ignore_armour=True,
    )
    outcome = resolve_take_hit(view(fighter("bob"), extra_dice_per_option=1), None, params, tray)
    assert outcome.summary == "Bob takes 9 Stamina and 1 Body (10/2 raw)"
    assert outcome.tracks == {"bob": {"stamina": 3, "body": 9}}
    assert outcome.state == {"bob": {}}
    damage = outcome.breakdown
    assert damage["damage_dice"] == {
        "class": 1,
        "options": ["extra_strength"],
        "added": 1,
        "count": 2,
        "faces": [6, 6],
    }
    assert damage["shield"] == {"counts": True, "why": "hit score 4 - parry score 3 = 1 <= 2"}
    assert damage["resilience"] == {
        "armour": 0,
        "shield": 2,
        "total": 2,
        "notes": ["ignore armour: armour resilience 1 removed"],
    }


def test_take_hit_without_a_parry_gets_no_shield() -> None:
    params = TakeHit(target="bob", damage_type="piercing", damage_class=1, ignore_shield=True)
    outcome = resolve_take_hit(view(fighter("bob")), None, params, DiceTray(None, {"damage": [6]}))
    assert outcome.breakdown["resilience"]["total"] == 1
    assert outcome.breakdown["piercing_wound"] is True
    assert outcome.tracks == {"bob": {"stamina": 8, "body": 9}}


@pytest.mark.parametrize(
    ("fields", "refused"),
    [
        ({"parried": True, "hit_score": 3, "parry_score": 3}, True),
        ({"parried": True, "hit_score": 3, "parry_score": 2}, False),
        ({"parried": False, "hit_score": 3, "parry_score": 9}, False),
        ({"parried": True, "parry_score": 9}, False),
        ({"parried": True, "hit_score": 3}, False),
    ],
)
def test_take_hit_refuses_only_a_parry_that_stopped_the_blow(
    fields: dict[str, Any], refused: bool
) -> None:
    params = {"target": "bob", "damage_type": "impact", "damage_class": 1, **fields}
    if refused:
        with pytest.raises(InvalidInput, match=r"take_hit\.parry_score: Value error, parry_score"):
            RULES.validate_params("take_hit", params)
    else:
        RULES.validate_params("take_hit", params)


# -- bleeding and stabilising --------------------------------------------------------------


def test_bleeding_breakdown() -> None:
    out = fighter("out", stamina=2, body=-1, piercing_wound=True)
    outcome = resolve_bleed(view(out, round=3), None, Bleed(), DiceTray(None))
    assert outcome.breakdown == {
        "round": 3,
        "bleed_per_round": 1,
        "why": "unconscious and not stabilised (S10)",
        "bled": [{"combatant": "out", "body": {"before": -1, "after": -2}}],
    }
    assert outcome.tracks == {"out": {"stamina": 2, "body": -2}}
    assert outcome.state == {"out": {"piercing_wound": True, "bled_round": 3}}
    assert RULES.round_start_actions(view(fighter("ann"))) == ()


def test_bleeding_without_the_option_recorded_uses_one() -> None:
    out = fighter("out", body=-1)
    who = EncounterView(2, {"out": out}, {})
    assert resolve_bleed(who, None, Bleed(), DiceTray(None)).tracks["out"]["body"] == -2


def test_stabilise_breakdown() -> None:
    outcome = resolve_stabilise(
        view(fighter("ann"), fighter("out", body=-1, piercing_wound=True)),
        "ann",
        Stabilise(target="out"),
        DiceTray(None),
    )
    assert outcome.breakdown == {"target": "out", "by": "ann", "stabilised": True}
    assert outcome.state == {"out": {"piercing_wound": True, "stabilised": True}}
    assert outcome.tracks == {}


def test_stunned_refusal_message_and_what_stays_allowed() -> None:
    stunned = fighter("ann", stamina=-1)
    with pytest.raises(ActionRefused) as refused:
        RULES.refuse_if_cannot_act(stunned, "stabilise")
    assert refused.value.message == (
        "Ann cannot stabilise: stunned, and a stunned combatant's only action is recover (S9)"
    )
    for kind in ("recover", "mark_wound", "bleed", "take_hit"):
        RULES.refuse_if_cannot_act(stunned, kind)
    out = fighter("out", body=0)
    with pytest.raises(ActionRefused, match=r"^Out cannot recover: cannot_act$"):
        RULES.refuse_if_cannot_act(out, "recover")


def test_every_refusal_word_for_word() -> None:
    who = view(fighter("ann"), fighter("out", body=-1))
    cases: list[tuple[Any, str]] = [
        (
            lambda: resolve_attack(who, "cat", Attack(target="out"), DiceTray(None)),
            "actor 'cat' is not a combatant in this encounter",
        ),
        (
            lambda: resolve_take_hit(
                who,
                None,
                TakeHit(target="cat", damage_type="impact", damage_class=1),
                DiceTray(None),
            ),
            "target 'cat' is not a combatant in this encounter",
        ),
        (
            lambda: resolve_bleed(view(fighter("ann"), round=3), None, Bleed(), DiceTray(None)),
            "nobody bleeds in round 3: no unconscious, unstabilised combatant has yet to "
            "bleed this round",
        ),
        (
            lambda: resolve_stabilise(who, None, Stabilise(target="out"), DiceTray(None)),
            "stabilising needs an actor: the combatant spending their action",
        ),
        (
            lambda: resolve_stabilise(who, "cat", Stabilise(target="out"), DiceTray(None)),
            "actor 'cat' is not a combatant in this encounter",
        ),
        (
            lambda: resolve_stabilise(who, "ann", Stabilise(target="cat"), DiceTray(None)),
            "target 'cat' is not a combatant in this encounter",
        ),
        (
            lambda: RULES.refuse_if_cannot_act(fighter("ann", stamina=-2), "treat_wound"),
            "Ann cannot treat wound: stunned, and a stunned combatant's only action is "
            "recover (S9)",
        ),
    ]
    for call, message in cases:
        with pytest.raises((InvalidInput, NotFound, ActionRefused)) as refused:
            call()
        assert refused.value.message == message


def test_stabilise_summary() -> None:
    who = view(fighter("ann"), fighter("out", body=-1))
    outcome = resolve_stabilise(who, "ann", Stabilise(target="out"), DiceTray(None))
    assert outcome.summary == "Ann stabilises Out"


def test_take_hit_counts_every_option_at_the_campaigns_rate() -> None:
    params = TakeHit(
        target="bob", damage_type="impact", damage_class=1, set_weapon=True, charge=True
    )
    who = view(fighter("bob"), extra_dice_per_option=2)
    outcome = resolve_take_hit(who, None, params, DiceTray(None, {"damage": [1] * 5}))
    assert outcome.breakdown["damage_dice"] == {
        "class": 1,
        "options": ["set_weapon", "charge"],
        "added": 4,
        "count": 5,
        "faces": [1, 1, 1, 1, 1],
    }


def test_defend_by_itself_lets_no_stunned_defender_parry() -> None:
    hit = rules.check(9, 13)
    result, record, check = defend(fighter("bob", stamina=-1), "parry", hit, DiceTray(None))
    assert (result, check) == ("landed", None)
    assert record == {"kind": "parry", "rolled": False, "why": "Bob is stunned and cannot parry"}


def test_ignore_shield_removes_a_shield_that_counts() -> None:
    params = TakeHit(
        target="bob",
        damage_type="impact",
        damage_class=1,
        parried=True,
        hit_score=3,
        parry_score=2,
        ignore_shield=True,
    )
    outcome = resolve_take_hit(view(fighter("bob")), None, params, DiceTray(None, {"damage": [6]}))
    assert outcome.breakdown["resilience"] == {
        "armour": 1,
        "shield": 0,
        "total": 1,
        "notes": ["ignore shield: shield resilience 2 removed"],
    }


def test_a_campaign_without_the_option_recorded_keeps_the_stunned_from_defending() -> None:
    who = EncounterView(1, {"ann": fighter("ann"), "bob": fighter("bob", stamina=-1)}, {})
    dice = DiceTray(None, {"hit": [3, 3, 3], "damage": [1, 1, 1]})
    outcome = resolve_attack(
        EncounterView(1, who.combatants, {"extra_dice_per_option": 1}),
        "ann",
        Attack(target="bob", defense="dodge"),
        dice,
    )
    assert outcome.breakdown["defense"]["why"] == "Bob is stunned and cannot dodge"


def test_an_unknown_weapon_lists_every_weapon_on_the_sheet() -> None:
    axe = {"name": "axe", "damage_class": 2, "damage_type": "impact", "skill": 12}
    armed = CombatantView("cat", "Cat", "c", 1, {**SHEET, "weapons": [SPEAR, axe]}, {}, {}, ())
    with pytest.raises(InvalidInput) as refused:
        weapon_of(armed, "bow")
    assert refused.value.message == (
        "Cat has no weapon 'bow'; weapons on the sheet: spear, axe (or 'unarmed')"
    )
