"""Seed 001 through the API: the rulings of issue 16 (S8's clamp, S9, S10, S11), the
Take-hit refusal, the wound marks between fights and the strict input types."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.helpers import GM, act, act_response, enrol, event_count, new_campaign, ok, start

BARE = {"st": 8, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10}
SWORD = {"name": "longsword", "damage_class": 3, "damage_type": "piercing", "skill": 15}
KNIGHT = {**BARE, "st": 13, "armour_resilience": 2, "shield_resilience": 2, "weapons": [SWORD]}


class Fight:
    """A stamina-body campaign with one encounter; every combatant on their own side."""

    def __init__(
        self,
        client: TestClient,
        options: dict[str, Any] | None = None,
        **sheets: dict[str, Any],
    ) -> None:
        self.client = client
        self.cid = new_campaign(client, "stamina-body", options)
        self.ids = {name: enrol(client, self.cid, name.title(), s) for name, s in sheets.items()}
        self.eid = start(
            client,
            self.cid,
            [
                {"character_id": cid, "side": f"side-{n}", "rank": 1}
                for n, cid in enumerate(self.ids.values())
            ],
        )
        self.base = f"/campaigns/{self.cid}/encounters/{self.eid}"

    def act(self, kind: str, actor: str | None = None, dice: Any = None, **params: Any) -> Any:
        who = self.ids[actor] if actor else None
        return act(self.client, self.cid, self.eid, kind, who, dice, **params)

    def refused(self, kind: str, actor: str | None = None, dice: Any = None, **params: Any) -> Any:
        before = event_count(self.client)
        who = self.ids[actor] if actor else None
        response = act_response(self.client, self.cid, self.eid, kind, who, dice, **params)
        assert event_count(self.client) == before
        return response

    def knock_out(self, name: str) -> None:
        """A piercing 6 takes 4 Stamina and 2 Body: Body 1 -> -1 (unconscious)."""
        self.act(
            "take_hit",
            dice={"damage": [6]},
            target=self.ids[name],
            damage_type="piercing",
            damage_class=1,
        )

    def next_round(self) -> Any:
        return ok(self.client.post(f"{self.base}/round", headers=GM))

    def state(self) -> Any:
        return ok(self.client.get(self.base))

    def who(self, name: str) -> Any:
        combatants = self.state()["combatants"]
        return next(c for c in combatants if c["id"] == self.ids[name])


# -- S11 -------------------------------------------------------------------------------


def test_extra_dice_per_option_zero_is_refused_one_or_more(client: TestClient) -> None:
    before = event_count(client)
    body = {"name": "T", "ruleset": "stamina-body", "options": {"extra_dice_per_option": 0}}
    response = client.post("/campaigns", json=body)
    assert response.status_code == 422
    assert "options.extra_dice_per_option" in response.json()["message"]
    assert "greater than or equal to 1" in response.json()["message"]
    assert event_count(client) == before


@pytest.mark.parametrize("name", ["unarmed", "Unarmed", " UNARMED "])
def test_a_sheet_weapon_may_not_be_named_unarmed(client: TestClient, name: str) -> None:
    cid = new_campaign(client, "stamina-body")
    before = event_count(client)
    sheet = {**BARE, "weapons": [{**SWORD, "name": name}]}
    response = client.post(f"/campaigns/{cid}/characters", json={"name": "X", "sheet": sheet})
    assert response.status_code == 422
    message = response.json()["message"]
    assert "sheet.weapons.0.name" in message
    assert "'unarmed' is reserved" in message
    assert event_count(client) == before


def test_two_extra_dice_per_option_through_the_api(client: TestClient) -> None:
    f = Fight(client, {"extra_dice_per_option": 2}, knight=KNIGHT, bare=BARE)
    result = f.act(
        "attack",
        "knight",
        {"hit": [1, 2, 2], "damage": [1] * 7},
        target=f.ids["bare"],
        weapon="longsword",
        charge=True,
        set_weapon=True,
        defense="none",
    )
    dice = result["action"]["breakdown"]["damage"]["damage_dice"]
    assert (dice["class"], dice["added"], dice["count"]) == (3, 4, 7)


# -- S9: stunned -------------------------------------------------------------------------


def stun(f: Fight, name: str) -> None:
    """Impact 6, 6, 6: 15 Stamina, 3 Body raw (the knight's armour 2 soaks 1 and 1)."""
    f.act(
        "take_hit",
        dice={"damage": [6, 6, 6]},
        target=f.ids[name],
        damage_type="impact",
        damage_class=3,
    )


def test_a_stunned_combatant_cannot_attack_but_may_recover(client: TestClient) -> None:
    f = Fight(client, knight=KNIGHT, bare=BARE)
    stun(f, "knight")
    assert f.who("knight")["conditions"] == ["stunned"]
    refused = f.refused("attack", "knight", target=f.ids["bare"], weapon="longsword")
    assert refused.status_code == 409
    assert refused.json()["message"] == (
        "Knight cannot attack: stunned, and a stunned combatant's only action is recover (S9)"
    )
    recovered = f.act("recover", "knight", {"recovery": [1, 1, 2]})
    assert recovered["action"]["breakdown"]["gain"] == 8
    assert f.who("knight")["tracks"] == {"stamina": 6, "body": 8}


def test_a_stunned_defender_answers_with_nothing(client: TestClient) -> None:
    f = Fight(client, knight=KNIGHT, bare=BARE)
    stun(f, "bare")
    # hit 5 vs 15 (score 10); a parry is declared but not rolled: the blow lands.
    result = f.act(
        "attack",
        "knight",
        {"hit": [1, 2, 2], "damage": [1, 1, 1]},
        target=f.ids["bare"],
        weapon="longsword",
        defense="parry",
    )
    breakdown = result["action"]["breakdown"]
    assert breakdown["result"] == "landed"
    assert breakdown["defense"] == {
        "kind": "parry",
        "rolled": False,
        "why": "Bare is stunned and cannot parry",
    }
    assert [r["name"] for r in result["action"]["rolls"]] == ["hit", "damage"]


def test_stunned_may_defend_option_lets_the_stunned_parry(client: TestClient) -> None:
    f = Fight(client, {"stunned_may_defend": True}, knight=KNIGHT, bare=BARE)
    stun(f, "bare")
    # hit 14 vs 15 (score 1); parry 6 vs 11 (score 5): stopped.
    result = f.act(
        "attack",
        "knight",
        {"hit": [4, 5, 5], "defense": [1, 2, 3]},
        target=f.ids["bare"],
        weapon="longsword",
        defense="parry",
    )
    assert result["action"]["breakdown"]["result"] == "parried"


# -- S10: bleeding -----------------------------------------------------------------------


def test_the_unconscious_bleed_each_new_round_until_stabilised(client: TestClient) -> None:
    f = Fight(client, bare={**BARE, "body_max": 1}, knight=KNIGHT)
    f.knock_out("bare")
    assert f.who("bare")["tracks"]["body"] == -1
    f.next_round()
    state = f.state()
    bleed = state["actions"][-1]
    assert (bleed["kind"], bleed["actor"], bleed["round"]) == ("bleed", None, 2)
    assert bleed["summary"] == "Bare bleeds 1 Body"
    assert f.who("bare")["tracks"]["body"] == -2
    stabilised = f.act("stabilise", "knight", target=f.ids["bare"])
    assert stabilised["action"]["summary"] == "Knight stabilises Bare; Bare gains: stabilised"
    assert "stabilised" in f.who("bare")["conditions"]
    f.next_round()
    assert f.who("bare")["tracks"]["body"] == -2
    assert f.state()["actions"][-1]["kind"] == "stabilise"


def test_body_damage_ends_the_stabilising_and_the_bleeding_resumes(client: TestClient) -> None:
    f = Fight(client, bare={**BARE, "body_max": 1}, knight=KNIGHT)
    f.knock_out("bare")
    f.act("stabilise", "knight", target=f.ids["bare"])
    f.knock_out("bare")  # Body -1 -> -3
    assert "stabilised" not in f.who("bare")["conditions"]
    f.next_round()
    assert f.who("bare")["tracks"]["body"] == -4


def test_bleed_per_round_zero_turns_bleeding_off(client: TestClient) -> None:
    f = Fight(client, {"bleed_per_round": 0}, bare={**BARE, "body_max": 1})
    f.knock_out("bare")
    f.next_round()
    assert f.who("bare")["tracks"]["body"] == -1
    assert [a["kind"] for a in f.state()["actions"]] == ["take_hit"]


def test_bleed_per_round_three(client: TestClient) -> None:
    f = Fight(client, {"bleed_per_round": 3}, bare={**BARE, "body_max": 1})
    f.knock_out("bare")
    f.next_round()
    assert f.who("bare")["tracks"]["body"] == -4


def test_stabilising_someone_who_is_not_unconscious_is_refused(client: TestClient) -> None:
    f = Fight(client, bare=BARE, knight=KNIGHT)
    response = f.refused("stabilise", "knight", target=f.ids["bare"])
    assert response.status_code == 409
    assert response.json()["message"] == "Bare is not unconscious: only the unconscious bleed"


def test_voiding_the_knock_out_voids_the_bleeding_it_caused(client: TestClient) -> None:
    f = Fight(client, bare={**BARE, "body_max": 1})
    f.knock_out("bare")
    f.next_round()
    path = f"{f.base}/actions/1/void"
    ok(client.post(path, json={"reason": "wrong target"}, headers=GM))
    state = f.state()
    assert [a["status"] for a in state["actions"]] == ["voided", "voided"]
    assert "nobody bleeds in round 2" in state["actions"][1]["voided_because"]
    assert f.who("bare")["tracks"] == {"stamina": 12, "body": 1}


def test_bleeding_stops_when_the_encounter_ends(client: TestClient) -> None:
    f = Fight(client, bare={**BARE, "body_max": 1})
    f.knock_out("bare")
    f.next_round()
    ok(client.post(f"{f.base}/end", headers=GM))
    hero = ok(client.get(f"/campaigns/{f.cid}/characters/{f.ids['bare']}"))
    assert hero["tracks"]["body"] == -2
    assert hero["conditions"] == [
        "unconscious",
        "cannot_act",
        "stabilised",
        "piercing_wound",
    ]
    again = start(client, f.cid, [{"character_id": f.ids["bare"], "side": "x"}], name="Again")
    ok(client.post(f"/campaigns/{f.cid}/encounters/{again}/round", headers=GM))
    assert ok(client.get(f"/campaigns/{f.cid}/encounters/{again}"))["actions"] == []


# -- the Take-hit panel: a parry that stopped the blow ------------------------------------


@pytest.mark.parametrize(("hit", "parry"), [(3, 5), (4, 4)])
def test_take_hit_with_a_parry_that_stopped_the_blow_is_refused(
    client: TestClient, hit: int, parry: int
) -> None:
    f = Fight(client, knight=KNIGHT)
    response = f.refused(
        "take_hit",
        dice={"damage": [6]},
        target=f.ids["knight"],
        damage_type="impact",
        damage_class=1,
        parried=True,
        hit_score=hit,
        parry_score=parry,
    )
    assert response.status_code == 422
    (problem,) = response.json()["problems"]
    assert problem["field"] == "take_hit.parry_score"
    assert problem["problem"].startswith(f"Value error, parry_score {parry} >= hit_score {hit}")


def test_take_hit_with_a_parry_below_the_hit_score_lands(client: TestClient) -> None:
    f = Fight(client, knight=KNIGHT)
    result = f.act(
        "take_hit",
        dice={"damage": [6]},
        target=f.ids["knight"],
        damage_type="impact",
        damage_class=1,
        parried=True,
        hit_score=5,
        parry_score=4,
    )
    assert result["action"]["breakdown"]["resilience"]["total"] == 4


# -- seed 001 cases no test covered ----------------------------------------------------------


def test_a_dodge_scoring_at_least_the_hit_score_stops_the_blow(client: TestClient) -> None:
    f = Fight(client, knight=KNIGHT, bare=BARE)
    # hit 10 vs 15: score 5; dodge 5 vs 10: score 5 -> dodged, no damage rolled.
    result = f.act(
        "attack",
        "knight",
        {"hit": [3, 3, 4], "defense": [1, 2, 2]},
        target=f.ids["bare"],
        weapon="longsword",
        defense="dodge",
    )
    assert result["action"]["breakdown"]["result"] == "dodged"
    assert result["action"]["summary"] == "Bare dodged Knight's blow"
    assert [r["name"] for r in result["action"]["rolls"]] == ["hit", "defense"]
    assert f.who("bare")["tracks"] == {"stamina": 12, "body": 10}


def test_severe_bruising_is_marked_in_a_fight_and_ended(client: TestClient) -> None:
    f = Fight(client, bare=BARE)
    marked = f.act("mark_wound", target=f.ids["bare"], wound="severe_bruising", reason="fall")
    assert marked["action"]["summary"] == "Bare now has severe bruising"
    assert f.who("bare")["conditions"] == ["severe_bruising"]
    f.act("mark_wound", target=f.ids["bare"], wound="severe_bruising", present=False)
    assert f.who("bare")["conditions"] == []
    again = f.refused("mark_wound", target=f.ids["bare"], wound="severe_bruising", present=False)
    assert again.status_code == 409
    assert again.json()["message"] == "Bare has no severe bruising to end"


def test_treating_an_absent_piercing_wound_between_fights_is_refused(client: TestClient) -> None:
    cid = new_campaign(client, "stamina-body")
    hero = enrol(client, cid, "Hero", BARE)
    before = event_count(client)
    response = client.post(
        f"/campaigns/{cid}/characters/{hero}/wounds",
        json={"wound": "piercing_wound", "present": False, "reason": "bandaged"},
        headers=GM,
    )
    assert response.status_code == 409
    assert response.json()["message"] == "Hero has no untreated piercing wound to treat"
    assert event_count(client) == before


# -- S8's clamp through the calendar ---------------------------------------------------------


def test_con_4_wound_broken_bones_and_a_healer_keep_the_healers_point(
    live_client: TestClient,
) -> None:
    from tests.integration.test_calendar import heals, wait_for_heals

    client = live_client
    f = Fight(client, weak={**BARE, "con": 4, "body_max": 10})
    f.knock_out("weak")  # piercing: Body 10 -> 8 and a piercing wound
    ok(client.post(f"{f.base}/end", headers=GM))
    wound = f"/campaigns/{f.cid}/characters/{f.ids['weak']}/wounds"
    ok(client.post(wound, json={"wound": "broken_bones", "reason": "fell"}, headers=GM), 201)
    body = {"days": 1, "default": {"healer": True}}
    ok(client.post(f"/campaigns/{f.cid}/days", json=body, headers=GM), 201)
    wait_for_heals(client, f.cid, 1)
    (heal,) = heals(client, f.cid)
    assert heal["breakdown"]["body_gain"] == 1
    assert heal["breakdown"]["steps"][1:] == [
        "with care: CON 4 // 5 = 0",
        "untreated piercing wound: 0 - 1 = -1",
        "never below 0 from here on: -1 -> 0",
        "broken bones or severe bruising: 0 // 2 = 0",
        "healer: 0 + 1 = 1",
    ]
