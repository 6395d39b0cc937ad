"""Margin and stamina-body pass the ruleset contract kit (skald_campaign/ruleset_kit,
issue 38); d20's is tests/unit/test_ruleset_kit_d20.py."""

from __future__ import annotations

from typing import Any

from skald_campaign.domain.rulesets.margin import Margin
from skald_campaign.domain.rulesets.stamina_body import StaminaBody
from skald_campaign.ruleset_kit import ActionSample, BadInput, RulesetContract
from tests.unit.test_margin_table import SWORD, sheet

AXE = {"name": "axe", "damage_class": 2, "damage_type": "piercing", "skill": 12}
SB_SHEET: dict[str, Any] = {
    "st": 12,
    "con": 11,
    "parry": 9,
    "dodge": 7,
    "stamina_max": 12,
    "body_max": 10,
    "weapons": [AXE],
}


class TestMarginContract(RulesetContract):
    ruleset = Margin()
    sheets = (
        sheet(might=4, grace=1, vigor=3, melee=4, evasion=1, guard=2, weapons=[SWORD]),
        sheet(might=3, melee=1, evasion=1, guard=1, health=20, weapons=[SWORD]),
    )
    samples = (
        ActionSample(
            "attack",
            {"target": "$target", "weapon": "sword"},
            {
                "attack": [6, 6, 6, 6, 1, 1, 1, 1],
                "defense.$target.evasion": [2, 3],
                "defense.$target.guard": [2, 3],
            },
        ),
        ActionSample("defend", {"effort": 1}, {}),
    )
    bad_sheets = (BadInput(sheet(might=-1), "sheet.might"),)
    bad_params = (BadInput({"target": "x", "weapon": 3}, "attack.weapon", kind="attack"),)
    initiative_add = "grace"
    unable_tracks = {"health": 0}


class TestStaminaBodyContract(RulesetContract):
    ruleset = StaminaBody()
    sheets = (SB_SHEET, {**SB_SHEET, "stamina_max": 10})
    samples = (
        ActionSample(
            "take_hit",
            {"target": "$target", "damage_type": "impact", "damage_class": 2},
            {"damage": [6, 6]},
            actor=None,
        ),
        ActionSample(
            "attack",
            {"target": "$target", "weapon": "axe", "defense": "none"},
            {"hit": [2, 3, 4], "damage": [5, 6]},
        ),
    )
    bad_sheets = (BadInput({**SB_SHEET, "body_max": "ten"}, "sheet.body_max"),)
    bad_params = (
        BadInput(
            {"target": "x", "damage_type": "fire", "damage_class": 2},
            "take_hit.damage_type",
            kind="take_hit",
        ),
    )
    unable_tracks = {"body": 0}
