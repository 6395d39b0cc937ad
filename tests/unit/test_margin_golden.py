"""Whole margin outcomes written out (ids swapped for names): every word and number a table
reads is pinned, so a changed message, key or step shows up here. The scenarios are in
``test_margin_golden_scenarios``; each value below was checked by hand against the rules."""

from __future__ import annotations

from typing import Any

import pytest

from tests.unit.test_margin_golden_scenarios import SCENARIOS

WARD_DECLARED = {
    "summary": "thrain takes up Ward for round 1 with 1 effort dice",
    "breakdown": {
        "kind": "ward",
        "actor": {"id": "thrain", "name": "thrain"},
        "posture": {"kind": "ward", "effort": 1, "round": 1, "weapon": None, "exhaustion": 0},
        "lasts": "until round 1 ends",
        "what_it_does": "the dwarf defends himself actively and intercepts every blow "
        "that beats an ally at his rank or behind",
        "effort": {"dice": 1, "fatigue": {"before": 0, "after": 1}},
        "exhaustion_dice": 0,
        "defense_pools": {
            "evasion": {
                "mode": "active",
                "terms": [
                    {"term": "grace", "dice": 1},
                    {"term": "evasion", "dice": 1},
                    {"term": "effort", "dice": 1},
                    {"term": "exhaustion", "dice": 0},
                    {"term": "wounded", "dice": 0},
                ],
                "sum": 3,
                "floor": 1,
                "floor_applied": False,
                "dice": 3,
            },
            "guard": {
                "mode": "active",
                "terms": [
                    {"term": "vigor", "dice": 3},
                    {"term": "guard", "dice": 3},
                    {"term": "effort", "dice": 1},
                    {"term": "exhaustion", "dice": 0},
                    {"term": "wounded", "dice": 0},
                ],
                "sum": 7,
                "floor": 3,
                "floor_applied": False,
                "dice": 7,
            },
            "abjuration": {
                "mode": "active",
                "terms": [
                    {"term": "aether", "dice": 2},
                    {"term": "abjuration", "dice": 0},
                    {"term": "effort", "dice": 1},
                    {"term": "exhaustion", "dice": 0},
                    {"term": "wounded", "dice": 0},
                ],
                "sum": 3,
                "floor": 2,
                "floor_applied": False,
                "dice": 3,
            },
        },
        "covers": ["ally", "scout"],
    },
}

WARD_INTERCEPTS = {
    "summary": "orc attacks with sword at ally: 3 against 0, margin 3; thrain intercepts, thrain "
    "takes 3 (health 16 -> 13)",
    "breakdown": {
        "kind": "attack",
        "attacker": {"id": "orc", "name": "orc"},
        "target": {"id": "ally", "name": "ally"},
        "weapon": {
            "name": "sword",
            "attribute": "might",
            "skill": "melee",
            "category": "melee",
            "base_damage": 2,
            "per_margin": "1",
            "damage_type": "slash",
            "defenses": ["evasion", "guard"],
            "ammunition": None,
        },
        "distance": {"value": 1, "why": "sword (melee) reaches 1; distance 1"},
        "attack": {
            "roll": "attack",
            "pool": {
                "terms": [
                    {"term": "might", "dice": 3},
                    {"term": "melee", "dice": 2},
                    {"term": "effort", "dice": 0},
                    {"term": "exhaustion", "dice": 0},
                    {"term": "wounded", "dice": 0},
                ],
                "sum": 5,
                "floor": None,
                "floor_applied": False,
                "dice": 5,
            },
            "rolled": True,
            "first": {"faces": [6, 6, 6, 1, 2], "successes": 3, "below_nothing": False, "total": 3},
            "luck": None,
            "total": 3,
        },
        "defense": {
            "defender": "ally",
            "posture": None,
            "why": "ally holds no posture this round and defends passively: the "
            "bare attribute for every defense",
            "rolls": [
                {
                    "defense": "evasion",
                    "mode": "passive",
                    "roll": "defense.ally.evasion",
                    "pool": {
                        "terms": [{"term": "grace", "dice": 2}],
                        "sum": 2,
                        "floor": None,
                        "floor_applied": False,
                        "dice": 2,
                    },
                    "rolled": True,
                    "first": {"faces": [2, 2], "successes": 0, "below_nothing": False, "total": 0},
                    "luck": None,
                    "total": 0,
                    "counts_as": 0,
                },
                {
                    "defense": "guard",
                    "mode": "passive",
                    "roll": "defense.ally.guard",
                    "pool": {
                        "terms": [{"term": "vigor", "dice": 2}],
                        "sum": 2,
                        "floor": None,
                        "floor_applied": False,
                        "dice": 2,
                    },
                    "rolled": True,
                    "first": {"faces": [2, 2], "successes": 0, "below_nothing": False, "total": 0},
                    "luck": None,
                    "total": 0,
                    "counts_as": 0,
                },
            ],
            "totals": [0, 0],
            "sum": 0,
        },
        "margin": {"attack": 3, "defenses": [0, 0], "value": 3},
        "ward": {
            "dwarf": "thrain",
            "margin_before": 3,
            "posture": {"kind": "ward", "effort": 1, "round": 1, "weapon": None, "exhaustion": 0},
            "why": "thrain intercepts with every defense the attack allows, "
            "actively; a total below nothing counts as 0",
            "rolls": [
                {
                    "defense": "evasion",
                    "mode": "active",
                    "roll": "ward.thrain.evasion",
                    "pool": {
                        "terms": [
                            {"term": "grace", "dice": 1},
                            {"term": "evasion", "dice": 1},
                            {"term": "effort", "dice": 1},
                            {"term": "exhaustion", "dice": 0},
                            {"term": "wounded", "dice": 0},
                        ],
                        "sum": 3,
                        "floor": 1,
                        "floor_applied": False,
                        "dice": 3,
                    },
                    "rolled": True,
                    "first": {
                        "faces": [2, 2, 2],
                        "successes": 0,
                        "below_nothing": False,
                        "total": 0,
                    },
                    "luck": None,
                    "total": 0,
                    "counts_as": 0,
                },
                {
                    "defense": "guard",
                    "mode": "active",
                    "roll": "ward.thrain.guard",
                    "pool": {
                        "terms": [
                            {"term": "vigor", "dice": 3},
                            {"term": "guard", "dice": 3},
                            {"term": "effort", "dice": 1},
                            {"term": "exhaustion", "dice": 0},
                            {"term": "wounded", "dice": 0},
                        ],
                        "sum": 7,
                        "floor": 3,
                        "floor_applied": False,
                        "dice": 7,
                    },
                    "rolled": True,
                    "first": {
                        "faces": [6, 2, 2, 2, 2, 2, 2],
                        "successes": 1,
                        "below_nothing": False,
                        "total": 1,
                    },
                    "luck": None,
                    "total": 1,
                    "counts_as": 1,
                },
            ],
            "totals": [0, 1],
            "sum": 1,
            "remaining": 2,
            "stopped": False,
            "considered": [
                {
                    "dwarf": "thrain",
                    "covers": True,
                    "why": "thrain wards from rank 1; ally stands at rank 1",
                }
            ],
        },
        "damage": {
            "to": "thrain",
            "margin": 2,
            "weapon": {"base": 2, "per_margin": "1", "damage": "4", "formula": "2 + 1 x 2"},
            "nature": {"damage_type": "slash", "nature": None, "multiplier": "1", "damage": "4"},
            "armor": {
                "rating": 4,
                "physical": True,
                "multiplier": "6561/10000",
                "damage": "6561/2500",
            },
            "exact": "6561/2500",
            "rounded": 3,
            "real_threat": {"threshold": 3, "is_real_threat": True, "raised_to_1": False},
            "final": 3,
            "rounding": "half up, once, at the end",
            "health": {"before": 16, "after": 13},
        },
        "riposte": None,
        "effort": {"dice": 0, "fatigue": {"before": 0, "after": 0}},
        "ammunition": None,
        "luck_spent": {},
    },
}

WARD_STOPS = {
    "summary": "orc attacks with sword at ally: 1 against 0, margin 1; thrain intercepts and "
    "stops the blow dead",
    "ward": {
        "dwarf": "thrain",
        "margin_before": 1,
        "posture": {"kind": "ward", "effort": 1, "round": 1, "weapon": None, "exhaustion": 0},
        "why": "thrain intercepts with every defense the attack allows, actively; a total "
        "below nothing counts as 0",
        "rolls": [
            {
                "defense": "evasion",
                "mode": "active",
                "roll": "ward.thrain.evasion",
                "pool": {
                    "terms": [
                        {"term": "grace", "dice": 1},
                        {"term": "evasion", "dice": 1},
                        {"term": "effort", "dice": 1},
                        {"term": "exhaustion", "dice": 0},
                        {"term": "wounded", "dice": 0},
                    ],
                    "sum": 3,
                    "floor": 1,
                    "floor_applied": False,
                    "dice": 3,
                },
                "rolled": True,
                "first": {"faces": [1, 1, 1], "successes": 0, "below_nothing": True, "total": -1},
                "luck": None,
                "total": -1,
                "counts_as": 0,
            },
            {
                "defense": "guard",
                "mode": "active",
                "roll": "ward.thrain.guard",
                "pool": {
                    "terms": [
                        {"term": "vigor", "dice": 3},
                        {"term": "guard", "dice": 3},
                        {"term": "effort", "dice": 1},
                        {"term": "exhaustion", "dice": 0},
                        {"term": "wounded", "dice": 0},
                    ],
                    "sum": 7,
                    "floor": 3,
                    "floor_applied": False,
                    "dice": 7,
                },
                "rolled": True,
                "first": {
                    "faces": [6, 1, 1, 1, 1, 1, 1],
                    "successes": 1,
                    "below_nothing": False,
                    "total": 1,
                },
                "luck": None,
                "total": 1,
                "counts_as": 1,
            },
        ],
        "totals": [0, 1],
        "sum": 1,
        "remaining": 0,
        "stopped": True,
        "considered": [
            {
                "dwarf": "thrain",
                "covers": True,
                "why": "thrain wards from rank 1; ally stands at rank 1",
            }
        ],
    },
}

RIPOSTE_DECLARED = {
    "summary": "lia takes up Riposte for round 1 with 1 effort dice",
    "breakdown": {
        "kind": "riposte",
        "actor": {"id": "lia", "name": "lia"},
        "posture": {"kind": "riposte", "effort": 1, "round": 1, "weapon": "sword", "exhaustion": 0},
        "lasts": "until round 1 ends",
        "what_it_does": "evasion rolls actively and sharpened, every other defense "
        "passively; a blow turned aside comes back as a counter",
        "effort": {"dice": 1, "fatigue": {"before": 0, "after": 1}},
        "exhaustion_dice": 0,
        "defense_pools": {
            "evasion": {
                "mode": "active",
                "terms": [
                    {"term": "grace", "dice": 3},
                    {"term": "evasion", "dice": 2},
                    {"term": "effort", "dice": 1},
                    {"term": "riposte_sharpening", "dice": 1},
                    {"term": "exhaustion", "dice": 0},
                    {"term": "wounded", "dice": 0},
                ],
                "sum": 7,
                "floor": 3,
                "floor_applied": False,
                "dice": 7,
            },
            "guard": {
                "mode": "passive",
                "terms": [{"term": "vigor", "dice": 1}],
                "sum": 1,
                "floor": None,
                "floor_applied": False,
                "dice": 1,
            },
            "abjuration": {
                "mode": "passive",
                "terms": [{"term": "aether", "dice": 2}],
                "sum": 2,
                "floor": None,
                "floor_applied": False,
                "dice": 2,
            },
        },
        "counter_weapon": "sword",
    },
}

RIPOSTE_ANSWERS = {
    "summary": "orc attacks with sword at lia: 1 against 3, margin -2; turned; lia counters with "
    "sword: orc takes 3",
    "breakdown": {
        "kind": "attack",
        "attacker": {"id": "orc", "name": "orc"},
        "target": {"id": "lia", "name": "lia"},
        "weapon": {
            "name": "sword",
            "attribute": "might",
            "skill": "melee",
            "category": "melee",
            "base_damage": 2,
            "per_margin": "1",
            "damage_type": "slash",
            "defenses": ["evasion", "guard"],
            "ammunition": None,
        },
        "distance": {"value": 1, "why": "sword (melee) reaches 1; distance 1"},
        "attack": {
            "roll": "attack",
            "pool": {
                "terms": [
                    {"term": "might", "dice": 3},
                    {"term": "melee", "dice": 2},
                    {"term": "effort", "dice": 0},
                    {"term": "exhaustion", "dice": 0},
                    {"term": "wounded", "dice": 0},
                ],
                "sum": 5,
                "floor": None,
                "floor_applied": False,
                "dice": 5,
            },
            "rolled": True,
            "first": {"faces": [6, 1, 1, 1, 2], "successes": 1, "below_nothing": False, "total": 1},
            "luck": None,
            "total": 1,
        },
        "defense": {
            "defender": "lia",
            "posture": {
                "kind": "riposte",
                "effort": 1,
                "round": 1,
                "weapon": None,
                "exhaustion": 0,
            },
            "why": "lia is in Riposte: evasion active and sharpened, every "
            "other defense at the bare passive floor",
            "rolls": [
                {
                    "defense": "evasion",
                    "mode": "active",
                    "roll": "defense.lia.evasion",
                    "pool": {
                        "terms": [
                            {"term": "grace", "dice": 3},
                            {"term": "evasion", "dice": 2},
                            {"term": "effort", "dice": 1},
                            {"term": "riposte_sharpening", "dice": 1},
                            {"term": "exhaustion", "dice": 0},
                            {"term": "wounded", "dice": 0},
                        ],
                        "sum": 7,
                        "floor": 3,
                        "floor_applied": False,
                        "dice": 7,
                    },
                    "rolled": True,
                    "first": {
                        "faces": [6, 6, 6, 1, 1, 1, 2],
                        "successes": 3,
                        "below_nothing": False,
                        "total": 3,
                    },
                    "luck": None,
                    "total": 3,
                    "counts_as": 3,
                },
                {
                    "defense": "guard",
                    "mode": "passive",
                    "roll": "defense.lia.guard",
                    "pool": {
                        "terms": [{"term": "vigor", "dice": 1}],
                        "sum": 1,
                        "floor": None,
                        "floor_applied": False,
                        "dice": 1,
                    },
                    "rolled": True,
                    "first": {"faces": [2], "successes": 0, "below_nothing": False, "total": 0},
                    "luck": None,
                    "total": 0,
                    "counts_as": 0,
                },
            ],
            "totals": [3, 0],
            "sum": 3,
        },
        "margin": {"attack": 1, "defenses": [3, 0], "value": -2},
        "ward": None,
        "damage": None,
        "riposte": {
            "elf": "lia",
            "attacker": "orc",
            "answered": True,
            "why": "lia turned the blow by 2 and answers with sword at distance 1",
            "counter_margin": 2,
            "weapon": "sword",
            "weapons_considered": [
                {"weapon": "sword", "reaches": True, "why": "sword (melee) reaches 1; distance 1"}
            ],
            "damage": {
                "margin": 2,
                "weapon": {"base": 2, "per_margin": "1", "damage": "4", "formula": "2 + 1 x 2"},
                "nature": {
                    "damage_type": "slash",
                    "nature": None,
                    "multiplier": "1",
                    "damage": "4",
                },
                "armor": {"rating": 2, "physical": True, "multiplier": "81/100", "damage": "81/25"},
                "exact": "81/25",
                "rounded": 3,
                "real_threat": {"threshold": 3, "is_real_threat": True, "raised_to_1": False},
                "final": 3,
                "rounding": "half up, once, at the end",
            },
            "health": {"before": 14, "after": 11},
            "ammunition": None,
        },
        "effort": {"dice": 0, "fatigue": {"before": 0, "after": 0}},
        "ammunition": None,
        "luck_spent": {},
    },
}

RIPOSTE_NEVER_ANSWERS_A_BOW = {
    "summary": "archer attacks with bow at lia: 1 against 3, margin -2; turned; no counter: bow "
    "is a ranged weapon: a shot is evaded and that is the end of it, however close the "
    "archer stands",
    "riposte": {
        "elf": "lia",
        "attacker": "archer",
        "answered": False,
        "why": "bow is a ranged weapon: a shot is evaded and that is the end of it, "
        "however close the archer stands",
        "counter_margin": 2,
        "weapon": None,
        "weapons_considered": [],
        "damage": None,
        "health": None,
        "ammunition": None,
    },
}

RIPOSTE_NAMED_WEAPON_CANNOT_REACH = {
    "summary": "pikeman attacks with halberd at lia: 1 against 3, margin -2; turned; no counter: "
    "sword, named with the Riposte, does not reach pikeman at distance 2",
    "riposte": {
        "elf": "lia",
        "attacker": "pikeman",
        "answered": False,
        "why": "sword, named with the Riposte, does not reach pikeman at distance 2",
        "counter_margin": 2,
        "weapon": None,
        "weapons_considered": [
            {
                "weapon": "sword",
                "reaches": False,
                "why": "sword (melee) reaches only 1; distance is 2",
            }
        ],
        "damage": None,
        "health": None,
        "ammunition": None,
    },
}

RIPOSTE_NOTHING_REACHES = {
    "summary": "pikeman attacks with halberd at lia: 1 against 3, margin -2; turned; no counter: "
    "nothing lia holds reaches pikeman at distance 2 right now",
    "riposte": {
        "elf": "lia",
        "attacker": "pikeman",
        "answered": False,
        "why": "nothing lia holds reaches pikeman at distance 2 right now",
        "counter_margin": 2,
        "weapon": None,
        "weapons_considered": [
            {
                "weapon": "sword",
                "reaches": False,
                "why": "sword (melee) reaches only 1; distance is 2",
            },
            {
                "weapon": "fists",
                "reaches": False,
                "why": "fists (melee) reaches only 1; distance is 2",
            },
        ],
        "damage": None,
        "health": None,
        "ammunition": None,
    },
}

DEFEND_WOUNDED_AND_TIRED = {
    "summary": "guard takes up Defend for round 2 with 2 effort dice",
    "breakdown": {
        "kind": "defend",
        "actor": {"id": "guard", "name": "guard"},
        "posture": {"kind": "defend", "effort": 2, "round": 2, "weapon": None, "exhaustion": 1},
        "lasts": "until round 2 ends",
        "what_it_does": "every defense any attack allows rolls actively, effort on "
        "each, against every attacker until the round ends",
        "effort": {"dice": 2, "fatigue": {"before": 3, "after": 5}},
        "exhaustion_dice": 1,
        "defense_pools": {
            "evasion": {
                "mode": "active",
                "terms": [
                    {"term": "grace", "dice": 3},
                    {"term": "evasion", "dice": 1},
                    {"term": "effort", "dice": 2},
                    {"term": "exhaustion", "dice": -1},
                    {"term": "wounded", "dice": -1},
                ],
                "sum": 4,
                "floor": 3,
                "floor_applied": False,
                "dice": 4,
            },
            "guard": {
                "mode": "active",
                "terms": [
                    {"term": "vigor", "dice": 2},
                    {"term": "guard", "dice": 2},
                    {"term": "effort", "dice": 2},
                    {"term": "exhaustion", "dice": -1},
                    {"term": "wounded", "dice": -1},
                ],
                "sum": 4,
                "floor": 2,
                "floor_applied": False,
                "dice": 4,
            },
            "abjuration": {
                "mode": "active",
                "terms": [
                    {"term": "aether", "dice": 2},
                    {"term": "abjuration", "dice": 0},
                    {"term": "effort", "dice": 2},
                    {"term": "exhaustion", "dice": -1},
                    {"term": "wounded", "dice": -1},
                ],
                "sum": 2,
                "floor": 2,
                "floor_applied": False,
                "dice": 2,
            },
        },
    },
}

CAST_WITH_LUCK_AND_A_FUMBLE = {
    "summary": "mage casts firebolt at scholar: 1 against -2, margin 3; scholar takes 10 (health "
    "12 -> 2); scholar gains: wounded",
    "breakdown": {
        "kind": "cast",
        "attacker": {"id": "mage", "name": "mage"},
        "target": {"id": "scholar", "name": "scholar"},
        "weapon": {
            "name": "firebolt",
            "attribute": "aether",
            "skill": "abjuration",
            "category": "ranged",
            "base_damage": 2,
            "per_margin": "1",
            "damage_type": "fire",
            "defenses": ["evasion", "guard", "abjuration"],
            "ammunition": None,
        },
        "distance": {"value": 4, "why": "firebolt is ranged and reaches any distance"},
        "attack": {
            "roll": "attack",
            "pool": {
                "terms": [
                    {"term": "aether", "dice": 3},
                    {"term": "abjuration", "dice": 1},
                    {"term": "effort", "dice": 0},
                    {"term": "exhaustion", "dice": 0},
                    {"term": "wounded", "dice": 0},
                ],
                "sum": 4,
                "floor": None,
                "floor_applied": False,
                "dice": 4,
            },
            "rolled": True,
            "first": {"faces": [1, 2, 3, 4], "successes": 0, "below_nothing": False, "total": 0},
            "luck": {
                "roll": "attack.luck",
                "spent": 1,
                "faces": [6, 2, 2, 2],
                "successes": 1,
                "below_nothing": False,
                "total": 1,
            },
            "total": 1,
        },
        "defense": {
            "defender": "scholar",
            "posture": None,
            "why": "scholar holds no posture this round and defends passively: "
            "the bare attribute for every defense",
            "rolls": [
                {
                    "defense": "evasion",
                    "mode": "passive",
                    "roll": "defense.scholar.evasion",
                    "pool": {
                        "terms": [{"term": "grace", "dice": 1}],
                        "sum": 1,
                        "floor": None,
                        "floor_applied": False,
                        "dice": 1,
                    },
                    "rolled": True,
                    "first": {"faces": [1], "successes": 0, "below_nothing": True, "total": -1},
                    "luck": {
                        "roll": "defense.scholar.evasion.luck",
                        "spent": 1,
                        "faces": [1],
                        "successes": 0,
                        "below_nothing": True,
                        "total": -1,
                    },
                    "total": -1,
                    "counts_as": -1,
                },
                {
                    "defense": "guard",
                    "mode": "passive",
                    "roll": "defense.scholar.guard",
                    "pool": {
                        "terms": [{"term": "vigor", "dice": 1}],
                        "sum": 1,
                        "floor": None,
                        "floor_applied": False,
                        "dice": 1,
                    },
                    "rolled": True,
                    "first": {"faces": [3], "successes": 0, "below_nothing": False, "total": 0},
                    "luck": None,
                    "total": 0,
                    "counts_as": 0,
                },
                {
                    "defense": "abjuration",
                    "mode": "passive",
                    "roll": "defense.scholar.abjuration",
                    "pool": {
                        "terms": [{"term": "aether", "dice": 2}],
                        "sum": 2,
                        "floor": None,
                        "floor_applied": False,
                        "dice": 2,
                    },
                    "rolled": True,
                    "first": {"faces": [1, 1], "successes": 0, "below_nothing": True, "total": -1},
                    "luck": None,
                    "total": -1,
                    "counts_as": -1,
                },
            ],
            "totals": [-1, 0, -1],
            "sum": -2,
        },
        "margin": {"attack": 1, "defenses": [-1, 0, -1], "value": 3},
        "ward": None,
        "damage": {
            "to": "scholar",
            "margin": 3,
            "weapon": {"base": 2, "per_margin": "1", "damage": "5", "formula": "2 + 1 x 3"},
            "nature": {"damage_type": "fire", "nature": "weak", "multiplier": "2", "damage": "10"},
            "armor": {"rating": 0, "physical": False, "multiplier": "1", "damage": "10"},
            "exact": "10",
            "rounded": 10,
            "real_threat": {"threshold": 3, "is_real_threat": False, "raised_to_1": False},
            "final": 10,
            "rounding": "half up, once, at the end",
            "health": {"before": 12, "after": 2},
        },
        "riposte": None,
        "effort": {"dice": 0, "fatigue": {"before": 0, "after": 0}},
        "ammunition": None,
        "luck_spent": {"mage": 1, "scholar": 1},
    },
}

DAYS = {
    "full": {
        "tracks": {"health": 3},
        "state": {"fatigue": 0, "luck": 2, "ammunition": {}, "posture": None, "acted_round": None},
        "breakdown": {
            "inputs": {"rest": "full"},
            "rest": "full",
            "fatigue": {"before": 7, "after": 0},
            "luck": {"before": 0, "after": 2},
            "health": "seed 000 has no healing rule; health is the GM's call",
        },
    },
    "light": {
        "tracks": {"health": 3},
        "state": {"fatigue": 3, "luck": 0, "ammunition": {}, "posture": None, "acted_round": None},
        "breakdown": {
            "inputs": {"rest": "light"},
            "rest": "light",
            "fatigue": {"before": 7, "after": 3},
            "luck": {"before": 0, "after": 0},
            "health": "seed 000 has no healing rule; health is the GM's call",
        },
    },
    "none": {
        "tracks": {"health": 3},
        "state": {"fatigue": 7, "luck": 0, "ammunition": {}, "posture": None, "acted_round": None},
        "breakdown": {
            "inputs": {"rest": "none"},
            "rest": "none",
            "fatigue": {"before": 7, "after": 7},
            "luck": {"before": 0, "after": 0},
            "health": "seed 000 has no healing rule; health is the GM's call",
        },
    },
}

RATINGS = {
    "health_max": 14,
    "armor": {
        "rating": 4,
        "items": [
            {"name": "mail", "rating": 3, "shield": False},
            {"name": "buckler", "rating": 1, "shield": True},
        ],
    },
    "attack_pools": {
        "sword": {
            "terms": {"might": 3, "melee": 2},
            "dice": 5,
            "category": "melee",
            "damage": "2 + 1 x margin slash",
        },
        "bow": {
            "terms": {"grace": 2, "marksmanship": 0},
            "dice": 2,
            "category": "ranged",
            "damage": "1 + 1/2 x margin pierce",
        },
        "firebolt": {
            "terms": {"aether": 2, "abjuration": 0},
            "dice": 2,
            "category": "ranged",
            "damage": "2 + 1 x margin fire",
        },
        "fists": {
            "terms": {"might": 3, "melee": 2},
            "dice": 5,
            "category": "melee",
            "damage": "0 + 1 x margin blunt",
        },
    },
    "defense_pools": {
        "evasion": {"passive": 2, "active_before_effort": 3},
        "guard": {"passive": 2, "active_before_effort": 2},
        "abjuration": {"passive": 2, "active_before_effort": 2},
    },
    "fatigue": 3,
    "luck": {"now": 1, "sheet": 2},
    "ammunition": {"bow": 2},
}

SCHEMAS = {
    "per_margin": {
        "anyOf": [
            {"maximum": 1000.0, "minimum": 0.0, "type": "number"},
            {"pattern": "^\\s*\\d{1,7}(\\.\\d{1,3}|\\s*/\\s*\\d{1,4})?\\s*$", "type": "string"},
        ],
        "description": "damage added per point of margin. An exact number from 0 to "
        "1000: a JSON number (read as the decimal it is written as) or "
        "a string such as '1/2' or '0.5'; at most 1/1000 fine (3 "
        "decimals, or a denominator of at most 1000)",
        "title": "Per Margin",
    },
    "armor_blunting": {
        "anyOf": [
            {"exclusiveMaximum": 1.0, "minimum": 0.0, "type": "number"},
            {"pattern": "^\\s*\\d{1,7}(\\.\\d{1,3}|\\s*/\\s*\\d{1,4})?\\s*$", "type": "string"},
        ],
        "default": "1/10",
        "description": "M12: physical damage x (1 - this) ** Armor. An exact "
        "number from 0 to below 1: a JSON number (read as the "
        "decimal it is written as) or a string such as '1/2' or "
        "'0.5'; at most 1/1000 fine (3 decimals, or a denominator "
        "of at most 1000)",
        "title": "Armor Blunting",
    },
    "wounded_at": {
        "anyOf": [
            {"maximum": 1.0, "minimum": 0.0, "type": "number"},
            {"pattern": "^\\s*\\d{1,7}(\\.\\d{1,3}|\\s*/\\s*\\d{1,4})?\\s*$", "type": "string"},
        ],
        "default": "1/2",
        "description": "M7, M18: wounded at health <= this share of maximum. An exact "
        "number from 0 to 1: a JSON number (read as the decimal it is "
        "written as) or a string such as '1/2' or '0.5'; at most 1/1000 "
        "fine (3 decimals, or a denominator of at most 1000)",
        "title": "Wounded At",
    },
}

EXPECTED: dict[str, Any] = {name: globals()[name.upper()] for name in SCENARIOS}


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_the_whole_outcome_is_as_written(name: str) -> None:
    assert SCENARIOS[name]() == EXPECTED[name]
