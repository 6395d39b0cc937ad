"""A campaign's access check read again from the store, once for every request waiting.

The check is kept in memory for ACCESS_RECHECK_SECONDS (application/application.py
`access`); then the next request must read the campaign again, in a worker thread. Under
load every request that arrived before that read was done found the check stale too, and
each made its own read: a hop to a worker thread and a read apiece (5% of the server's
time under bench/http.py (a), bench/README.md). Here, while one request reads a
campaign again, the others that find it stale wait for that read (`rereads`, by
campaign) and then take the check from memory; only if that does not answer them (the
read failed) do they read it themselves.
"""

from __future__ import annotations

import asyncio
from uuid import UUID

from starlette.concurrency import run_in_threadpool

from skald_campaign.api.keys import KeyMaker
from skald_campaign.application.application import SkaldApplication
from skald_campaign.domain.access import Access
from skald_campaign.domain.errors import DomainError

Rereads = dict[UUID, "asyncio.Future[Access]"]


async def shared_access_read(
    application: SkaldApplication, campaign_id: UUID, key_id: str, digest: str, rereads: Rereads
) -> Access:
    """`application.access`, the campaign read at most once at a time per campaign; raises
    what that raises for this request's key."""
    reading = rereads.get(campaign_id)
    if reading is not None:
        await asyncio.wait([reading])  # its outcome is its requester's; this one re-asks
        known = application.access_if_fresh(campaign_id, key_id, digest)
        if known is not None:
            return known
    read = asyncio.ensure_future(run_in_threadpool(application.access, campaign_id, key_id, digest))
    rereads[campaign_id] = read

    def finished(done: asyncio.Future[Access]) -> None:
        if rereads.get(campaign_id) is done:
            del rereads[campaign_id]
        if not done.cancelled():
            done.exception()  # seen here: a requester that went away leaves it unasked

    read.add_done_callback(finished)
    return await asyncio.shield(read)  # a requester going away leaves it to the others


async def fresh_access(
    application: SkaldApplication, campaign_id: UUID, key_id: str, digest: str, rereads: Rereads
) -> Access | None:
    """The access check the route's dependency makes when the campaign must be read again
    (api/deps.py `reader`: the same call, in a worker thread); None when it does not pass
    or fails, and the route then makes it again and answers as it always has (the fast
    paths: api/fast_actions.py, api/fast_views.py)."""
    try:
        return await shared_access_read(application, campaign_id, key_id, digest, rereads)
    except Exception:  # the route's to answer (its errors, its 401/403/404)
        return None


async def access_before_stack(
    application: SkaldApplication, campaign_id: UUID, key_id: str, key: str, rereads: Rereads
) -> Access | None:
    """The access check of a request answered before the middleware stack (api/read_path.py,
    api/action_path.py): from memory while fresh, else read again as the route would; None
    when the key is refused or the read fails (the route then answers as it always has)."""
    digest = KeyMaker.digest(key)
    try:
        access = application.access_if_fresh(campaign_id, key_id, digest)
    except DomainError:  # refused: the route says so
        return None
    if access is None:
        access = await fresh_access(application, campaign_id, key_id, digest, rereads)
    return access
