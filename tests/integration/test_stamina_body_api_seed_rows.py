"""Seed 001 rows pinned over HTTP with the seed's own numbers (issue 27 items 2, 4 and 7):
an empty pool skipped while resilience is absorbed, a day's Stamina and Body (S8), a weapon
skill below 3 that still hits on a 3 (S1), and a stunned defender who cannot answer (S9).

Every expected number is worked from the seed's text here, never by the project's code.
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.helpers import GM, enrol, new_campaign, ok, start
from tests.integration.test_stamina_body_api_rulings import BARE, Fight

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
