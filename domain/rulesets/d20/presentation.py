"""How the pages show d20 (published at /rulesets as ``presentation``): its buttons'
words, the ratings a player's page shows of their own character, and a starter sheet
for a quick NPC. Plain data, the schema's fields
(api/schemas.py ``RulesetPresentation``); tests/unit/test_page_templates.py checks the
starter, the initiative fields and the ratings against the ruleset."""

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
    # The player's own ratings on /play, as the seed's quick reference names them (D2:
    # all seven, AV melee and vs. missiles; D12: the HR bonus with each weapon).
    "ratings": [
        {"rating": "hr_bonus", "label": "HR bonus", "signed": True},
        {"rating": "fr_bonus", "label": "FR bonus", "signed": True},
        {"rating": "ac", "label": "AC", "signed": False},
        {"rating": "fd", "label": "FD", "signed": False},
        {"rating": "av.melee", "label": "AV", "signed": False},
        {"rating": "av.vs_missiles", "label": "AV vs. missiles", "signed": False},
        {"rating": "insight_defense", "label": "Insight Defense", "signed": False},
        {"rating": "shove_resist", "label": "Shove Resist", "signed": False},
    ],
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
