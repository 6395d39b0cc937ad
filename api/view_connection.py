"""One connection to Redis per event loop for the view reads, shared by every request.

redis-py's asyncio pipeline took a connection from its pool for each read, encoded each
of the read's eight commands, wrapped the round trip in a timeout and a retry, read each
answer in turn with an await apiece and gave the connection back: a quarter of the
server's time under a load of vitals reads (bench/README.md, issue 39). Here a read's
commands are encoded once per view and generation (``ViewCommands``) and written as one
piece on the loop's one connection, and hiredis reads the answers as they come, in
order, for whichever request is first in line: Redis answers a connection's commands in
the order they came, so no answer needs a name.

Only what redis-py's own URL parsing gives and this can honour is served here: a TCP or
unix socket connection, its database and its password. Anything else (TLS, a timeout
asked for in the URL, a Redis that does not speak RESP3) is left to redis-py
(``line_here`` says None). A connection that
breaks fails the reads waiting on it (their routes answer, as when Redis is away) and the
next read opens another.
"""

from __future__ import annotations

import asyncio
import weakref
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import cast

import hiredis
import redis
from redis._parsers.encoders import Encoder
from redis.connection import UnixDomainSocketConnection, parse_url

Callback = Callable[[object], object]


def encoded(args: tuple[object, ...], encoder: Encoder) -> bytes:
    """One command in Redis's protocol (RESP), its arguments encoded as redis-py does."""
    parts = [encoder.encode(arg) for arg in args]  # type: ignore[no-untyped-call]
    out = [b"*%d\r\n" % len(parts)]
    for part in parts:
        out.append(b"$%d\r\n%s\r\n" % (len(part), part))
    return b"".join(out)


@dataclass(frozen=True)
class ViewCommands:
    """A read's commands as written on the connection, and how each answer is made what
    redis-py's pipeline would have answered (its response callbacks)."""

    request: bytes
    callbacks: tuple[Callback | None, ...]

    @classmethod
    def of(cls, queue: Callable[[redis.client.Pipeline], object]) -> ViewCommands:
        """The commands ``queue`` puts on a pipeline (a pipeline that never connects:
        queueing a command sends nothing)."""
        client = redis.Redis()
        pipe = client.pipeline(transaction=False)
        queue(pipe)
        encoder = client.get_encoder()
        requests, callbacks = [], []
        for args, options in pipe.command_stack:
            requests.append(encoded(args, encoder))
            callbacks.append(_callback(client, str(args[0]), dict(options)))
        return cls(b"".join(requests), tuple(callbacks))

    def answers(self, replies: list[object]) -> list[object]:
        return [
            reply if callback is None else callback(reply)
            for reply, callback in zip(replies, self.callbacks, strict=True)
        ]


def _callback(client: redis.Redis, command: str, options: dict[str, object]) -> Callback | None:
    """What redis-py does to this command's answer (``Redis.parse_response``)."""
    options.pop("keys", None)
    options.pop("EMPTY_RESPONSE", None)
    found = client.response_callbacks.get(command)  # type: ignore[no-untyped-call]
    if found is None:
        return None
    return lambda reply: found(reply, **options)


@dataclass
class Waiting:
    count: int
    future: asyncio.Future[list[object]]
    replies: list[object] = field(default_factory=list)


class ViewConnection(asyncio.Protocol):
    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.reader = hiredis.Reader()
        self.waiting: deque[Waiting] = deque()
        self.unsent: list[bytes] = []  # requests not written yet (`_send`)
        self.lost = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass

    def data_received(self, data: bytes) -> None:
        self.reader.feed(data)
        while (reply := self.reader.gets()) is not False:
            if not self.waiting:  # an answer nobody asked for: the line is lost
                self._break(ConnectionError("Redis answered what was not asked"))
                return
            first = self.waiting[0]
            first.replies.append(reply)
            if len(first.replies) == first.count:
                self.waiting.popleft()
                if not first.future.done():
                    first.future.set_result(first.replies)

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True
        failure = ConnectionError("the connection to Redis was lost")
        while self.waiting:
            waiting = self.waiting.popleft()
            if not waiting.future.done():
                waiting.future.set_exception(failure)
                waiting.future.exception()  # seen: a requester gone does not warn

    def _send(self) -> None:
        """Write every read asked for since the last write in one piece: under load many
        requests ask in one turn of the loop, and each write to Redis is a system call
        (and wakes Redis)."""
        unsent, self.unsent = self.unsent, []
        if self.transport is not None and not self.lost:
            self.transport.write(b"".join(unsent))

    def _break(self, error: Exception) -> None:
        if self.transport is not None:
            self.transport.abort()  # connection_lost fails the rest
        self.lost = True

    async def ask(self, request: bytes, count: int) -> list[object]:
        """The answers to ``count`` commands written as ``request``; raises ConnectionError
        when the connection is lost, and redis.ResponseError when Redis refused one."""
        if self.lost or self.transport is None:
            raise ConnectionError("the connection to Redis was lost")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[list[object]] = loop.create_future()
        self.waiting.append(Waiting(count, future))
        if not self.unsent:  # the reads asked for until the loop next turns go together
            loop.call_soon(self._send)
        self.unsent.append(request)
        replies = await future
        for reply in replies:
            if isinstance(reply, hiredis.ReplyError):
                raise redis.ResponseError(str(reply))
        return replies

    async def read(self, commands: ViewCommands) -> list[object]:
        return commands.answers(await self.ask(commands.request, len(commands.callbacks)))


CLIENT_NAME = "skald-views"  # as CLIENT LIST shows it
SUPPORTED = {"host", "port", "db", "username", "password", "path", "connection_class"}


async def open_line(url: str) -> ViewConnection | None:
    """A connection for this URL, or None when it asks for what this does not do."""
    params: dict[str, object] = parse_url(url)  # type: ignore[no-untyped-call]
    connection_class = params.get("connection_class", UnixDomainSocketConnection)
    if set(params) - SUPPORTED or connection_class is not UnixDomainSocketConnection:
        return None
    loop = asyncio.get_running_loop()
    if "path" in params:
        _, line = await loop.create_unix_connection(ViewConnection, str(params["path"]))
    else:
        host, port = str(params.get("host", "localhost")), int(str(params.get("port", 6379)))
        _, line = await loop.create_connection(ViewConnection, host, port)
    # RESP3, as redis-py speaks it (its answers' shapes, its callbacks): a hash a map.
    hello: tuple[object, ...] = ("HELLO", 3)
    if params.get("password") is not None:
        hello += ("AUTH", params.get("username") or "default", params["password"])
    hello += ("SETNAME", CLIENT_NAME)
    setup = [hello]
    if params.get("db"):
        setup.append(("SELECT", params["db"]))
    encoder = redis.Redis().get_encoder()
    try:
        await line.ask(b"".join(encoded(args, encoder) for args in setup), len(setup))
    except redis.ResponseError:  # a Redis before 6, or a refusal: redis-py's to handle
        line._break(ConnectionError("Redis refused the connection's set-up"))
        return None
    except BaseException:
        line._break(ConnectionError("the connection's set-up was not answered"))
        raise
    return line


class Lines:
    """The loop's connection per Redis URL, opened when first asked for and again once
    lost; None for a URL it cannot serve."""

    def __init__(self) -> None:
        self._lines: dict[str, ViewConnection | None] = {}
        self._opening: dict[str, asyncio.Future[ViewConnection | None]] = {}

    async def line(self, url: str) -> ViewConnection | None:
        if url in self._lines:
            found = self._lines[url]
            if found is None or not found.lost:
                return found
        opening = self._opening.get(url)
        if opening is None:
            opening = self._opening[url] = asyncio.ensure_future(open_line(url))
            opening.add_done_callback(lambda done: self._opened(url, done))
        return await asyncio.shield(opening)

    def close(self) -> None:
        for line in self._lines.values():
            if line is not None and line.transport is not None:
                line.transport.close()
        self._lines.clear()

    def _opened(self, url: str, done: asyncio.Future[ViewConnection | None]) -> None:
        del self._opening[url]
        if not done.cancelled() and done.exception() is None:
            self._lines[url] = done.result()


_LINES: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Lines] = weakref.WeakKeyDictionary()


async def line_here(url: str) -> ViewConnection | None:
    """This event loop's connection to Redis at ``url`` (None: use redis-py)."""
    lines = _LINES.get(asyncio.get_running_loop())
    if lines is None:
        lines = _LINES[asyncio.get_running_loop()] = Lines()
    return await lines.line(url)


def close_lines_here() -> None:
    """Close this event loop's connections (the server stops serving on it)."""
    lines = _LINES.pop(asyncio.get_running_loop(), None)
    if lines is not None:
        lines.close()
