"""A reroll takes the roll names the action's record and the preview show ("Ogre's
hit", "Kara's parry"), and the short names too ("hit", "defense"), so actions recorded
before the human names still reroll (issue 36)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.helpers import GM, enrol, new_campaign, ok, start
from tests.integration.test_table_api import MARGIN, SB

CLUB = {"name": "club", "damage_class": 2, "damage_type": "impact", "skill": 11}


def fight(client: TestClient, ruleset: str, ogre: Any, kara: Any) -> tuple[str, str, str]:
    cid = new_campaign(client, ruleset)
    o, k = enrol(client, cid, "Ogre", ogre), enrol(client, cid, "Kara", kara)
    side = [{"character_id": o, "side": "foes"}, {"character_id": k, "side": "party"}]
    return f"/campaigns/{cid}/encounters/{start(client, cid, side)}", o, k


def reroll(client: TestClient, base: str, dice: dict[str, list[int]]) -> Any:
    body = {"reason": "the die fell off the table", "dice": dice}
    return ok(client.post(base + "/actions/1/reroll", json=body, headers=GM))


def faces(answer: Any) -> dict[str, list[int]]:
    record = answer["encounter"]["actions"][0]
    return {r["name"]: r["faces"] for r in record["rolls"]}


def test_a_stamina_body_attack_rerolls_under_its_human_and_its_short_names(
    client: TestClient,
) -> None:
    base, ogre, kara = fight(client, "stamina-body", {**SB, "weapons": [CLUB]}, SB)
    body = {"kind": "attack", "actor": ogre, "params": {"target": kara, "weapon": "club"}}
    opened = ok(
        client.post(base + "/actions", json={**body, "dice": {"hit": [2, 2, 2]}}, headers=GM), 202
    )
    declare = {"choice": "parry", "dice": {"defense": [6, 6, 6]}}
    path = f"{base}/exchanges/{opened['exchange']['number']}/declare"
    ok(client.post(path, json=declare, headers=GM), 201)
    human = reroll(client, base, {"Ogre's hit": [1, 2, 1], "Kara's parry": [5, 5, 5]})
    assert faces(human) == {
        "hit": [1, 2, 1],
        "defense": [5, 5, 5],
        "damage": faces(human)["damage"],
    }
    assert human["report"][0]["status"] == "rerolled"
    short = reroll(client, base, {"hit": [3, 3, 3], "defense": [6, 6, 5], "damage": [4, 4]})
    assert faces(short) == {"hit": [3, 3, 3], "defense": [6, 6, 5], "damage": [4, 4]}


def test_a_margin_attack_rerolls_under_its_human_and_its_short_names(client: TestClient) -> None:
    base, ogre, kara = fight(client, "margin", MARGIN, MARGIN)
    body = {"kind": "attack", "actor": ogre, "params": {"target": kara, "weapon": "sword"}}
    evasion, guard = f"defense.{kara}.evasion", f"defense.{kara}.guard"
    dice = {"attack": [5, 5], evasion: [1, 2], guard: [2, 3]}
    ok(client.post(base + "/actions", json={**body, "dice": dice}, headers=GM), 201)
    human = {"Ogre's attack": [6, 6], "Kara's evasion": [5, 2], "Kara's guard": [3, 3]}
    assert faces(reroll(client, base, human)) == {
        "attack": [6, 6],
        evasion: [5, 2],
        guard: [3, 3],
    }
    short = {"attack": [1, 6], evasion: [2, 2], guard: [2, 2]}
    assert faces(reroll(client, base, short)) == short
