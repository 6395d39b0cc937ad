"""The event log served from the bytes the log projection keeps (issue 39) answers every
role with the very bytes the route wrote before, when it read each page's events from the
store, decoded them and validated them into its models: for the compat store (imported,
so its views are a rebuild's) and for a fresh fight projected live, every page of every
page size, for the GM's key, a player's and a viewer's. And a reader following ``next``
while the projection lags gets every event once, in order."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any
from uuid import UUID

import msgspec
import orjson
import pytest
from fastapi import Query
from fastapi.testclient import TestClient

from skald_campaign.api.app import create_app
from skald_campaign.api.deps import App, Reader, Views
from skald_campaign.api.routes import log as routes_log
from skald_campaign.api.routes.feed import LARGEST_ID
from skald_campaign.api.routes.log import EventLogOut, LoggedEventOut
from skald_campaign.api.routes.views import Lag
from skald_campaign.application.commands import AdvanceDays
from skald_campaign.application.event_log import Position, read_logged
from skald_campaign.projections.engine import ProjectionEngine
from skald_campaign.services import build_services
from skald_campaign.settings import Settings
from tests.helpers import new_campaign, ok
from tests.integration.test_audit_page_bytes import Table
from tests.integration.test_compat_77c0eaa import RECORD, bearer, imported

__all__ = ["imported"]  # the compat store's fixture, used here too

BEFORE = "/events-before-issue-39"
SIZES = (1, 7, 50, 500)


def read_event_log_before(
    campaign_id: UUID,
    access: Reader,
    views: Views,
    app: App,
    after: Annotated[
        int, Query(ge=0, le=LARGEST_ID, description="the events after this position")
    ] = 0,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> EventLogOut:
    """The route as it was before issue 39 (main cee9af2), kept here to compare with:
    each page's events read from the store, decoded and validated per request."""
    found, lag = views.positions(str(campaign_id), after, limit)
    events = read_logged(app.recorder, app.mapper, [Position(*p) for p in found])
    return EventLogOut(
        campaign_id=str(campaign_id),
        events=[LoggedEventOut.model_validate(msgspec.structs.asdict(e)) for e in events],
        next=events[-1].position if events else after,
        projection=Lag(**lag),
    )


def with_the_route_before(client: TestClient) -> TestClient:
    """The old route beside the new one, under the same middlewares (the redaction of a
    player's and a viewer's answer among them: its path is a campaign's too)."""
    client.app.router.add_api_route(  # type: ignore[attr-defined]
        "/campaigns/{campaign_id}" + BEFORE, read_event_log_before, response_model_by_alias=True
    )
    return client


def every_page_alike(client: TestClient, cid: str, headers: dict[str, str]) -> list[int]:
    """Every page of every size, the new route's bytes against the old's, following
    ``next``; the positions of the largest pages' events, in order."""
    positions: list[int] = []
    for size in SIZES:
        after, seen = 0, []
        while True:
            query = f"after={after}&limit={size}"
            new = client.get(f"/campaigns/{cid}/events?{query}", headers=headers)
            old = client.get(f"/campaigns/{cid}{BEFORE}?{query}", headers=headers)
            assert new.status_code == old.status_code == 200, (new.text, old.text)
            assert new.content == old.content, (cid, size, after)
            assert new.headers["content-type"] == old.headers["content-type"]
            assert new.headers["content-length"] == str(len(old.content))
            page = orjson.loads(new.content)
            if not page["events"]:
                assert page["next"] == after
                break
            seen += [e["position"] for e in page["events"]]
            after = page["next"]
        positions = positions or seen
        assert seen == positions, size  # every size pages through the same events
    assert positions == sorted(set(positions))
    return positions


ROLES = {"gm-stamina-body": "gm", "gm-d20": "gm", "gm-margin": "gm", "viewer": "viewer"}


def test_the_compat_store_s_log_answers_every_role_as_before(imported: TestClient) -> None:
    client = with_the_route_before(imported)
    compared: dict[str, int] = {}
    for cid in RECORD["campaigns"]:
        for name in RECORD["keys"]:
            headers = bearer(name)
            probe = client.get(f"/campaigns/{cid}/events?limit=1", headers=headers)
            if probe.status_code != 200:  # a key of another campaign: refused alike
                old = client.get(f"/campaigns/{cid}{BEFORE}?limit=1", headers=headers)
                assert (probe.status_code, probe.content) == (old.status_code, old.content)
                continue
            role = ROLES.get(name, "player")
            compared[role] = compared.get(role, 0) + len(every_page_alike(client, cid, headers))
    # 3 campaigns, each read by its GM; the stamina-body one by its players and viewer.
    assert set(compared) == {"gm", "player", "viewer"}
    assert compared["gm"] >= 100 and compared["player"] > 0 and compared["viewer"] > 0


@pytest.fixture(params=[True, False], ids=["fast path", "route"])
def client(settings: Settings, request: pytest.FixtureRequest) -> Iterator[TestClient]:
    """The API without its workers, its log pages answered below the router (api/
    fast_log.py) or by the route; either way the same bytes. Each says which answered."""
    app = create_app(lambda: build_services(settings), fast_views=request.param)
    routed: list[int] = []
    plain = routes_log.log_page

    def counted(*args: Any) -> bytes:
        routed.append(1)
        return plain(*args)

    with TestClient(app, raise_server_exceptions=True) as test_client:
        request.node.routed = routed
        request.node.fast = request.param
        routes_log.log_page = counted
        try:
            yield test_client
        finally:
            routes_log.log_page = plain


def answered_by_the_route(request: pytest.FixtureRequest) -> bool:
    return bool(request.node.routed)


@pytest.fixture
def engine(client: TestClient) -> Iterator[ProjectionEngine]:
    """The live projection engine, run only when a test says (the API has no workers)."""
    services = client.app.state.backend  # type: ignore[attr-defined]
    application = services.application
    engine = ProjectionEngine(
        services.redis, application.mapper, application.name, prefix=services.redis_prefix
    )
    yield engine
    engine.close()


def project_up_to(engine: ProjectionEngine, client: TestClient, position: int) -> None:
    """Take the store's events in up to ``position`` (no further), as the runner does."""
    recorder = client.app.state.backend.application.recorder  # type: ignore[attr-defined]
    start = engine.sync() + 1
    if position >= start:
        notifications = recorder.select_notifications(start=start, limit=position - start + 1)
        assert engine.apply(notifications)


def store_end(client: TestClient) -> int:
    recorder = client.app.state.backend.application.recorder  # type: ignore[attr-defined]
    return int(recorder.max_notification_id() or 0)


def test_a_fresh_fight_s_log_answers_every_role_as_before(
    client: TestClient, engine: ProjectionEngine, request: pytest.FixtureRequest
) -> None:
    """A fight with a hidden NPC roll, hits, a void, its end and a day (names beyond
    ASCII), projected live in batches of 3."""
    fight = Table(with_the_route_before(client))
    for position in range(3, store_end(client) + 3, 3):
        project_up_to(engine, client, position)
    assert ok(client.get(f"/campaigns/{fight.cid}/events?limit=1"))["projection"]["behind"] == 0
    found = {}
    for role, key in (("gm", fight.gm), ("player", fight.player), ("viewer", fight.viewer)):
        found[role] = every_page_alike(fight.client, fight.cid, key)
    assert found["gm"] == found["player"] == found["viewer"]
    audit = ok(client.get(f"/campaigns/{fight.cid}/audit?limit=500", headers=fight.gm))
    assert found["gm"] == [entry["id"] for entry in audit["entries"]]
    assert len(found["gm"]) == 16
    # The GM reads the hidden roll's numbers; a player does not (RULINGS T3).
    gm = ok(fight.client.get(f"/campaigns/{fight.cid}/events?limit=500", headers=fight.gm))
    player = ok(fight.client.get(f"/campaigns/{fight.cid}/events?limit=500", headers=fight.player))
    hidden = [n for n, e in enumerate(gm["events"]) if e["payload"].get("hidden") is True]
    assert len(hidden) == 1
    assert gm["events"][hidden[0]]["payload"]["rolls"] != []
    assert player["events"][hidden[0]]["payload"]["rolls"] == []
    # With the fast path on, no page was the route's; with it off, every one was.
    assert answered_by_the_route(request) is not request.node.fast


def test_a_reader_following_next_while_the_log_lags_gets_every_event_once(
    client: TestClient, engine: ProjectionEngine
) -> None:
    """The log projection runs only when the test says, behind the writes; a reader
    pages on from ``next`` between."""
    services = client.app.state.backend  # type: ignore[attr-defined]
    application = services.application
    cid = new_campaign(client, "stamina-body", name="Lag")
    read: list[int] = []
    after = 0

    def read_on() -> dict[str, Any]:
        nonlocal after
        page = ok(client.get(f"/campaigns/{cid}/events?after={after}&limit=3"))
        read.extend(e["position"] for e in page["events"])
        after = page["next"]
        return page

    page = read_on()
    assert page["events"] == [] and page["projection"]["behind"] >= 1  # nothing projected
    for step in range(1, 9):
        application.advance_days(AdvanceDays(UUID(cid), step))  # `step` events each
        store = store_end(client)
        project_up_to(engine, client, store - step)  # all but this step's events
        page = read_on()
        assert page["projection"]["behind"] >= step
        assert all(p <= store - step for p in read)  # nothing not yet projected
    project_up_to(engine, client, store_end(client))
    while (page := read_on())["events"]:
        pass
    assert page["projection"]["behind"] == 0
    everything = [
        p for p, _, _ in services.views.positions(cid, 0, 500)[0]
    ]  # the audit's index of the same events
    assert len(everything) == 1 + sum(range(1, 9))
    assert read == everything  # each once, in order
    assert ok(client.get(f"/campaigns/{cid}/events?after={after}"))["events"] == []


def test_a_player_s_kept_pages_follow_a_change_to_the_campaign(
    client: TestClient,
    engine: ProjectionEngine,
    request: pytest.FixtureRequest,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A player's and a viewer's pages are made from each event's redacted bytes, kept
    for the campaign's version: an amended NPC sheet (a new maximum, so another
    descriptor for the Ogre's enrolment) makes them afresh, as the route's page is."""
    fight = Table(with_the_route_before(client))
    project_up_to(engine, client, store_end(client))
    path = f"/campaigns/{fight.cid}/events?limit=500"

    def enrolment(headers: dict[str, str]) -> dict[str, Any]:
        events = ok(client.get(path, headers=headers))["events"]
        return next(e for e in events if e["payload"].get("name") == "Ogre")

    for key in (fight.player, fight.viewer):
        every_page_alike(client, fight.cid, key)  # now kept
        assert enrolment(key)["payload"]["descriptor"] == "unhurt"
    # Read again, a page redacts nothing on the fast path: its events' bytes are kept.
    policies: list[str] = []
    plain = fight.app.redaction

    def counted(campaign_id: UUID, role: Any, replayed: Any = None) -> Any:
        policies.append(role)
        return plain(campaign_id, role, replayed)

    monkeypatch.setattr(fight.app, "redaction", counted)
    ok(client.get(path, headers=fight.player))
    assert policies == ([] if request.node.fast else ["player"])
    body = {"changes": {"stamina_max": 200}, "reason": "a tougher ogre"}
    ok(client.post(f"/campaigns/{fight.cid}/characters/{fight.ogre}/sheet", json=body))
    project_up_to(engine, client, store_end(client))
    for key in (fight.player, fight.viewer):
        every_page_alike(client, fight.cid, key)
        assert enrolment(key)["payload"]["descriptor"] == "winded"  # 40 of 200: a third
    assert enrolment(fight.gm)["payload"]["tracks"] == {"stamina": 40, "body": 30}
