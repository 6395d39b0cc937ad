"""Exact words and shapes of every d20 action, resolved on frozen views.

These pin what the mutation run found unpinned: each action's message for a
missing actor or a self-target, the situational-modifier term and the d20 of every
FR contest, the full breakdowns of stance, stand-up, maintain and throw, and the
published Ability schema.
"""

from __future__ import annotations

from typing import Any

import pytest

from skald_campaign.domain.errors import ActionRefused, InvalidInput
from skald_campaign.domain.play.dice import DiceTray, seeded_roller
from skald_campaign.domain.rulesets import get_ruleset
from skald_campaign.domain.rulesets.base import CombatantView, EncounterView, Outcome
from skald_campaign.domain.rulesets.d20 import rules
from skald_campaign.domain.rulesets.d20.ratings import Rating, Term
from skald_campaign.domain.rulesets.d20.sheet import D20Sheet
from skald_campaign.domain.validation import InvalidFields
from tests.unit.test_d20_support import fr_sheet, sheet

RULES = get_ruleset("d20")


def combatant(
    cid: str, character: dict[str, Any], state: dict[str, Any] | None = None
) -> CombatantView:
    valid = RULES.validate_sheet(character)
    tracks = RULES.track_maxima(valid)
    return CombatantView(
        id=cid,
        name=cid.upper(),
        side=cid,
        rank=1,
        sheet=valid,
        tracks=tracks,
        state=state or {},
        conditions=RULES.conditions(valid, tracks, state or {}),
    )


def view(*people: CombatantView, round_number: int = 1, **options: Any) -> EncounterView:
    return EncounterView(
        round=round_number,
        options=RULES.validate_options(options),
        combatants={person.id: person for person in people},
    )


def run(
    encounter: EncounterView,
    kind: str,
    actor: str | None,
    dice: dict[str, list[int]] | None = None,
    **params: Any,
) -> tuple[Outcome, list[dict[str, Any]]]:
    tray = DiceTray(seeded_roller(0), dice or {})
    outcome = RULES.action_type(kind).resolve(
        encounter, actor, RULES.validate_params(kind, params), tray
    )
    return outcome, tray.close()


def two(**state: dict[str, Any]) -> EncounterView:
    """A and B, FD 10 each, with the given states ({"a": {...}})."""
    return view(
        combatant("a", fr_sheet(0), state.get("a")), combatant("b", fr_sheet(0), state.get("b"))
    )


HOLD = {"a": {"grappling": "b"}, "b": {"grappled_by": "a"}}

DOING = [
    ("attack", "an attack", {"target": "b", "weapon": "Longsword"}),
    ("defensive_stance", "a defensive stance", {}),
    ("shove", "a shove", {"target": "b"}),
    ("trip", "a trip", {"target": "b"}),
    ("grapple", "a grapple", {"target": "b"}),
    ("maintain", "maintaining a hold", {}),
    ("escape", "an escape", {}),
    ("throw", "a throw", {}),
    ("release", "letting go", {}),
    ("stand_up", "standing up", {}),
]


@pytest.mark.parametrize(("kind", "doing", "params"), DOING)
def test_every_action_names_itself_when_no_actor_is_given(
    kind: str, doing: str, params: dict[str, Any]
) -> None:
    with pytest.raises(InvalidInput) as refused:
        run(two(), kind, None, **params)
    assert refused.value.message == f"{doing} needs an actor: the combatant id of who does it"


@pytest.mark.parametrize("kind", ["attack", "shove", "trip", "grapple"])
def test_no_one_acts_against_themself(kind: str) -> None:
    params = {"weapon": "Longsword"} if kind == "attack" else {}
    with pytest.raises(InvalidInput) as refused:
        run(two(), kind, "a", target="a", **params)
    assert refused.value.message == f"A cannot {kind} themself; name another combatant"


@pytest.mark.parametrize(
    ("kind", "actor", "state"),
    [
        ("shove", "a", {}),
        ("trip", "a", {}),
        ("grapple", "a", {}),
        ("maintain", "a", HOLD),
        ("escape", "b", HOLD),
        ("throw", "a", HOLD),
    ],
)
def test_every_fr_contest_rolls_a_d20_with_the_situational_modifier_as_a_term(
    kind: str, actor: str, state: dict[str, Any]
) -> None:
    params: dict[str, Any] = {"fr_modifier": 3}
    if kind in {"shove", "trip", "grapple"}:
        params["target"] = "b"
    outcome, rolls = run(two(**state), kind, actor, {kind: [1]}, **params)
    assert outcome.breakdown["roll"]["terms"][-1] == {"name": "situational modifier", "value": 3}
    assert rolls[0] == {"name": kind, "dice": "1d20", "faces": [1], "total": 1, "supplied": True}


def test_the_wrestling_breakdown_names_the_move_and_its_ratings() -> None:
    outcome, _ = run(two(), "grapple", "a", {"grapple": [4]}, target="b")
    assert outcome.breakdown == {
        "move": "grapple",
        "refused": False,
        "roll": outcome.breakdown["roll"],
        "fr_bonus": {
            "value": 0,
            "terms": [
                {"name": "Class Skill slots", "value": 0},
                {"name": "STR modifier (stated)", "value": 0},
                {"name": "magic bonuses", "value": 0},
            ],
        },
        "size_penalty": rules.size_penalty(
            D20Sheet.model_validate(fr_sheet(0)), D20Sheet.model_validate(fr_sheet(0))
        ).breakdown(),
    }
    assert outcome.summary == "A fails to grapple B (4 < FD 10)"


def test_a_defensive_stance_breakdown_in_full() -> None:
    encounter = view(combatant("a", fr_sheet(0, defensive_stance_mastery=2)), round_number=3)
    outcome, rolls = run(encounter, "defensive_stance", "a")
    assert outcome.breakdown == {
        "mastery_bonus": 2,
        "fd_before": 10,
        "fd_in_stance": {
            "value": 12,
            "terms": [
                {"name": "base", "value": 10},
                {"name": "STR modifier (stated), not CON +0", "value": 0},
                {"name": "size modifier (Medium)", "value": 0},
                {"name": "armor FD bonus (No armor)", "value": 0},
                {"name": "shield FD bonus (No shield)", "value": 0},
                {"name": "Defensive Stance mastery bonus", "value": 2},
            ],
        },
        "until": "the end of round 3",
    }
    assert outcome.summary == "A takes a Defensive Stance: FD 10 -> 12 until round 3 ends"
    assert outcome.state == {"a": {"stance_round": 3}}
    assert rolls == []


def test_standing_up_in_full() -> None:
    outcome, _ = run(two(a={"prone": True, "grappling": "b"}), "stand_up", "a")
    assert (outcome.summary, outcome.breakdown) == (
        "A stands up",
        {"prone": {"before": True, "after": False}},
    )
    assert outcome.state == {"a": {"grappling": "b"}}
    with pytest.raises(ActionRefused) as refused:
        run(two(), "stand_up", "a")
    assert refused.value.message == "A is not prone, so there is nothing to stand up from"


def test_maintain_kept_and_lost_in_full() -> None:
    kept, _ = run(two(**HOLD), "maintain", "a", {"maintain": [10]})
    assert (kept.summary, kept.breakdown["hold"], kept.state) == (
        "A keeps hold of B (10 >= FD 10)",
        "kept",
        {},
    )
    lost, _ = run(two(**HOLD), "maintain", "a", {"maintain": [9]})
    assert (lost.summary, lost.breakdown["hold"], lost.state) == (
        "A loses hold of B (9 < FD 10)",
        "broken",
        {"a": {}, "b": {}},
    )


def test_escape_kept_and_broken_in_full() -> None:
    kept, _ = run(two(**HOLD), "escape", "b", {"escape": [7]})
    assert (kept.summary, kept.breakdown["hold"], kept.state) == (
        "B fails to escape A (9 < FD 10)",
        "kept",
        {},
    )
    broken, _ = run(two(**HOLD), "escape", "b", {"escape": [8]})
    assert (broken.summary, broken.breakdown["hold"], broken.state) == (
        "B escapes A (10 >= FD 10)",
        "broken",
        {"a": {}, "b": {}},
    )


def test_a_throw_in_full() -> None:
    thrown, rolls = run(two(**HOLD), "throw", "a", {"throw": [10], "throw_damage": [4]})
    assert thrown.breakdown["throw_damage"] == {
        "shove_dice": 1,
        "shove_die": rules.shove_die("medium", 0).breakdown,
        "faces": [4],
        "damage": rules.physical_damage(4, Rating((Term("No armor AV", 0),))).breakdown,
        "hp": {"before": 20, "after": 16, "down": False},
    }
    assert thrown.summary == "A throws B to the ground (10 >= FD 10), 4 damage; HP 20 -> 16"
    assert thrown.tracks == {"b": {"hp": 16}}
    assert thrown.state == {"a": {}, "b": {"prone": True}}
    assert [roll["dice"] for roll in rolls] == ["1d20", "1d6"]
    failed, _ = run(two(**HOLD), "throw", "a", {"throw": [9]})
    assert (failed.summary, failed.breakdown["hold"], failed.state, failed.tracks) == (
        "A fails to throw B (9 < FD 10)",
        "kept",
        {},
        {},
    )


def test_release_in_full_and_nothing_to_release() -> None:
    released, _ = run(two(**HOLD), "release", "a")
    assert (released.summary, released.breakdown, released.state) == (
        "A lets go of B",
        {"hold": "released"},
        {"a": {}, "b": {}},
    )
    with pytest.raises(ActionRefused) as refused:
        run(two(), "release", "a")
    assert refused.value.message == "A holds nobody, so there is nothing to release; grapple first"


def test_grappling_ones_own_holder_is_refused_in_these_words() -> None:
    with pytest.raises(ActionRefused) as refused:
        run(two(**HOLD), "grapple", "b", target="a")
    assert refused.value.message == (
        "B is held by A, and two characters never hold each other (D11); escape instead"
    )


def test_a_trip_in_words() -> None:
    with pytest.raises(ActionRefused) as refused:
        run(two(b={"prone": True}), "trip", "a", target="b")
    assert refused.value.message == "B is already prone, so there is nothing to trip"


@pytest.mark.parametrize(("value", "named"), [(None, "null"), ([16], "a list")])
def test_an_ability_of_another_json_type_is_named(value: Any, named: str) -> None:
    with pytest.raises(InvalidFields) as refused:
        RULES.validate_sheet(sheet(strength=value))
    assert [problem.as_json() for problem in refused.value.problems] == [
        {
            "field": "sheet.strength",
            "problem": 'Value error, should be an integer score (e.g. 16) or {"modifier": 2}, '
            f"not {named}",
        }
    ]


def test_magic_damage_says_when_it_was_raised_and_only_then() -> None:
    assert (
        rules.magic_damage(-2, 1).breakdown["arithmetic"]
        == "magic ignores AV: -2, raised to the minimum 1"
    )
    assert rules.magic_damage(5, 1).breakdown == {
        "raw": 5,
        "av": None,
        "dealt": 5,
        "arithmetic": "magic ignores AV: 5",
    }


def test_the_published_ability_schema_in_full() -> None:
    schema = RULES.sheet_model.model_json_schema()["$defs"]["Ability"]
    score = {"type": "integer", "minimum": 3, "maximum": 30}
    assert schema == {
        "anyOf": [
            score,
            {
                "type": "object",
                "additionalProperties": False,
                "properties": {"score": score, "modifier": {"type": "null"}},
                "required": ["score"],
            },
            {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "score": {"type": "null"},
                    "modifier": {"type": "integer", "minimum": -5, "maximum": 10},
                },
                "required": ["modifier"],
            },
        ]
    }


def test_a_holder_brought_down_by_other_means_holds_nobody() -> None:
    """D11 when a GM's track adjustment downed the holder: the hold no longer binds."""
    downed_holder = combatant("a", fr_sheet(0), HOLD["a"])
    downed_holder = CombatantView(**{**downed_holder.__dict__, "tracks": {"hp": 0}})
    encounter = view(
        downed_holder, combatant("b", fr_sheet(0), HOLD["b"]), combatant("c", fr_sheet(0))
    )
    grabbed, _ = run(encounter, "grapple", "b", {"grapple": [10]}, target="c")
    assert grabbed.summary == "B grapples C (10 >= FD 10)"
    with pytest.raises(ActionRefused, match="B is not held by anyone"):
        run(encounter, "escape", "b", {"escape": [10]})


# -- edges of the numbers (mutation pins) --------------------------------------------------
def test_a_raw_1_goes_through_the_ordinary_arithmetic() -> None:
    assert rules.physical_damage(1, Rating((Term("Plate Mail AV", 6),))).breakdown == {
        "raw": 1,
        "guaranteed": 1,
        "remaining": 0,
        "av": 6,
        "av_terms": [{"name": "Plate Mail AV", "value": 6}],
        "absorbed": 0,
        "after_av": 0,
        "dealt": 1,
        "arithmetic": "1 penetrates; remaining 1 - 1 = 0; 0 - AV 6 = -6 -> 0; 1 + 0 = 1",
    }


def test_a_raw_0_is_below_1_and_still_deals_the_guaranteed_point() -> None:
    assert rules.physical_damage(0, Rating((Term("Leather AV", 2),))).breakdown == {
        "raw": 0,
        "av": 2,
        "av_terms": [{"name": "Leather AV", "value": 2}],
        "dealt": 1,
        "arithmetic": "raw 0 is below 1; a hit still deals the guaranteed point",
    }


def test_remaining_equal_to_av_is_not_marked_as_cut_to_0() -> None:
    damage = rules.physical_damage(5, Rating((Term("Chain Mail AV", 4),)))
    assert (
        damage.breakdown["arithmetic"]
        == "1 penetrates; remaining 5 - 1 = 4; 4 - AV 4 = 0; 1 + 0 = 1"
    )


@pytest.mark.parametrize(("hp", "down"), [(1, False), (0, True)])
def test_down_is_hp_0_or_less_exactly(hp: int, down: bool) -> None:
    valid = RULES.validate_sheet(sheet())
    assert ("down" in RULES.conditions(valid, {"hp": hp}, {})) is down
    encounter = view(combatant("a", sheet()), combatant("b", sheet(hp=hp + 3)))
    outcome, _ = run(
        encounter, "attack", "a", {"hit": [15], "damage": [3]}, target="b", weapon="Longsword"
    )
    assert outcome.breakdown["hp"] == {"before": hp + 3, "after": hp, "down": down}


@pytest.mark.parametrize(("hp", "let_go"), [(4, False), (3, True)])
def test_a_holder_at_exactly_0_lets_go_and_at_1_does_not(hp: int, let_go: bool) -> None:
    holder = combatant("a", sheet(hp=hp), HOLD["a"])
    encounter = view(holder, combatant("b", sheet(), HOLD["b"]), combatant("c", sheet()))
    outcome, _ = run(
        encounter, "attack", "c", {"hit": [15], "damage": [3]}, target="a", weapon="Longsword"
    )
    assert ("hold" in outcome.breakdown) is let_go
    assert outcome.state == ({"a": {}, "b": {}} if let_go else {})


def test_a_push_of_1_ft_ends_a_hold() -> None:
    encounter = view(
        combatant("a", fr_sheet(0), HOLD["a"]),
        combatant("b", fr_sheet(0), HOLD["b"]),
        combatant("c", fr_sheet(0)),
    )
    outcome, _ = run(encounter, "shove", "c", {"shove": [11]}, target="b", hazard_at_feet=1)
    assert outcome.breakdown["displacement"]["moved_feet"] == 1
    assert outcome.breakdown["hold"] == "broken: moved by a shove (D11)"


def test_a_shove_ends_both_holds_of_a_character_held_and_holding() -> None:
    encounter = view(
        combatant("a", fr_sheet(0), {"grappling": "b", "grappled_by": "c"}),
        combatant("b", fr_sheet(0), {"grappled_by": "a"}),
        combatant("c", fr_sheet(0), {"grappling": "a"}),
        combatant("d", fr_sheet(0)),
    )
    outcome, _ = run(encounter, "shove", "d", {"shove": [11]}, target="a")
    assert outcome.summary == "D shoves A 5 ft (11 >= FD 10); the hold with B and C ends"
    assert outcome.state == {"a": {}, "b": {}, "c": {}}


def test_a_wall_a_few_feet_away_that_downs_a_holder_ends_its_hold_once() -> None:
    encounter = view(
        combatant("a", fr_sheet(0, hp=2), HOLD["a"]),
        combatant("b", fr_sheet(0), HOLD["b"]),
        combatant("c", fr_sheet(0)),
    )
    outcome, _ = run(
        encounter, "shove", "c", {"shove": [11], "wall_damage": [6]}, target="a", wall_at_feet=2
    )
    assert outcome.state == {"a": {}, "b": {}}
    assert outcome.summary == "C shoves A 2 ft (11 >= FD 10), into the wall; the hold with B ends"


def test_the_shove_breakdown_names_both_fr_bonuses_and_the_terrain_as_sent() -> None:
    outcome, _ = run(two(), "shove", "a", {"shove": [2]}, target="b", fr_modifier=1, slippery=True)
    assert set(outcome.breakdown["fr_bonus"]) == {"attacker", "defender"}
    assert outcome.breakdown["terrain"] == {
        "defender_higher_ground": False,
        "difficult_terrain": False,
        "attacker_higher_ground": False,
        "slippery": True,
        "wall_at_feet": None,
        "hazard_at_feet": None,
        "hazard": "the hazard",
    }


def test_a_failed_hazard_save_in_full() -> None:
    outcome, rolls = run(
        two(),
        "shove",
        "a",
        {"shove": [11], "hazard_save": [11]},
        target="b",
        hazard_at_feet=2,
        hazard="the fire",
    )
    assert outcome.breakdown["hazard"] == {
        "hazard": "the fire",
        "save_vs_death_ray": 12,
        "d20": 11,
        "comparison": "11 < 12",
        "saved": False,
        "result": "goes into the fire; its own effects and saves follow",
    }
    assert rolls[1]["dice"] == "1d20"


def test_an_unknown_actor_is_named_as_the_actor() -> None:
    from skald_campaign.domain.errors import NotFound

    with pytest.raises(NotFound) as missing:
        run(two(), "trip", "zz", target="b")
    assert missing.value.message == "actor 'zz' is not a combatant in this encounter"


def test_a_shield_bash_is_named_as_such() -> None:
    encounter = view(combatant("a", sheet(shield="small")), combatant("b", sheet()))
    outcome, _ = run(encounter, "attack", "a", {"hit": [1]}, target="b", weapon="SHIELD BASH")
    assert outcome.breakdown["weapon"]["name"] == "Shield Bash"
    assert outcome.summary == "A misses B with Shield Bash (1 < AC 11)"


def test_fd_shows_the_stance_beside_it_only_with_a_mastery_and_names_a_higher_con() -> None:
    ratings = RULES.derived_ratings(
        RULES.validate_sheet(sheet(constitution=16, defensive_stance_mastery=1)), {}
    )
    assert ratings["fd"] == {
        "value": 12,
        "terms": [
            {"name": "base", "value": 10},
            {"name": "CON modifier (score 16), not STR +0", "value": 2},
            {"name": "size modifier (Medium)", "value": 0},
            {"name": "armor FD bonus (No armor)", "value": 0},
            {"name": "shield FD bonus (No shield)", "value": 0},
        ],
        "situational": [{"name": "Defensive Stance mastery bonus", "value": 1}],
    }
    plain = RULES.derived_ratings(RULES.validate_sheet(sheet()), {})
    assert "situational" not in plain["fd"]


def test_a_holder_at_1_hp_still_holds() -> None:
    hurt = combatant("a", fr_sheet(0), HOLD["a"])
    hurt = CombatantView(**{**hurt.__dict__, "tracks": {"hp": 1}})
    kept, _ = run(
        view(hurt, combatant("b", fr_sheet(0), HOLD["b"])), "maintain", "a", {"maintain": [10]}
    )
    assert kept.summary == "A keeps hold of B (10 >= FD 10)"
