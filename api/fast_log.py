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

A page's bytes, any role's, are kept whole too (api/kept_views.py, by role and query),
under the log's version (projections/versions.py) and, for a redacted page, the
campaign's version: while both stand, a read asks Redis only the log's version and its
length, a reply of a few bytes, rather than the page's events (~70 KB for 50), and sends
the bytes kept (`log_answer`). A GM's, a player's and a viewer's page is answered before
the middleware stack (api/read_path.py); this middleware answers what that one leaves.
"""

from __future__ import annotations

import re
import threading
from urllib.parse import parse_qsl
from uuid import UUID

import orjson
from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Receive, Scope, Send

from skald_campaign.api.access_reads import Rereads, fresh_access
from skald_campaign.api.fast_views import (
    NotRead,
    ToMake,
    Versioned,
    client_here,
    send_ok_json,
    store_position_read,
    versioned_read,
)
from skald_campaign.api.kept_views import KEPT
from skald_campaign.api.keys import KeyMaker, bearer_in
from skald_campaign.api.routes.feed import LARGEST_ID
from skald_campaign.api.view_connection import line_here
from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.audit_pages import Mark
from skald_campaign.application.queries import StoreMarks
from skald_campaign.domain.access import Access, Role
from skald_campaign.domain.errors import DomainError
from skald_campaign.projections.log import log_page, log_reads, log_version_reads
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
        # (campaign, role) -> (the campaign's version, {position: the event's bytes as
        # the log holds them, and redacted}): made again if the log's bytes differ (a
        # campaign rebuild may write another event's bytes at a position).
        self._kept: dict[tuple[UUID, Role], tuple[int, dict[int, tuple[bytes, bytes]]]] = {}
        self._size = 0

    def page(
        self,
        application: SkaldApplication,
        campaign_id: UUID,
        role: Role,
        found: object,
        after: int,
        lag: Lag,
        version: int,
    ) -> bytes:
        """The page the middleware would have made of the GM's page (``found``: its
        events' kept bytes and positions), for a key of ``role``, the campaign at
        ``version`` (a worker thread's: the policy may be read from the store)."""
        with self._lock:
            kept = self._kept.get((campaign_id, role))
            seen = kept[1] if kept is not None and kept[0] == version else {}
        policy = None
        made: dict[int, tuple[bytes, bytes]] = {}
        redacted: list[tuple[bytes, int]] = []
        for raw, position in _events(found):
            known = seen.get(position)
            if known is not None and known[0] == raw:
                event = known[1]
            else:
                if policy is None:
                    policy = application.redaction(campaign_id, role)
                event = raw if policy is None else orjson.dumps(policy.document(orjson.loads(raw)))
                made[position] = (raw, event)
            redacted.append((event, position))
        if made:
            self._keep(campaign_id, role, version, made)
        return log_page(str(campaign_id), redacted, after, lag)

    def _keep(
        self, campaign_id: UUID, role: Role, version: int, made: dict[int, tuple[bytes, bytes]]
    ) -> None:
        def size(events: dict[int, tuple[bytes, bytes]]) -> int:
            return sum(len(raw) + len(event) for raw, event in events.values())

        with self._lock:
            kept = self._kept.get((campaign_id, role))
            if kept is None or kept[0] != version:
                if kept is not None:
                    self._size -= size(kept[1])
                kept = self._kept[(campaign_id, role)] = (version, {})
            if self._size + size(made) > self.budget:
                self._kept.clear()
                self._size = 0
                kept = self._kept[(campaign_id, role)] = (version, {})
            replaced = {p: kept[1][p] for p in made if p in kept[1]}
            kept[1].update(made)
            self._size += size(made) - size(replaced)


def _events(found: object) -> list[tuple[bytes, int]]:
    events = []
    for member in redis_list(found):
        raw, position = member if isinstance(member, (list, tuple)) else (None, None)
        if not isinstance(raw, bytes) or type(position) is not int:
            raise TypeError(f"Redis answered {member!r}, not an event's JSON and its position")
        events.append((raw, position))
    return events


class CampaignVersions:
    """The campaign's version a player's or viewer's page is redacted under, from memory
    while nothing can have changed it: its mark (this process's saves of it, the store's
    position: application/queries.py StoreMarks) as when it was read; another process's
    write shows within the store position's 0.1 s, as on the GM's kept pages."""

    LIMIT = 10_000  # campaigns kept; past it, all are read again

    def __init__(self) -> None:
        self._kept: dict[UUID, tuple[Mark, int]] = {}

    def here(self, application: SkaldApplication, campaign_id: UUID) -> int | None:
        """The version when memory alone has it, else None."""
        mark = StoreMarks(application).fresh(campaign_id)
        kept = self._kept.get(campaign_id)
        return kept[1] if mark is not None and kept is not None and kept[0] == mark else None

    def read(self, application: SkaldApplication, campaign_id: UUID) -> int:
        """The version as the store has it (a worker thread's), kept with its mark,
        taken before the read."""
        mark = StoreMarks(application).now(campaign_id)
        version = application.campaign(campaign_id).version
        if len(self._kept) >= self.LIMIT:
            self._kept.clear()
        self._kept[campaign_id] = (mark, version)
        return version

    async def version(
        self, application: SkaldApplication, views: ViewReader, campaign_id: UUID
    ) -> int:
        found = self.here(application, campaign_id)
        if found is None and application.known_position.fresh() is None:
            await store_position_read(views)  # stale every 0.1 s: read once for all waiting
            found = self.here(application, campaign_id)
        if found is None:
            found = await run_in_threadpool(self.read, application, campaign_id)
        return found


REDACTED = RedactedEvents()
VERSIONS = CampaignVersions()


async def log_answer(
    application: SkaldApplication,
    views: ViewReader,
    campaign_id: UUID,
    role: Role,
    after: int,
    limit: int,
) -> bytes:
    """The page as the route writes it, for a key of ``role`` (a player's or viewer's
    redacted as the middleware would, on a worker thread). Kept in memory, by role and
    query, while the log's version (projections/versions.py) and, for a redacted page,
    the campaign's version are the ones it was made under: a read then asks Redis only
    the log's version and its length (api/fast_views.py `versioned_read`). Read on the
    event loop's own connection to Redis when there is one, else as the route reads."""
    cid = str(campaign_id)
    version = None if role == "gm" else await VERSIONS.version(application, views, campaign_id)

    def made(found: object, lag: Lag) -> bytes:
        if version is None:
            return log_page(cid, found, after, lag)
        return REDACTED.page(application, campaign_id, role, found, after, lag, version)

    line = await line_here(views.redis_url) if views.redis_url else None
    if line is not None:
        name = (f"/campaigns/{cid}/events {role}", b"%d %d" % (after, limit))
        page = Versioned(log_version_reads(cid), log_reads(cid, after, limit), 1)
        read = await versioned_read(views, line, name, page, version)
        if isinstance(read, NotRead):
            await store_position_read(views)
            read = await versioned_read(views, line, name, page, version)
        if isinstance(read, bytes):
            return read
        if isinstance(read, ToMake):
            found = read.answers[2]
            if version is None:
                payload = made(found, read.lag)
            else:
                payload = await run_in_threadpool(made, found, read.lag)
            return KEPT.answer(name, read.kept_as, read.lag, lambda *_: payload) or payload
    reads = log_reads(cid, after, limit)
    here = None
    if views.redis_url:
        here = await views.read_async(client_here(views.redis_url), 1, reads)
    if here is None:
        here = await run_in_threadpool(views.read, 1, reads)
    (found,), lag = here
    if version is None:
        return made(found, lag)
    return await run_in_threadpool(made, found, lag)


async def log_answer_for(
    application: SkaldApplication, views: ViewReader, campaign: str, access: Access, query: bytes
) -> bytes | None:
    """`log_answer` for a key the campaign accepts, when the query is plainly valid;
    None when the route must answer (a query to validate, Redis away, a view of another
    shape: it says what went wrong)."""
    bounds = page_query(query)
    if bounds is None:
        return None
    try:
        return await log_answer(application, views, UUID(campaign), access.role, *bounds)
    except Exception:
        return None


# Set in the request's scope by api/read_path.py when it tried the page already.
LOG_TRIED = "skald.log_read_tried"


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
        await send_ok_json(send, payload)

    async def _answer(self, scope: Scope, campaign: str) -> bytes | None:
        presented = bearer_in(scope["headers"])
        if presented is None or LOG_TRIED in scope:
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
        query: bytes = scope.get("query_string", b"")
        return await log_answer_for(application, backend.views, campaign, access, query)
