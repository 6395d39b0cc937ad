"""Seed 000 over HTTP, on the real store: luck, wounded, exhaustion, down, weakness and
resistance, M12's two armor examples, M16, the Ward and the Elf's counter (M13, M14, M17)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.helpers import act_response, next_round
from tests.integration.test_margin_api import SWORD, Fight, blanks, sheet

ORC = sheet(might=3, melee=2, weapons=[SWORD])


def breakdown(result: dict[str, Any]) -> dict[str, Any]:
    return dict(result["action"]["breakdown"])


def conditions(result: dict[str, Any], fight: Fight, name: str) -> list[str]:
    found = next(c for c in result["encounter"]["combatants"] if c["id"] == fight.ids[name])
    return list(found["conditions"])


def state(result: dict[str, Any], fight: Fight, name: str) -> dict[str, Any]:
    found = next(c for c in result["encounter"]["combatants"] if c["id"] == fight.ids[name])
    return dict(found["state"])


def blade(name: str, base: int, per_margin: Any, damage_type: str = "slash") -> dict[str, Any]:
    return {
        **SWORD,
        "name": name,
        "base_damage": base,
        "per_margin": per_margin,
        "damage_type": damage_type,
    }


def test_luck_gives_the_attack_and_a_defense_a_second_look(client: TestClient) -> None:
    fight = Fight(
        client,
        ("lucky", sheet(melee=1, luck=1, weapons=[SWORD]), "a", 1),
        ("wren", sheet(luck=1), "b", 1),
    )
    result = fight.act(
        "attack",
        "lucky",
        fight.dice(
            attack=[1, 2, 3],
            defense__wren__evasion=[2, 3],
            defense__wren__evasion__luck=[5, 6],
            defense__wren__guard=[2, 2],  # blank too, but her one point is gone
        )
        | {"attack.luck": [6, 5, 1]},
        target="wren",
        weapon="sword",
    )
    b = breakdown(result)
    assert b["attack"]["first"]["total"] == 0 and b["attack"]["total"] == 2
    assert [r["total"] for r in b["defense"]["rolls"]] == [2, 0]
    assert b["defense"]["rolls"][1]["luck"] is None
    assert b["margin"]["value"] == 0
    assert b["luck_spent"] == {fight.ids["lucky"]: 1, fight.ids["wren"]: 1}
    assert state(result, fight, "lucky")["luck"] == state(result, fight, "wren")["luck"] == 0


def test_a_wounded_character_loses_a_die_on_attacks_and_active_defenses(
    client: TestClient,
) -> None:
    fight = Fight(
        client, ("orc", ORC, "b", 1), ("brenna", sheet(evasion=2, weapons=[SWORD]), "a", 1)
    )
    quiet = fight.dice(defense__brenna__evasion=blanks(2), defense__brenna__guard=blanks(2))
    hit = fight.act("attack", "orc", {"attack": [6] * 5, **quiet}, target="brenna", weapon="sword")
    assert fight.health(hit, "brenna") == 7  # 14 - (2 + 1 x 5)
    assert conditions(hit, fight, "brenna") == ["wounded"]
    next_round(client, fight.cid, fight.eid)
    defended = fight.act("defend", "brenna")
    pools = breakdown(defended)["defense_pools"]
    assert pools["evasion"]["dice"] == 3  # grace 2 + evasion 2 - 1 wounded
    assert {"term": "wounded", "dice": -1} in pools["evasion"]["terms"]
    assert pools["guard"]["dice"] == 2 and pools["guard"]["floor_applied"] is True
    next_round(client, fight.cid, fight.eid)
    swing = fight.act(
        "attack",
        "brenna",
        fight.dice(attack=[2], defense__orc__evasion=blanks(2), defense__orc__guard=blanks(2)),
        target="orc",
        weapon="sword",
    )
    assert breakdown(swing)["attack"]["pool"]["dice"] == 1  # might 2 + melee 0 - 1


def test_effort_tires_and_fatigue_takes_dice_off_later_pools(client: TestClient) -> None:
    fight = Fight(client, ("brenna", sheet(melee=2, weapons=[SWORD]), "a", 1), ("orc", ORC, "b", 1))
    quiet = fight.dice(defense__orc__evasion=blanks(2), defense__orc__guard=blanks(2))
    hard = fight.act(
        "attack", "brenna", {"attack": blanks(7), **quiet}, target="orc", weapon="sword", effort=3
    )
    assert breakdown(hard)["effort"] == {"dice": 3, "fatigue": {"before": 0, "after": 3}}
    next_round(client, fight.cid, fight.eid)
    tired = fight.act(
        "attack", "brenna", {"attack": blanks(3), **quiet}, target="orc", weapon="sword"
    )
    pool = breakdown(tired)["attack"]["pool"]
    assert {"term": "exhaustion", "dice": -1} in pool["terms"]  # 3 // 2
    assert pool["dice"] == 3


def test_a_character_who_is_down_cannot_act_and_defends_passively(client: TestClient) -> None:
    fight = Fight(
        client,
        ("orc", ORC, "b", 1),
        ("orc2", ORC, "b", 1),
        ("wren", sheet(evasion=1, health=5), "a", 1),
    )
    fight.act("defend", "wren")
    first = fight.act(
        "attack",
        "orc",
        fight.dice(
            attack=[6] * 5, defense__wren__evasion=blanks(3), defense__wren__guard=blanks(2)
        ),
        target="wren",
        weapon="sword",
    )
    assert [r["mode"] for r in breakdown(first)["defense"]["rolls"]] == ["active", "active"]
    assert fight.health(first, "wren") == -2
    assert conditions(first, fight, "wren") == ["wounded", "down"]
    second = fight.act(
        "attack",
        "orc2",
        fight.dice(
            attack=blanks(5), defense__wren__evasion=blanks(2), defense__wren__guard=blanks(2)
        ),
        target="wren",
        weapon="sword",
    )
    rolls = breakdown(second)["defense"]["rolls"]
    assert [(r["mode"], r["pool"]["dice"]) for r in rolls] == [("passive", 2), ("passive", 2)]
    assert "is down" in breakdown(second)["defense"]["why"]
    next_round(client, fight.cid, fight.eid)
    refused = act_response(client, fight.cid, fight.eid, "defend", fight.ids["wren"])
    assert refused.status_code == 409
    assert refused.json()["message"] == "wren cannot defend: down"


def strike(fight: Fight, attacker: str, target: str, weapon: str, successes: int, dice: int) -> Any:
    """An attack of ``dice`` dice with ``successes`` sixes, against blank passive defenses."""
    return fight.act(
        "attack",
        attacker,
        fight.dice(
            attack=[6] * successes + [2] * (dice - successes),
            **{f"defense__{target}__evasion": blanks(2), f"defense__{target}__guard": blanks(2)},
        ),
        target=target,
        weapon=weapon,
    )


def test_weakness_doubles_and_resistance_halves_before_armor(client: TestClient) -> None:
    brute = sheet(might=3, melee=2, weapons=[SWORD])
    weak = sheet(health=30, nature={"slash": "weak"})
    tough = sheet(health=30, nature={"slash": "resistant"}, armor=[{"name": "hide", "rating": 1}])
    fight = Fight(
        client, ("brute", brute, "a", 1), ("weak", weak, "b", 1), ("tough", tough, "b", 1)
    )
    doubled = strike(fight, "brute", "weak", "sword", 2, 5)
    assert breakdown(doubled)["damage"]["nature"] == {
        "damage_type": "slash",
        "nature": "weak",
        "multiplier": "2",
        "damage": "8",
    }
    assert fight.health(doubled, "weak") == 22  # (2 + 2) x 2
    next_round(client, fight.cid, fight.eid)
    halved = strike(fight, "brute", "tough", "sword", 1, 5)
    damage = breakdown(halved)["damage"]
    assert (damage["nature"]["damage"], damage["exact"], damage["final"]) == ("3/2", "27/20", 1)
    assert fight.health(halved, "tough") == 29  # 3 x 1/2 x 9/10 = 1.35, rounded once


def test_the_two_armor_examples_of_m12(client: TestClient) -> None:
    seven = blade("cleaver", 5, 1)
    armored = sheet(
        health=20,
        armor=[{"name": "shield", "rating": 3, "shield": True}, {"name": "jerkin", "rating": 2}],
    )
    plated = sheet(health=20, armor=[{"name": "plate", "rating": 7}])
    fight = Fight(
        client,
        ("brute", sheet(might=3, weapons=[seven]), "a", 1),
        ("armored", armored, "b", 1),
        ("plated", plated, "b", 1),
    )
    first = strike(fight, "brute", "armored", "cleaver", 2, 3)  # 5 + 1 x 2 = 7 slash
    damage = breakdown(first)["damage"]
    assert damage["armor"] == {
        "rating": 5,
        "physical": True,
        "multiplier": "59049/100000",
        "damage": "413343/100000",
    }
    assert damage["final"] == 4 and fight.health(first, "armored") == 16
    next_round(client, fight.cid, fight.eid)
    second = strike(fight, "brute", "plated", "fists", 1, 3)  # fists: 0 + 1 x 1 = 1 blunt
    damage = breakdown(second)["damage"]
    assert damage["exact"] == "4782969/10000000" and damage["final"] == 0
    assert damage["real_threat"]["is_real_threat"] is False
    assert fight.health(second, "plated") == 20  # it came to nothing


def test_a_real_threat_is_never_armored_to_nothing(client: TestClient) -> None:
    plate = [{"name": f"plate {n}", "rating": 50} for n in range(20)]  # Armor 1000
    fight = Fight(
        client,
        ("giant", sheet(might=3, weapons=[blade("maul", 100, 1, "blunt")]), "a", 1),
        ("fortress", sheet(armor=plate), "b", 1),
    )
    result = strike(fight, "giant", "fortress", "maul", 1, 3)
    damage = breakdown(result)["damage"]
    assert damage["armor"]["rating"] == 1000
    assert damage["rounded"] == 0 and damage["final"] == 1
    assert damage["real_threat"] == {"threshold": 3, "is_real_threat": True, "raised_to_1": True}
    assert fight.health(result, "fortress") == 13


THRAIN = sheet(
    race="dwarf", grace=1, vigor=3, evasion=1, guard=3, armor=[{"name": "mail", "rating": 4}]
)  # health 16


def test_a_ward_takes_what_is_left_of_a_blow_through_the_dwarfs_own_armor(
    client: TestClient,
) -> None:
    fight = Fight(
        client, ("orc", ORC, "b", 1), ("thrain", THRAIN, "a", 1), ("ally", sheet(health=20), "a", 1)
    )
    fight.act("ward", "thrain", effort=1)
    result = fight.act(
        "attack",
        "orc",
        fight.dice(
            attack=[6, 6, 6, 1, 2],
            defense__ally__evasion=blanks(2),
            defense__ally__guard=blanks(2),
            ward__thrain__evasion=[2, 2, 2],
            ward__thrain__guard=[6, 2, 2, 2, 2, 2, 2],
        ),
        target="ally",
        weapon="sword",
    )
    b = breakdown(result)
    assert b["ward"]["margin_before"] == 3 and b["ward"]["totals"] == [0, 1]
    assert b["ward"]["remaining"] == 2 and b["ward"]["stopped"] is False
    assert b["damage"]["to"] == fight.ids["thrain"]
    assert b["damage"]["exact"] == "6561/2500" and b["damage"]["final"] == 3  # 4 x 0.6561
    assert fight.health(result, "thrain") == 13 and fight.health(result, "ally") == 20


def test_a_ward_can_stop_a_blow_dead(client: TestClient) -> None:
    fight = Fight(
        client, ("orc", ORC, "b", 1), ("thrain", THRAIN, "a", 1), ("ally", sheet(health=20), "a", 1)
    )
    fight.act("ward", "thrain", effort=1)
    result = fight.act(
        "attack",
        "orc",
        fight.dice(
            attack=[6, 6, 1, 1, 2],
            defense__ally__evasion=blanks(2),
            defense__ally__guard=blanks(2),
            ward__thrain__evasion=[5, 2, 2],
            ward__thrain__guard=[6, 2, 2, 2, 2, 2, 2],
        ),
        target="ally",
        weapon="sword",
    )
    b = breakdown(result)
    assert b["ward"]["remaining"] == 0 and b["ward"]["stopped"] is True
    assert b["damage"] is None
    assert fight.health(result, "thrain") == 16 and fight.health(result, "ally") == 20


LIA = sheet(race="elf", grace=3, vigor=1, evasion=2, weapons=[SWORD])
HIDE_ORC = sheet(might=3, melee=2, armor=[{"name": "hide", "rating": 2}], weapons=[SWORD])


def turned(fight: Fight) -> dict[str, Any]:
    result = fight.act(
        "attack",
        "orc",
        fight.dice(
            attack=[6, 1, 1, 1, 2],
            defense__lia__evasion=[6, 6, 6, 1, 1, 1, 2],
            defense__lia__guard=[2],
        ),
        target="lia",
        weapon="sword",
    )
    assert breakdown(result)["margin"]["value"] == -2
    return result


def test_a_turned_blow_comes_back_through_the_attackers_armor(client: TestClient) -> None:
    fight = Fight(client, ("lia", LIA, "a", 1), ("orc", HIDE_ORC, "b", 1))
    fight.act("riposte", "lia", effort=1)
    result = turned(fight)
    counter = breakdown(result)["riposte"]
    assert counter["answered"] is True and counter["counter_margin"] == 2
    assert counter["weapon"] == "sword"
    assert counter["damage"]["exact"] == "81/25" and counter["damage"]["final"] == 3
    assert fight.health(result, "orc") == 11


def test_a_dwarfs_ward_does_not_intercept_the_elfs_counter(client: TestClient) -> None:
    fight = Fight(
        client, ("lia", LIA, "a", 1), ("orc", HIDE_ORC, "b", 1), ("thrain", THRAIN, "b", 1)
    )
    fight.act("ward", "thrain", effort=1)
    fight.act("riposte", "lia", effort=1)
    result = turned(fight)
    assert breakdown(result)["ward"] is None
    assert fight.health(result, "orc") == 11 and fight.health(result, "thrain") == 16
    assert not [r for r in result["action"]["rolls"] if r["name"].startswith("ward.")]


def test_the_counter_uses_the_sword_not_the_bow_listed_first(client: TestClient) -> None:
    bow = {
        "name": "bow",
        "attribute": "grace",
        "skill": "marksmanship",
        "category": "ranged",
        "base_damage": 1,
        "per_margin": 1,
        "damage_type": "pierce",
        "ammunition": 5,
    }
    elf = sheet(race="elf", grace=3, vigor=1, evasion=2, weapons=[bow, SWORD])
    fight = Fight(client, ("lia", elf, "a", 1), ("orc", HIDE_ORC, "b", 1))
    fight.act("riposte", "lia", effort=1)
    result = turned(fight)
    assert breakdown(result)["riposte"]["weapon"] == "sword"
    assert state(result, fight, "lia")["ammunition"] == {"bow": 5}
