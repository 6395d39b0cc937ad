"""A character's attacks against a chosen opponent: one entry each, within one budget."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.commands import (
    Combatant,
    CreateCampaign,
    EnrolCharacter,
    StartEncounter,
)
from skald_campaign.domain.odds.cost import run_cost
from skald_campaign.domain.odds.encounter import attack_odds
from tests.unit.test_margin_table import SWORD, NoRoller, Table, sheet, weapon


def fight(**extra: Any) -> Table:
    table = Table()
    blades = [weapon(f"blade {n}", "might", "melee", "melee", 1, 1, "slash") for n in range(4)]
    table.enrol("hero", sheet(might=3, melee=2, weapons=[SWORD, *blades], **extra))
    table.enrol("foe", sheet(grace=3, vigor=3))
    table.start(("hero", "a", 1), ("foe", "b", 1))
    return table


def view(table: Table, **options: Any) -> dict[str, Any]:
    assert table.encounter is not None
    encounter = table.app.encounter(table.campaign, table.encounter)
    return attack_odds(encounter, table.ids["hero"], table.ids["foe"], **options)


def test_every_weapon_and_fists_against_the_opponent() -> None:
    report = view(fight())
    assert [a["label"] for a in report["attacks"]] == [
        "sword (effort 0)",
        "blade 0 (effort 0)",
        "blade 1 (effort 0)",
        "blade 2 (effort 0)",
        "blade 3 (effort 0)",
        "fists (effort 0)",
    ]
    assert all(a["odds"]["results"] for a in report["attacks"])
    assert report["attacks"][0]["params"] == {
        "target": report["against"],
        "weapon": "sword",
        "effort": 0,
    }


def test_each_margin_attack_says_the_effort_its_odds_are_at() -> None:
    """M6: effort dice join the attack's pool; the player's page asks at effort 0 and its
    rows said only "sword", read as the sword's odds at any effort."""
    report = view(fight(), effort=2)
    assert [a["label"] for a in report["attacks"]][:2] == ["sword (effort 2)", "blade 0 (effort 2)"]
    assert report["attacks"][0]["params"]["effort"] == 2
    assert report["attacks"][-1]["label"] == "fists (effort 2)"


def test_the_attacks_share_one_budget_and_say_when_it_is_spent() -> None:
    budget = 130 * run_cost("margin").of(5)  # about 130 runs of a 5-die pool
    report = view(fight(), budget=budget)
    answered = [a for a in report["attacks"] if a.get("odds")]
    spent = [a for a in report["attacks"] if a.get("refused")]
    assert answered and spent
    assert sum(a["odds"]["cost"] for a in answered) <= budget
    assert spent[-1]["refused"].endswith("(this view's budget is spent: ask for this attack alone)")


# -- stamina-body (seed 001, S3): a row per defense the defender may declare -------------

BRAN = {"st": 12, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10,
        "weapons": [{"name": "sword", "damage_class": 2, "damage_type": "impact",
                     "skill": 12}]}  # fmt: skip
OGRE = {"st": 14, "con": 11, "parry": 9, "dodge": 7, "stamina_max": 23, "body_max": 21,
        "weapons": [{"name": "club", "damage_class": 2, "damage_type": "impact",
                     "skill": 17}]}  # fmt: skip


def stamina_body_view(**options: Any) -> dict[str, Any]:
    """Bran's attacks on the Ogre (Parry 9, Dodge 7)."""
    app = SkaldApplication(env={"PERSISTENCE_MODULE": "eventsourcing.popo"}, roller=NoRoller())
    campaign = app.create_campaign(CreateCampaign("Ford", "stamina-body", {})).id
    _, bran = app.enrol_character(EnrolCharacter(campaign, "Bran", BRAN))
    _, ogre = app.enrol_character(EnrolCharacter(campaign, "Ogre", OGRE))
    lineup = (Combatant(bran, "a", 1), Combatant(ogre, "b", 1))
    encounter = app.start_encounter(StartEncounter(campaign, "Fight", lineup)).id
    return attack_odds(app.encounter(campaign, encounter), bran, ogre, **options)


def lands(skill: int, defense: int | None) -> Fraction:
    """S1 and S3 by brute force over every throw: the hit succeeds (3d6 <= skill, a 3
    always, an 18 never), and no successful defense scores at least the hit score."""
    throws = [sum(t) for t in itertools.product(range(1, 7), repeat=3)]

    def check(total: int, target: int) -> tuple[bool, int]:
        return (total == 3 or (total != 18 and total <= target)), target - total

    landed = 0
    for h in throws:
        hit, hit_score = check(h, skill)
        if not hit:
            continue
        for d in throws:
            saved, score = check(d, defense) if defense is not None else (False, 0)
            landed += not (saved and score >= hit_score)
    return Fraction(landed, len(throws) ** 2)


def hits(report: dict[str, Any]) -> dict[str, dict[str, str]]:
    return {
        a["label"]: {r["result"]: r["probability"] for r in a["odds"]["results"]}
        for a in report["attacks"]
    }


def test_each_stamina_body_row_says_what_its_figure_is() -> None:
    """A row per defense the Ogre may declare, each the chance the blow lands against it;
    a reader who may not see the Ogre's defenses reads one row a weapon, its chance to hit."""
    found = hits(stamina_body_view())
    assert found == {
        "sword (no defense)": {"hit": "20/27", "miss": "7/27"},
        "sword (parry)": {"hit": "4883/7776", "miss": "7/27", "parried": "877/7776"},
        "sword (dodge)": {"hit": "5459/7776", "miss": "7/27", "dodged": "301/7776"},
        "unarmed (no defense)": {"hit": "1/2", "miss": "1/2"},
        "unarmed (parry)": {"hit": "6193/15552", "miss": "1/2", "parried": "1583/15552"},
        "unarmed (dodge)": {"hit": "7201/15552", "miss": "1/2", "dodged": "575/15552"},
    }
    # Worked again from S1 and S3 alone: skill 12 (sword), 10 (unarmed); Parry 9, Dodge 7.
    for arm, skill in (("sword", 12), ("unarmed", 10)):
        for defense, score in (("no defense", None), ("parry", 9), ("dodge", 7)):
            assert Fraction(found[f"{arm} ({defense})"]["hit"]) == lands(skill, score)

    report = stamina_body_view(unseen=True)
    # The chance to land against a parry or a dodge would tell the Ogre's Parry and Dodge
    # (RULINGS T3a): the one figure this reader may have, 3d6 against Bran's own skill,
    # says what it is.
    assert [a["label"] for a in report["attacks"]] == [
        "sword (to hit, before any defense)",
        "unarmed (to hit, before any defense)",
    ]
    assert [a["params"]["weapon"] for a in report["attacks"]] == ["sword", "unarmed"]
    assert hits(report) == {
        "sword (to hit, before any defense)": {"hit": "20/27", "miss": "7/27"},
        "unarmed (to hit, before any defense)": {"hit": "1/2", "miss": "1/2"},
    }
    assert Fraction(20, 27) == lands(12, None)
