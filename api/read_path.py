"""A GM's view reads and audit and history pages answered before the middleware stack
(issue 39: reads at half the stack's cost).

A view read (vitals, a board, the campaign's audit page) answered by api/fast_views.py
below the router still passed through every middleware on its way in and every ``send``
wrapper on its way out: FastAPI's three (server errors, telemetry, its body limit), then
the security headers, the unexpected errors, the assistant's mount, the rate limit, the
ETags, the body limit, the redaction, the attribution and the action fast path, each a
coroutine call per request and most a closure around ``send``. For a GM's ordinary GET
none of them changes the answer but three: the rate limit counts it, the ETags tag it (or
answer 304) and the security headers are added. Here those three are done in one place,
with the same code, and the answer goes straight to the server.

An audit or history page went further still: the router, its dependencies, a worker
thread and a query for the aggregate's newest version, to send bytes kept in memory
(application/audit_pages.py). An unfiltered page is answered here when memory alone
has it: the kept entries, and the newest version while nothing can have changed it
(``kept_page_json``; another process's write shows within the store position's 0.1 s).

An event-log page (/campaigns/{id}/events) is answered here for any key the campaign
accepts (api/fast_log.py redacts a player's or a viewer's page as the stack's redaction
would, and keeps each page's bytes while the log's version stands): between the log's
own fast path and the server there were the stack's middlewares, none of which changes
its answer but the rate limit and the security headers.

Everything out of the ordinary goes through the whole stack as before: another method or
path, a request with a body or a Content-Encoding (the body limit's to judge), no key, a
key the campaign refuses or, but for the log, that is not the GM's (a player's or
viewer's answer is redacted: api/redacting.py), a query to validate, a filtered page, a
view not projected yet, a page not kept, Redis away. The rate limit's decision made here
travels with the request (``RATE_DECIDED``), so a request that goes on through the stack
is counted once.
"""

from __future__ import annotations

import re
from uuid import UUID

from starlette.applications import Starlette
from starlette.types import Scope, Send

from skald_campaign.api.access_reads import Rereads, access_before_stack
from skald_campaign.api.etags import matches
from skald_campaign.api.fast_log import LOG_PATH, LOG_TRIED, log_answer_for
from skald_campaign.api.fast_views import (
    VIEW_PATH,
    VIEW_TRIED,
    plain_page_bounds,
    send_ok_json,
    store_position_read,
    view_answer_anywhere,
)
from skald_campaign.api.kept_views import KEPT
from skald_campaign.api.keys import bearer_in
from skald_campaign.api.limits import RateLimiter, decide_before_stack, presented_key
from skald_campaign.api.security import security_headers
from skald_campaign.application.application import SkaldApplication

PAGE_PATH = re.compile(r"^/campaigns/([0-9a-f-]{36})/(?:history|encounters/([0-9a-f-]{36})/audit)$")
KINDS = (("view", VIEW_PATH), ("page", PAGE_PATH), ("log", LOG_PATH))
# Headers that make a GET the body limit's to judge (it reads and checks any body).
BODY_HEADERS = (b"content-length", b"transfer-encoding", b"content-encoding")


def without_body(headers: dict[bytes, bytes]) -> bool:
    return all(headers.get(name, b"0") == b"0" for name in BODY_HEADERS)


def page_bounds(query: bytes) -> tuple[int, int] | None:
    """An audit or history page's offset and limit when the query asks for an unfiltered
    page and is plainly valid (api/routes/history.py's bounds); else None: the route's."""
    return plain_page_bounds(query, default_limit=100, max_limit=1000)


def page_answer(application: SkaldApplication, found: re.Match[str], query: bytes) -> bytes | None:
    """An unfiltered audit or history page from memory alone (application/audit_pages.py
    ``kept_page_json``), or None: the route answers."""
    bounds = page_bounds(query)
    if bounds is None:
        return None
    campaign_id = UUID(found.group(1))
    queries = application.queries
    if found.group(2) is None:
        return queries.kept_campaign_history_json(campaign_id, *bounds)
    return queries.kept_encounter_audit_json(campaign_id, UUID(found.group(2)), *bounds)


class ReadFastPath:
    """Called by the application before its middleware stack (api/app.py ``SkaldAPI``):
    ``answer`` answers the request and says True, or says False and has sent nothing."""

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        self.rereads: Rereads = {}  # see api/access_reads.py

    def takes(self, scope: Scope) -> tuple[re.Match[str], str] | None:
        """The read's path matched, and what it reads: a view, a page or the log."""
        if not self.enabled or scope["type"] != "http" or scope["method"] != "GET":
            return None
        path = scope["path"]
        for kind, pattern in KINDS:
            found = pattern.match(path)
            if found is not None:
                return found, kind
        return None

    async def answer(
        self, app: Starlette, scope: Scope, read: tuple[re.Match[str], str], send: Send
    ) -> bool:
        found, kind = read
        is_view = kind == "view"
        state = app.state
        limiter: RateLimiter | None = getattr(state, "rate_limiter", None)
        headers = dict(scope["headers"])
        presented = bearer_in(headers.items())
        if (
            limiter is None
            or presented is None
            or not without_body(headers)
            or presented[0] != presented_key(scope)  # two Authorization headers
        ):
            return False
        key, key_id = presented
        if decide_before_stack(limiter, scope, key) is not None:
            return False  # the stack's RateLimit sends the 429 it decided here
        backend = state.backend
        application: SkaldApplication = backend.application
        try:
            campaign_id = UUID(found.group(1))
            if kind == "page" and found.group(2) is not None:
                UUID(found.group(2))
        except ValueError:
            return False
        access = await access_before_stack(application, campaign_id, key_id, key, self.rereads)
        if access is None:
            return False
        query: bytes = scope.get("query_string", b"")
        extra = security_headers(scope["path"])
        if kind == "log":  # any role's: api/fast_log.py redacts a player's or viewer's
            scope[LOG_TRIED] = True  # what this read found, the stack's fast path would too
            log = await log_answer_for(application, backend.views, found.group(1), access, query)
            if log is None:
                return False
            await send_ok_json(send, log, extra)
            return True
        if access.role != "gm":
            return False
        if not is_view:
            page = page_answer(application, found, query)
            if page is None and application.known_position.fresh() is None:
                try:  # the store's position went stale (every 0.1 s): read it, once
                    await store_position_read(backend.views)
                except Exception:  # the route's to answer
                    return False
                page = page_answer(application, found, query)
            if page is None:
                return False
            await send_ok_json(send, page, extra)
            return True
        scope[VIEW_TRIED] = True  # what this read found, the stack's fast path would too
        payload = await view_answer_anywhere(backend.views, found, query)
        if payload is None:
            return False
        etag = KEPT.etag_of(payload)
        asked = headers.get(b"if-none-match")
        if asked is not None and matches(asked, etag):
            start = {
                "type": "http.response.start",
                "status": 304,
                "headers": [(b"etag", etag), *extra],
            }
            await send(start)
            await send({"type": "http.response.body", "body": b""})
            return True
        await send_ok_json(send, payload, [(b"etag", etag), *extra])
        return True
