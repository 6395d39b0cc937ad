"""The views in Redis, end to end in one process: what the read endpoints serve,
that they follow every kind of event (hits, corrections, daily heals), and that a
rebuild from scratch gives exactly the views built incrementally (acceptance 2)."""

from __future__ import annotations

import threading
import time
from typing import Any

import orjson
import pytest
from fastapi.testclient import TestClient

from skald_campaign.projections.keys import ViewKeys
from skald_campaign.projections.rebuild import Rebuilder
from skald_campaign.projections.staging import StagedViews
from skald_campaign.workers.projections import ProjectionRunner
from tests.helpers import act, enrol, new_campaign, ok, start
from tests.integration.projection_support import (
    assert_counters_match_the_store,
    assert_same_views,
    current_root,
    play,
    snapshot,
    wait_until,
)

SHEET = {"st": 12, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10}


def services(client: TestClient) -> Any:
    return client.app.state.backend  # type: ignore[attr-defined]


def caught_up(client: TestClient, cid: str) -> dict[str, Any]:
    """The campaign's vitals once the views hold every event in the store."""
    found: dict[str, Any] = {}

    def done() -> bool:
        found.update(ok(client.get(f"/campaigns/{cid}/vitals")))
        return bool(found["projection"]["behind"] == 0)

    wait_until(done, 10, "the views to catch up")
    return found


def rebuilder(client: TestClient) -> Rebuilder:
    s = services(client)
    return Rebuilder(
        s.redis, s.application.recorder, s.application.mapper, s.application.name, s.redis_prefix
    )


def fight(client: TestClient) -> dict[str, str]:
    cid = new_campaign(client, "stamina-body", name="The Sunken Crown")
    bran = enrol(client, cid, "Bran", SHEET)
    ulf = enrol(client, cid, "Ulf", {**SHEET, "stamina_max": 14})
    combatants = [
        {"character_id": bran, "side": "party", "rank": 1},
        {"character_id": ulf, "side": "party", "rank": 2},
    ]
    eid = start(client, cid, combatants, name="Ambush at the ford")
    return {"cid": cid, "eid": eid, "bran": bran, "ulf": ulf}


def test_vitals_board_and_audit_follow_a_hit_and_say_how_far_behind_they_are(
    live_client: TestClient,
) -> None:
    ids = fight(live_client)
    cid, eid, bran = ids["cid"], ids["eid"], ids["bran"]
    hit = act(
        live_client, cid, eid, "take_hit", None, {"damage": [6, 6]},
        target=bran, damage_type="impact", damage_class=2,
    )  # fmt: skip
    target = next(c for c in hit["encounter"]["combatants"] if c["id"] == bran)

    vitals = caught_up(live_client, cid)
    assert vitals["projection"]["position"] == vitals["projection"]["store"]
    assert [c["name"] for c in vitals["characters"]] == ["Bran", "Ulf"]
    bran_vitals = vitals["characters"][0]
    assert bran_vitals["tracks"]["stamina"] == {"current": target["tracks"]["stamina"], "max": 12}
    assert bran_vitals["tracks"]["body"] == {"current": target["tracks"]["body"], "max": 10}
    assert bran_vitals["conditions"] == target["conditions"]
    assert bran_vitals["encounter"] == eid
    assert vitals["encounters"] == [{"id": eid, "name": "Ambush at the ford", "open": True}]

    board = ok(live_client.get(f"/campaigns/{cid}/encounters/{eid}/board"))
    assert board["round"] == 1 and board["actions"] == 1
    assert [(c["name"], c["side"], c["rank"]) for c in board["combatants"]] == [
        ("Bran", "party", 1),
        ("Ulf", "party", 2),
    ]
    assert board["combatants"][0]["tracks"] == bran_vitals["tracks"]
    assert board["last_actions"][-1]["summary"] == hit["action"]["summary"]
    assert board["projection"]["behind"] == 0

    audit = ok(live_client.get(f"/campaigns/{cid}/audit?offset=0&limit=100"))
    types = [e["type"] for e in audit["entries"]]
    assert types[0] == "Campaign.Created" and types[-1] == "Encounter.ActionResolved"
    assert audit["total"] == len(types) == vitals["events"]
    last = audit["entries"][-1]
    assert last["rolls"] == hit["action"]["rolls"]  # the dice, face by face
    assert last["breakdown"] == hit["action"]["breakdown"]
    assert last["by"] and last["time"] and last["seq"] == audit["total"]
    assert all("hash" not in str(list(e["data"])) for e in audit["entries"])  # no key hashes
    page = ok(live_client.get(f"/campaigns/{cid}/audit?offset=2&limit=2"))
    assert page["entries"] == audit["entries"][2:4]


def test_corrections_and_daily_heals_reach_the_views_through_tracks_and_state(
    live_client: TestClient,
) -> None:
    ids = fight(live_client)
    cid, eid, bran = ids["cid"], ids["eid"], ids["bran"]
    for faces in ([6, 6], [5, 5]):
        act(
            live_client, cid, eid, "take_hit", None, {"damage": faces},
            target=bran, damage_type="impact", damage_class=2,
        )  # fmt: skip
    path = f"/campaigns/{cid}/encounters/{eid}/actions/2/void"
    voided = ok(live_client.post(path, json={"reason": "wrong target"}))
    after_void = next(c for c in voided["encounter"]["combatants"] if c["id"] == bran)
    vitals = caught_up(live_client, cid)
    stamina = vitals["characters"][0]["tracks"]["stamina"]
    assert stamina["current"] == after_void["tracks"]["stamina"]
    board = ok(live_client.get(f"/campaigns/{cid}/encounters/{eid}/board"))
    assert [a["status"] for a in board["last_actions"]] == ["active", "voided"]

    ok(live_client.post(f"/campaigns/{cid}/encounters/{eid}/end"))
    ok(live_client.post(f"/campaigns/{cid}/days", json={"days": 1}), 201)
    wait_until(
        lambda: (
            ok(live_client.get(f"/campaigns/{cid}"))["characters"][0]["tracks"]["stamina"] == 12
        ),
        10,
        "the healing worker to heal Bran",
    )
    vitals = caught_up(live_client, cid)
    assert vitals["day"] == 1
    assert vitals["characters"][0]["tracks"]["stamina"]["current"] == 12  # a full rest
    assert vitals["characters"][0]["encounter"] is None
    assert_counters_match_the_store(
        services(live_client).redis, services(live_client).redis_prefix,
        services(live_client).application,
    )  # fmt: skip


def test_a_rebuild_from_scratch_equals_the_incremental_views_key_by_key(
    live_client: TestClient,
) -> None:
    s = services(live_client)
    play(s.application, campaigns=2, encounters=2, actions=15)
    ids = fight(live_client)
    act(
        live_client, ids["cid"], ids["eid"], "take_hit", None, {"damage": [6, 6]},
        target=ids["bran"], damage_type="impact", damage_class=2,
    )  # fmt: skip
    caught_up(live_client, ids["cid"])
    old_root = current_root(s.redis, s.redis_prefix)
    incremental = snapshot(s.redis, old_root)
    assert len(incremental) > 20

    report = rebuilder(live_client).rebuild_all()

    new_root = current_root(s.redis, s.redis_prefix)
    assert new_root != old_root and report.events == s.store_position()
    assert snapshot(s.redis, old_root) == {}  # the old generation is gone
    assert_same_views(incremental, snapshot(s.redis, new_root))
    # The runner notices the switch and goes on in the new generation.
    hit = act(
        live_client, ids["cid"], ids["eid"], "take_hit", None, {"damage": [1]},
        target=ids["ulf"], damage_type="impact", damage_class=1,
    )  # fmt: skip
    vitals = caught_up(live_client, ids["cid"])
    ulf = next(c for c in vitals["characters"] if c["id"] == ids["ulf"])
    target = next(c for c in hit["encounter"]["combatants"] if c["id"] == ids["ulf"])
    assert ulf["tracks"]["stamina"]["current"] == target["tracks"]["stamina"]
    assert_counters_match_the_store(s.redis, s.redis_prefix, s.application)


def test_a_rebuild_that_must_drop_its_cache_between_batches_builds_the_same_views(
    live_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tiny cache, forgotten after nearly every batch while commits are sent on a
    thread: the reads after a forget must see every earlier batch. Commits are slowed
    down so that one is always still in flight when the next batch starts."""
    send = StagedViews.send

    def slow_send(self: StagedViews, script_call: Any) -> str:
        time.sleep(0.02)
        return send(self, script_call)

    s = services(live_client)
    play(s.application, campaigns=2, encounters=2, actions=15)
    wait_until(lambda: s.views.lag(s.views.keys())["behind"] == 0, 10, "the views")
    incremental = snapshot(s.redis, current_root(s.redis, s.redis_prefix))
    tiny = Rebuilder(
        s.redis, s.application.recorder, s.application.mapper, s.application.name,
        s.redis_prefix, batch=7, cache_limit=5,
    )  # fmt: skip
    monkeypatch.setattr(StagedViews, "send", slow_send)
    tiny.rebuild_all()
    assert_same_views(incremental, snapshot(s.redis, current_root(s.redis, s.redis_prefix)))


def test_a_campaign_rebuild_repairs_that_campaign_and_leaves_the_others_alone(
    live_client: TestClient,
) -> None:
    s = services(live_client)
    first, second = play(s.application, campaigns=2, encounters=2, actions=10)
    wait_until(lambda: s.views.lag(s.views.keys())["behind"] == 0, 10, "the views")
    root = current_root(s.redis, s.redis_prefix)
    keys = ViewKeys(root)
    before = snapshot(s.redis, root)
    meta: Any = s.redis.get(keys.vitals_meta(str(first)))
    encounter = orjson.loads(meta)["encounters"][0]["id"]
    # Damage the first campaign's views three ways.
    s.redis.delete(keys.board(encounter))
    s.redis.lpop(keys.audit(str(first)))
    s.redis.hset(keys.vitals(str(first)), "intruder", b'{"id": "intruder"}')

    rebuilder(live_client).rebuild_campaign(first)

    assert current_root(s.redis, s.redis_prefix) == root  # swapped in place, no new generation
    assert_same_views(before, snapshot(s.redis, root))
    assert s.redis.get(keys.epoch) == b"1"
    # The live runner drops its cache (the epoch moved) and carries on correctly.
    play(s.application, campaigns=1, encounters=1, actions=3)
    wait_until(lambda: s.views.lag(s.views.keys())["behind"] == 0, 10, "the views")
    assert_counters_match_the_store(s.redis, s.redis_prefix, s.application)
    assert second  # untouched above: its keys were part of the equality


def test_two_runners_on_one_store_apply_each_event_once(live_client: TestClient) -> None:
    """The embedded runner plus a second one (as with API replicas and a worker): the
    guarded commit lets exactly one of them apply each batch."""
    s = services(live_client)
    stop = threading.Event()
    second = ProjectionRunner(s.application, s.redis, s.redis_prefix, batch_limit=3)
    thread = threading.Thread(target=second.run, args=(stop,))
    thread.start()
    try:
        play(s.application, campaigns=2, encounters=2, actions=12)
        wait_until(lambda: s.views.lag(s.views.keys())["behind"] == 0, 10, "the views")
    finally:
        stop.set()
        thread.join(10)
    assert_counters_match_the_store(s.redis, s.redis_prefix, s.application)
