"""The view reads answered below the router (api/fast_views.py) send the very bytes the
routes send, and leave to the routes everything out of the ordinary."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

import skald_campaign.api.fast_views
from skald_campaign.api.app import create_app
from skald_campaign.services import build_services
from skald_campaign.settings import Settings
from tests.helpers import act, enrol, new_campaign, ok, start
from tests.integration.test_projections import SHEET, caught_up


@pytest.fixture
def routed(settings: Settings, live_client: TestClient) -> Iterator[TestClient]:
    """A second server on the same store and views, its view reads left to the routes.
    It uses the first one's Redis, whichever it is: with nothing configured that is the
    embedded Redis of the data directory, which one process at a time may start."""
    views = settings.model_copy(update={"redis_url": live_client.app.state.backend.redis_url})
    app = create_app(lambda: build_services(views), fast_views=False)
    with TestClient(app, raise_server_exceptions=True) as test_client:
        yield test_client


def test_the_fast_path_sends_the_routes_bytes(
    live_client: TestClient, routed: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = live_client
    cid = new_campaign(client, "stamina-body", name="Zwölf Ströme — «test»")
    bran = enrol(client, cid, "Bran ☂", SHEET)
    ulf = enrol(client, cid, "Ulf", {**SHEET, "stamina_max": 14})
    eid = start(client, cid, [{"character_id": bran, "side": "party"},
                              {"character_id": ulf, "side": "foes", "rank": 2}])  # fmt: skip
    for _ in range(3):
        act(client, cid, eid, "take_hit", dice={"damage": [2]}, target=bran,
            damage_type="impact", damage_class=1)  # fmt: skip
    # The table's fields of the board (issue 23): a marker, a turn change, the end's reason.
    base = f"/campaigns/{cid}/encounters/{eid}"
    ok(client.put(f"{base}/order", json={"order": [bran, ulf]}))
    ok(client.post(f"{base}/markers", json={"target": ulf, "name": "hidden ☂", "rounds": 2}), 201)
    ok(client.post(f"{base}/turn"))
    ok(client.post(f"{base}/end", json={"reason": "fled «now»"}))
    gm = {"authorization": client.headers.pop("authorization")}
    other = new_campaign(client, "stamina-body")
    other_gm = {"authorization": client.headers.pop("authorization")}
    client.headers.update(gm)
    caught_up(client, cid)
    client.headers.pop("authorization")

    # What the fast path answered on the event loop (its answer made, or kept from the
    # last read while the view's answers are the same: api/kept_views.py).
    answered: list[object] = []
    here = skald_campaign.api.fast_views.view_answer_here

    async def counted(*args: Any) -> object:
        answered.append(await here(*args))
        return answered[-1]

    monkeypatch.setattr(skald_campaign.api.fast_views, "view_answer_here", counted)
    # Each read is made on the event loop (no worker thread) while the store's position
    # is known fresh; here it stays so for the whole test.
    backend = client.app.state.backend  # type: ignore[attr-defined]
    backend.application.known_position.fresh_seconds = 600
    backend.application.store_position()
    threaded: list[object] = []
    on_a_thread = skald_campaign.api.fast_views.view_answer

    def counted_thread(*args: Any) -> bytes | None:
        threaded.append(args)
        return on_a_thread(*args)

    monkeypatch.setattr(skald_campaign.api.fast_views, "view_answer", counted_thread)
    paths = [
        f"/campaigns/{cid}/vitals",
        f"/campaigns/{cid}/encounters/{eid}/board",
        f"/campaigns/{cid}/audit",
        f"/campaigns/{cid}/audit?offset=2&limit=3",
    ]
    for path in paths:
        fast, slow = client.get(path, headers=gm), routed.get(path, headers=gm)
        assert fast.status_code == slow.status_code == 200, path
        assert fast.content == slow.content, path
        assert fast.headers["etag"] == slow.headers["etag"]
        assert fast.headers["content-type"] == slow.headers["content-type"]
    assert len(answered) == len(paths)  # each answered by the fast path, once
    assert all(isinstance(answer, bytes) for answer in answered)
    assert threaded == []  # and read on the event loop

    # Out of the ordinary: the route answers (and the same as without the fast path).
    answered.clear()
    unusual = [
        (f"/campaigns/{cid}/audit?limit=0", gm),
        (f"/campaigns/{cid}/audit?limit=x", gm),
        (f"/campaigns/{cid}/audit?offset=1&kind=x", gm),
        (f"/campaigns/{other}/encounters/{eid}/board", other_gm),
        (f"/campaigns/{cid}/vitals", {}),
        (f"/campaigns/{cid}/vitals", {"authorization": "Bearer skald_0123456789abcdef_x"}),
    ]
    for path, headers in unusual:
        fast, slow = client.get(path, headers=headers), routed.get(path, headers=headers)
        assert (fast.status_code, fast.content) == (slow.status_code, slow.content), path
        assert fast.status_code != 200 or path.endswith("kind=x"), path
    assert not any(answered)
