"""The GM's hidden rolls over HTTP (RULINGS T3, issue 24): ``"hidden": true`` on an NPC's
action. Players and viewers see its outcome (who hit whom, the PC's own damage and
tracks), never its dice, skill or score; the GM's audit keeps everything; a reroll or a
void of it keeps it hidden; a player's key may not ask for it, nor may a PC's action."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from fastapi.testclient import TestClient

from tests.helpers import event_count, new_campaign, ok, start
from tests.integration.test_projections import caught_up

SHEET = {"st": 13, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10}
OGRE = {**SHEET, "weapons": [{"name": "maul", "damage_class": 2, "damage_type": "impact",
                              "skill": 17}]}  # fmt: skip


class Table:
    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.cid = new_campaign(client, "stamina-body")
        self.gm = dict(client.headers)
        self.bran = self.enrol({"name": "Bran", "sheet": SHEET, "player": "Ana"})
        self.ogre = self.enrol({"name": "Ogre", "sheet": OGRE, "npc": True})
        sides = [{"character_id": self.bran, "side": "party"},
                 {"character_id": self.ogre, "side": "foes"}]  # fmt: skip
        self.eid = start(client, self.cid, sides)
        self.player = self.key({"role": "player", "characters": [self.bran]})
        self.viewer = self.key({"role": "viewer"})
        self.fight = f"/campaigns/{self.cid}/encounters/{self.eid}"

    def enrol(self, body: dict[str, Any]) -> str:
        return str(ok(self.client.post(f"/campaigns/{self.cid}/characters", json=body), 201)["id"])

    def key(self, body: dict[str, Any]) -> dict[str, str]:
        key = ok(self.client.post(f"/campaigns/{self.cid}/keys", json=body), 201)["key"]
        return {"authorization": f"Bearer {key}"}

    def maul(self, dice: dict[str, list[int]], **params: Any) -> Any:
        body = {"kind": "attack", "actor": self.ogre, "hidden": True, "dice": dice,
                "params": {"target": self.bran, "weapon": "maul", **params}}  # fmt: skip
        return self.client.post(f"{self.fight}/actions", json=body)

    def reads(self, key: Mapping[str, str]) -> dict[str, Any]:
        caught_up(self.client, self.cid)
        campaign = f"/campaigns/{self.cid}"
        paths = [
            self.fight, f"{self.fight}/board", f"{self.fight}/audit", f"{campaign}/audit",
            f"{self.fight}/diff?from=1", f"{self.fight}?version=2", f"{campaign}/vitals",
        ]  # fmt: skip
        return {path: ok(self.client.get(path, headers=key)) for path in paths}


def hidden_parts(value: Any) -> Iterator[Mapping[str, Any]]:
    """Every action, exchange or audit entry of a hidden roll in a body."""
    if isinstance(value, Mapping):
        data = value.get("data")
        if value.get("hidden") is True or (isinstance(data, Mapping) and data.get("hidden")):
            yield value
        for item in value.values():
            yield from hidden_parts(item)
    elif isinstance(value, list):
        for item in value:
            yield from hidden_parts(item)


def assert_only_outcomes(table: Table, key: Mapping[str, str]) -> list[Mapping[str, Any]]:
    seen = []
    for path, body in table.reads(key).items():
        for part in hidden_parts(body):
            assert part.get("rolls", []) == [], path
            assert part.get("breakdown", {}) == {}, path
            assert part.get("shown", {}) == {}, path
            assert part.get("dice", {}) == {}, path
            assert "17" not in str(part.get("summary", "")), path  # the maul's skill
            seen.append(part)
    assert seen  # the hidden roll is there, as its outcome
    return seen


def test_a_hidden_npc_attack_shows_players_and_viewers_its_outcome_only(
    live_client: TestClient,
) -> None:
    t = Table(live_client)
    done = ok(t.maul({"hit": [1, 2, 3], "damage": [6, 5]}, defense="none"), 201)["action"]
    assert done["hidden"] is True and done["rolls"][0]["faces"] == [1, 2, 3]  # the GM's answer
    for key in (t.player, t.viewer):
        parts = assert_only_outcomes(t, key)
        record = ok(live_client.get(t.fight, headers=key))["actions"][0]
        assert record["summary"] == (
            "Ogre attacks Bran with maul and hits: Bran is at 3 Stamina and 9 Body"
        )
        assert record["narrative"] == [record["summary"]]
        assert record["effects"]["tracks"] == done["effects"]["tracks"]
        assert done["effects"]["tracks"] == {t.bran: {"stamina": 3, "body": 9}}
        assert {p.get("summary") for p in parts} >= {record["summary"]}
    gm_audit = ok(live_client.get(f"{t.fight}/audit"))["entries"]
    resolved = next(e for e in gm_audit if e["event"] == "ActionResolved")
    assert resolved["hidden"] is True
    assert [r["faces"] for r in resolved["rolls"]] == [[1, 2, 3], [6, 5]]
    assert resolved["breakdown"]["hit"]["target"] == 17


def test_a_hidden_attack_waiting_for_the_pc_shows_no_hit_score_and_stays_hidden(
    live_client: TestClient,
) -> None:
    t = Table(live_client)
    waiting = ok(t.maul({"hit": [1, 2, 3]}), 202)
    assert waiting["exchange"]["shown"]["hit_score"] == 11  # the GM's answer: all
    assert_only_outcomes(t, t.player)
    declare = {"choice": "none", "dice": {"damage": [4, 4]}}
    ok(live_client.post(f"{t.fight}/exchanges/1/declare", json=declare, headers=t.player), 201)
    assert_only_outcomes(t, t.player)
    # Corrected, it stays hidden: a reroll, then a void.
    reroll = {"reason": "the GM misread", "dice": {"hit": [1, 2, 3], "damage": [1, 1]}}
    ok(live_client.post(f"{t.fight}/actions/1/reroll", json=reroll))
    parts = assert_only_outcomes(t, t.viewer)
    assert any(p.get("rerolled") for p in parts)
    line = ok(live_client.get(t.fight, headers=t.viewer))["corrections"][0]["report"][0]
    assert (line["before"], line["after"], line["hidden"]) == (("(rolled hidden)",) * 2 + (True,))
    gm_line = ok(live_client.get(t.fight))["corrections"][0]["report"][0]
    assert gm_line["before"] == "Ogre hits: Bran takes 6 Stamina and 0 Body (6/0 raw)"
    ok(live_client.post(f"{t.fight}/actions/1/void", json={"reason": "never happened"}))
    record = ok(live_client.get(t.fight, headers=t.player))["actions"][0]
    assert (record["status"], record["rolls"], record["hidden"]) == ("voided", [], True)
    assert_only_outcomes(t, t.player)
    gm = ok(live_client.get(t.fight))["actions"][0]
    assert [r["faces"] for r in gm["rolls"]] == [[1, 2, 3], [1, 1]]


def test_only_the_gm_rolls_hidden_and_only_an_npcs_action(client: TestClient) -> None:
    t = Table(client)
    before = event_count(client)
    body = {"kind": "attack", "actor": t.bran, "hidden": True, "params": {"target": t.ogre}}
    refused = client.post(f"{t.fight}/actions", json=body, headers=t.player)
    assert refused.status_code == 403
    assert refused.json()["message"] == (
        'only the GM may roll hidden dice ("hidden": true); this is a player key'
    )
    pc = client.post(f"{t.fight}/actions", json=body)
    assert pc.status_code == 422
    assert pc.json()["message"] == (
        "a hidden roll is an NPC's action; Bran is a PC (roll it in the open, or enrol the "
        'character with "npc": true)'
    )
    no_actor = client.post(f"{t.fight}/actions", json={**body, "actor": None, "kind": "take_hit"})
    assert no_actor.status_code == 422
    assert event_count(client) == before
