"""How the pages show d20 (published at /rulesets as ``presentation``): its buttons'
words and a starter sheet for a quick NPC. Plain data, the schema's fields
(api/schemas.py ``RulesetPresentation``); tests/unit/test_page_templates.py checks the
starter and the initiative fields against the ruleset."""

from __future__ import annotations

from skald_campaign.ruleset_api import JsonMapping

PRESENTATION: JsonMapping = {
    "labels": {
        "attack": "Attack",
        "shove": "Shove",
        "grapple": "Grapple",
        "maintain": "Maintain",
        "escape": "Escape",
        "throw": "Throw",
        "release": "Release",
        "stand_up": "Stand up",
        "defensive_stance": "Defensive stance",
        "trip": "Trip",
    },
    "initiative_add": ["dexterity", "strength", "constitution", "wisdom", "level"],
    # The GM screen's keys: h opens the attack for whoever's turn it is.
    "shortcuts": {"h": "attack"},
    "templates": {
        "Bandit (template)": {
            "strength": 12,
            "dexterity": 12,
            "constitution": 12,
            "wisdom": 10,
            "level": 1,
            "hp": 10,
            "save_vs_death_ray": 12,
            "armor": "leather",
            "weapons": [{"name": "short sword", "damage": "1d6"}],
        },
    },
}
