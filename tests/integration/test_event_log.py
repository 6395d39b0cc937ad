"""The campaign's event log by position (GET /campaigns/{cid}/events): every event once,
in order, with the audit log's (and so the SSE feed's) positions; pages in O(page)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from uuid import UUID

import jsonschema
import pytest
from fastapi.testclient import TestClient
from redis.asyncio.client import Pipeline as AsyncPipeline

from skald_campaign.api.view_connection import ViewConnection
from skald_campaign.application.commands import AdvanceDays
from skald_campaign.domain.reading.recorded import touched
from tests.helpers import act, enrol, new_campaign, next_round, ok, start
from tests.integration.projection_support import wait_until
from tests.patience import HANG_SECONDS

SHEET = {"st": 12, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 30, "body_max": 20}


def backend(client: TestClient) -> Any:
    return client.app.state.backend  # type: ignore[attr-defined]


def play(client: TestClient) -> str:
    cid = new_campaign(client, "stamina-body", name="Log")
    hero = enrol(client, cid, "Hero", SHEET)
    rival = enrol(client, cid, "Rival", SHEET)
    sides = [{"character_id": hero, "side": "a"}, {"character_id": rival, "side": "b"}]
    eid = start(client, cid, sides)
    marker = {"target": rival, "name": "blessed", "note": "+1 to hit"}
    ok(client.post(f"/campaigns/{cid}/encounters/{eid}/markers", json=marker), 201)
    for face in (4, 5, 3):
        act(client, cid, eid, "recover", hero, dice={"recovery": [face] * 3})
        act(client, cid, eid, "recover", rival, dice={"recovery": [face] * 3})
        next_round(client, cid, eid)
    ok(client.post(f"/campaigns/{cid}/encounters/{eid}/actions/1/void", json={"reason": "oops"}))
    ok(client.post(f"/campaigns/{cid}/encounters/{eid}/end"))
    return cid


def caught_up(client: TestClient, cid: str) -> None:
    def done() -> bool:
        answer = ok(client.get(f"/campaigns/{cid}/events?limit=1"))
        return bool(answer["projection"]["behind"] == 0)

    wait_until(done, HANG_SECONDS, "the views to catch up")


def read_all(client: TestClient, cid: str, size: int) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    after = 0
    while True:
        page = ok(client.get(f"/campaigns/{cid}/events?after={after}&limit={size}"))
        assert len(page["events"]) <= size
        if not page["events"]:
            assert page["next"] == after
            return events
        events += page["events"]
        assert page["next"] == page["events"][-1]["position"]
        after = page["next"]


# The events that hold action records, which record their texts (issue 38, ``told``).
TELLING = {"Encounter.ActionResolved", "Encounter.Corrected", "Encounter.GMChanged"}
TELLING |= {"Encounter.Recomputed"}
# The events that record, per character they touch, what the reads need of the rules.
READINGS = {
    *("Campaign.CharacterEnrolled", "Campaign.EncounterClosed", "Campaign.CharacterHealed"),
    *("Campaign.WoundMarked", "Campaign.SheetAmended", "Campaign.TracksAdjusted"),
    *("Campaign.CorrectionCarried", "Encounter.Started", "Encounter.ActionResolved"),
    *("Encounter.Corrected", "Encounter.GMChanged", "Encounter.Recomputed"),
}


def test_pages_of_7_hold_every_event_once_in_the_audit_logs_order(live_client: TestClient) -> None:
    cid = play(live_client)
    caught_up(live_client, cid)
    events = read_all(live_client, cid, 7)
    audit = ok(live_client.get(f"/campaigns/{cid}/audit?limit=500"))["entries"]
    assert len(audit) == 18
    assert [e["position"] for e in events] == [a["id"] for a in audit]
    for event, entry in zip(events, audit, strict=True):
        assert event["type"] == entry["type"]
        assert event["aggregate_id"] == entry["aggregate_id"]
        assert event["aggregate_version"] == entry["version"]
        assert event["time"] == entry["time"]
        assert event["by"] == entry.get("by")
        # A campaign's creation is at version 2 since it records its ruleset's (issue 38);
        # every event of a campaign or an encounter one more since it records the client
        # it was written through (issue 40: `via`, None here); and those that change a
        # character one more again since they record what the reads need of the rules
        # (issue 38: `readings`, left out of the audit, which shows the facts); and
        # those that hold action records one more again since each record carries its
        # texts as its command told them (issue 38: `told`, in the audit too, which the
        # redaction reads and takes out for a player or a viewer).
        recording = event["type"] in READINGS
        third = event["type"] == "Campaign.Created" or recording
        telling = event["type"] in TELLING
        table = event["type"] == "Encounter.TableRecorded"  # no readings: one less
        assert event["type_version"] == (4 if telling else 3 if third or table else 2)
        if table:
            assert isinstance(event["payload"]["record"]["told"]["summary"], list)
        if event["type"] == "Encounter.ActionResolved":
            assert event["payload"]["told"] == entry["data"]["told"]
            assert isinstance(event["payload"]["told"]["summary"], list)
        assert event["payload"]["via"] is None
        assert ("readings" in event["payload"]) == recording
        assert "readings" not in entry["data"]
        if recording:
            assert sorted(event["payload"]["readings"]) == touched(event["payload"])
        # The audit entry lifts some fields to its top level and keeps the rest in data:
        # together they are the payload.
        for name, value in entry["data"].items():
            if name == "originator_topic":  # the store's metadata: not in a payload
                continue
            assert event["payload"][name] == value
        for name in ("actor", "kind", "number", "round", "rolls", "breakdown", "params"):
            if name in entry:
                assert event["payload"][name] == entry[name]
    assert all("gm_key_hash" not in e["payload"] for e in events)
    types = {e["type"] for e in events}
    assert {"Campaign.Created", "Encounter.ActionResolved", "Encounter.Corrected"} <= types
    assert "Encounter.TableRecorded" in types


def test_every_logged_payload_validates_against_the_catalog(live_client: TestClient) -> None:
    cid = play(live_client)
    caught_up(live_client, cid)
    catalog = ok(live_client.get("/schema/events"))["events"]
    schemas = {entry["type"]: entry for entry in catalog}
    for event in read_all(live_client, cid, 50):
        entry = schemas[event["type"]]
        assert entry["version"] == event["type_version"]
        jsonschema.validate(event["payload"], entry["schema"])


def test_a_page_reads_no_row_and_as_much_at_2000_events_as_at_10(live_client: TestClient) -> None:
    cid = new_campaign(live_client, "stamina-body", name="Long")
    services = backend(live_client)
    for _ in range(6):  # 6 x 365 days: 2,191 events
        services.application.advance_days(AdvanceDays(UUID(cid), 365))
    caught_up(live_client, cid)
    first = ok(live_client.get(f"/campaigns/{cid}/events?limit=12"))["events"]
    audit = ok(live_client.get(f"/campaigns/{cid}/audit?offset=2180&limit=1"))
    assert audit["total"] == 2191
    services.background.stop()  # the workers' own reads must not be counted as the page's

    rows: list[int] = []
    redis_trips: list[int] = []
    counted = count_reads(services, rows, redis_trips)

    def cost(after: int) -> tuple[int, int]:
        rows.clear()
        redis_trips.clear()
        counted.received.clear()
        page = ok(live_client.get(f"/campaigns/{cid}/events?after={after}&limit=7"))
        assert len(page["events"]) == 7
        return sum(rows), len(redis_trips)

    with counted:
        early = cost(first[10]["position"])
        assert b"DayAdvanced" in b"".join(counted.received)  # the page's events' bytes
        late = cost(audit["entries"][0]["id"])
        assert early == late
        # The page's events are the bytes the log projection kept: no row of the store
        # is read, and Redis is asked once (issue 39).
        assert early == (0, 1)
        # Read again, unchanged: Redis is asked once, for the log's version
        # (projections/versions.py), and sends none of the page's events again.
        assert cost(audit["entries"][0]["id"]) == (0, 1)
        assert b"DayAdvanced" not in b"".join(counted.received)
        assert 0 < sum(map(len, counted.received)) < 300


class count_reads:
    """Count the rows the store answers and the Redis round trips a read makes: each
    connection the synchronous client takes, each pipeline the asyncio client sends and
    each read asked on the event loop's own connection (the fast path's, api/fast_log.py
    and api/view_connection.py); and the bytes Redis sends on that connection."""

    def __init__(self, services: Any, rows: list[int], trips: list[int]) -> None:
        self.services, self.rows, self.trips = services, rows, trips
        self.received: list[bytes] = []

    def __enter__(self) -> None:
        recorder = self.services.application.recorder
        pool = self.services.views.client.connection_pool
        self.restore: list[Callable[[], None]] = []
        select, get_connection = recorder.select_events, pool.get_connection
        notifications = recorder.select_notifications

        def counted_select(*args: Any, **kwargs: Any) -> Any:
            found = select(*args, **kwargs)
            self.rows.append(len(found))
            return found

        def counted_notifications(*args: Any, **kwargs: Any) -> Any:
            found = notifications(*args, **kwargs)
            self.rows.append(len(found))
            return found

        def counted_connection(*args: Any, **kwargs: Any) -> Any:
            self.trips.append(1)
            return get_connection(*args, **kwargs)

        sent = AsyncPipeline.execute

        async def counted_pipeline(pipeline: AsyncPipeline, *args: Any, **kwargs: Any) -> Any:
            self.trips.append(1)
            return await sent(pipeline, *args, **kwargs)

        asked, fed = ViewConnection.ask, ViewConnection.data_received

        async def counted_ask(line: ViewConnection, *args: Any, **kwargs: Any) -> Any:
            self.trips.append(1)
            return await asked(line, *args, **kwargs)

        def counted_data(line: ViewConnection, data: bytes) -> None:
            self.received.append(data)
            fed(line, data)

        ViewConnection.ask = counted_ask  # type: ignore[method-assign]
        ViewConnection.data_received = counted_data  # type: ignore[method-assign]
        recorder.select_events = counted_select
        recorder.select_notifications = counted_notifications
        pool.get_connection = counted_connection
        AsyncPipeline.execute = counted_pipeline  # type: ignore[method-assign]
        self.restore = [
            lambda: delattr(recorder, "select_events"),
            lambda: delattr(recorder, "select_notifications"),
            lambda: delattr(pool, "get_connection"),
            lambda: setattr(AsyncPipeline, "execute", sent),
            lambda: setattr(ViewConnection, "ask", asked),
            lambda: setattr(ViewConnection, "data_received", fed),
        ]

    def __exit__(self, *exc: object) -> None:
        for undo in self.restore:
            undo()


@pytest.mark.parametrize("after", ["-1", "x"])
def test_a_bad_position_is_refused(client: TestClient, after: str) -> None:
    cid = new_campaign(client, "stamina-body")
    response = client.get(f"/campaigns/{cid}/events?after={after}")
    assert response.status_code == 422
    assert "after" in response.json()["message"]
