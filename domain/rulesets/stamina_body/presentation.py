"""How the pages show stamina-body (published at /rulesets as ``presentation``): the
words seed 001 gives the panel's buttons, its panel order with Parry and Dodge beside
Hit, and starter sheets for a quick NPC. Plain data, the schema's fields
(api/schemas.py ``RulesetPresentation``); tests/unit/test_page_templates.py checks the
starters and the initiative fields against the ruleset."""

from __future__ import annotations

from skald_campaign.ruleset_api import JsonMapping

PRESENTATION: JsonMapping = {
    "labels": {
        "attack": "Hit",
        "take_hit": "Damage",
        "recover": "Recover",
        "stabilise": "Stabilise",
        "treat_wound": "Treat wound",
        "mark_wound": "Mark wound",
        "parry": "Parry",
        "dodge": "Dodge",
        "none": "No defence",
    },
    # Seed 001: the Damage button opens the Take-hit panel.
    "panel_titles": {"take_hit": "Take-hit"},
    "param_titles": {
        "ignore_shield": "Ignore shield",
        "ignore_armour": "Ignore armour",
        "set_weapon": "Set weapon",
        "extra_strength": "Use extra strength",
    },
    # Parry and Dodge next to Hit, Damage and Recover (a "declare:" entry answers the
    # attack that waits for a defence).
    "panel": [
        "attack",
        "declare:parry",
        "declare:dodge",
        "take_hit",
        "recover",
        "stabilise",
        "treat_wound",
        "mark_wound",
    ],
    # The round's bleeding is recorded by the server, never a button.
    "server_recorded": ["bleed"],
    # The hit landed on them, their own wound: the actor is offered first.
    "self_targeted": ["take_hit", "treat_wound", "mark_wound"],
    "initiative_add": ["dodge", "parry", "st", "con", "unarmed_skill"],
    # The GM screen's keys: h opens the attack for whoever's turn it is, d the hit taken
    # by the selected combatant.
    "shortcuts": {"h": "attack", "d": "take_hit"},
    "templates": {
        "Goblin (template)": {
            "st": 9,
            "con": 10,
            "parry": 10,
            "dodge": 10,
            "stamina_max": 10,
            "body_max": 8,
            "weapons": [{"name": "club", "damage_class": 2, "damage_type": "impact", "skill": 11}],
        },
        "Soldier (template)": {
            "st": 12,
            "con": 12,
            "parry": 12,
            "dodge": 10,
            "stamina_max": 12,
            "body_max": 10,
            "armour_resilience": 2,
            "weapons": [
                {"name": "spear", "damage_class": 3, "damage_type": "piercing", "skill": 12}
            ],
        },
    },
}
