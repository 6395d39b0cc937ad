"""The hit-points ruleset passes Skald's ruleset contract kit."""

from __future__ import annotations

from skald_campaign.ruleset_kit import ActionSample, BadInput, RulesetContract

from skald_hitpoints import HitPoints

FIGHTER = {"hp": 12, "defense": 14, "attack": "1d20", "attack_bonus": 3, "damage": "1d8+1"}
GOBLIN = {"hp": 7, "defense": 12, "damage": "1d6", "initiative": 2}


class TestHitPoints(RulesetContract):
    ruleset = HitPoints()
    sheets = (FIGHTER, GOBLIN)
    samples = (
        # 11 + 3 = 14 against defense 12: a hit, 5 + 1 = 6 damage (7 -> 1 hp, bloodied).
        ActionSample("attack", {"target": "$target"}, {"attack": [11], "damage": [5]}),
        # 8 + 3 = 11 against 12: a miss, no damage rolled.
        ActionSample("attack", {"target": "$target"}, {"attack": [8]}),
        # The GM's trap: 2d6, 4 + 6 = 10, the goblin is down.
        ActionSample(
            "take_damage", {"target": "$target", "damage": "2d6"}, {"damage": [4, 6]}, actor=None
        ),
    )
    bad_sheets = (
        BadInput({**GOBLIN, "hp": 0}, "sheet.hp"),
        BadInput({**GOBLIN, "damage": "a lot"}, "sheet.damage"),
        BadInput({"hp": 5}, "sheet.defense"),
    )
    bad_params = (
        BadInput({}, "attack.target", kind="attack"),
        BadInput({"target": "x", "damage": "2x6"}, "take_damage.damage", kind="take_damage"),
    )
    initiative_add = "initiative"
    unable_tracks = {"hp": 0}
