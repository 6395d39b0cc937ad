"""A GM's view reads and audit and history pages answered before the middleware stack
(api/read_path.py) carry the very status, headers and bytes the stack sends (ETag, 304,
the security headers), are counted once by the rate limit, and leave every other request
to the stack: a player's (redacted), a refused key, a revoked one, a request with a body,
a filtered page, a page whose newest version is not known to stand."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from skald_campaign.api import read_path
from skald_campaign.api.app import create_app
from skald_campaign.api.view_connection import CLIENT_NAME
from skald_campaign.services import build_services
from skald_campaign.settings import Settings
from tests.helpers import act, enrol, new_campaign, ok, start
from tests.integration.test_projections import SHEET, caught_up


@pytest.fixture
def stack_only(settings: Settings, live_client: TestClient) -> Iterator[TestClient]:
    """A second server on the same store and views, with no fast path for reads."""
    views = settings.model_copy(update={"redis_url": live_client.app.state.backend.redis_url})
    app = create_app(lambda: build_services(views), fast_views=False)
    with TestClient(app, raise_server_exceptions=True) as test_client:
        # Its answers' `projection.store` as the first server's (which wrote everything
        # and so knows it at once): the store's position read each time.
        test_client.app.state.backend.application.known_position.fresh_seconds = 0  # type: ignore[attr-defined]
        yield test_client


@pytest.fixture
def answered_here(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths api/read_path.py answered (its `answer` said True)."""
    paths: list[str] = []
    original = read_path.ReadFastPath.answer

    async def counted(self: read_path.ReadFastPath, app: Any, scope: Any, *rest: Any) -> bool:
        done = await original(self, app, scope, *rest)
        if done:
            paths.append(scope["path"])
        return done

    monkeypatch.setattr(read_path.ReadFastPath, "answer", counted)
    return paths


def fight(client: TestClient) -> tuple[str, str, str, dict[str, str]]:
    """A campaign with a fight and a player key; the client's GM key taken off it."""
    cid = new_campaign(client, "stamina-body", name="Zwölf «Ströme»")
    bran = enrol(client, cid, "Bran ☂", SHEET)
    eid = start(client, cid, [{"character_id": bran, "side": "party"}])
    act(client, cid, eid, "take_hit", dice={"damage": [2]}, target=bran,
        damage_type="impact", damage_class=1)  # fmt: skip
    player = ok(
        client.post(f"/campaigns/{cid}/keys", json={"role": "player", "characters": [bran]}),
        201,
    )["key"]
    caught_up(client, cid)
    gm = {"authorization": client.headers.pop("authorization")}
    return cid, eid, player, gm


def test_a_gm_read_answered_first_has_the_stacks_status_headers_and_bytes(
    live_client: TestClient, stack_only: TestClient, answered_here: list[str]
) -> None:
    cid, eid, _, gm = fight(live_client)
    answered_here.clear()  # fight's own reads
    paths = [
        f"/campaigns/{cid}/vitals",
        f"/campaigns/{cid}/encounters/{eid}/board",
        f"/campaigns/{cid}/audit",
        f"/campaigns/{cid}/audit?offset=1&limit=2",
    ]
    for path in paths:
        fast, slow = live_client.get(path, headers=gm), stack_only.get(path, headers=gm)
        assert fast.status_code == slow.status_code == 200, path
        assert fast.content == slow.content, path
        assert fast.headers.raw == slow.headers.raw, path  # names, values and order
        names = [name for name, _ in fast.headers.raw]
        assert names == [
            b"content-length",
            b"content-type",
            b"etag",
            b"content-security-policy",
            b"referrer-policy",
            b"x-content-type-options",
            b"x-frame-options",
        ]
        tagged = {**gm, "if-none-match": fast.headers["etag"]}
        fast, slow = live_client.get(path, headers=tagged), stack_only.get(path, headers=tagged)
        assert fast.status_code == slow.status_code == 304, path
        assert fast.content == slow.content == b""
        assert fast.headers.raw == slow.headers.raw, path
    assert answered_here == [path.partition("?")[0] for path in paths for _ in range(2)]


def test_a_gm_page_answered_first_is_the_stacks_and_moves_with_each_write(
    live_client: TestClient, stack_only: TestClient, answered_here: list[str]
) -> None:
    client = live_client
    cid, eid, _, gm = fight(client)
    bran = ok(client.get(f"/campaigns/{cid}/vitals", headers=gm))["characters"][0]["id"]
    history, audit = f"/campaigns/{cid}/history", f"/campaigns/{cid}/encounters/{eid}/audit"
    pages = [history, f"{history}?offset=1&limit=2", audit, f"{audit}?limit=1&offset=1"]
    # The store's position stays known fresh for the test (its bound is tried below).
    position = client.app.state.backend.application.known_position  # type: ignore[attr-defined]
    position.fresh_seconds = 600
    for path in pages:
        client.get(path, headers=gm)  # the route reads it first: kept from then on
    answered_here.clear()
    for path in pages:
        fast, slow = client.get(path, headers=gm), stack_only.get(path, headers=gm)
        assert fast.status_code == slow.status_code == 200, path
        assert fast.content == slow.content, path
        assert fast.headers.raw == slow.headers.raw, path
        names = [name for name, _ in fast.headers.raw]
        assert names == [
            b"content-length",
            b"content-type",
            b"content-security-policy",
            b"referrer-policy",
            b"x-content-type-options",
            b"x-frame-options",
        ]
    assert answered_here == [path.partition("?")[0] for path in pages]

    # A write here moves the page at once; the page after it is the stack's again.
    total = ok(client.get(audit, headers=gm))["total"]
    hit = {"kind": "take_hit", "dice": {"damage": [1]},
           "params": {"target": bran, "damage_type": "impact", "damage_class": 1}}  # fmt: skip
    ok(client.post(f"/campaigns/{cid}/encounters/{eid}/actions", json=hit, headers=gm), 201)
    answered_here.clear()
    after = client.get(audit, headers=gm)
    assert ok(after)["total"] == total + 1
    assert answered_here == []  # its newest version was read again, by the route
    assert client.get(audit, headers=gm).content == after.content
    assert answered_here == [audit]

    # A write through another process shows once this one's store position is read again
    # (application/store_position.py: every 0.1 s; here when the test says so).
    ok(stack_only.post(f"/campaigns/{cid}/encounters/{eid}/actions", json=hit, headers=gm), 201)
    expected = stack_only.get(audit, headers=gm)
    assert ok(expected)["total"] == total + 2
    answered_here.clear()
    assert client.get(audit, headers=gm).content == after.content  # the position is not
    position.fresh_seconds = 0  # ... now it is read again, by the route
    assert client.get(audit, headers=gm).content == expected.content
    position.fresh_seconds = 600
    assert client.get(audit, headers=gm).content == expected.content
    assert answered_here == [audit, audit]


def test_everything_else_goes_through_the_stack(
    live_client: TestClient, stack_only: TestClient, answered_here: list[str]
) -> None:
    cid, eid, player, gm = fight(live_client)
    other = new_campaign(live_client, "stamina-body")
    caught_up(live_client, other)  # both servers answer the same views from here on
    other_gm = {"authorization": live_client.headers.pop("authorization")}
    vitals = f"/campaigns/{cid}/vitals"
    answered_here.clear()  # fight's own reads
    unusual: list[tuple[str, dict[str, str]]] = [
        (vitals, {"authorization": f"Bearer {player}"}),  # redacted for the player
        (vitals, {}),
        (vitals, {"authorization": "Bearer skald_0123456789abcdef_x"}),
        (vitals, other_gm),  # another campaign's GM
        (f"/campaigns/{other}/encounters/{eid}/board", other_gm),
        (f"/campaigns/{cid}/audit?limit=0", gm),
        (f"/campaigns/{cid}/audit?kind=x", gm),
        (f"/campaigns/{cid}/history?kind=day", gm),  # a filtered page
        (f"/campaigns/{cid}/history?limit=1001", gm),
        (f"/campaigns/{cid}/history", {"authorization": f"Bearer {player}"}),
        (f"/campaigns/{cid}/encounters/{eid}/audit", other_gm),
        (f"/campaigns/{other}/encounters/{eid}/audit", other_gm),
        (vitals, {**gm, "content-encoding": "gzip"}),  # the body limit's 415
    ]
    for path, headers in unusual:
        fast, slow = live_client.get(path, headers=headers), stack_only.get(path, headers=headers)
        assert (fast.status_code, fast.content) == (slow.status_code, slow.content), path
        assert fast.headers.get("etag") == slow.headers.get("etag"), path
        assert answered_here == [], (path, headers)
    assert live_client.get(vitals, headers={"authorization": f"Bearer {player}"}).status_code == 200
    assert live_client.get(vitals, headers=other_gm).status_code == 401
    assert live_client.get(vitals, headers={**gm, "content-encoding": "gzip"}).status_code == 415
    # A GET with a body: the body limit reads it (and a JSON one is checked).
    sent = live_client.request(
        "GET", vitals, headers={**gm, "content-type": "application/json"}, content=b"{"
    )
    assert (sent.status_code, sent.json()["error"]) == (422, "malformed_json")
    assert answered_here == []


def test_a_revoked_key_is_refused_on_its_next_read(
    live_client: TestClient, stack_only: TestClient
) -> None:
    client = live_client
    cid, _, _, gm = fight(client)
    viewer = ok(client.post(f"/campaigns/{cid}/keys", json={"role": "viewer"}, headers=gm), 201)
    key = {"authorization": f"Bearer {viewer['key']}"}
    vitals = f"/campaigns/{cid}/vitals"
    assert client.get(vitals, headers=key).status_code == 200
    assert stack_only.get(vitals, headers=key).status_code == 200
    ok(client.delete(f"/campaigns/{cid}/keys/{viewer['id']}", headers=gm))
    assert client.get(vitals, headers=key).status_code == 401  # this process: at once


def settings_with(settings: Settings, **overrides: object) -> Settings:
    return Settings(**{**settings.model_dump(), **overrides})


def test_a_read_answered_first_is_counted_once_by_the_rate_limit(settings: Settings) -> None:
    app = create_app(lambda: build_services(settings_with(settings, rate_limit_per_key="3/minute")))
    with TestClient(app) as client:
        cid = new_campaign(client, "stamina-body")
        gm = {"authorization": client.headers.pop("authorization")}
        vitals = f"/campaigns/{cid}/vitals"
        # The creation counted for no key; three reads are let in, the fourth refused.
        assert [client.get(vitals, headers=gm).status_code for _ in range(3)] == [200] * 3
        refused = client.get(vitals, headers=gm)
        assert refused.status_code == 429
        assert refused.json()["error"] == "rate_limited"
        assert 1 <= int(refused.headers["retry-after"]) <= 60
        assert refused.headers["x-frame-options"] == "DENY"
        assert "etag" not in refused.headers

        # A read that goes on through the stack (another campaign's key) is counted once.
        other = new_campaign(client, "stamina-body")
        other_gm = {"authorization": client.headers.pop("authorization")}
        statuses = [client.get(vitals, headers=other_gm).status_code for _ in range(4)]
        assert statuses == [401, 401, 401, 429]
        assert client.get(f"/campaigns/{other}/vitals", headers=other_gm).status_code == 429


def test_a_kept_answer_is_the_stacks_before_and_after_a_change_and_a_lost_connection(
    live_client: TestClient, stack_only: TestClient, answered_here: list[str]
) -> None:
    """The view's answer made once and sent again while the view's answers are the same
    (api/kept_views.py); the loop's one connection to Redis (api/view_connection.py)
    opened again once Redis closed it."""
    client = live_client
    cid, eid, _, gm = fight(client)
    bran = ok(client.get(f"/campaigns/{cid}/vitals", headers=gm))["characters"][0]["id"]
    paths = [f"/campaigns/{cid}/vitals", f"/campaigns/{cid}/encounters/{eid}/board",
             f"/campaigns/{cid}/audit?limit=3"]  # fmt: skip

    def same_as_the_stack() -> None:
        for path in paths:
            for _ in range(2):  # made, then kept
                assert (
                    client.get(path, headers=gm).content == stack_only.get(path, headers=gm).content
                )

    answered_here.clear()
    same_as_the_stack()
    hit = {"kind": "take_hit", "dice": {"damage": [3]},
           "params": {"target": bran, "damage_type": "impact", "damage_class": 1}}  # fmt: skip
    ok(client.post(f"/campaigns/{cid}/encounters/{eid}/actions", json=hit, headers=gm), 201)
    client.headers.update(gm)
    caught_up(client, cid)
    client.headers.pop("authorization")
    answered_here.clear()
    same_as_the_stack()
    assert len(answered_here) == 2 * len(paths)

    redis_client = client.app.state.backend.redis  # type: ignore[attr-defined]

    def lines() -> list[dict[str, str]]:  # of this test's database (others' tests share Redis)
        db = str(redis_client.connection_pool.connection_kwargs.get("db", 0))
        listed = redis_client.client_list()
        return [c for c in listed if c.get("name") == CLIENT_NAME and c.get("db") == db]

    assert len(lines()) == 1  # one connection for every view read of this process
    redis_client.client_kill_filter(_id=lines()[0]["id"])
    answered_here.clear()
    same_as_the_stack()  # the read on the lost connection: the route; then a new one
    assert len(answered_here) >= 2 * len(paths) - 1
    assert len(lines()) == 1
