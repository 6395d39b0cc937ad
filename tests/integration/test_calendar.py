"""The calendar and the healing worker: every day healed once, exactly as the rules say."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from skald_campaign.domain.rulesets.stamina_body.healing import DayPlan, daily_heal
from tests.helpers import GM, act, enrol, event_count, new_campaign, ok, start
from tests.patience import HANG_SECONDS

SHEET = {"st": 10, "con": 12, "stamina_max": 20, "body_max": 15}


def heals(client: TestClient, cid: str) -> list[dict[str, Any]]:
    path = f"/campaigns/{cid}/history?kind=CharacterHealed&limit=1000"
    return list(ok(client.get(path))["entries"])


def wait_for_heals(client: TestClient, cid: str, count: int, timeout: float = HANG_SECONDS) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if len(heals(client, cid)) >= count:
            return
        time.sleep(0.05)
    raise AssertionError(f"only {len(heals(client, cid))} of {count} heals within {timeout} s")


def wounded_party(client: TestClient, size: int) -> tuple[str, list[str]]:
    cid = new_campaign(client, "stamina-body")
    ids = [enrol(client, cid, f"Hero {n}", {**SHEET, "con": 5 + n}) for n in range(size)]
    eid = start(client, cid, [{"character_id": i, "side": "party"} for i in ids])
    for n, target in enumerate(ids):
        faces = [6] * (2 + n % 3)
        act(
            client,
            cid,
            eid,
            "take_hit",
            dice={"damage": faces},
            target=target,
            damage_type="piercing" if n % 2 else "impact",
            damage_class=len(faces),
        )
    ok(client.post(f"/campaigns/{cid}/encounters/{eid}/end", headers=GM))
    return cid, ids


def test_thirty_days_over_ten_characters_heal_each_exactly_thirty_times(
    live_client: TestClient,
) -> None:
    client = live_client
    cid, ids = wounded_party(client, 10)
    roster = {c["id"]: c for c in ok(client.get(f"/campaigns/{cid}"))["characters"]}
    overrides = {
        ids[1]: {"rest": "light"},
        ids[2]: {"care": False},
        ids[3]: {"healer": True},
        ids[4]: {"rest": "none"},
    }
    advanced = ok(
        client.post(
            f"/campaigns/{cid}/days", json={"days": 30, "characters": overrides}, headers=GM
        ),
        201,
    )
    assert (advanced["day"], advanced["days_advanced"]) == (30, 30)
    wait_for_heals(client, cid, 300)
    time.sleep(0.3)  # a second pass of the worker must add nothing
    entries = heals(client, cid)
    assert len(entries) == 300

    for cid_ in ids:
        sheet = roster[cid_]["sheet"]
        tracks, state = roster[cid_]["tracks"], roster[cid_]["state"]
        plan = DayPlan.model_validate(overrides.get(cid_, {}))
        mine = [e for e in entries if e["character_id"] == cid_]
        assert [e["day"] for e in mine] == list(range(1, 31))
        for entry in mine:
            expected = daily_heal(sheet, tracks, state, plan)
            assert entry["tracks"][cid_] == expected.tracks, (cid_, entry["day"])
            assert entry["breakdown"]["steps"] == list(expected.steps)
            assert entry["breakdown"]["inputs"]["plan"] == plan.model_dump()
            tracks = expected.tracks
        assert ok(client.get(f"/campaigns/{cid}/characters/{cid_}"))["tracks"] == tracks


def test_advancing_with_an_open_encounter_is_refused_and_writes_nothing(
    client: TestClient,
) -> None:
    cid = new_campaign(client, "stamina-body")
    hero = enrol(client, cid, "Hero", SHEET)
    start(client, cid, [{"character_id": hero, "side": "party"}], name="Ambush")
    before = event_count(client)
    response = client.post(f"/campaigns/{cid}/days", json={"days": 1}, headers=GM)
    assert response.status_code == 409
    assert response.json()["message"] == (
        "end the open encounter(s) 'Ambush' before advancing the day"
    )
    assert event_count(client) == before


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"days": 0}, 422, "days"),
        ({"days": 1, "default": {"rest": "sleepy"}}, 422, "default.rest"),
        ({"days": 1, "characters": {"ghost": {}}}, 404, "character 'ghost'"),
    ],
)
def test_bad_day_plans_are_refused(
    client: TestClient, body: dict[str, Any], status: int, message: str
) -> None:
    cid = new_campaign(client, "stamina-body")
    enrol(client, cid, "Hero", SHEET)
    before = event_count(client)
    response = client.post(f"/campaigns/{cid}/days", json=body, headers=GM)
    assert response.status_code == status, response.text
    assert message in response.json()["message"]
    assert event_count(client) == before


def test_wounds_are_recorded_treated_and_slow_healing(live_client: TestClient) -> None:
    client = live_client
    cid, (hero,) = wounded_party(client, 1)
    path = f"/campaigns/{cid}/characters/{hero}/wounds"
    marked = ok(
        client.post(path, json={"wound": "broken_bones", "reason": "fell"}, headers=GM), 201
    )
    assert marked["conditions"] == ["broken_bones"]
    assert marked["tracks"] == {"stamina": 10, "body": 13}
    ok(client.post(f"/campaigns/{cid}/days", json={"days": 1}, headers=GM), 201)
    wait_for_heals(client, cid, 1)
    (heal,) = heals(client, cid)
    # CON 5 // 5 = 1 with care; broken bones halve it to 0.
    assert heal["breakdown"]["body_gain"] == 0
    assert heal["breakdown"]["inputs"]["broken_bones"] is True
    ended = ok(
        client.post(
            path,
            json={"wound": "broken_bones", "present": False, "reason": "splint off"},
            headers=GM,
        ),
        201,
    )
    assert ended["conditions"] == []
    bad = client.post(path, json={"wound": "sprained_ego", "reason": "x"}, headers=GM)
    assert bad.status_code == 422
    assert "tracks no wound 'sprained_ego'" in bad.json()["message"]


def test_the_vitals_view_and_the_audit_log_show_each_heal(live_client: TestClient) -> None:
    client = live_client
    cid, _ = wounded_party(client, 2)
    ok(client.post(f"/campaigns/{cid}/days", json={"days": 2}, headers=GM), 201)
    wait_for_heals(client, cid, 4)
    healed_at = time.monotonic()
    expected = {c["id"]: c["tracks"] for c in ok(client.get(f"/campaigns/{cid}"))["characters"]}
    while True:
        vitals = ok(client.get(f"/campaigns/{cid}/vitals"))
        shown = {
            c["id"]: {t: v["current"] for t, v in c["tracks"].items()} for c in vitals["characters"]
        }
        if shown == expected:
            break
        assert time.monotonic() - healed_at < HANG_SECONDS, f"vitals still show {shown}"
        time.sleep(0.02)
    assert vitals["day"] == 2
    audit = ok(client.get(f"/campaigns/{cid}/audit?offset=0&limit=200"))
    heals = [e for e in audit["entries"] if e["type"] == "Campaign.CharacterHealed"]
    assert len(heals) == 4
    assert heals[0]["breakdown"]["inputs"]["plan"] == {
        "rest": "full",
        "care": True,
        "healer": False,
    }
    assert heals[0]["breakdown"]["steps"]


def test_a_margin_rest_day_clears_fatigue_and_refills_luck(live_client: TestClient) -> None:
    client = live_client
    cid = new_campaign(client, "margin")
    hero = enrol(
        client,
        cid,
        "Hero",
        {"might": 2, "grace": 2, "vigor": 2, "aether": 2, "evasion": 1, "luck": 2},
    )
    eid = start(client, cid, [{"character_id": hero, "side": "party"}])
    act(client, cid, eid, "defend", hero, effort=3)
    ok(client.post(f"/campaigns/{cid}/encounters/{eid}/end", headers=GM))
    tired = ok(client.get(f"/campaigns/{cid}/characters/{hero}"))["state"]
    assert tired["fatigue"] == 3
    ok(
        client.post(
            f"/campaigns/{cid}/days", json={"days": 1, "default": {"rest": "light"}}, headers=GM
        ),
        201,
    )
    wait_for_heals(client, cid, 1)
    assert ok(client.get(f"/campaigns/{cid}/characters/{hero}"))["state"]["fatigue"] == 1
    ok(client.post(f"/campaigns/{cid}/days", json={"days": 1}, headers=GM), 201)
    wait_for_heals(client, cid, 2)
    rested = ok(client.get(f"/campaigns/{cid}/characters/{hero}"))["state"]
    assert (rested["fatigue"], rested["luck"]) == (0, 2)
