"""The d20 ruleset passes the ruleset contract kit (skald_campaign/ruleset_kit, issue 38)."""

from __future__ import annotations

from skald_campaign.domain.rulesets.d20 import D20
from skald_campaign.ruleset_kit import ActionSample, BadInput, RulesetContract
from tests.unit.test_d20_support import sheet


class TestD20Contract(RulesetContract):
    ruleset = D20()
    sheets = (sheet(dexterity=14), sheet(hp=12))
    samples = (
        ActionSample(
            "attack", {"target": "$target", "weapon": "Longsword"}, {"hit": [15], "damage": [6]}
        ),
        ActionSample("attack", {"target": "$target", "weapon": "Longsword"}, {"hit": [2]}),
    )
    bad_sheets = (BadInput(sheet(hp=0), "sheet.hp"), BadInput(sheet(level="x"), "sheet.level"))
    bad_params = (BadInput({"target": 3}, "attack.target", kind="attack"),)
    initiative_add = "dexterity"
    unable_tracks = {"hp": 0}
