"""The odds before the dice: time to compute each action kind's exact odds.

Run: python bench/odds.py [repeats]. For every ruleset and action kind, a typical
and a large case (pool sizes, defenders, luck, conditional rolls); each line shows
the distinct outcomes of the dice, the resolver runs it took, and the best of
``repeats`` timings, or the refusal when a case is too large to compute exactly.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Mapping
from typing import Any

from skald_campaign.domain.errors import DomainError
from skald_campaign.domain.odds import COST_BUDGET, action_odds
from skald_campaign.domain.play.resolution import build_view
from skald_campaign.domain.records import Combatant
from skald_campaign.domain.rulesets import get_ruleset
from skald_campaign.domain.rulesets.base import EncounterView, Ruleset

Lineup = Mapping[str, tuple[str, int, dict[str, Any]]]

SWORD = {
    "name": "sword",
    "attribute": "might",
    "skill": "melee",
    "category": "melee",
    "base_damage": 2,
    "per_margin": 1,
    "damage_type": "slash",
}
FIREBOLT = {
    "name": "firebolt",
    "attribute": "aether",
    "skill": "abjuration",
    "category": "ranged",
    "base_damage": 2,
    "per_margin": 1,
    "damage_type": "fire",
}


def m(**fields: Any) -> dict[str, Any]:
    return {"might": 2, "grace": 2, "vigor": 2, "aether": 2, **fields}


def sb(**fields: Any) -> dict[str, Any]:
    return {
        "st": 12,
        "con": 12,
        "parry": 11,
        "dodge": 10,
        "stamina_max": 20,
        "body_max": 12,
        **fields,
    }


def d(**fields: Any) -> dict[str, Any]:
    mod = {"modifier": 0}
    base = {"strength": mod, "dexterity": mod, "constitution": mod, "wisdom": mod}
    return {**base, "level": 1, "hp": 30, "save_vs_death_ray": 12, **fields}


def view(
    ruleset: str, lineup: Lineup, states: Mapping[str, dict[str, Any]] | None = None
) -> tuple[Ruleset, EncounterView]:
    rules = get_ruleset(ruleset)
    combatants = {}
    for cid, (side, rank, sheet) in lineup.items():
        valid = rules.validate_sheet(sheet)
        combatants[cid] = Combatant(
            name=cid,
            side=side,
            rank=rank,
            sheet=valid,
            tracks=rules.track_maxima(valid),
            state={**rules.start_state(valid), **(states or {}).get(cid, {})},
        )
    return rules, build_view(rules, 1, rules.validate_options({}), combatants)


def posture(kind: str, effort: int) -> dict[str, Any]:
    return {"posture": {"kind": kind, "effort": effort, "round": 1}}


LONGSWORD = {"name": "longsword", "damage_class": 3, "damage_type": "piercing", "skill": 13}
GREATAXE = {"name": "greataxe", "damage_class": 6, "damage_type": "piercing", "skill": 14}
KNIGHT = sb(armour_resilience=4, shield_resilience=2)
HERO = m(might=3, melee=2, weapons=[SWORD])  # 5 dice
CHAMPION = m(might=6, melee=5, weapons=[SWORD], luck=1)  # 11 dice
GUARD = m(grace=3, evasion=3, vigor=3, guard=3, luck=1)
DWARF = m(race="dwarf", grace=3, evasion=3, vigor=4, guard=4)
ELF = m(race="elf", grace=4, evasion=4, weapons=[SWORD])
MAGE = m(aether=5, abjuration=4, spells=[FIREBOLT])
FIGHTER = d(
    hr_skill_slots=3,
    fr_skill_slots=6,
    armor="chain_mail",
    weapons=[{"name": "sword", "damage": "1d8"}],
)
OGRE = d(fr_skill_slots=8, size="large", weapons=[{"name": "club", "damage": "2d6+2"}])

CASES: list[tuple[str, str, str, Lineup, Mapping[str, dict[str, Any]], str, dict[str, Any]]] = [
    # (ruleset, kind, case, lineup, states, actor, params)
    (
        "stamina-body",
        "attack",
        "longsword, no defense",
        {"a": ("x", 1, sb(weapons=[LONGSWORD])), "b": ("y", 1, KNIGHT)},
        {},
        "a",
        {"target": "b", "weapon": "longsword"},
    ),
    (
        "stamina-body",
        "attack",
        "longsword vs parry + shield",
        {"a": ("x", 1, sb(weapons=[LONGSWORD])), "b": ("y", 1, KNIGHT)},
        {},
        "a",
        {"target": "b", "weapon": "longsword", "defense": "parry"},
    ),
    (
        "stamina-body",
        "attack",
        "greataxe + 3 options vs parry",
        {"a": ("x", 1, sb(weapons=[GREATAXE])), "b": ("y", 1, KNIGHT)},
        {},
        "a",
        {
            "target": "b",
            "weapon": "greataxe",
            "defense": "parry",
            "charge": True,
            "set_weapon": True,
            "extra_strength": True,
        },
    ),
    (
        "stamina-body",
        "take_hit",
        "3 piercing dice (seed)",
        {"b": ("y", 1, KNIGHT)},
        {},
        None,
        {"target": "b", "damage_type": "piercing", "damage_class": 3},
    ),
    (
        "stamina-body",
        "take_hit",
        "12 impact dice",
        {"b": ("y", 1, KNIGHT)},
        {},
        None,
        {"target": "b", "damage_type": "impact", "damage_class": 12},
    ),
    ("stamina-body", "recover", "3d6 vs CON", {"a": ("x", 1, sb())}, {}, "a", {}),
    (
        "margin",
        "attack",
        "5 dice vs passive 2+2",
        {"a": ("x", 1, HERO), "b": ("y", 1, m())},
        {},
        "a",
        {"target": "b", "weapon": "sword"},
    ),
    (
        "margin",
        "attack",
        "5 dice vs Defend 6+6, luck",
        {"a": ("x", 1, HERO), "b": ("y", 1, GUARD)},
        {"b": posture("defend", 0)},
        "a",
        {"target": "b", "weapon": "sword"},
    ),
    (
        "margin",
        "attack",
        "11 dice + luck vs Defend 9+9, luck",
        {"a": ("x", 1, CHAMPION), "b": ("y", 1, GUARD)},
        {"b": posture("defend", 3)},
        "a",
        {"target": "b", "weapon": "sword"},
    ),
    (
        "margin",
        "attack",
        "11 dice + luck vs Defend + Ward 9+10",
        {
            "a": ("x", 1, CHAMPION),
            "b": ("y", 1, m(grace=3, evasion=3, vigor=3, guard=3)),
            "w": ("y", 1, DWARF),
        },
        {"b": posture("defend", 3), "w": posture("ward", 3)},
        "a",
        {"target": "b", "weapon": "sword"},
    ),
    (
        "margin",
        "attack",
        "11 dice + luck vs Riposte (counter)",
        {"a": ("x", 1, CHAMPION), "e": ("y", 1, ELF)},
        {"e": posture("riposte", 3)},
        "a",
        {"target": "e", "weapon": "sword", "effort": 3},
    ),
    (
        "margin",
        "cast",
        "firebolt 9 dice vs 3 passive defenses",
        {"a": ("x", 1, MAGE), "b": ("y", 1, m())},
        {},
        "a",
        {"target": "b", "spell": "firebolt"},
    ),
    (
        "margin",
        "cast",
        "firebolt 12 dice vs Defend, 3 defenses",
        {
            "a": ("x", 1, MAGE),
            "b": ("y", 1, m(grace=3, evasion=3, vigor=3, guard=3, aether=3, abjuration=3)),
        },
        {"b": posture("defend", 3)},
        "a",
        {"target": "b", "spell": "firebolt", "effort": 3},
    ),
    ("margin", "defend", "a posture", {"a": ("x", 1, HERO)}, {}, "a", {"effort": 2}),
    (
        "d20",
        "attack",
        "sword 1d8 vs chain mail",
        {"a": ("x", 1, FIGHTER), "b": ("y", 1, FIGHTER)},
        {},
        "a",
        {"target": "b", "weapon": "sword"},
    ),
    (
        "d20",
        "attack",
        "ogre club 2d6+2",
        {"o": ("x", 1, OGRE), "b": ("y", 1, FIGHTER)},
        {},
        "o",
        {"target": "b", "weapon": "club"},
    ),
    (
        "d20",
        "shove",
        "FR +6, plain",
        {"a": ("x", 1, FIGHTER), "b": ("y", 1, d())},
        {},
        "a",
        {"target": "b"},
    ),
    (
        "d20",
        "shove",
        "ogre into a wall (2d8 dice)",
        {"o": ("x", 1, OGRE), "b": ("y", 1, FIGHTER)},
        {},
        "o",
        {"target": "b", "wall_at_feet": 0},
    ),
    (
        "d20",
        "shove",
        "toward a hazard (save)",
        {"a": ("x", 1, FIGHTER), "b": ("y", 1, d())},
        {},
        "a",
        {"target": "b", "hazard_at_feet": 2},
    ),
    (
        "d20",
        "grapple",
        "FR contest",
        {"a": ("x", 1, FIGHTER), "b": ("y", 1, d())},
        {},
        "a",
        {"target": "b"},
    ),
]


def dearest(repeats: int = 3) -> dict[str, tuple[float, str]]:
    """Every case, printed; returns the dearest answer's and the dearest refusal's CPU
    (ms, the least of the repeats) with the case's name."""
    print(f"cost budget: {COST_BUDGET} units per answer (domain/odds/cost.py)")
    print("ms: best wall-clock time of the repeats; cpu: this process's CPU time for it;")
    print("cost: the units it was charged (about 1 us of CPU each), and cpu beside it")
    header = f"{'ruleset':<13} {'kind':<9} {'case':<40} {'outcomes':>10} {'runs':>5}"
    print(header + f" {'ms':>8} {'cpu ms':>8} {'cost':>8} {'cpu/cost':>8}")
    found = {"answered": (0.0, "-"), "refused": (0.0, "-")}
    for ruleset, kind, case, lineup, states, actor, params in CASES:
        rules, encounter = view(ruleset, lineup, states)
        best = cpu = float("inf")
        report: Any = None
        for _ in range(repeats):
            started, used = time.perf_counter(), time.process_time()
            try:
                report = action_odds(rules, encounter, kind, actor, params)
            except DomainError as refused:
                report = refused
            best = min(best, (time.perf_counter() - started) * 1000)
            cpu = min(cpu, (time.process_time() - used) * 1000)
        name = f"{ruleset} {kind}, {case}"
        if isinstance(report, DomainError):
            print(
                f"{ruleset:<13} {kind:<9} {case:<40} refused in {cpu:.1f} ms CPU: {report.message}"
            )
            found["refused"] = max(found["refused"], (cpu, name))
            continue
        line = f"{ruleset:<13} {kind:<9} {case:<40} {report['outcomes']:>10} "
        cost = report.get("cost", 0)
        ratio = f"{cpu * 1000 / cost:>8.2f}" if cost else f"{'-':>8}"
        print(line + f"{report['resolutions']:>5} {best:>8.1f} {cpu:>8.1f} {cost:>8} {ratio}")
        found["answered"] = max(found["answered"], (cpu, name))
    cpu, answer = combatant_view(repeats)
    refused = sum(1 for a in answer["attacks"] if "refused" in a)
    name = f"margin combatant's odds view, {len(answer['attacks'])} attacks, {refused} refused"
    print(f"{name}: {cpu:.1f} ms CPU")
    found["answered"] = max(found["answered"], (cpu, name))
    return found


def weapon(name: str, category: str, base: int, per_margin: int, damage_type: str) -> Any:
    return {"name": name, "attribute": "might", "skill": "melee", "category": category,
            "base_damage": base, "per_margin": per_margin, "damage_type": damage_type}  # fmt: skip


ARMS = [
    weapon("sword", "melee", 2, 1, "slash"),
    weapon("axe", "melee", 1, 2, "slash"),
    weapon("club", "melee", 0, 1, "blunt"),
    weapon("spear", "reach", 2, 1, "pierce"),
    weapon("halberd", "reach", 3, 1, "slash"),
]


def combatant_view(repeats: int) -> tuple[float, Any]:
    """The issue's dearest request (GET .../combatants/{id}/odds): a margin champion's
    every attack against a lucky guard, all sharing one budget. A fresh encounter each
    repeat, so no answer comes from the odds cache. The application is driven directly
    (in memory): the bench imports nothing from tests/ (its venv has no test extras)."""
    from skald_campaign.application.application import SkaldApplication
    from skald_campaign.application.commands import (
        Combatant as Enrolled,
    )
    from skald_campaign.application.commands import (
        CreateCampaign,
        EnrolCharacter,
        StartEncounter,
    )
    from skald_campaign.domain.odds.encounter import attack_odds

    cpu, answer = float("inf"), None
    for _ in range(repeats):
        app = SkaldApplication(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
        campaign = app.create_campaign(CreateCampaign("Odds bench", "margin", {})).id
        _, hero = app.enrol_character(
            EnrolCharacter(campaign, "hero", m(might=6, melee=5, luck=1, weapons=ARMS))
        )
        _, foe = app.enrol_character(
            EnrolCharacter(campaign, "foe", m(grace=3, evasion=3, vigor=3, guard=3, luck=1))
        )
        lineup = (Enrolled(hero, "a", 1), Enrolled(foe, "b", 1))
        eid = app.start_encounter(StartEncounter(campaign, "Fight", lineup)).id
        encounter = app.encounter(campaign, eid)
        used = time.process_time()
        answer = attack_odds(encounter, hero, foe, effort=3)
        cpu = min(cpu, (time.process_time() - used) * 1000)
    return cpu, answer


def main(repeats: int = 3) -> None:
    heaviest = dearest(repeats)["answered"][0]
    print(
        f"the dearest request answered: {heaviest:.1f} ms of CPU = "
        f"{heaviest / (COST_BUDGET / 1000):.2f}x the budget's {COST_BUDGET / 1000:.0f} ms; "
        f"load average {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
