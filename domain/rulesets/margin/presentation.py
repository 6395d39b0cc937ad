"""How the pages show margin (published at /rulesets as ``presentation``): its buttons'
words and a starter sheet for a quick NPC. Plain data, the schema's fields
(api/schemas.py ``RulesetPresentation``); tests/unit/test_page_templates.py checks the
starter and the initiative fields against the ruleset."""

from __future__ import annotations

from skald_campaign.domain.rulesets.margin.options import INITIATIVE_ADDS
from skald_campaign.ruleset_api import JsonMapping

PRESENTATION: JsonMapping = {
    "labels": {
        "attack": "Attack",
        "cast": "Cast",
        "defend": "Defend",
        "riposte": "Riposte",
        "ward": "Ward",
    },
    # The sheet fields an initiative roll may add (options.py), grace first: the field the
    # form offers before the GM picks another.
    "initiative_add": ["grace", *(name for name in INITIATIVE_ADDS if name != "grace")],
    # The GM screen's keys: h opens the attack for whoever's turn it is.
    "shortcuts": {"h": "attack"},
    "templates": {
        "Orc (template)": {
            "might": 3,
            "grace": 1,
            "vigor": 2,
            "aether": 0,
            "melee": 2,
            "race": "orc",
            "weapons": [
                {
                    "name": "axe",
                    "attribute": "might",
                    "skill": "melee",
                    "category": "melee",
                    "base_damage": 3,
                    "per_margin": 1,
                    "damage_type": "slash",
                }
            ],
        },
    },
}
