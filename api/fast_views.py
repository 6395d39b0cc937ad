"""The view reads (vitals, board, audit log), answered below FastAPI's routing.

A view read is the cheapest thing the server does: one Redis round trip
(projections/reader.py). Through the router it cost as much as a command (bench/README.md,
issue 28): routing, solving the dependencies, building and validating the answer's models
and serialising them was nearly all of it. Here, inside the same middlewares (rate limits,
the ETags, any middleware that rewrites a player's or viewer's answer), a read whose key
the campaign accepts (checked as the action's fast path checks it) is read with the
route's own reader and written by orjson from the reader's plain values, in the field
order of the route's answer model, with the same bytes (tests/integration/
test_fast_views.py compares them).

Anything else goes to the route untouched: no key, a key the campaign refuses, an offset
or limit to validate, a view not projected yet, a board of another campaign, and any
value the models would coerce or write differently (a field typed int holding another
type: the model path answers, as in api/views.py `outcome_json`).
"""

from __future__ import annotations

import asyncio
import re
import weakref
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple
from urllib.parse import parse_qsl
from uuid import UUID

import orjson
from redis.asyncio import Redis as AsyncRedis
from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Receive, Scope, Send

from skald_campaign.api.access_reads import fresh_access
from skald_campaign.api.kept_views import KEPT, Name, VersionTag, is_tagged
from skald_campaign.api.keys import KeyMaker, bearer_in
from skald_campaign.api.routes.views import MAX_OFFSET
from skald_campaign.api.view_connection import ViewConnection, line_here
from skald_campaign.application.application import SkaldApplication
from skald_campaign.domain.access import Access
from skald_campaign.domain.errors import DomainError
from skald_campaign.projections.keys import ViewKeys
from skald_campaign.projections.reader import ViewReader
from skald_campaign.projections.view_reads import (
    AnyPipeline,
    Lag,
    Reads,
    audit_entries_reads,
    audit_of,
    audit_reads,
    audit_version_reads,
    board_of,
    board_reads,
    vitals_of,
    vitals_reads,
)

VIEW_PATH = re.compile(
    r"^/campaigns/([0-9a-f-]{36})/(?:(vitals)|(audit)|encounters/([0-9a-f-]{36})/board)$"
)
_PLAIN_ONLY = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS

Document = dict[str, object]


def _is_int(value: object) -> bool:
    return type(value) is int


def _str_or_none(value: object) -> bool:
    return value is None or type(value) is str


def _lag(lag: object) -> Document | None:
    if not (
        type(lag) is dict
        and all(_is_int(lag.get(k)) for k in ("position", "store", "behind"))
        and _str_or_none(lag.get("generation"))
    ):
        return None
    return {k: lag[k] for k in ("position", "store", "behind", "generation")}


def _bars(tracks: object) -> bool:
    return type(tracks) is dict and all(
        type(name) is str
        and type(bar) is dict
        and len(bar) == 2
        and _is_int(bar.get("current"))
        and (bar.get("max") is None or _is_int(bar.get("max")))
        for name, bar in tracks.items()
    )


def _strings(values: object) -> bool:
    return type(values) is list and all(type(v) is str for v in values)


def _dicts(values: object) -> bool:
    return type(values) is list and all(type(v) is dict for v in values)


def _character(c: Mapping[str, object]) -> Document | None:
    if not (
        type(c.get("id")) is str
        and type(c.get("name")) is str
        and _bars(c.get("tracks"))
        and _strings(c.get("conditions"))
        and type(c.get("state")) is dict
        and _str_or_none(c.get("encounter"))
        and _is_int(c.get("changes"))
        and _is_int(c.get("position"))
        and _str_or_none(c.get("seen_as"))
    ):
        return None
    keys = ("id", "name", "tracks", "conditions", "state", "encounter", "changes", "position")
    return {**{k: c[k] for k in keys}, "seen_as": c.get("seen_as")}


def vitals_document(vitals: Mapping[str, object]) -> Document | None:
    """`VitalsOut(**vitals)` as plain values, or None where the model might differ."""
    lag = _lag(vitals.get("projection"))
    characters = vitals.get("characters")
    if not (
        lag is not None
        and all(type(vitals.get(k)) is str for k in ("campaign_id", "name", "ruleset"))
        and _is_int(vitals.get("day"))
        and _is_int(vitals.get("events"))
        and type(characters) is list
        and _dicts(vitals.get("encounters"))
    ):
        return None
    out = [_character(c) if type(c) is dict else None for c in characters]
    if any(c is None for c in out):
        return None
    return {
        "campaign_id": vitals["campaign_id"],
        "name": vitals["name"],
        "ruleset": vitals["ruleset"],
        "day": vitals["day"],
        "events": vitals["events"],
        "characters": out,
        "encounters": vitals["encounters"],
        "projection": lag,
    }


def _combatant(c: Mapping[str, object]) -> Document | None:
    if not (
        type(c.get("id")) is str
        and type(c.get("name")) is str
        and type(c.get("side")) is str
        and _is_int(c.get("rank"))
        and _bars(c.get("tracks"))
        and _strings(c.get("conditions"))
        and type(c.get("state")) is dict
        and _str_or_none(c.get("seen_as"))
    ):
        return None
    keys = ("id", "name", "side", "rank", "tracks", "conditions", "state")
    return {**{k: c[k] for k in keys}, "seen_as": c.get("seen_as")}


BOARD_DEFAULTS: tuple[tuple[str, object, type], ...] = (
    ("name", "", str),
    ("ruleset", "", str),
    ("round", 0, int),
    ("ended", False, bool),
    ("version", 0, int),
    ("events", 0, int),
    ("actions", 0, int),
)


def board_document(board: Mapping[str, object]) -> Document | None:
    """`BoardOut(**board)` as plain values (its fields only, defaults where missing)."""
    lag = _lag(board.get("projection"))
    combatants = board.get("combatants")
    if not (
        lag is not None
        and type(board.get("id")) is str
        and type(board.get("campaign_id")) is str
        and type(combatants) is list
        and _dicts(board.get("last_actions", []))
    ):
        return None
    out: Document = {"id": board["id"], "campaign_id": board["campaign_id"]}
    for name, default, kind in BOARD_DEFAULTS:
        value = board.get(name, default)
        if type(value) is not kind:
            return None
        out[name] = value
    listed = [_combatant(c) if type(c) is dict else None for c in combatants]
    if any(c is None for c in listed):
        return None
    out["combatants"] = listed
    out["last_actions"] = board.get("last_actions", [])
    table = _table(board)
    if table is None:
        return None
    out.update(table)
    out["projection"] = lag
    return out


def _table(board: Mapping[str, object]) -> Document | None:
    """The table's fields of `BoardOut` (issue 23), from the board's `table` and
    `end_reason` (boards without them: the defaults)."""
    table = board.get("table", {})
    if type(table) is not dict:
        return None
    markers, skipped = table.get("markers", []), table.get("skipped", [])
    initiative = table.get("initiative", {})
    end_reason = board.get("end_reason")
    if not (
        _dicts(markers)
        and _dicts(skipped)
        and type(initiative) is dict
        and all(type(total) is int for total in initiative.values())
        and (end_reason is None or type(end_reason) is str)
    ):
        return None
    return {
        "markers": markers,
        "initiative": initiative,
        "skipped": skipped,
        "end_reason": end_reason,
    }


def audit_document(audit: Mapping[str, object]) -> Document | None:
    """`AuditOut(**audit)` as plain values."""
    lag = _lag(audit.get("projection"))
    if not (
        lag is not None
        and type(audit.get("campaign_id")) is str
        and all(_is_int(audit.get(k)) for k in ("total", "offset", "limit"))
        and _dicts(audit.get("entries"))
    ):
        return None
    keys = ("campaign_id", "total", "offset", "limit", "entries")
    return {**{k: audit[k] for k in keys}, "projection": lag}


def page_bounds(query: bytes) -> tuple[int, int] | None:
    """The audit's offset and limit when the query is plainly valid (else the route's)."""
    return plain_page_bounds(query, default_limit=50, max_limit=500, max_offset=MAX_OFFSET)


def plain_page_bounds(
    query: bytes, *, default_limit: int, max_limit: int, max_offset: int | None = None
) -> tuple[int, int] | None:
    """A page's offset and limit when the query asks for nothing but them, as plain
    digits within the route's bounds; else None, and the route answers (its validation,
    its error). One reading of a page query for every fast path."""
    offset, limit = 0, default_limit
    for name, value in parse_qsl(query.decode("latin-1"), keep_blank_values=True):
        if not value.isascii() or not value.isdigit() or len(value) > 10:
            return None
        if name == "offset":
            offset = int(value)
        elif name == "limit":
            limit = int(value)
        else:
            return None
    if (max_offset is not None and offset > max_offset) or not 1 <= limit <= max_limit:
        return None
    return offset, limit


Build = Callable[[list[object], Lag], Document | None]


def view_plan(found: re.Match[str], query: bytes) -> tuple[int, Reads, Build] | None:
    """The view's reads (how many answers they give, and what queues them) and how its
    answer's document is made from them; None when the route must answer."""
    campaign_id = found.group(1)
    if found.group(2):

        def vitals(answers: list[object], lag: Lag) -> Document | None:
            found_vitals = vitals_of(campaign_id, answers, lag)
            return None if found_vitals is None else vitals_document(found_vitals)

        return 2, vitals_reads(campaign_id), vitals
    if found.group(3):
        bounds = page_bounds(query)
        if bounds is None:
            return None
        offset, limit = bounds
        return (
            2,
            audit_reads(campaign_id, offset, limit),
            lambda answers, lag: audit_document(audit_of(campaign_id, offset, limit, answers, lag)),
        )

    def board(answers: list[object], lag: Lag) -> Document | None:
        found_board = board_of(answers, lag)
        if found_board is None or found_board.get("campaign_id") != campaign_id:
            return None
        return board_document(found_board)

    return 1, board_reads(found.group(4)), board


def answer_of(document: Document) -> bytes | None:
    """The answer's bytes as the route writes them, or None: the route answers."""
    try:
        return orjson.dumps(document, option=_PLAIN_ONLY)
    except TypeError:  # a value orjson does not write as pydantic would
        return None


def view_answer(views: ViewReader, found: re.Match[str], query: bytes) -> bytes | None:
    """The view's answer as the route sends it, or None: the route answers (read on a
    worker thread, with the synchronous client)."""
    plan = view_plan(found, query)
    if plan is None:
        return None
    count, reads, build = plan
    document = build(*views.read(count, reads))
    return None if document is None else answer_of(document)


class NotRead:
    """The read on the event loop could not be made: read on a worker thread."""


NOT_READ = NotRead()


async def view_answer_here(
    views: ViewReader, redis_url: str, found: re.Match[str], query: bytes
) -> bytes | NotRead | None:
    """`view_answer` read on the event loop, no worker thread: on the loop's own
    connection (api/view_connection.py), the answer's bytes kept while the view's are the
    same (api/kept_views.py); else with an asyncio redis-py client. NOT_READ when it needs
    more than its one round trip (see ViewReader.read_async)."""
    plan = view_plan(found, query)
    if plan is None:
        return None
    count, reads, build = plan
    line = await line_here(redis_url)
    if line is None:
        read = await views.read_async(client_here(redis_url), count, reads)
        if read is None:
            return NOT_READ
        document = build(*read)
        return None if document is None else answer_of(document)
    name = (found.group(0), query)

    def make(answers: list[object], lag: Lag) -> bytes | None:
        document = build(answers, lag)
        return None if document is None else answer_of(document)

    if found.group(3):  # the campaign's audit page: versioned (projections/versions.py)
        campaign_id = found.group(1)
        offset, limit = page_bounds(query) or (0, 0)  # view_plan read them
        page = Versioned(
            audit_version_reads(campaign_id), audit_entries_reads(campaign_id, offset, limit), 1
        )
        return await versioned_answer(
            views, line, name, page, lambda answers, lag: make(answers[1:], lag)
        )

    async def execute(keys: ViewKeys, queue: Callable[[AnyPipeline], None]) -> list[object]:
        return await line.read(KEPT.commands(name, keys.root, queue))

    read = await views.read_through(execute, count, reads)
    if read is None:
        return NOT_READ
    return KEPT.answer(name, *read, make)


class Versioned(NamedTuple):
    """A page read with a version beside it (projections/versions.py): ``check`` queues
    the version's read and the size of what it counts (two short answers, in that
    order); ``page`` the page's own reads (``page_answers`` answers), made after the check's."""

    check: Reads
    page: Reads
    page_answers: int


def version_tag(answers: list[object], lag: Lag, made_under: object) -> VersionTag | None:
    """What a page is kept under, from the check's two answers; None where there is no
    version (views projected before there were versions)."""
    version, size = answers[0], answers[1]
    if type(version) is not bytes or type(size) is not int:
        return None
    return VersionTag(lag["generation"], version, size, made_under)


async def versioned_answer(
    views: ViewReader,
    line: ViewConnection,
    name: Name,
    page: Versioned,
    make: Callable[[list[object], Lag], bytes | None],
) -> bytes | NotRead | None:
    """`versioned_read`, its page made by ``make`` (from the check's answers and the
    page's) when not kept."""
    read = await versioned_read(views, line, name, page)
    if not isinstance(read, ToMake):
        return read
    return KEPT.answer(name, read.kept_as, read.lag, lambda _, lag: make(read.answers, lag))


class ToMake(NamedTuple):
    """A versioned page not kept: its answers from Redis, the lag, what to keep it under."""

    answers: list[object]
    lag: Lag
    kept_as: list[object]


async def versioned_read(
    views: ViewReader,
    line: ViewConnection,
    name: Name,
    page: Versioned,
    made_under: object = None,
) -> bytes | NotRead | ToMake:
    """A page's bytes from memory while its version is the one they were made under,
    asking Redis only the version (a few bytes) and the views' positions; else the page
    read whole, to be made and kept (`KEPT.answer` with ``kept_as``) under the version
    read with it: read before the page's entries, so the bytes kept are never older than
    the version (api/kept_views.py keeps them, bounded). ``made_under``: what else the
    bytes depend on, compared too. A page of views without a version is read whole every
    time and kept by its answers' bytes, as the other views are."""

    def execute(what: str) -> Callable[[ViewKeys, Callable[[AnyPipeline], None]], Any]:
        async def run(keys: ViewKeys, queue: Callable[[AnyPipeline], None]) -> list[object]:
            return await line.read(KEPT.commands(name, keys.root, queue, what))

        return run

    if KEPT.has(name, is_tagged):
        read = await views.read_through(execute("version"), 2, page.check)
        if read is None:
            return NOT_READ
        checked, lag = read
        tag = version_tag(checked, lag, made_under)
        if tag is not None:
            payload = KEPT.kept(name, [tag], lag)
            if payload is not None:
                return payload

    def both(pipe: AnyPipeline, keys: ViewKeys) -> None:
        page.check(pipe, keys)
        page.page(pipe, keys)

    read = await views.read_through(execute("page"), 2 + page.page_answers, both)
    if read is None:
        return NOT_READ
    answers, lag = read
    tag = version_tag(answers, lag, made_under)
    return ToMake(answers, lag, [*answers, made_under] if tag is None else [tag])


# One asyncio client per event loop and Redis (a client is bound to the loop it ran on).
_CLIENTS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, AsyncRedis]] = (
    weakref.WeakKeyDictionary()
)


def client_here(redis_url: str) -> AsyncRedis:
    clients = _CLIENTS.setdefault(asyncio.get_running_loop(), {})
    found = clients.get(redis_url)
    if found is None:
        found = clients[redis_url] = AsyncRedis.from_url(redis_url)
    return found


async def view_answer_anywhere(
    views: ViewReader, found: re.Match[str], query: bytes
) -> bytes | None:
    """The view's answer as the route sends it, read on the event loop when it can be and
    on a worker thread when not; None: the route answers (Redis away, a view of another
    shape, anything out of the ordinary)."""
    try:
        if views.redis_url:
            here = await view_answer_here(views, views.redis_url, found, query)
            if isinstance(here, NotRead):  # most often: the store's position not fresh
                await store_position_read(views)
                here = await view_answer_here(views, views.redis_url, found, query)
            if not isinstance(here, NotRead):
                return here
        return await run_in_threadpool(view_answer, views, found, query)
    except Exception:  # the route answers, and says what went wrong
        return None


_POSITION_READS: weakref.WeakKeyDictionary[ViewReader, asyncio.Future[int]] = (
    weakref.WeakKeyDictionary()
)


async def store_position_read(views: ViewReader) -> None:
    """The store's position read again on a worker thread (application/store_position.py),
    once for every request waiting on it: it goes stale every 0.1 s, and then every read
    arriving until one had read it again went to a worker thread of its own."""
    reading = _POSITION_READS.get(views)
    if reading is None:
        reading = asyncio.ensure_future(run_in_threadpool(views.store_position))
        _POSITION_READS[views] = reading

        def finished(done: asyncio.Future[int]) -> None:
            if _POSITION_READS.get(views) is done:
                del _POSITION_READS[views]
            if not done.cancelled():
                done.exception()  # seen here: a requester gone leaves it unasked

        reading.add_done_callback(finished)
    await asyncio.shield(reading)


# Set in the request's scope by api/read_path.py when it read the view already: what it
# found (nothing to answer with), a second read here would find too.
VIEW_TRIED = "skald.view_read_tried"


class ViewFastPath:
    def __init__(self, app: ASGIApp, enabled: bool = True) -> None:
        self.app = app
        self.enabled = enabled
        self.rereads: dict[UUID, asyncio.Future[Access]] = {}  # api/fast_actions.py's

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = (
            VIEW_PATH.match(scope["path"])
            if self.enabled
            and scope["type"] == "http"
            and scope["method"] == "GET"
            and VIEW_TRIED not in scope
            else None
        )
        payload = None if found is None else await self._answer(scope, found)
        if payload is None:
            await self.app(scope, receive, send)
            return
        await send_ok_json(send, payload)

    async def _answer(self, scope: Scope, found: re.Match[str]) -> bytes | None:
        presented = bearer_in(scope["headers"])
        if presented is None:
            return None
        key, key_id = presented
        backend = scope["app"].state.backend
        application: SkaldApplication = backend.application
        try:
            campaign_id = UUID(found.group(1))
        except ValueError:
            return None
        # Any key of the campaign may read its views (the route's `Reader`); a stale check
        # is read again as the action's fast path does, and a refusal is the route's.
        digest = KeyMaker.digest(key)
        try:
            known = application.access_if_fresh(campaign_id, key_id, digest)
        except DomainError:  # refused: the route says so
            return None
        if known is None and (
            await fresh_access(application, campaign_id, key_id, digest, self.rereads) is None
        ):
            return None
        return await view_answer_anywhere(backend.views, found, scope.get("query_string", b""))


async def send_ok_json(
    send: Send, payload: bytes, headers: list[tuple[bytes, bytes]] | None = None
) -> None:
    """A 200 with JSON bytes made beforehand: its length and type, then any headers the
    stack would put after its own two (the fast paths answer as the routes do)."""
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [
                (b"content-length", str(len(payload)).encode()),
                (b"content-type", b"application/json"),
                *(headers or ()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": payload})
