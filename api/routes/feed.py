"""The live feed: a campaign's audit entries as Server-Sent Events, read from the
Redis Stream the audit projection writes. Each event's id is its notification id,
so a client that reconnects with Last-Event-ID (browsers do it by themselves)
gets exactly what it missed. If the stream no longer holds that far back, the
client first gets a ``reset`` event: refetch the views, then carry on."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Annotated, Any
from uuid import UUID

import orjson
import redis.asyncio as aioredis
from fastapi import APIRouter, Header, Query, Request
from sse_starlette import EventSourceResponse

from skald_campaign.api.deps import Reader, Views
from skald_campaign.api.errors import VIEWS_UNAVAILABLE, error_body
from skald_campaign.api.feed_hub import BLOCK_MS, current_keys, hub_for, read_after
from skald_campaign.domain.errors import InvalidInput
from skald_campaign.projections.audit import FEED_LENGTH
from skald_campaign.projections.reader import ViewReader

router = APIRouter(tags=["views"])
LARGEST_ID = 2**63 - 1  # notification ids are 64-bit, and so are stream entry ids


def resume_point(last_event_id: str | None, after: int | None, views: ViewReader) -> int:
    for given in (last_event_id, after):
        if given is None or given == "":
            continue
        try:
            value = int(given)
        except ValueError:
            raise InvalidInput(f"Last-Event-ID must be a notification id, not '{given}'") from None
        if not 0 <= value <= LARGEST_ID:
            raise InvalidInput(f"after / Last-Event-ID must be between 0 and {LARGEST_ID}")
        return value
    return int(views.lag(views.keys())["position"])  # from now on


async def feed_events(
    request: Request, views: ViewReader, campaign_id: str, last: int, resumed: bool
) -> AsyncIterator[dict[str, Any]]:
    """The client subscribes to this process's reader of the campaign's feed, catches up
    from Redis itself from ``last``, then sends the reader's batches (api/feed_hub.py)."""
    hub = hub_for(views.redis_url, views.generations)
    client = hub.client
    try:
        async with hub.subscribe(campaign_id) as batches:
            keys = await current_keys(client, views.generations)
            if keys is not None:
                if resumed:
                    oldest = await oldest_if_cut(client, keys.feed(campaign_id))
                    if oldest is not None and oldest > last + 1:
                        yield {"event": "reset", "data": f'{{"oldest": {oldest}}}'}
                while caught_up := await read_after(client, keys, campaign_id, last, None):
                    for last, data in caught_up:
                        yield {"id": str(last), "event": "entry", "data": data}
            while not await request.is_disconnected():
                try:
                    batch = await asyncio.wait_for(batches.get(), BLOCK_MS / 1000)
                except TimeoutError:
                    continue
                if isinstance(batch, Exception):
                    raise batch
                for position, data in batch:
                    if position > last:  # the catch-up may have sent it already
                        last = position
                        yield {"id": str(last), "event": "entry", "data": data}
    except (aioredis.RedisError, OSError):
        # Redis went away mid-stream: say so and end the stream, rather than cut it off.
        unavailable = orjson.dumps(error_body("views_unavailable", VIEWS_UNAVAILABLE)).decode()
        yield {"event": "unavailable", "data": unavailable}


async def oldest_if_cut(client: aioredis.Redis, key: str) -> int | None:
    """The stream's oldest entry id when it has reached its cap (older ones are gone)."""
    first: Any = await client.xrange(key, count=1)
    if first and await client.xlen(key) >= FEED_LENGTH:
        return int(first[0][0].split(b"-")[0])
    return None


SSE_EVENT = {
    "type": "object",
    "description": "one Server-Sent Event",
    "required": ["event", "data"],
    "properties": {
        "event": {"type": "string", "enum": ["entry", "reset", "unavailable"]},
        "id": {"type": "string", "description": "entry: its notification id"},
        "data": {
            "type": "string",
            "description": "JSON; entry: an audit entry, reset: {oldest}, unavailable: an error",
        },
    },
}


@router.get(
    "/campaigns/{campaign_id}/feed",
    response_class=EventSourceResponse,
    responses={
        200: {
            "description": "an endless stream of `entry` events (and `reset` when the "
            "stream no longer reaches back to Last-Event-ID)",
            "content": {"text/event-stream": {"schema": SSE_EVENT}},
        }
    },
)
async def feed(
    request: Request,
    campaign_id: UUID,
    access: Reader,
    views: Views,
    after: Annotated[
        int | None,
        Query(ge=0, le=LARGEST_ID, description="send the events after this notification id"),
    ] = None,
    last_event_id: Annotated[str | None, Header()] = None,
) -> EventSourceResponse:
    """Server-Sent Events: one ``entry`` event per audit entry, as it happens."""
    views.client.ping()  # Redis down: a JSON 503 now, rather than a stream that ends at once
    start = resume_point(last_event_id, after, views)
    resumed = last_event_id is not None or after is not None
    return EventSourceResponse(
        feed_events(request, views, str(campaign_id), start, resumed),
        ping=15,
        headers={"Cache-Control": "no-store"},
    )
