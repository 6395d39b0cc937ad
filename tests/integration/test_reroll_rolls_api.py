"""A reroll's own rolls (issue 36): the API names the rolls a reroll of a recorded action
takes, worked out from the action as it was resolved (its round, the state it met), the
way the reroll itself re-resolves it; never from the fight as it stands now.

Kara defended with effort in round 1, so the Ogre's round-1 blow met her active
defenses (evasion 3 + 2 + 2 effort = 7 dice, guard 2 + 0 + 2 = 4). In round 2 her
posture is gone: a preview of that blow now asks her passive defenses (3 and 2 dice),
and a reroll with dice of that size is refused."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.helpers import GM, act, enrol, new_campaign, next_round, ok, start
from tests.integration.test_table_api import MARGIN

KARA = {**MARGIN, "grace": 3, "evasion": 2}


def fight(client: TestClient) -> tuple[str, str, str, str]:
    cid = new_campaign(client, "margin")
    ogre, kara = enrol(client, cid, "Ogre", MARGIN), enrol(client, cid, "Kara", KARA)
    side = [{"character_id": ogre, "side": "foes"}, {"character_id": kara, "side": "party"}]
    return cid, start(client, cid, side), ogre, kara


def test_a_reroll_names_the_rolls_of_the_action_as_it_was_resolved(client: TestClient) -> None:
    cid, eid, ogre, kara = fight(client)
    base = f"/campaigns/{cid}/encounters/{eid}"
    act(client, cid, eid, "defend", kara, effort=2)
    evasion, guard = f"defense.{kara}.evasion", f"defense.{kara}.guard"
    dice = {"attack": [5, 6], evasion: [1, 2, 3, 4, 1, 2, 3], guard: [1, 2, 3, 4]}
    blow = act(client, cid, eid, "attack", ogre, dice, target=kara, weapon="sword")["action"]
    assert blow["number"] == 2
    next_round(client, cid, eid)

    # The premise: the fight now would ask Kara's passive pools, which a reroll refuses.
    now = {"kind": "attack", "actor": ogre, "params": {"target": kara, "weapon": "sword"}}
    preview = ok(client.post(base + "/preview", json=now, headers=GM))
    assert [(r["name"], r["count"]) for r in preview["rolls"]] == [
        ("Ogre's attack", 2),
        ("Kara's evasion", 3),
        ("Kara's guard", 2),
    ]
    sized_now = {"Ogre's attack": [6, 6], "Kara's evasion": [1, 1, 2], "Kara's guard": [1, 2]}
    refused = client.post(
        base + "/actions/2/reroll", json={"reason": "as now", "dice": sized_now}, headers=GM
    )
    assert refused.status_code == 422, refused.text

    # The reroll's own rolls: as the blow was resolved, in round 1 against her Defend.
    rolls = ok(client.get(base + "/actions/2/reroll/rolls", headers=GM))
    assert rolls == {
        "number": 2,
        "rolls": [
            {"name": "Ogre's attack", "roll": "attack", "dice": "2d6", "count": 2, "sides": 6,
             "when": None},
            {"name": "Kara's evasion", "roll": evasion, "dice": "7d6", "count": 7, "sides": 6,
             "when": None},
            {"name": "Kara's guard", "roll": guard, "dice": "4d6", "count": 4, "sides": 6,
             "when": None},
        ],
        "may_follow": [],
    }  # fmt: skip

    # Table dice of exactly those sizes, under those names: recorded with those faces.
    typed: dict[str, list[int]] = {
        r["name"]: [(i % r["sides"]) + 1 for i in range(r["count"])] for r in rolls["rolls"]
    }
    body = {"reason": "the die fell off the table", "dice": typed}
    answer = ok(client.post(base + "/actions/2/reroll", json=body, headers=GM))
    record: dict[str, Any] = answer["encounter"]["actions"][1]
    assert answer["report"][0]["status"] == "rerolled"
    assert [(r["name"], r["faces"], r["supplied"]) for r in record["rolls"]] == [
        ("attack", [1, 2], True),
        (evasion, [1, 2, 3, 4, 5, 6, 1], True),
        (guard, [1, 2, 3, 4], True),
    ]
    assert record["round"] == 1 and record["rerolled"] is True


def test_an_ended_fights_reroll_names_its_rolls_with_those_that_may_follow(
    client: TestClient,
) -> None:
    """The same read in an ended fight, whose reroll is carried through the campaign; a
    defender with a luck point may roll each defense once more (M8): those follow."""
    cid = new_campaign(client, "margin")
    ogre, kara = enrol(client, cid, "Ogre", MARGIN), enrol(client, cid, "Kara", {**KARA, "luck": 1})
    side = [{"character_id": ogre, "side": "foes"}, {"character_id": kara, "side": "party"}]
    eid = start(client, cid, side)
    base = f"/campaigns/{cid}/encounters/{eid}"
    act(client, cid, eid, "defend", kara, effort=2)
    evasion, guard = f"defense.{kara}.evasion", f"defense.{kara}.guard"
    dice = {"attack": [5, 6], evasion: [5, 2, 3, 4, 1, 2, 3], guard: [1, 2, 3, 5]}
    act(client, cid, eid, "attack", ogre, dice, target=kara, weapon="sword")
    next_round(client, cid, eid)
    ok(client.post(base + "/end", json={"reason": "they parted"}, headers=GM))

    rolls = ok(client.get(base + "/actions/2/reroll/rolls", headers=GM))
    assert [(r["name"], r["count"], r["sides"]) for r in rolls["rolls"]] == [
        ("Ogre's attack", 2, 6),
        ("Kara's evasion", 7, 6),
        ("Kara's guard", 4, 6),
    ]
    luck = "if the roll before it totals 0 or less and they still have a luck point"
    assert [(r["name"], r["roll"], r["dice"], r["when"]) for r in rolls["may_follow"]] == [
        ("Kara's evasion (luck)", f"{evasion}.luck", "7d6", luck),
        ("Kara's guard (luck)", f"{guard}.luck", "4d6", luck),
    ]
    typed = {"Ogre's attack": [1, 1], "Kara's evasion": [6] * 7, "Kara's guard": [6] * 4}
    body = {"reason": "the die was cocked", "dice": typed}
    answer = ok(client.post(base + "/actions/2/reroll", json=body, headers=GM))
    record = answer["encounter"]["actions"][1]
    assert [(r["name"], r["faces"]) for r in record["rolls"]] == [
        ("attack", [1, 1]),
        (evasion, [6] * 7),
        (guard, [6] * 4),
    ]


def test_only_an_action_of_the_rules_standing_is_asked_what_a_reroll_takes(
    client: TestClient,
) -> None:
    cid, eid, _, kara = fight(client)
    base = f"/campaigns/{cid}/encounters/{eid}"
    act(client, cid, eid, "defend", kara, effort=1)
    posture = ok(client.get(base + "/actions/1/reroll/rolls", headers=GM))
    assert posture == {"number": 1, "rolls": [], "may_follow": []}  # it rolled nothing
    missing = client.get(base + "/actions/9/reroll/rolls", headers=GM)
    assert missing.status_code == 404, missing.text
    assert missing.json()["message"] == "encounter 'Fight' has no action 9"
    ok(client.post(base + "/actions/1/void", json={"reason": "by mistake"}, headers=GM))
    refused = client.get(base + "/actions/1/reroll/rolls", headers=GM)
    assert refused.status_code == 409, refused.text
    assert refused.json()["message"] == "action 1 is already voided"
