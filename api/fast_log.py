"""The event log's pages answered below FastAPI's routing, as the view reads are
(api/fast_views.py): the kept bytes of a page are one Redis round trip and a
concatenation (projections/log.py), and through the router the routing, the dependencies
and the hop to a worker thread were most of what was left of a page's cost (issue 39).

Inside the same middlewares (rate limits, the redaction of a player's or a viewer's
answer), a page whose key the campaign accepts (checked as the view reads check it) and
whose query is plainly valid is read with the route's own reads and written by the
route's own `log_page`, so the bytes are the route's (tests/integration/
test_event_log_bytes.py compares them). Anything else goes to the route untouched: no
key, a key the campaign refuses, a query to validate or to refuse, Redis away.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl
from uuid import UUID

from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Receive, Scope, Send

from skald_campaign.api.access_reads import Rereads, fresh_access
from skald_campaign.api.fast_views import client_here
from skald_campaign.api.keys import KeyMaker, bearer_in
from skald_campaign.api.routes.feed import LARGEST_ID
from skald_campaign.application.application import SkaldApplication
from skald_campaign.domain.errors import DomainError
from skald_campaign.projections.log import log_page, log_reads
from skald_campaign.projections.reader import ViewReader

LOG_PATH = re.compile(r"^/campaigns/([0-9a-f-]{36})/events$")
DEFAULT_LIMIT, LARGEST_LIMIT = 100, 500  # the route's (api/routes/log.py)


def page_query(query: bytes) -> tuple[int, int] | None:
    """``after`` and ``limit`` when the query is plainly valid, each at most once;
    None when the route must answer (it validates, refuses or reads it its own way)."""
    found: dict[str, int] = {}
    for name, value in parse_qsl(query.decode("latin-1"), keep_blank_values=True):
        if name not in ("after", "limit") or name in found:
            return None
        if not value.isascii() or not value.isdigit() or len(value) > 19:
            return None
        found[name] = int(value)
    after, limit = found.get("after", 0), found.get("limit", DEFAULT_LIMIT)
    if after > LARGEST_ID or not 1 <= limit <= LARGEST_LIMIT:
        return None
    return after, limit


async def log_answer(views: ViewReader, campaign_id: str, after: int, limit: int) -> bytes:
    """The page as the route writes it: read on the event loop when one round trip does
    it (ViewReader.read_async), else on a worker thread as the route reads it."""
    reads = log_reads(campaign_id, after, limit)
    read = None
    if views.redis_url:
        read = await views.read_async(client_here(views.redis_url), 1, reads)
    if read is None:
        read = await run_in_threadpool(views.read, 1, reads)
    (found,), lag = read
    return log_page(campaign_id, found, after, lag)


class LogFastPath:
    def __init__(self, app: ASGIApp, enabled: bool = True) -> None:
        self.app = app
        self.enabled = enabled
        self.rereads: Rereads = {}  # api/access_reads.py

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = (
            LOG_PATH.match(scope["path"])
            if self.enabled and scope["type"] == "http" and scope["method"] == "GET"
            else None
        )
        payload = None if found is None else await self._answer(scope, found.group(1))
        if payload is None:
            await self.app(scope, receive, send)
            return
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    (b"content-length", str(len(payload)).encode()),
                    (b"content-type", b"application/json"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": payload})

    async def _answer(self, scope: Scope, campaign: str) -> bytes | None:
        bounds = page_query(scope.get("query_string", b""))
        presented = bearer_in(scope["headers"])
        if bounds is None or presented is None:
            return None
        key, key_id = presented
        backend = scope["app"].state.backend
        application: SkaldApplication = backend.application
        try:
            campaign_id = UUID(campaign)
        except ValueError:
            return None
        # Any key of the campaign reads its log (the route's `Reader`), checked as the
        # view reads check it; a refusal is the route's to answer.
        digest = KeyMaker.digest(key)
        try:
            known = application.access_if_fresh(campaign_id, key_id, digest)
        except DomainError:
            return None
        if known is None and (
            await fresh_access(application, campaign_id, key_id, digest, self.rereads) is None
        ):
            return None
        try:
            return await log_answer(backend.views, str(campaign_id), *bounds)
        except Exception:  # Redis away, a view of another shape: the route answers
            return None
