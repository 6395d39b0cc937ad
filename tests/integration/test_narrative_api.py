"""Breakdowns people can read (issue 13): the narrative beside every action record."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.integration.test_stamina_body_api import KNIGHT, NO_ARMOUR, Table


def test_the_seed_001_longsword_example_reads_from_the_dice_to_the_tracks(
    client: TestClient,
) -> None:
    t = Table(client, knight=KNIGHT)
    result = t.act(
        "take_hit",
        dice={"damage": [2, 4, 6]},
        target=t.ids["knight"],
        damage_type="piercing",
        damage_class=3,
        parried=True,
        hit_score=3,
        parry_score=1,
    )
    assert result["action"]["narrative"] == [
        "Damage dice: class 3 = 3d6, rolled 2, 4, 6",
        "Die 2 on the piercing table: 1 Stamina, 0 Body",
        "Die 4 on the piercing table: 2 Stamina, 1 Body",
        "Die 6 on the piercing table: 4 Stamina, 2 Body",
        "Raw damage: 1 + 2 + 4 = 7 Stamina and 0 + 1 + 2 = 3 Body",
        "Shield: hit score 3 - parry score 1 = 2 <= 2",
        "Resilience: armour 2 + shield 2 = 4",
        "Step 1 (Body): 3 -> 2; resilience left 3",
        "Step 2 (Stamina): 7 -> 6; resilience left 2",
        "Step 3 (Body): 2 -> 1; resilience left 1",
        "Step 4 (Stamina): 6 -> 5; resilience left 0",
        "Net damage: 5 Stamina, 1 Body",
        "Knight: Stamina 12 -> 7, Body 10 -> 9",
        "A piercing hit reached Body: Knight has a piercing wound",
        "Knight gains: piercing wound",
    ]
    assert result["action"]["summary"] == (
        "Knight takes 5 Stamina and 1 Body (7/3 raw); Knight gains: piercing wound"
    )


def test_an_unarmed_attack_reads_its_derived_dice_the_defense_and_new_conditions(
    client: TestClient,
) -> None:
    t = Table(client, knight=KNIGHT, bare={**NO_ARMOUR, "stamina_max": 3})
    result = t.act(
        "attack",
        "knight",
        {"hit": [1, 2, 2], "defense": [6, 6, 5], "damage": [6, 6, 6]},
        target=t.ids["bare"],
        defense="dodge",
    )
    assert result["action"]["narrative"] == [
        "Unarmed: ST 13 // 4 = 3 dice (at least 1), impact",
        "Knight's hit: 3d6 rolled 5 against unarmed skill 10: success, hit score 5",
        "Bare's dodge: 3d6 rolled 17 against dodge 10: failure, dodge score -7",
        "The dodge failed (17 > 10)",
        "Damage dice: class 3 = 3d6, rolled 6, 6, 6",
        "Die 6 on the impact table: 5 Stamina, 1 Body",
        "Die 6 on the impact table: 5 Stamina, 1 Body",
        "Die 6 on the impact table: 5 Stamina, 1 Body",
        "Raw damage: 5 + 5 + 5 = 15 Stamina and 1 + 1 + 1 = 3 Body",
        "Shield: no successful parry: the shield does not help",
        "Resilience: armour 0 + shield 0 = 0",
        "Net damage: 15 Stamina, 3 Body",
        "Bare: Stamina 3 -> -12, Body 10 -> 7",
        "Bare gains: stunned",
    ]
    assert result["action"]["summary"].endswith("; Bare gains: stunned")
