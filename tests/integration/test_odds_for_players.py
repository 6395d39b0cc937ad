"""The odds a player reads of a blow on an NPC (RULINGS T3a): only what depends on public
numbers and the player's own; never a chance that would tell the NPC's hidden numbers
(its Parry, its AC, a chance to stun it), unless the campaign shows NPCs' numbers."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.helpers import ok
from tests.integration.test_told_api import OGRE_D20, OGRE_SB, PC_D20, PC_SB


def odds(client: TestClient, ruleset: str, pc: Any, ogre: Any, show: bool) -> dict[str, Any]:
    """Bran's attacks on the Ogre as the GM and as Bran's player read their odds."""
    body = {"name": "Odds", "ruleset": ruleset, "options": {"show_npc_numbers": show}}
    created = ok(client.post("/campaigns", json=body), 201)
    base = f"/campaigns/{created['id']}"
    gm = {"authorization": f"Bearer {created['gm_key']}"}

    def post(path: str, json: Any) -> Any:
        return ok(client.post(base + path, json=json, headers=gm), 201)

    bran = post("/characters", {"name": "Bran", "sheet": pc})["id"]
    ogre = post("/characters", {"name": "Ogre", "sheet": ogre, "npc": True})["id"]
    key = post("/keys", {"role": "player", "characters": [bran]})["key"]
    sides = [{"character_id": bran, "side": "party"}, {"character_id": ogre, "side": "foes"}]
    fight = post("/encounters", {"name": "Ford", "combatants": sides})["id"]
    path = f"{base}/encounters/{fight}/combatants/{bran}/odds?against={ogre}"
    read = {
        role: {a["label"]: a["odds"] for a in ok(client.get(path, headers=headers))["attacks"]}
        for role, headers in (("gm", gm), ("player", {"authorization": f"Bearer {key}"}))
    }
    return {**read, "ogre": ogre}


def results(found: dict[str, Any]) -> dict[str, str]:
    return {r["result"]: r["probability"] for r in found["results"]}


def test_stamina_body_a_player_reads_the_chance_to_hit_from_the_own_skill(
    client: TestClient,
) -> None:
    read = odds(client, "stamina-body", PC_SB, OGRE_SB, show=False)
    # The GM reads a row per defense the Ogre (Parry 9, Dodge 7) may declare, each the
    # chance the blow lands against it (seed 001, S3: a successful parry or dodge scoring
    # at least the hit score stops it).
    assert {k: results(v) for k, v in read["gm"].items() if k.startswith("sword")} == {
        "sword (no defense)": {"hit": "20/27", "miss": "7/27"},
        "sword (parry)": {"hit": "4883/7776", "miss": "7/27", "parried": "877/7776"},
        "sword (dodge)": {"hit": "5459/7776", "miss": "7/27", "dodged": "301/7776"},
    }
    gm = read["gm"]["sword (parry)"]
    assert any(c["combatant"] == read["ogre"] for c in gm["damage"])
    # 3d6 <= 12 (Bran's sword skill): 160 of 216 throws; whatever the Ogre then answers.
    # One row a weapon, saying so: a row per defense would each show this same figure
    # under "(parry)" and "(dodge)", which a reader takes for the chance to land against it.
    assert list(read["player"]) == [
        "sword (to hit, before any defense)",
        "unarmed (to hit, before any defense)",
    ]
    player = read["player"]["sword (to hit, before any defense)"]
    assert results(player) == {"hit": "20/27", "miss": "7/27"}
    assert player["damage"] == player["conditions"] == [] and player["extras"] == {}
    assert player["withheld"].startswith("RULINGS T3a")
    assert "withheld" not in gm or gm["withheld"] is None


def test_d20_a_player_reads_no_chance_to_beat_an_npcs_ac(client: TestClient) -> None:
    read = odds(client, "d20", PC_D20, OGRE_D20, show=False)
    gm, player = read["gm"]["Sword"], read["player"]["Sword"]
    assert set(results(gm)) == {"hit", "miss"}
    assert player["results"] == [] and player["damage"] == [] and player["conditions"] == []


def test_with_npcs_numbers_shown_a_player_reads_the_odds_whole(client: TestClient) -> None:
    read = odds(client, "stamina-body", PC_SB, OGRE_SB, show=True)
    assert read["player"] == read["gm"]


def panel_odds(client: TestClient, show: bool) -> dict[str, Any]:
    """Bran's sword blow on the Ogre, its defense left to the Ogre (S3), as the combat
    panel asks its odds: as the GM and as Bran's player read them."""
    body = {"name": "Odds", "ruleset": "stamina-body", "options": {"show_npc_numbers": show}}
    created = ok(client.post("/campaigns", json=body), 201)
    base = f"/campaigns/{created['id']}"
    gm = {"authorization": f"Bearer {created['gm_key']}"}

    def post(path: str, json: Any) -> Any:
        return ok(client.post(base + path, json=json, headers=gm), 201)

    bran = post("/characters", {"name": "Bran", "sheet": PC_SB})["id"]
    ogre = post("/characters", {"name": "Ogre", "sheet": OGRE_SB, "npc": True})["id"]
    key = post("/keys", {"role": "player", "characters": [bran]})["key"]
    sides = [{"character_id": bran, "side": "party"}, {"character_id": ogre, "side": "foes"}]
    fight = post("/encounters", {"name": "Ford", "combatants": sides})["id"]
    blow = {"kind": "attack", "actor": bran, "params": {"target": ogre, "weapon": "sword"}}
    path = f"{base}/encounters/{fight}/odds"
    return {
        role: ok(client.post(path, json=blow, headers=headers))
        for role, headers in (("gm", gm), ("player", {"authorization": f"Bearer {key}"}))
    }


def test_a_blow_left_to_an_npcs_answer_shows_a_player_no_answer_of_its(
    client: TestClient,
) -> None:
    """The odds of each of the Ogre's answers would tell its Parry and Dodge (T3a): the
    GM reads them; Bran's player reads the chance to hit and that the Ogre answers."""
    read = panel_odds(client, show=False)
    gm, player = read["gm"], read["player"]
    assert {c: results(a) for c, a in gm["answers"].items()} == {
        "parry": {"hit": "4883/7776", "miss": "7/27", "parried": "877/7776"},
        "dodge": {"hit": "5459/7776", "miss": "7/27", "dodged": "301/7776"},
        "none": {"hit": "20/27", "miss": "7/27"},
    }
    assert results(player) == results(gm) == {"hit": "20/27", "miss": "7/27"}
    assert player["awaits"] == gm["awaits"]
    assert player["awaits"]["choices"] == ["parry", "dodge", "none"]
    assert player["answers"] == {}
    assert player["withheld"].startswith("RULINGS T3a")
    shown = panel_odds(client, show=True)
    assert shown["player"] == {**shown["gm"], "elapsed_ms": shown["player"]["elapsed_ms"]}
