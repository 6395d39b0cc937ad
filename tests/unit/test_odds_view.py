"""A character's attacks against a chosen opponent: one entry each, within one budget."""

from __future__ import annotations

from typing import Any

from skald_campaign.domain.odds.cost import run_cost
from skald_campaign.domain.odds.encounter import attack_odds
from tests.unit.test_margin_table import SWORD, Table, sheet, weapon


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
        "sword",
        "blade 0",
        "blade 1",
        "blade 2",
        "blade 3",
        "fists",
    ]
    assert all(a["odds"]["results"] for a in report["attacks"])
    assert report["attacks"][0]["params"] == {
        "target": report["against"],
        "weapon": "sword",
        "effort": 0,
    }


def test_the_attacks_share_one_budget_and_say_when_it_is_spent() -> None:
    budget = 130 * run_cost("margin").of(5)  # about 130 runs of a 5-die pool
    report = view(fight(), budget=budget)
    answered = [a for a in report["attacks"] if a.get("odds")]
    spent = [a for a in report["attacks"] if a.get("refused")]
    assert answered and spent
    assert sum(a["odds"]["cost"] for a in answered) <= budget
    assert spent[-1]["refused"].endswith("(this view's budget is spent: ask for this attack alone)")
