"""Roll preview through HTTP (issue 13): a table supplies its physical dice under the
names the preview gave, for a margin attack on a lucky defender behind a warding dwarf."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.helpers import act, enrol, new_campaign, ok, start
from tests.unit.test_margin_table import SWORD

RAIDER = {"might": 3, "grace": 2, "vigor": 2, "aether": 2, "melee": 2, "weapons": [SWORD]}
THRAIN = {
    "might": 2,
    "grace": 1,
    "vigor": 3,
    "aether": 1,
    "evasion": 1,
    "guard": 3,
    "race": "dwarf",
    "armor": [{"name": "mail", "rating": 4}],
}
ALLY = {"might": 2, "grace": 2, "vigor": 2, "aether": 2, "health": 20, "luck": 1}


def roll_names(rolls: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(r["name"], r["dice"]) for r in rolls]


def test_table_dice_by_preview_name_for_a_lucky_ally_behind_a_warding_dwarf(
    client: TestClient,
) -> None:
    cid = new_campaign(client, "margin")
    orc = enrol(client, cid, "Orc", RAIDER)
    thrain = enrol(client, cid, "Thrain", THRAIN)
    ally = enrol(client, cid, "Ally", ALLY)
    eid = start(
        client,
        cid,
        [
            {"character_id": orc, "side": "horde"},
            {"character_id": thrain, "side": "keep"},
            {"character_id": ally, "side": "keep"},
        ],
    )
    act(client, cid, eid, "ward", thrain)
    attack = {"kind": "attack", "actor": orc, "params": {"target": ally, "weapon": "sword"}}
    shown = ok(client.post(f"/campaigns/{cid}/encounters/{eid}/preview", json=attack))
    assert roll_names(shown["rolls"]) == [
        ("Orc's attack", "5d6"),
        ("Ally's evasion", "2d6"),
        ("Ally's guard", "2d6"),
    ]
    assert sorted(roll_names(shown["may_follow"])) == [
        ("Ally's evasion (luck)", "2d6"),
        ("Ally's guard (luck)", "2d6"),
        ("Thrain's ward evasion", "2d6"),
        ("Thrain's ward guard", "6d6"),
    ]
    assert all(orc not in r["name"] and ally not in r["name"] for r in shown["may_follow"])

    dice = {
        "Orc's attack": [6, 6, 5, 5, 2],  # 4 successes
        "Ally's evasion": [1, 1],  # below nothing: her luck point re-rolls it
        "Ally's evasion (luck)": [5, 2],  # 1
        "Ally's guard": [2, 2],  # 0
        "Ally's guard (luck)": [6, 6],  # rolled at the table, not needed: luck is spent
        "Thrain's ward evasion": [2, 2],  # 0
        "Thrain's ward guard": [5, 2, 2, 2, 2, 2],  # 1
    }
    result = act(client, cid, eid, "attack", orc, dice, target=ally, weapon="sword")
    record = result["action"]
    assert [r["supplied"] for r in record["rolls"]] == [True] * 6
    assert record["breakdown"]["unused_dice"] == {"Ally's guard (luck)": [6, 6]}
    assert record["narrative"] == [
        "sword (melee) reaches 1; distance 1",
        "Orc's attack with sword: Might 3 + Melee 2 = 5 dice; rolled 6, 6, 5, 5, 2: 4 successes",
        "Ally holds no posture this round and defends passively: the bare attribute for "
        "every defense",
        "Ally's evasion (passive): Grace 2 = 2 dice; rolled 1, 1: no 5 or 6 and every die a 1: "
        "below nothing, -1",
        "Ally spends a luck point (-1 is 0 or less): re-rolled 5, 2: 1 success; "
        "the second result stands",
        "Ally's guard (passive): Vigor 2 = 2 dice; rolled 2, 2: 0 successes",
        "Margin: 4 - (1 + 0) = 3",
        "Thrain intercepts with every defense the attack allows, actively; a total below "
        "nothing counts as 0",
        "Thrain's evasion (active): Grace 1 + Evasion 1 = 2 dice; rolled 2, 2: 0 successes",
        "Thrain's guard (active): Vigor 3 + Guard 3 = 6 dice; rolled 5, 2, 2, 2, 2, 2: 1 success",
        "Ward: 3 - 1 = 2; Thrain takes the blow",
        "Damage: 2 + 1 x 2 = 4 slash",
        "Armor 4: x 6561/10000 (0.66) = 6561/2500 (2.62)",
        "Rounded half up, once: 6561/2500 (2.62) -> 3",
        "Thrain: health 16 -> 13",
        "Dice supplied for Ally's guard (luck) (6, 6) were not used: that roll was not needed",
    ]
