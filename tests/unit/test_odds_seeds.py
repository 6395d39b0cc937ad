"""Every action the seeds' worked examples describe gets its exact odds.

Within a fixed number of resolver runs, which does not depend on the machine; the
CPU time each example takes is measured by ``bench/budgets.py``, never asserted here.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from skald_campaign.domain.odds import action_odds
from tests.unit.test_odds_support import SWORD, Lineup, d20_sheet, encounter, margin_sheet, sb_sheet

LONGSWORD = {"name": "longsword", "damage_class": 3, "damage_type": "piercing", "skill": 13}
KNIGHT = sb_sheet(parry=11, armour_resilience=4, shield_resilience=2)
FIREBOLT = {
    "name": "firebolt",
    "attribute": "aether",
    "skill": "abjuration",
    "category": "ranged",
    "base_damage": 2,
    "per_margin": 1,
    "damage_type": "fire",
}
CHAMPION = margin_sheet(might=6, melee=5, luck=1, weapons=[SWORD])  # 11 dice
DEFENDER = margin_sheet(grace=3, evasion=3, vigor=3, guard=3, luck=1)
DWARF = margin_sheet(race="dwarf", grace=3, evasion=3, vigor=4, guard=4)
ELF = margin_sheet(race="elf", grace=4, evasion=4, weapons=[SWORD])


def stance(kind: str, effort: int) -> dict[str, Any]:
    return {"posture": {"kind": kind, "effort": effort, "round": 1}}


# (ruleset, lineup, states, kind, actor, params): seed 001, seed 004, seed 000.
EXAMPLES: dict[str, tuple[str, Lineup, dict[str, Any], str, str | None, dict[str, Any]]] = {
    "001 longsword against a parry and a shield": (
        "stamina-body",
        {"a": ("x", 1, sb_sheet(weapons=[LONGSWORD])), "k": ("y", 1, KNIGHT)},
        {},
        "attack",
        "a",
        {"target": "k", "weapon": "longsword", "defense": "parry"},
    ),
    "001 three piercing dice into resilience 4": (
        "stamina-body",
        {"k": ("y", 1, sb_sheet(armour_resilience=4))},
        {},
        "take_hit",
        None,
        {"target": "k", "damage_type": "piercing", "damage_class": 3},
    ),
    "001 the recovery roll": ("stamina-body", {"a": ("x", 1, sb_sheet())}, {}, "recover", "a", {}),
    "004 a hit on chain mail": (
        "d20",
        {"a": ("x", 1, d20_sheet(hr_skill_slots=3)), "b": ("y", 1, d20_sheet(armor="chain_mail"))},
        {},
        "attack",
        "a",
        {"target": "b", "weapon": "longsword"},
    ),
    "004 FR +6 shoves a Medium foe into a wall (d10)": (
        "d20",
        {"a": ("x", 1, d20_sheet(fr_skill_slots=6)), "b": ("y", 1, d20_sheet(armor="plate_mail"))},
        {},
        "shove",
        "a",
        {"target": "b", "wall_at_feet": 2},
    ),
    "004 an Ogre FR +8 shoves a Fighter FR +6 toward a cliff": (
        "d20",
        {
            "o": ("x", 1, d20_sheet(fr_skill_slots=8, size="large")),
            "f": ("y", 1, d20_sheet(fr_skill_slots=6)),
        },
        {},
        "shove",
        "o",
        {"target": "f", "hazard_at_feet": 5},
    ),
    "004 a Medium shover against a Huge giant": (
        "d20",
        {"a": ("x", 1, d20_sheet(fr_skill_slots=6)), "g": ("y", 1, d20_sheet(size="huge"))},
        {},
        "shove",
        "a",
        {"target": "g"},
    ),
    "000 a blade against a Defend: evasion and guard": (
        "margin",
        {"a": ("x", 1, CHAMPION), "b": ("y", 1, DEFENDER)},
        {"b": stance("defend", 3)},
        "attack",
        "a",
        {"target": "b", "weapon": "sword", "effort": 3},
    ),
    "000 something magical: three defenses roll": (
        "margin",
        {
            "a": ("x", 1, margin_sheet(aether=6, abjuration=5, spells=[FIREBOLT])),
            "b": ("y", 1, DEFENDER),
        },
        {"b": stance("defend", 2)},
        "cast",
        "a",
        {"target": "b", "spell": "firebolt", "effort": 2},
    ),
    "000 thin passive defenses and luck": (
        "margin",
        {"a": ("x", 1, CHAMPION), "b": ("y", 1, margin_sheet(luck=2))},
        {},
        "attack",
        "a",
        {"target": "b", "weapon": "sword"},
    ),
    "000 ten and more dice against a defender and a Ward": (
        "margin",
        {
            "a": ("x", 1, CHAMPION),
            "b": ("y", 1, DEFENDER),
            "w": ("y", 1, DWARF),
        },
        {"b": stance("defend", 3), "w": stance("ward", 3)},
        "attack",
        "a",
        {"target": "b", "weapon": "sword", "effort": 3},
    ),
    "000 a Riposte turns a blow into a counter": (
        "margin",
        {"a": ("x", 1, CHAMPION), "e": ("y", 1, ELF)},
        {"e": stance("riposte", 3)},
        "attack",
        "a",
        {"target": "e", "weapon": "sword", "effort": 3},
    ),
}


@pytest.mark.parametrize("example", EXAMPLES)
def test_a_seed_example_is_answered_exactly_within_the_run_budget(example: str) -> None:
    """Exact, and bounded by resolver runs (behaviour); its CPU time is bench/odds.py's."""
    ruleset, lineup, states, kind, actor, params = EXAMPLES[example]
    rules, view = encounter(ruleset, lineup, states=states)
    report = action_odds(rules, view, kind, actor, params)
    assert report["exact"]
    assert sum(Fraction(r["probability"]) for r in report["results"]) == 1
    assert report["resolutions"] <= 500
