"""Disputed rolls through the API: void, reroll, rewind, time travel and the trail."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.helpers import GM, act, encounter, enrol, event_count, new_campaign, ok, start

BARE = {"st": 12, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10}
OGRE = {
    **BARE,
    "st": 20,
    "weapons": [{"name": "spear", "damage_class": 2, "damage_type": "piercing", "skill": 14}],
}


class Fight:
    def __init__(self, client: TestClient) -> None:
        self.client = client
        # Corrections, not turn-taking, are under test: the Ogre may act several times a round.
        self.cid = new_campaign(client, "stamina-body", {"actions_per_round": 10})
        self.ogre = enrol(client, self.cid, "Ogre", OGRE)
        self.bran = enrol(client, self.cid, "Bran", {**BARE, "body_max": 2})
        self.mira = enrol(client, self.cid, "Mira", BARE)
        self.eid = start(
            client,
            self.cid,
            [
                {"character_id": self.ogre, "side": "foes"},
                {"character_id": self.bran, "side": "party"},
                {"character_id": self.mira, "side": "party", "rank": 2},
            ],
        )
        self.base = f"/campaigns/{self.cid}/encounters/{self.eid}"

    def act(self, kind: str, actor: str | None = None, dice: Any = None, **params: Any) -> Any:
        return act(self.client, self.cid, self.eid, kind, actor, dice, **params)

    def spear(self, target: str, damage: list[int]) -> Any:
        return self.act(
            "attack",
            self.ogre,
            {"hit": [1, 2, 2], "damage": damage},
            target=target,
            weapon="spear",
            defense="none",  # the GM resolves in one request, naming the defense
        )

    def post(self, path: str, body: dict[str, Any], status: int = 200) -> Any:
        return ok(self.client.post(self.base + path, json=body, headers=GM), status)

    def who(self, state: Any, cid: str) -> Any:
        return next(c for c in state["combatants"] if c["id"] == cid)


@pytest.fixture
def fight(client: TestClient) -> Fight:
    return Fight(client)


def test_void_reresolves_later_actions_with_their_recorded_dice(fight: Fight) -> None:
    fight.spear(fight.bran, [6, 6])  # 1: Bran to Body -2, unconscious
    fight.act(
        "take_hit", dice={"damage": [6]}, target=fight.mira, damage_type="impact", damage_class=1
    )  # 2: Mira 7 Stamina
    fight.act("recover", fight.mira, {"recovery": [3, 3, 3]})  # 3: Mira +3
    fight.spear(fight.bran, [1, 1])  # 4: Bran 2 more Stamina
    assert fight.who(encounter(fight.client, fight.cid, fight.eid), fight.bran)["conditions"] == [
        "unconscious",
        "cannot_act",
        "piercing_wound",
    ]

    result = fight.post("/actions/1/void", {"reason": "the Ogre was out of reach"})

    bran = fight.who(result["encounter"], fight.bran)
    assert bran["tracks"] == {"stamina": 10, "body": 2}
    assert bran["conditions"] == []
    assert fight.who(result["encounter"], fight.mira)["tracks"] == {"stamina": 10, "body": 9}
    statuses = [(a["number"], a["status"]) for a in result["encounter"]["actions"]]
    assert statuses == [(1, "voided"), (2, "active"), (3, "active"), (4, "active")]
    assert [(r["number"], r["status"]) for r in result["report"]] == [
        (2, "unchanged"),
        (3, "unchanged"),
        (4, "changed"),
    ]
    fourth = result["encounter"]["actions"][3]
    assert [r["faces"] for r in fourth["rolls"]] == [[1, 2, 2], [1, 1]]
    assert fourth["breakdown"]["damage"]["tracks"]["stamina"] == {"before": 12, "after": 10}
    assert result["correction"]["reason"] == "the Ogre was out of reach"
    assert result["correction"]["by"] == "gm:GM"


def test_an_action_no_longer_possible_is_voided_as_a_consequence(fight: Fight) -> None:
    fight.spear(fight.mira, [6, 1])  # 1: a piercing wound
    fight.act("treat_wound", target=fight.mira, reason="bandage")  # 2
    result = fight.post("/actions/1/void", {"reason": "miss, really"})
    assert result["report"] == [
        {
            "number": 2,
            "kind": "treat_wound",
            "before": "Mira's piercing wound is treated",
            "after": None,
            "status": "voided",
            "why": "Mira has no untreated piercing wound to treat",
        }
    ]
    assert [a["status"] for a in result["encounter"]["actions"]] == ["voided", "voided"]


def test_a_voided_knockout_lets_the_defender_parry_with_a_new_roll_said_so(
    fight: Fight,
) -> None:
    fight.spear(fight.bran, [6, 6])  # 1: Bran unconscious
    fight.act(
        "attack",
        fight.ogre,
        {"hit": [1, 2, 2], "damage": [1, 1]},
        target=fight.bran,
        weapon="spear",
        defense="parry",
    )  # 2: could not parry
    result = fight.post("/actions/1/void", {"reason": "wrong target"})
    (line,) = result["report"]
    assert line["new_rolls"] == ["defense"]
    second = result["encounter"]["actions"][1]
    assert second["breakdown"]["defense"]["rolled"] is True
    assert [r.get("new", False) for r in second["rolls"]][:2] == [False, True]


def test_reroll_uses_new_dice_and_later_actions_follow(fight: Fight) -> None:
    fight.spear(fight.bran, [6, 6])
    fight.spear(fight.mira, [1, 1])
    result = fight.post(
        "/actions/1/reroll", {"reason": "die fell off the table", "dice": {"hit": [6, 6, 6]}}
    )
    assert result["report"][0] == {
        "number": 1,
        "kind": "attack",
        "before": "Ogre hits: Bran takes 8 Stamina and 4 Body (8/4 raw); "
        "Bran gains: unconscious, cannot act, piercing wound",
        "after": "Ogre misses Bran",
        "status": "rerolled",
    }
    first = result["encounter"]["actions"][0]
    assert first["rolls"] == [
        {"name": "hit", "dice": "3d6", "faces": [6, 6, 6], "total": 18, "supplied": True}
    ]
    assert fight.who(result["encounter"], fight.bran)["tracks"] == {"stamina": 12, "body": 2}


def test_rewind_supersedes_later_actions_and_a_new_action_follows(fight: Fight) -> None:
    fight.spear(fight.mira, [1, 1])  # version 2
    fight.spear(fight.bran, [6, 6])  # version 3
    fight.spear(fight.mira, [2, 2])  # version 4
    rewound = fight.post("/rewind", {"to_version": 2, "reason": "we replay that exchange"})
    assert [(r["number"], r["status"]) for r in rewound["report"]] == [
        (2, "superseded"),
        (3, "superseded"),
    ]
    fresh = fight.spear(fight.mira, [3, 1])
    assert fresh["action"]["number"] == 4
    # An action's answer carries only what it touched: the whole encounter is a GET.
    touched = {c["id"] for c in fresh["encounter"]["combatants"]}
    assert touched == {fresh["action"]["actor"], fight.mira} - {None}
    state = encounter(fight.client, fight.cid, fight.eid)
    assert [(a["number"], a["status"]) for a in state["actions"]] == [
        (1, "active"),
        (2, "superseded"),
        (3, "superseded"),
        (4, "active"),
    ]
    assert fight.who(state, fight.bran)["tracks"] == {"stamina": 12, "body": 2}
    assert fight.who(state, fight.mira)["tracks"] == {"stamina": 8, "body": 10}
    trail = ok(fight.client.get(fight.base + "/audit"))
    events = [(e["event"], e.get("number")) for e in trail["entries"]]
    assert events == [
        ("Started", None),
        ("ActionResolved", 1),
        ("ActionResolved", 2),
        ("ActionResolved", 3),
        ("Corrected", None),
        ("ActionResolved", 4),
    ]
    assert trail["entries"][4]["correction"]["reason"] == "we replay that exchange"


def test_time_travel_returns_exactly_what_the_api_said_then(fight: Fight) -> None:
    said = {1: encounter(fight.client, fight.cid, fight.eid)}
    touched = {}
    for damage in ([6, 6], [1, 1], [2, 3]):
        response = fight.spear(fight.bran, damage)
        touched[response["encounter"]["version"]] = response
    voided = fight.post("/actions/2/void", {"reason": "dispute"})
    said[voided["encounter"]["version"]] = voided["encounter"]
    for version, then in said.items():
        assert encounter(fight.client, fight.cid, fight.eid, version) == then
    for version, answer in touched.items():
        full = encounter(fight.client, fight.cid, fight.eid, version)
        assert full["actions"][-1] == answer["action"]
        assert [fight.who(full, c["id"]) for c in answer["encounter"]["combatants"]] == answer[
            "encounter"
        ]["combatants"]
        facts = {k: v for k, v in full.items() if k in answer["encounter"] and k != "combatants"}
        assert facts == {k: v for k, v in answer["encounter"].items() if k != "combatants"}


def test_diff_between_two_versions(fight: Fight) -> None:
    fight.spear(fight.bran, [6, 6])
    diff = ok(fight.client.get(fight.base + "/diff?from=1&to=2"))
    assert diff["combatants"] == {
        fight.bran: {
            "name": "Bran",
            "tracks": {"from": {"stamina": 12, "body": 2}, "to": {"stamina": 4, "body": -2}},
            "conditions": {"from": [], "to": ["unconscious", "cannot_act", "piercing_wound"]},
            "state": {"from": {}, "to": {"piercing_wound": True}},
        }
    }
    assert diff["actions"][0]["change"] == "added"


def test_audit_filters_by_character_and_kind(fight: Fight) -> None:
    fight.spear(fight.bran, [1, 1])
    fight.act("recover", fight.mira, {"recovery": [6, 6, 6]})
    by_mira = ok(fight.client.get(fight.base + f"/audit?character={fight.mira}"))
    assert [e.get("kind") for e in by_mira["entries"]] == [None, "recover"]
    attacks = ok(fight.client.get(fight.base + "/audit?kind=attack&limit=1"))
    assert attacks["total"] == 1
    assert attacks["entries"][0]["rolls"][0]["faces"] == [1, 2, 2]


@pytest.mark.parametrize(
    ("path", "body", "status", "message"),
    [
        ("/actions/9/void", {"reason": "x"}, 404, "has no action 9"),
        ("/actions/1/void", {"reason": "  "}, 422, "a correction needs a reason"),
        ("/actions/1/void", {}, 422, "reason"),
        ("/rewind", {"to_version": 2, "reason": "x"}, 422, "earlier version"),
        ("/rewind", {"to_version": 7, "reason": "x"}, 404, "no version 7"),
        (
            "/actions/1/reroll",
            {"reason": "x", "dice": {"hit": [7, 1, 1]}},
            422,
            "a face of 7 is not on a d6",
        ),
    ],
)
def test_bad_corrections_are_refused_and_write_nothing(
    fight: Fight, path: str, body: dict[str, Any], status: int, message: str
) -> None:
    fight.spear(fight.bran, [1, 1])
    before = event_count(fight.client)
    response = fight.client.post(fight.base + path, json=body, headers=GM)
    assert response.status_code == status, response.text
    assert message in response.json()["message"]
    assert event_count(fight.client) == before


def test_voiding_twice_is_refused_and_an_ended_encounter_is_corrected_on_the_roster(
    fight: Fight,
) -> None:
    fight.spear(fight.bran, [1, 1])
    fight.post("/actions/1/void", {"reason": "dispute"})
    again = fight.client.post(fight.base + "/actions/1/void", json={"reason": "again"})
    assert (again.status_code, again.json()["message"]) == (409, "action 1 is already voided")
    fight.spear(fight.bran, [1, 1])
    fight.post("/end", {})
    bran = f"/campaigns/{fight.cid}/characters/{fight.bran}"
    assert ok(fight.client.get(bran))["tracks"] != {"stamina": 12, "body": 2}
    # Issue 12: the correction reaches past the end, to the roster (docs/corrections.md).
    late = fight.client.post(fight.base + "/actions/2/void", json={"reason": "late"})
    assert late.status_code == 200, late.text
    roster = ok(fight.client.get(bran))["tracks"]
    enrolled = ok(fight.client.get(f"/campaigns/{fight.cid}"))["characters"]
    assert roster == {"stamina": 12, "body": 2}
    assert [c["tracks"] for c in enrolled if c["id"] == fight.bran] == [roster]
    again = fight.client.post(fight.base + "/actions/1/void", json={"reason": "again"})
    assert (again.status_code, again.json()["message"]) == (409, "action 1 is already voided")


def test_records_carry_the_version_of_the_event_that_made_them(fight: Fight) -> None:
    first = fight.spear(fight.bran, [1, 1])
    assert first["action"]["version"] == first["encounter"]["version"] == 2
    voided = fight.post("/actions/1/void", {"reason": "dispute"})
    assert voided["correction"]["version"] == voided["encounter"]["version"] == 3


def test_vitals_at_an_instant_show_the_tracks_of_that_moment(fight: Fight) -> None:
    import time

    fight.spear(fight.bran, [1, 1])
    time.sleep(0.01)
    between = ok(fight.client.get(f"{fight.base}/audit"))["entries"][-1]["timestamp"]
    time.sleep(0.01)
    fight.spear(fight.bran, [6, 6])
    path = f"/campaigns/{fight.cid}/vitals/at"
    then = ok(fight.client.get(path, params={"at": between}))
    bran = next(c for c in then["characters"] if c["id"] == fight.bran)
    assert bran["tracks"] == {
        "stamina": {"current": 10, "max": 12},
        "body": {"current": 2, "max": 2},
    }
    assert bran["conditions"] == []
    assert bran["encounter"] == fight.eid
    too_early = fight.client.get(path, params={"at": "2000-01-01T00:00:00Z"})
    assert too_early.status_code == 404
