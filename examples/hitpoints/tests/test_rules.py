"""The hit-points rules, exactly, from given dice (RULES.md)."""

from __future__ import annotations

import pytest
from skald_campaign.ruleset_api import CombatantView, DiceTray, EncounterView, InvalidInput

from skald_hitpoints import HitPoints, ShortRest

RULES = HitPoints()
FIGHTER = RULES.validate_sheet({"hp": 12, "defense": 14, "attack_bonus": 3, "damage": "1d8+1"})
GOBLIN = RULES.validate_sheet({"hp": 7, "defense": 12, "damage": "1d6"})


def view(goblin_hp: int = 7) -> EncounterView:
    fighter = CombatantView("f", "Fighter", "heroes", 1, FIGHTER, {"hp": 12}, {}, ())
    goblin = CombatantView("g", "Goblin", "foes", 1, GOBLIN, {"hp": goblin_hp}, {}, ())
    return EncounterView(1, {"f": fighter, "g": goblin}, RULES.validate_options({}))


def attack(faces: dict[str, list[int]], goblin_hp: int = 7) -> tuple[str, dict[str, object]]:
    params = RULES.validate_params("attack", {"target": "g"})
    tray = DiceTray(None, faces)
    outcome = RULES.actions["attack"].resolve(view(goblin_hp), "f", params, tray)
    tray.close()
    return outcome.summary, dict(outcome.tracks)


def test_a_hit_rolls_damage_off_the_hit_points() -> None:
    assert attack({"attack": [11], "damage": [5]}) == (
        "Fighter hits Goblin for 6 (14 vs 12)",
        {"g": {"hp": 1}},
    )


def test_a_total_under_the_defense_misses_and_rolls_no_damage() -> None:
    assert attack({"attack": [8]}) == ("Fighter misses Goblin (11 vs 12)", {})


def test_the_highest_face_hits_whatever_the_total() -> None:
    # A d20's 20 + 3 hits any defense; damage 1 + 1 = 2.
    heavy = RULES.validate_sheet({"hp": 7, "defense": 40})
    goblin = CombatantView("g", "Goblin", "foes", 1, heavy, {"hp": 7}, {}, ())
    fighter = CombatantView("f", "Fighter", "heroes", 1, FIGHTER, {"hp": 12}, {}, ())
    options = RULES.validate_options({})
    params = RULES.validate_params("attack", {"target": "g"})
    tray = DiceTray(None, {"attack": [20], "damage": [1]})
    table = EncounterView(1, {"f": fighter, "g": goblin}, options)
    outcome = RULES.actions["attack"].resolve(table, "f", params, tray)
    assert outcome.summary == "Fighter hits Goblin for 2 (23 vs 40)"


def test_damage_stops_at_zero_and_the_target_is_down() -> None:
    assert attack({"attack": [15], "damage": [8]}, goblin_hp=3)[1] == {"g": {"hp": 0}}
    assert RULES.conditions(GOBLIN, {"hp": 0}, {}) == ("down",)


@pytest.mark.parametrize(
    ("hp", "conditions"), [(7, ()), (4, ()), (3, ("bloodied",)), (1, ("bloodied",))]
)
def test_bloodied_at_half_the_maximum_or_less(hp: int, conditions: tuple[str, ...]) -> None:
    assert RULES.conditions(GOBLIN, {"hp": hp}, {}) == conditions


def test_a_short_rest_gives_back_a_quarter_of_the_maximum() -> None:
    rested = RULES.daily(FIGHTER, {"hp": 2}, {}, ShortRest())
    assert rested.tracks == {"hp": 5}
    assert rested.breakdown == {
        "rest": "short",
        "hp": {"before": 2, "healed": 3, "after": 5, "max": 12},
    }
    assert RULES.daily(FIGHTER, {"hp": 11}, {}, ShortRest()).tracks == {"hp": 12}
    assert RULES.daily(FIGHTER, {"hp": 2}, {}, ShortRest(rest="none")).tracks == {"hp": 2}


def test_an_attack_without_an_attacker_is_refused() -> None:
    params = RULES.validate_params("attack", {"target": "g"})
    with pytest.raises(InvalidInput, match="attacker"):
        RULES.actions["attack"].resolve(view(), None, params, DiceTray(None, {}))
