"""A server's shutdown closes its live feed's connections to Redis (api/feed_hub.py).

The feed's hub of an event loop keeps an asyncio Redis client for the loop's readers.
Nothing closed it: when a loop stopped serving, the client's pool and connections stayed
open until the collector freed them, and their finalizers ran in the middle of whatever
came next (in CI's one-process suite, inside another test's measure of cyclic garbage:
session 18). The app's lifespan now closes the hubs of its loop as it ends."""

from __future__ import annotations

import time
from typing import Any

import redis
from fastapi.testclient import TestClient

from skald_campaign.api.app import create_app
from skald_campaign.api.feed_hub import FeedHub, hub_for
from skald_campaign.services import build_services
from skald_campaign.settings import Settings
from tests.patience import HANG_SECONDS


def connected(redis_url: str) -> set[int]:
    """The ids of the connections Redis has open right now."""
    with redis.Redis.from_url(redis_url) as client:
        listed: Any = client.client_list()
        return {int(found["id"]) for found in listed}


def test_the_lifespans_end_closes_the_feed_hubs_connection(
    settings: Settings, redis_url: str
) -> None:
    # A Redis that outlives the app (an embedded one of the app's own would stop with it).
    settings = Settings(**{**settings.model_dump(), "redis_url": redis_url})
    app = create_app(lambda: build_services(settings))
    with TestClient(app) as client:
        views = app.state.backend.views

        async def open_hub() -> tuple[FeedHub, int]:
            hub = hub_for(views.redis_url, views.generations)  # on the app's own loop
            return hub, int(await hub.client.client_id())

        assert client.portal is not None
        hub, connection = client.portal.call(open_hub)
        assert connection in connected(redis_url)
    # The test holds the hub: only closing it closes the connection. Redis drops a
    # closed connection on its next turn; on the old code it stayed open for good.
    deadline = time.monotonic() + HANG_SECONDS
    while connection in connected(redis_url) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert connection not in connected(redis_url)
    assert hub.feeds == {}
