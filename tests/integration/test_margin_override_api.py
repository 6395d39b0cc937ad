"""Margin's M5 and the GM's last word, through HTTP: a second action in a round with the
GM's override, recorded, and corrections that replay it as it was allowed."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.helpers import enrol, event_count, new_campaign, ok, start
from tests.integration.test_table_api import MARGIN, SB_KNIGHT, Table

HASTE = "Hero drank a potion of haste"
THIRD = (
    "Hero attacks with sword at Goblin: 2 against 0, margin 2; Goblin takes 4 "
    "(health 10 -> 6); Goblin gains: wounded"
)
REFUSAL = (
    "Hero has already acted once in round 1 (actions_per_round is 1); "
    "no turn order is set: anyone may act in round 1"
)


def hero_swings(attack: list[int], evasion: list[int], guard: list[int]) -> Any:
    return {"Hero's attack": attack, "Goblin's evasion": evasion, "Goblin's guard": guard}


class Round:
    """Round 1: the Hero's sword (1), the Goblin's answer (2), the Hero again (3, overridden)."""

    def __init__(self, client: TestClient) -> None:
        self.t = t = Table(client, "margin", MARGIN, MARGIN)
        sword = {"target": t.foe, "weapon": "sword"}
        # 1: 2 successes against 0 and 0: margin 2, 2 + 1 x 2 = 4 slash, Goblin 14 -> 10.
        first = hero_swings([6, 6], [2, 2], [2, 2])
        self.first = t.act(t.hero, "attack", t.player, 201, first, params=sword)["action"]
        # 2: the Goblin's fists, 1 success against 0 and 0: margin 1, 0 + 1 x 1 = 1 blunt,
        # Hero 14 -> 13.
        back = {"Goblin's attack": [5, 2], "Hero's evasion": [2, 2], "Hero's guard": [2, 2]}
        self.back = t.act(t.foe, "attack", t.gm, 201, back, params={"target": t.hero})["action"]
        self.sword = sword
        # 3: 2 successes against 0 and 0 again: 4 slash, Goblin 10 -> 6 (wounded).
        self.again = hero_swings([6, 5], [3, 3], [3, 3])

    def override(self) -> Any:
        t = self.t
        body = {"override_reason": HASTE}
        return t.act(t.hero, "attack", t.gm, 201, self.again, params=self.sword, **body)

    def health(self, encounter: Any) -> dict[str, int]:
        return {c["name"]: c["tracks"]["health"] for c in encounter["combatants"]}


@pytest.fixture
def fight(client: TestClient) -> Round:
    return Round(client)


def test_a_second_action_without_the_override_is_409_naming_the_rule(fight: Round) -> None:
    t = fight.t
    for headers in (t.player, t.gm):
        before = event_count(t.client)
        refused = t.act(t.hero, "attack", headers, 409, fight.again, params=fight.sword)
        assert refused["message"] == REFUSAL + "; the GM may override with a reason"
        assert event_count(t.client) == before


def test_a_player_naming_an_override_is_refused_as_before(fight: Round) -> None:
    t = fight.t
    before = event_count(t.client)
    body = {"override_reason": HASTE}
    refused = t.act(t.hero, "attack", t.player, 403, fight.again, params=fight.sword, **body)
    assert refused["message"] == "only the GM may override the turn order; this is a player key"
    assert event_count(t.client) == before
    assert [a["number"] for a in t.read()["actions"]] == [1, 2]


def test_the_gm_overrides_m5_and_the_override_is_recorded(fight: Round) -> None:
    t = fight.t
    done = fight.override()
    action = done["action"]
    assert (action["number"], action["kind"], action["status"]) == (3, "attack", "active")
    assert action["summary"] == THIRD
    assert action["override"] == {
        "refusal": REFUSAL,
        "reason": HASTE,
        "by": "gm:GM",
    }
    overrides = [e for e in t.audit() if e["event"] == "TurnOverridden"]
    assert [(o["reason"], o["by"], o["refusal"]) for o in overrides] == [(HASTE, "gm:GM", REFUSAL)]
    state = t.read()
    assert fight.health(state) == {"Hero": 13, "Goblin": 6}
    hero = next(c for c in state["combatants"] if c["name"] == "Hero")
    assert hero["state"]["acted_round"] == 1
    # A third time is refused again without a new override: each override is one action.
    third = t.act(t.hero, "attack", t.gm, 409, fight.again, params=fight.sword)
    assert third["message"] == (
        "Hero has already acted 2 times in round 1 (actions_per_round is 1); no turn order is "
        "set: anyone may act in round 1; the GM may override with a reason"
    )


def test_voiding_an_earlier_action_of_the_round_replays_the_overridden_one(
    fight: Round,
) -> None:
    t = fight.t
    overridden = fight.override()["action"]
    result = t.post("/actions/2/void", {"reason": "the Goblin was still asleep"}, t.gm, 200)
    assert result["report"] == [
        {
            "number": 3,
            "kind": "attack",
            "before": THIRD,
            "after": THIRD,
            "status": "unchanged",
            "new_rolls": [],
            "refitted_rolls": {},
            "unused_rolls": [],
        }
    ]
    actions = result["encounter"]["actions"]
    assert [(a["number"], a["status"]) for a in actions] == [
        (1, "active"),
        (2, "voided"),
        (3, "active"),
    ]
    third = actions[2]
    assert third["rolls"] == overridden["rolls"]
    assert [r["faces"] for r in third["rolls"]] == [[6, 5], [3, 3], [3, 3]]
    assert third["override"] == {"refusal": REFUSAL, "reason": HASTE, "by": "gm:GM"}
    assert fight.health(result["encounter"]) == {"Hero": 14, "Goblin": 6}


def test_voiding_the_first_action_keeps_the_overridden_one(fight: Round) -> None:
    t = fight.t
    fight.override()
    result = t.post("/actions/1/void", {"reason": "that swing was a feint"}, t.gm, 200)
    assert [(r["number"], r["status"], r["after"]) for r in result["report"]] == [
        (2, "unchanged", fight.back["summary"]),
        (
            3,
            "changed",
            "Hero attacks with sword at Goblin: 2 against 0, margin 2; Goblin takes 4 "
            "(health 14 -> 10)",
        ),
    ]
    actions = result["encounter"]["actions"]
    assert [a["status"] for a in actions] == ["voided", "active", "active"]
    assert fight.health(result["encounter"]) == {"Hero": 13, "Goblin": 10}


def test_rerolling_the_overridden_action(fight: Round) -> None:
    t = fight.t
    fight.override()
    goblin = t.foe
    dice = {
        "attack": [6, 6],
        f"defense.{goblin}.evasion": [5, 2],
        f"defense.{goblin}.guard": [2, 2],
    }
    result = t.post("/actions/3/reroll", {"reason": "the die was cocked", "dice": dice}, t.gm, 200)
    assert result["report"] == [
        {
            "number": 3,
            "kind": "attack",
            "before": THIRD,
            "after": "Hero attacks with sword at Goblin: 2 against 1, margin 1; Goblin takes 3 "
            "(health 10 -> 7); Goblin gains: wounded",
            "status": "rerolled",
        }
    ]
    third = result["encounter"]["actions"][2]
    assert (third["status"], third["rerolled"]) == ("active", True)
    assert third["override"] == {"refusal": REFUSAL, "reason": HASTE, "by": "gm:GM"}
    assert fight.health(result["encounter"]) == {"Hero": 13, "Goblin": 7}


def test_rewinding_past_the_override_and_back_keeps_it_on_record(fight: Round) -> None:
    t = fight.t
    fight.override()
    version = t.read()["version"]
    # A fourth action after the override, then a rewind to just after the override.
    t.post("/round", None, t.gm, 200)
    t.act(t.foe, "defend", t.gm, 201)
    rewound = t.post("/rewind", {"to_version": version, "reason": "undo"}, t.gm, 200)
    actions = rewound["encounter"]["actions"]
    assert [a["status"] for a in actions] == ["active", "active", "active", "superseded"]
    assert actions[2]["override"]["reason"] == HASTE


def test_a_correction_after_the_fight_carries_the_overridden_action(fight: Round) -> None:
    t = fight.t
    fight.override()
    t.post("/end", {}, t.gm, 200)
    late = t.post("/actions/2/void", {"reason": "the Goblin was still asleep"}, t.gm, 200)
    actions = late["encounter"]["actions"]
    assert [a["status"] for a in actions] == ["active", "voided", "active"]
    assert actions[2]["override"]["reason"] == HASTE
    roster = ok(t.client.get(f"/campaigns/{t.cid}/characters/{t.hero}", headers=t.gm))
    assert roster["tracks"] == {"health": 14}


def test_a_waiting_attack_the_gm_let_through_carries_the_override_to_its_record(
    client: TestClient,
) -> None:
    t = Table(client, "stamina-body", SB_KNIGHT, SB_KNIGHT)
    attack = {"target": t.hero, "weapon": "longsword"}
    t.act(t.foe, "attack", t.gm, 201, {"hit": [6, 6, 6]}, params=attack)  # a miss
    override = {"override_reason": "the Goblin's second head bites"}
    waiting = t.act(t.foe, "attack", t.gm, 202, {"hit": [2, 2, 3]}, params=attack, **override)
    assert waiting["exchange"]["override"]["reason"] == "the Goblin's second head bites"
    declared = t.post("/exchanges/1/declare", {"choice": "none"}, t.player, 201)
    assert declared["action"]["override"] == {
        "refusal": "Goblin has already acted once in round 1 (actions_per_round is 1); "
        "no turn order is set: anyone may act in round 1",
        "reason": "the Goblin's second head bites",
        "by": "gm:GM",
    }


def test_with_two_actions_a_round_m5_still_allows_one_and_the_gm_overrides_it(
    client: TestClient,
) -> None:
    cid = new_campaign(client, "margin", {"actions_per_round": 2})
    hero = enrol(client, cid, "Hero", MARGIN)
    eid = start(client, cid, [{"character_id": hero, "side": "party"}])
    path = f"/campaigns/{cid}/encounters/{eid}/actions"
    defend = {"kind": "defend", "actor": hero, "params": {}}
    ok(client.post(path, json=defend), 201)
    m5 = (
        "Hero has already acted in round 1: one action per combatant per round; "
        "start the next round first"
    )
    again = ok(client.post(path, json=defend), 409)
    assert again["message"] == m5 + "; the GM may override with a reason"
    done = ok(client.post(path, json={**defend, "override_reason": HASTE}), 201)
    assert done["action"]["override"] == {"refusal": m5, "reason": HASTE, "by": "gm:GM"}


def test_the_preview_and_the_odds_of_a_second_action_say_m5(fight: Round) -> None:
    t = fight.t
    body = {"kind": "attack", "actor": t.hero, "params": fight.sword}
    m5 = (
        "Hero has already acted in round 1: one action per combatant per round; "
        "start the next round first"
    )
    assert t.post("/preview", body, t.gm, 409)["message"] == m5
    assert t.post("/odds", body, t.gm, 409)["message"] == m5
