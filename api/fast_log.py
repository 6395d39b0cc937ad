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

It sits outside the redaction middleware (api/redacting.py), so it answers a player's
and a viewer's page itself, as that middleware would rewrite the GM's page: each event
redacted by the campaign's policy for the role (`SkaldApplication.redaction`, the
middleware's) and written by orjson, the middleware's writer. The page's JSON is an
object around the events whose other fields the policy leaves as they are, and the walk
redacts each event apart (application/event_log.py `as_seen_by` relies on the same), so
the page of the events so redacted is the middleware's page byte for byte. Each event's
redacted bytes are kept in the process for the campaign's version they were made under:
a page is then the kept bytes of its events (`RedactedEvents`); a write to the campaign
(an NPC enrolled, a sheet amended, its options changed) starts them afresh.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from urllib.parse import parse_qsl
from uuid import UUID

import orjson
from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Receive, Scope, Send

from skald_campaign.api.access_reads import Rereads, fresh_access
from skald_campaign.api.fast_views import client_here, send_ok_json
from skald_campaign.api.keys import KeyMaker, bearer_in
from skald_campaign.api.routes.feed import LARGEST_ID
from skald_campaign.application.application import SkaldApplication
from skald_campaign.domain.access import Access, Role
from skald_campaign.domain.errors import DomainError
from skald_campaign.projections.log import log_page, log_reads
from skald_campaign.projections.reader import ViewReader
from skald_campaign.projections.view_reads import Lag, redis_list

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


KEPT_BYTES = 32 * 2**20  # the redacted events a process keeps, all campaigns together


class RedactedEvents:
    """Each logged event's JSON as a player's or a viewer's key reads it, made once per
    campaign version and role, and kept (up to ``budget`` bytes: past it, all are
    dropped and made again as pages ask for them)."""

    def __init__(self, budget: int = KEPT_BYTES) -> None:
        self.budget = budget
        self._lock = threading.Lock()
        # (campaign, role) -> (the campaign's version, {position: the event's bytes})
        self._kept: dict[tuple[UUID, Role], tuple[int, dict[int, bytes]]] = {}
        self._size = 0

    def page(
        self,
        application: SkaldApplication,
        campaign_id: UUID,
        role: Role,
        found: object,
        after: int,
        lag: Lag,
    ) -> bytes:
        """The page the middleware would have made of the GM's page (``found``: its
        events' kept bytes and positions), for a key of ``role`` (a worker thread's:
        the campaign may be read from the store)."""
        version = application.campaign(campaign_id).version
        with self._lock:
            kept = self._kept.get((campaign_id, role))
            seen = kept[1] if kept is not None and kept[0] == version else {}
        policy = None
        made: dict[int, bytes] = {}
        redacted: list[tuple[bytes, int]] = []
        for raw, position in _events(found):
            event = seen.get(position)
            if event is None:
                if policy is None:
                    policy = application.redaction(campaign_id, role)
                event = raw if policy is None else orjson.dumps(policy.document(orjson.loads(raw)))
                made[position] = event
            redacted.append((event, position))
        if made:
            self._keep(campaign_id, role, version, made)
        return log_page(str(campaign_id), redacted, after, lag)

    def _keep(self, campaign_id: UUID, role: Role, version: int, made: dict[int, bytes]) -> None:
        added = sum(len(event) for event in made.values())
        with self._lock:
            kept = self._kept.get((campaign_id, role))
            if kept is None or kept[0] != version:
                if kept is not None:
                    self._size -= sum(len(event) for event in kept[1].values())
                kept = self._kept[(campaign_id, role)] = (version, {})
            if self._size + added > self.budget:
                self._kept.clear()
                self._size = 0
                kept = self._kept[(campaign_id, role)] = (version, {})
            fresh = {p: e for p, e in made.items() if p not in kept[1]}
            kept[1].update(fresh)
            self._size += sum(len(event) for event in fresh.values())


def _events(found: object) -> list[tuple[bytes, int]]:
    events = []
    for member in redis_list(found):
        raw, position = member if isinstance(member, (list, tuple)) else (None, None)
        if not isinstance(raw, bytes) or type(position) is not int:
            raise TypeError(f"Redis answered {member!r}, not an event's JSON and its position")
        events.append((raw, position))
    return events


async def log_answer(
    views: ViewReader,
    campaign_id: str,
    after: int,
    limit: int,
    redacted_for: Callable[[object, Lag], bytes] | None = None,
) -> bytes:
    """The page as the route writes it: read on the event loop when one round trip does
    it (ViewReader.read_async), else on a worker thread as the route reads it; for a
    player's or a viewer's key (``redacted_for``), redacted as the middleware would, on
    a worker thread."""
    reads = log_reads(campaign_id, after, limit)
    read = None
    if views.redis_url:
        read = await views.read_async(client_here(views.redis_url), 1, reads)
    if read is None:
        read = await run_in_threadpool(views.read, 1, reads)
    (found,), lag = read
    if redacted_for is not None:
        return await run_in_threadpool(redacted_for, found, lag)
    return log_page(campaign_id, found, after, lag)


class LogFastPath:
    def __init__(self, app: ASGIApp, enabled: bool = True) -> None:
        self.app = app
        self.enabled = enabled
        self.rereads: Rereads = {}  # api/access_reads.py
        self.redacted = RedactedEvents()

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
        await send_ok_json(send, payload)

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
            access: Access | None = application.access_if_fresh(campaign_id, key_id, digest)
        except DomainError:
            return None
        if access is None:
            access = await fresh_access(application, campaign_id, key_id, digest, self.rereads)
        if access is None:
            return None
        after, limit = bounds
        redacted_for = None
        if access.role != "gm":
            role: Role = access.role

            def redacted_for(found: object, lag: Lag) -> bytes:
                return self.redacted.page(application, campaign_id, role, found, after, lag)

        try:
            return await log_answer(backend.views, str(campaign_id), after, limit, redacted_for)
        except Exception:  # Redis away, a view of another shape: the route answers
            return None
