"""Seed 001 rows pinned over HTTP with the seed's own numbers (issue 27 items 2, 4 and 7):
an empty pool skipped while resilience is absorbed, a day's Stamina and Body (S8), a weapon
skill below 3 that still hits on a 3 (S1), and a stunned defender who cannot answer (S9).

Every expected number is worked from the seed's text here, never by the project's code.
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.helpers import GM, enrol, event_count, new_campaign, ok, start
from tests.integration.test_stamina_body_api_rulings import BARE, KNIGHT, Fight, stun

FEEBLE = {"name": "rusty knife", "damage_class": 1, "damage_type": "piercing", "skill": 2}


# -- S5: "If one pool is already empty, that step is skipped" -----------------------------


def absorbed(result: Any) -> list[tuple[str, int, int]]:
    steps = result["action"]["breakdown"]["absorption"]["steps"]
    return [(step["pool"], step["after"], step["resilience_left"]) for step in steps]


def test_an_empty_body_pool_is_skipped_and_absorption_goes_on_into_stamina(
    client: TestClient,
) -> None:
    f = Fight(client, target={**BARE, "armour_resilience": 3})
    # Impact 5 and 4: 4 + 3 = 7 Stamina, 0 + 0 = 0 Body. Body is empty from the start, so
    # each of the three points of resilience comes off Stamina: 7 -> 6 -> 5 -> 4.
    result = f.act(
        "take_hit",
        dice={"damage": [5, 4]},
        target=f.ids["target"],
        damage_type="impact",
        damage_class=2,
    )
    assert absorbed(result) == [("stamina", 6, 2), ("stamina", 5, 1), ("stamina", 4, 0)]
    assert result["action"]["breakdown"]["absorption"]["net"] == {"stamina": 4, "body": 0}
    assert f.who("target")["tracks"] == {"stamina": 12 - 4, "body": 10}


def test_a_pool_emptied_part_way_is_skipped_and_both_empty_ends_it(client: TestClient) -> None:
    f = Fight(client, target={**BARE, "armour_resilience": 4})
    # Piercing 4: 2 Stamina, 1 Body. Body 1 -> 0, Stamina 2 -> 1, Body's turn skipped
    # (empty), Stamina 1 -> 0; both empty, so the fourth point is never used.
    result = f.act(
        "take_hit",
        dice={"damage": [4]},
        target=f.ids["target"],
        damage_type="piercing",
        damage_class=1,
    )
    assert absorbed(result) == [("body", 0, 3), ("stamina", 1, 2), ("stamina", 0, 1)]
    assert result["action"]["breakdown"]["absorption"]["net"] == {"stamina": 0, "body": 0}
    who = f.who("target")
    assert (who["tracks"], who["conditions"]) == ({"stamina": 12, "body": 10}, [])


# -- S8: a day's Stamina and Body ---------------------------------------------------------

RESTER = {**BARE, "stamina_max": 40, "body_max": 20}
PLANS: dict[str, tuple[int, dict[str, Any]]] = {
    # name: (CON, the day's plan)
    "full": (14, {"rest": "full", "care": True}),
    "light": (19, {"rest": "light", "care": True}),
    "idle": (14, {"rest": "none", "care": True}),
    "uncared": (14, {"rest": "full", "care": False}),
    "uncared19": (19, {"rest": "light", "care": False}),
}
# Each starts the day at Stamina 19 of 40 (21 lost) and Body 16 of 20 (4 lost).
# Full rest: "recover all lost Stamina" -> 40. Light: "50% of lost Stamina", rounded
# down (S8: lost // 2) -> 19 + 10 = 29. No rest: nothing -> 19, and no Body either (S8).
# Body with care: "Constitution / 5 (rounded down)": CON 14 -> 2, CON 19 -> 3.
# Without care: "half of that (rounded down)": CON 14 -> 1, CON 19 -> 1.
EXPECTED = {
    "full": {"stamina": 40, "body": 18},
    "light": {"stamina": 29, "body": 19},
    "idle": {"stamina": 19, "body": 16},
    "uncared": {"stamina": 40, "body": 17},
    "uncared19": {"stamina": 29, "body": 17},
}


def test_a_day_of_rest_with_and_without_care_gives_the_seeds_numbers(
    live_client: TestClient,
) -> None:
    from tests.integration.test_calendar import wait_for_heals

    client = live_client
    cid = new_campaign(client, "stamina-body")
    ids = {
        name: enrol(client, cid, name, {**RESTER, "con": con}) for name, (con, _) in PLANS.items()
    }
    eid = start(client, cid, [{"character_id": i, "side": "party"} for i in ids.values()])
    for target in ids.values():
        # Impact 6, 6, 6, 6, 1: 5 + 5 + 5 + 5 + 1 = 21 Stamina and 1 + 1 + 1 + 1 = 4 Body,
        # no armour; impact leaves no piercing wound to slow the healing.
        ok(
            client.post(
                f"/campaigns/{cid}/encounters/{eid}/actions",
                json={
                    "kind": "take_hit",
                    "params": {"target": target, "damage_type": "impact", "damage_class": 5},
                    "dice": {"damage": [6, 6, 6, 6, 1]},
                },
                headers=GM,
            ),
            201,
        )
    ok(client.post(f"/campaigns/{cid}/encounters/{eid}/end", headers=GM))
    for name, chid in ids.items():
        tracks = ok(client.get(f"/campaigns/{cid}/characters/{chid}"))["tracks"]
        assert tracks == {"stamina": 19, "body": 16}, name
    plans = {ids[name]: plan for name, (_, plan) in PLANS.items()}
    ok(
        client.post(f"/campaigns/{cid}/days", json={"days": 1, "characters": plans}, headers=GM),
        201,
    )
    wait_for_heals(client, cid, len(ids))
    healed = {
        name: ok(client.get(f"/campaigns/{cid}/characters/{chid}"))["tracks"]
        for name, chid in ids.items()
    }
    assert healed == EXPECTED


# -- S1 and issue 27 item 4: a weapon skill below 3 --------------------------------------


def test_a_weapon_skill_of_2_enrols_its_odds_are_1_in_216_and_a_3_hits(
    client: TestClient,
) -> None:
    f = Fight(client, novice={**BARE, "weapons": [FEEBLE]}, target=BARE)
    sheet = ok(client.get(f"/campaigns/{f.cid}/characters/{f.ids['novice']}"))["sheet"]
    assert sheet["weapons"][0]["skill"] == 2
    params = {"target": f.ids["target"], "weapon": "rusty knife", "defense": "none"}
    before = event_count(client)
    odds = ok(
        client.post(
            f"{f.base}/odds",
            json={"kind": "attack", "actor": f.ids["novice"], "params": params},
            headers=GM,
        )
    )
    assert event_count(client) == before
    # 3d6 <= 2 never happens, but "3 always succeeds" (S1): only 1-1-1 hits, 1 of 6**3.
    assert [(r["result"], r["probability"]) for r in odds["results"]] == [
        ("hit", "1/216"),
        ("miss", "215/216"),
    ]
    result = f.act("attack", "novice", {"hit": [1, 1, 1], "damage": [1]}, **params)
    breakdown = result["action"]["breakdown"]
    assert breakdown["hit"] == {
        "roll": 3,
        "target": 2,
        "success": True,
        "margin": -1,
        "note": "a natural 3 always succeeds",
    }
    assert breakdown["result"] == "landed"
    # Piercing 1: 1 Stamina, 0 Body.
    assert f.who("target")["tracks"] == {"stamina": 11, "body": 10}
    f.next_round()  # one action a round
    missed = f.act("attack", "novice", {"hit": [1, 1, 2]}, **params)
    assert missed["action"]["breakdown"]["result"] == "missed"


def test_skills_of_0_enrol_and_below_0_are_refused(client: TestClient) -> None:
    cid = new_campaign(client, "stamina-body")
    zero = {**BARE, "unarmed_skill": 0, "weapons": [{**FEEBLE, "skill": 0}]}
    enrol(client, cid, "Zero", zero)
    for sheet, field in (
        ({**BARE, "unarmed_skill": -1}, "sheet.unarmed_skill"),
        ({**BARE, "weapons": [{**FEEBLE, "skill": -1}]}, "sheet.weapons.0.skill"),
    ):
        before = event_count(client)
        response = client.post(
            f"/campaigns/{cid}/characters", json={"name": "X", "sheet": sheet}, headers=GM
        )
        assert response.status_code == 422
        assert response.json()["problems"][0]["field"] == field
        assert event_count(client) == before


# -- S9 and issue 27 item 7: a stunned defender cannot answer ------------------------------


def test_a_stunned_defender_is_said_to_be_unable_to_answer(client: TestClient) -> None:
    f = Fight(client, knight=KNIGHT, bare=BARE)
    stun(f, "bare")
    # No defense named, and none can be declared: the attack resolves at once (201).
    result = f.act(
        "attack",
        "knight",
        {"hit": [1, 2, 2], "damage": [1, 1, 1]},
        target=f.ids["bare"],
        weapon="longsword",
    )
    action = result["action"]
    assert action["breakdown"]["defense"] == {
        "kind": "none",
        "why": "Bare is stunned and cannot answer (S9)",
    }
    assert "no defense declared" not in str(action)
    assert "Bare is stunned and cannot answer (S9)" in action["narrative"]


def test_an_unconscious_defender_is_said_to_be_unable_to_answer(client: TestClient) -> None:
    f = Fight(client, knight=KNIGHT, bare={**BARE, "body_max": 1})
    f.knock_out("bare")
    result = f.act(
        "attack",
        "knight",
        {"hit": [1, 2, 2], "damage": [1, 1, 1]},
        target=f.ids["bare"],
        weapon="longsword",
    )
    assert result["action"]["breakdown"]["defense"] == {
        "kind": "none",
        "why": "Bare is unconscious and unable to act and cannot answer",
    }


def test_a_defender_who_chose_nothing_still_reads_no_defense_declared(
    client: TestClient,
) -> None:
    f = Fight(client, knight=KNIGHT, bare=BARE)
    result = f.act(
        "attack",
        "knight",
        {"hit": [1, 2, 2], "damage": [1, 1, 1]},
        target=f.ids["bare"],
        weapon="longsword",
        defense="none",
    )
    assert result["action"]["breakdown"]["defense"] == {
        "kind": "none",
        "why": "no defense declared",
    }
