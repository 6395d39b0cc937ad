"""The table through HTTP (issue 13): turn order, the defender's own declaration,
the GM's calls, overrides with reasons and one action a round, for every ruleset."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.helpers import enrol, event_count, new_campaign, ok, start
from tests.integration.test_d20_api import d20_sheet

SB = {"st": 8, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10}
SB_KNIGHT = {
    **SB,
    "st": 13,
    "armour_resilience": 2,
    "shield_resilience": 2,
    "weapons": [{"name": "longsword", "damage_class": 3, "damage_type": "piercing", "skill": 13}],
}
SWORD = {
    "name": "sword",
    "attribute": "might",
    "skill": "melee",
    "category": "melee",
    "base_damage": 2,
    "per_margin": 1,
    "damage_type": "slash",
}
MARGIN = {"might": 2, "grace": 2, "vigor": 2, "aether": 2, "weapons": [SWORD]}
D20 = d20_sheet()


class Table:
    """A campaign with a hero (a player's character) and a foe (the GM's)."""

    def __init__(self, client: TestClient, ruleset: str, hero: Any, foe: Any) -> None:
        self.client = client
        self.cid = new_campaign(client, ruleset)
        self.hero = enrol(client, self.cid, "Hero", hero)
        self.foe = enrol(client, self.cid, "Goblin", foe)
        self.eid = start(
            client,
            self.cid,
            [
                {"character_id": self.hero, "side": "party"},
                {"character_id": self.foe, "side": "foes"},
            ],
        )
        self.base = f"/campaigns/{self.cid}/encounters/{self.eid}"
        self.gm = {"authorization": client.headers["authorization"]}
        self.player = self.key([self.hero])
        self.other_player = self.key([enrol(client, self.cid, "Bystander", hero)])

    def key(self, characters: list[str]) -> dict[str, str]:
        body = {"role": "player", "characters": characters}
        issued = ok(self.client.post(f"/campaigns/{self.cid}/keys", json=body), 201)
        return {"authorization": f"Bearer {issued['key']}"}

    def post(self, path: str, body: Any, headers: dict[str, str], status: int) -> Any:
        response = self.client.post(self.base + path, json=body, headers=headers)
        assert response.status_code == status, response.text
        return response.json()

    def act(
        self,
        actor: str,
        kind: str,
        headers: dict[str, str],
        status: int = 201,
        dice: dict[str, list[int]] | None = None,
        **extra: Any,
    ) -> Any:
        params = extra.pop("params", {})
        body = {"kind": kind, "actor": actor, "params": params, "dice": dice, **extra}
        return self.post("/actions", body, headers, status)

    def refused(self, status: int, path: str, body: Any, headers: dict[str, str]) -> str:
        before = event_count(self.client)
        message = self.post(path, body, headers, status)["message"]
        assert event_count(self.client) == before
        return str(message)

    def read(self) -> Any:
        return ok(self.client.get(self.base, headers=self.gm))

    def audit(self) -> list[dict[str, Any]]:
        page = ok(self.client.get(self.base + "/audit", headers=self.gm))
        return list(page["entries"])

    def order(self, *ids: str) -> Any:
        response = self.client.put(self.base + "/order", json={"order": list(ids)}, headers=self.gm)
        return ok(response)


# -- stamina-body: the defender declares --------------------------------------------


def test_stamina_body_the_goblin_attacks_and_the_heros_player_declares_a_parry(
    client: TestClient,
) -> None:
    t = Table(client, "stamina-body", SB_KNIGHT, SB_KNIGHT)
    # Step 1: the GM's goblin attacks; hit 7 vs 13 is a hit score of 6. It waits.
    waiting = t.act(
        t.foe,
        "attack",
        t.gm,
        202,
        {"hit": [2, 2, 3]},
        params={"target": t.hero, "weapon": "longsword"},
    )
    assert waiting["status"] == "pending"
    exchange = waiting["exchange"]
    assert exchange["awaiting"] == "Hero's declaration (parry / dodge / none)"
    assert exchange["shown"]["hit_score"] == 6
    assert t.read()["actions"] == []
    # Step 2: the hero's player declares, with the table's dice: parry 7 vs 11 (score 4).
    declared = t.post(
        "/exchanges/1/declare",
        {"choice": "parry", "dice": {"defense": [2, 2, 3], "damage": [2, 4, 6]}},
        t.player,
        201,
    )
    action = declared["action"]
    assert action["params"]["defense"] == "parry"
    assert [r["name"] for r in action["rolls"]] == ["hit", "defense", "damage"]
    assert action["breakdown"]["damage"]["shield"]["counts"] is True  # 6 - 4 = 2
    assert action["breakdown"]["damage"]["absorption"]["net"] == {"stamina": 5, "body": 1}
    exchange = t.read()["exchanges"][0]
    assert (exchange["status"], exchange["declared"], exchange["action"]) == (
        "resolved",
        "parry",
        1,
    )
    assert exchange["declared_by"].startswith("player:")
    events = [e["event"] for e in t.audit()]
    assert events[-3:] == ["ExchangeOpened", "DefenseDeclared", "ActionResolved"]


def test_stamina_body_declaration_refusals_write_nothing(client: TestClient) -> None:
    t = Table(client, "stamina-body", SB, SB_KNIGHT)
    t.act(t.foe, "attack", t.gm, 202, {"hit": [1, 1, 1]}, params={"target": t.hero})
    message = t.refused(403, "/exchanges/1/declare", {"choice": "parry"}, t.other_player)
    assert message == "this player key does not act for character '" + t.hero + "'"
    assert "not a choice" in t.refused(422, "/exchanges/1/declare", {"choice": "duck"}, t.player)
    t.post("/exchanges/1/declare", {"choice": "none"}, t.player, 201)
    twice = t.refused(409, "/exchanges/1/declare", {"choice": "parry"}, t.player)
    assert twice == "exchange 1 is already resolved: cannot declare for it"
    assert "no exchange 2" in t.refused(404, "/exchanges/2/declare", {"choice": "none"}, t.gm)


def test_stamina_body_the_gm_withdraws_a_waiting_attack(client: TestClient) -> None:
    t = Table(client, "stamina-body", SB, SB_KNIGHT)
    t.act(t.foe, "attack", t.gm, 202, {"hit": [1, 1, 1]}, params={"target": t.hero})
    reason = {"reason": "the goblin flees instead"}
    t.refused(403, "/exchanges/1/withdraw", reason, t.player)
    withdrawn = t.post("/exchanges/1/withdraw", reason, t.gm, 200)
    assert withdrawn["exchanges"][0]["status"] == "withdrawn"
    assert withdrawn["exchanges"][0]["reason"] == "the goblin flees instead"
    assert withdrawn["actions"] == []
    message = t.refused(409, "/exchanges/1/declare", {"choice": "none"}, t.player)
    assert message == "exchange 1 is already withdrawn: cannot declare for it"
    # A withdrawn attack was no action: the goblin may still act this round.
    t.act(t.foe, "recover", t.gm, 201, {"recovery": [3, 3, 3]})


def test_stamina_body_the_gm_resolves_in_one_request_a_player_may_not(client: TestClient) -> None:
    t = Table(client, "stamina-body", SB_KNIGHT, SB)
    before = event_count(client)
    body = {"target": t.foe, "weapon": "longsword", "defense": "none"}
    refused = t.act(t.hero, "attack", t.player, 403, params=body)
    assert refused["message"].startswith("'defense' in 'attack' is the GM's call")
    armour = {"target": t.foe, "weapon": "longsword", "ignore_armour": True}
    refused = t.act(t.hero, "attack", t.player, 403, params=armour)
    assert refused["message"] == (
        "'ignore_armour' in 'attack' is the GM's call: only the GM key may set it; "
        "this is a player key"
    )
    assert event_count(client) == before
    done = t.act(t.hero, "attack", t.gm, 201, {"hit": [6, 6, 6]}, params=body)
    assert done["action"]["breakdown"]["result"] == "missed"


def test_stamina_body_a_miss_needs_no_declaration(client: TestClient) -> None:
    t = Table(client, "stamina-body", SB_KNIGHT, SB)
    missed = t.act(
        t.hero,
        "attack",
        t.player,
        201,
        {"hit": [6, 6, 5], "damage": [1, 1, 1]},
        params={"target": t.foe, "weapon": "longsword"},
    )
    assert missed["action"]["breakdown"]["result"] == "missed"
    assert missed["action"]["breakdown"]["unused_dice"] == {"damage": [1, 1, 1]}


def test_take_hit_parried_needs_both_scores(client: TestClient) -> None:
    t = Table(client, "stamina-body", SB_KNIGHT, SB)
    panel = {"target": t.hero, "damage_type": "impact", "damage_class": 1, "parried": True}
    before = event_count(client)
    message = t.act(None, "take_hit", t.gm, 422, params=panel)["message"]  # type: ignore[arg-type]
    assert message == (
        "parried: true needs the hit score and the parry score to check the shield rule "
        "(hit score - parry score <= 2); missing: hit_score, parry_score"
    )
    only_parry = {**panel, "parry_score": 3}
    assert "missing: hit_score" in t.act(None, "take_hit", t.gm, 422, params=only_parry)["message"]  # type: ignore[arg-type]
    stopped = {**panel, "parry_score": 3, "hit_score": 3}
    assert "stops the blow (S3)" in t.act(None, "take_hit", t.gm, 422, params=stopped)["message"]  # type: ignore[arg-type]
    assert event_count(client) == before
    around = {**panel, "hit_score": 6, "parry_score": 3}
    result = t.act(None, "take_hit", t.gm, 201, {"damage": [6]}, params=around)  # type: ignore[arg-type]
    assert result["action"]["breakdown"]["shield"] == {
        "counts": False,
        "why": "hit score 6 - parry score 3 = 3 > 2: it goes around",
    }


# -- every ruleset: turns, overrides, one action a round ------------------------------

RULESETS: dict[str, tuple[Any, Any, str, dict[str, Any], dict[str, list[int]]]] = {
    # ruleset: (hero sheet, foe sheet, action kind, params factory key, dice)
    "stamina-body": (SB, SB, "recover", {}, {"recovery": [3, 3, 3]}),
    "margin": (MARGIN, MARGIN, "defend", {}, {}),
    "d20": (D20, D20, "defensive_stance", {}, {}),
}


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_turn_order_out_of_turn_override_and_one_action_a_round(
    client: TestClient, ruleset: str
) -> None:
    hero, foe, kind, params, dice = RULESETS[ruleset]
    t = Table(client, ruleset, hero, foe)
    ordered = t.order(t.foe, t.hero)
    assert ordered["turn"]["current_name"] == "Goblin"
    assert [c["name"] for c in ordered["turn"]["order"]] == ["Goblin", "Hero"]

    # The hero's player acts out of turn: 409 naming whose turn it is; nothing written.
    before = event_count(client)
    out = t.act(t.hero, kind, t.player, 409, dice or None, params=params)
    assert out["message"] == (
        "Hero is acting out of turn: it is Goblin's turn (turn 1 of 2 in round 1); "
        "the GM may override with a reason"
    )
    assert event_count(client) == before
    # A player cannot override; the GM can, and the reason stays on record.
    override = {"override_reason": "Hero readied an action"}
    t.act(t.hero, kind, t.player, 403, dice or None, params=params, **override)
    done = t.act(t.hero, kind, t.gm, 201, dice or None, params=params, **override)
    assert done["action"]["kind"] == kind
    overrides = [e for e in t.audit() if e["event"] == "TurnOverridden"]
    assert [(o["reason"], o["by"]) for o in overrides] == [("Hero readied an action", "gm:GM")]
    assert overrides[0]["refusal"].startswith("Hero is acting out of turn")

    # The goblin's turn, then the hero's: the hero has already acted this round.
    t.act(t.foe, kind, t.gm, 201, dice or None, params=params)
    turned = t.post("/turn", None, t.gm, 200)
    assert turned["turn"]["current_name"] == "Hero"
    again = t.act(t.hero, kind, t.player, 409, dice or None, params=params)
    assert again["message"] == (
        "Hero has already acted once in round 1 (actions_per_round is 1); "
        "it is Hero's turn (turn 2 of 2 in round 1); the GM may override with a reason"
    )
    # Past the last in the order, the next round begins at the top.
    nxt = t.post("/turn", None, t.gm, 200)
    assert (nxt["round"], nxt["turn"]["current_name"]) == (2, "Goblin")


def test_d20_a_player_naming_a_situational_modifier_gets_403(client: TestClient) -> None:
    t = Table(client, "d20", D20, D20)
    params = {"target": t.foe, "weapon": "Bastard Sword", "ac_modifier": -5}
    message = t.act(t.hero, "attack", t.player, 403, params=params)["message"]
    assert message == (
        "'ac_modifier' in 'attack' is the GM's call: only the GM key may set it; "
        "this is a player key"
    )
    t.act(t.hero, "attack", t.gm, 201, {"hit": [1]}, params=params)


def test_actions_per_round_is_an_option(client: TestClient) -> None:
    cid = new_campaign(client, "stamina-body", {"actions_per_round": 2})
    hero = enrol(client, cid, "Hero", SB)
    eid = start(client, cid, [{"character_id": hero, "side": "party"}])
    path = f"/campaigns/{cid}/encounters/{eid}/actions"
    body = {"kind": "recover", "actor": hero, "dice": {"recovery": [3, 3, 3]}}
    ok(client.post(path, json=body), 201)
    ok(client.post(path, json=body), 201)
    third = client.post(path, json=body)
    assert third.status_code == 409
    assert "already acted 2 times in round 1" in third.json()["message"]
