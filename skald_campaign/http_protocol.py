"""uvicorn's httptools protocol with two bounds it lacks: the size of a request's head
(431) and the time to receive a request, head and body (408).

Neither is an option of uvicorn on httptools: `h11_max_incomplete_event_size` bounds
h11 only (and answers 400, not 431), `timeout_keep_alive` only closes a connection
idle between requests, and nothing limits a request that trickles in. Without them a
100 KB header was answered 200, and 30 connections sending one byte a second were all
still open after 30 s. (h11's bound would not do either: it counts only what it could
not yet parse, so a whole 100 KB head in one read passes it.)

The head is bounded as received, and so that the answer always matches what was done:
the bytes are handed to the parser in pieces cut where a head or a body ends, so each
byte is known to be of a head or of a body before the parser sees it:
- a head up to the blank line that ends it (found here: llhttp takes no other end, it
  refuses bare LFs), counted against the bound first; a head over it is refused before
  the parser has it whole, so before any route could run;
- a body of Content-Length n in exactly its n bytes;
- a chunked body up to each line's end (its last line ends the request); its size
  lines and trailer fields are bounded as a head is, between two runs of data.
So a request always ends where a piece ends, and what follows is the next head,
counted from its first byte: a request, its body, a pipelined one behind it, may all
come in one read. (Once, the whole read was counted as head when a request ended
inside it: a 17,000-byte body in one read was answered 431 and carried out.) That the
parser ends requests where these pieces do is checked, not assumed.
"""

from __future__ import annotations

import asyncio
import logging
from enum import Enum
from typing import Any, cast

import orjson
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from skald_campaign.settings import MAX_HEAD_BYTES, REQUEST_TIMEOUT

LINGER = 2.0  # seconds a refused connection drains what its client still sends


class RefusalsOnlyAccessLog(logging.Logger):
    """`uvicorn.access` as the connections call it: a served request's line (status
    below 400) is not built at all. skald_campaign/logs.py's RefusalsOnly drops that line too,
    but only after the logger has made a record of it, for every command (1.7% of the
    server's samples under bench/http.py (a)'s load, bench/README.md). A refusal goes to
    the real logger, through its filters (redaction) and handlers."""

    def __init__(self, logger: logging.Logger) -> None:
        super().__init__(logger.name)
        self.logger = logger

    def info(self, msg: object, *args: object, **kwargs: Any) -> None:
        # uvicorn's line: client, method, path, HTTP version, status
        status = args[4] if len(args) == 5 else None
        if isinstance(status, int) and status < 400:
            return
        self.logger.info(msg, *args, **kwargs)


ACCESS_LOG = RefusalsOnlyAccessLog(logging.getLogger("uvicorn.access"))


def http_protocol(max_head_bytes: int, request_timeout: float) -> type[HttpToolsProtocol]:
    """The protocol class for uvicorn.Config(http=...), with these bounds."""
    return type(
        "BoundedHttpToolsProtocol",
        (BoundedHttpToolsProtocol,),
        {"max_head_bytes": max_head_bytes, "request_timeout": request_timeout},
    )


def _response(status: bytes, code: str, message: str) -> bytes:
    body = orjson.dumps({"error": code, "message": message})
    return (
        b"HTTP/1.1 " + status + b"\r\ncontent-type: application/json\r\n"
        b"content-length: " + str(len(body)).encode() + b"\r\nconnection: close\r\n\r\n" + body
    )


BLANK_LINE = b"\r\n\r\n"  # the end of a head


class Reading(Enum):
    """What the bytes being received belong to."""

    HEAD = "a request's line and headers (between requests too: the next byte begins one)"
    SIZED_BODY = "a body of Content-Length bytes"
    CHUNKED_BODY = "a chunked body"


HEAD, SIZED_BODY, CHUNKED_BODY = Reading.HEAD, Reading.SIZED_BODY, Reading.CHUNKED_BODY


class BoundedHttpToolsProtocol(HttpToolsProtocol):
    max_head_bytes = MAX_HEAD_BYTES
    request_timeout = REQUEST_TIMEOUT

    # Each connection's state starts from these (the first change sets it on the
    # connection itself), so uvicorn's constructor is not overridden.
    _reading = HEAD
    _head_bytes = 0  # of the head being received, as received
    _head_tail = b""  # its last 3 bytes: the blank line may begin in one read, end in the next
    _body_left = 0  # bytes of a sized body still to come
    _head_ended = False  # the parser completed a head in the piece it was just given
    _request_ended = False  # ... or a whole request
    _piece_body = 0  # body bytes the parser found in that piece
    _framing_run = 0  # bytes of a chunked body's framing since its last data byte
    _refusal_waiting: bytes | None = None  # a 431 to send once the answers before it are
    _started = False  # a byte of the current request has arrived
    _deadline: asyncio.TimerHandle | None = None
    _closing = False

    def data_received(self, data: bytes) -> None:
        while data and not self._closing and not self.transport.is_closing():
            size = self._piece_size(data)
            if size is None:
                return  # the head is over the bound: refused, and the rest dropped
            piece, data = data[:size], data[size:]
            self._head_ended = self._request_ended = False
            self._piece_body = 0
            super().data_received(piece)
            self._after(piece)

    def handle_websocket_upgrade(self) -> None:
        self._closing = True  # the connection is another protocol's from here
        super().handle_websocket_upgrade()

    def _piece_size(self, data: bytes) -> int | None:
        """How much of `data` to hand the parser next: up to the end of the head or the
        body it is in, or all of it. None when the head would be over the bound."""
        if self._reading is SIZED_BODY:
            return min(len(data), self._body_left)
        if self._reading is CHUNKED_BODY:
            return data.find(b"\n") + 1 or len(data)
        end = self._head_end(data)
        size = len(data) if end is None else end
        if self._head_bytes + size > self.max_head_bytes:
            self._refuse_head()
            return None
        self._head_bytes += size
        last = data[max(0, size - 3) : size]
        self._head_tail = last if len(last) == 3 else (self._head_tail + last)[-3:]
        return size

    def _head_end(self, data: bytes) -> int | None:
        """Where in `data` the blank line ending the head ends (it may have begun in the
        read before), or None if it is not there."""
        across = (self._head_tail + data[:3]).find(BLANK_LINE)
        if across >= 0:
            return across + 4 - len(self._head_tail)
        within = data.find(BLANK_LINE)
        return None if within < 0 else within + 4

    def _after(self, piece: bytes) -> None:
        """What the parser made of a piece: where the bytes after it belong."""
        if self._reading is SIZED_BODY:
            self._body_left -= len(piece)
        elif self._reading is CHUNKED_BODY:
            framing = len(piece) - self._piece_body
            self._framing_run = framing if self._piece_body else self._framing_run + framing
            if self._framing_run > self.max_head_bytes and not self._request_ended:
                self._refuse_framing()
                return
        if self._request_ended:
            self._reading, self._head_bytes, self._head_tail = HEAD, 0, b""
            self._framing_run = 0
        elif self._reading is HEAD:
            if self._head_ended:  # else blank lines before a request line, which llhttp skips
                self._reading, self._body_left = self._body_framing()
        elif self._reading is SIZED_BODY and self._body_left == 0:
            self._framing_lost()  # the parser wants more than Content-Length said

    def _body_framing(self) -> tuple[Reading, int]:
        """The body that follows the head, as llhttp frames a request's: chunked with a
        Transfer-Encoding (it refuses one not ending in chunked, and one beside a
        Content-Length), else Content-Length bytes (it refuses two, or a malformed one)."""
        length = 0
        for name, value in self.headers:
            if name == b"transfer-encoding":
                return CHUNKED_BODY, 0
            if name == b"content-length":
                length = int(value)
        return SIZED_BODY, length

    def on_message_begin(self) -> None:
        if self._request_ended:
            # A request began inside the piece that ended the one before: the parser
            # framed it otherwise than counted here (which llhttp's strict framing should
            # never do). Raising stops the parser.
            self._framing_lost()
            raise FramingLost
        super().on_message_begin()
        self._started = True
        if self._deadline is None:  # a kept-alive connection: the clock starts now
            self._arm()

    def on_body(self, body: bytes) -> None:
        self._piece_body += len(body)
        super().on_body(body)

    def on_headers_complete(self) -> None:
        self._head_ended = True
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._request_ended = True
        self._disarm()
        self._started = False

    def send_400_response(self, msg: str) -> None:
        if self._closing:  # the parser was stopped by _framing_lost
            return
        super().send_400_response(msg)

    def _framing_lost(self) -> None:
        """The parser and this count disagree on where a request ends: neither the
        bound nor the next request's start can be trusted, so the connection is closed
        (the request being received, unfinished, is not carried out)."""
        self._closing = True
        self._disarm()
        self.transport.close()
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.disconnected = True
            self.cycle.message_event.set()

    def _refuse_head(self) -> None:
        self._disarm()
        message = f"the request line and headers are over the limit of {self.max_head_bytes} bytes"
        refusal = _response(b"431 Request Header Fields Too Large", "headers_too_large", message)
        self._closing = True  # what the client still sends is read and dropped
        if self.cycle is None or self.cycle.response_complete:
            self._answer_and_close(refusal)
        else:  # pipelined behind a request still being answered: after its answer
            self._refusal_waiting = refusal

    def _refuse_framing(self) -> None:
        """A chunked body's size lines and trailer fields are bounded as a head is: at
        most max_head_bytes between two runs of data (so any number of chunks, each with
        its size line, passes). Refused before the body's end reached the parser, so the
        request, its body unfinished, is not carried out: its cycle is told the client
        left, and the 431 is its only answer (after the answers before it), unless it
        was answered without its body (then the connection is only closed)."""
        self._disarm()
        self._closing = True  # what the client still sends is read and dropped
        cycle = self.cycle
        cycle.disconnected = True
        cycle.message_event.set()
        if cycle.response_started:  # answered without its body (a 429): only closed
            self.transport.close()
            return
        message = (
            "the chunked body's size lines and trailer fields are over the limit of "
            f"{self.max_head_bytes} bytes"
        )
        refusal = _response(b"431 Request Header Fields Too Large", "headers_too_large", message)
        if self.pipeline:  # queued behind a request still being answered: after its answer
            self._refusal_waiting = refusal
        else:
            self._answer_and_close(refusal)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        # self.cycle is the last request received: answered, or (refused in its body)
        # told the client left, as it starts now
        done = self.cycle.response_complete or self.cycle.disconnected
        if self._refusal_waiting is not None and done:
            refusal, self._refusal_waiting = self._refusal_waiting, None
            self._answer_and_close(refusal)

    def _answer_and_close(self, response: bytes) -> None:
        """Send the refusal, then close without losing it: closing a socket that has unread
        bytes resets the connection, and a client still sending would never read the
        answer. So the sending side is shut, and what arrives is dropped until the client
        closes (asyncio then closes the transport) or LINGER seconds have passed."""
        self._closing = True
        if self.transport.is_closing():
            return
        self.transport.write(response)
        if self.transport.can_write_eof():
            self.transport.write_eof()
            self.loop.call_later(LINGER, self.transport.close)
        else:
            self.transport.close()

    # The time to receive a request: from the connection (or, kept alive, the request's
    # first byte) until its last body byte.
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        # Every write goes through it: the requests' cycles take it from here.
        self.transport = cast(asyncio.Transport, CoalescedWrites(transport, self.loop))
        self.access_logger = ACCESS_LOG  # each request's cycle takes it from here
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._deadline = self.loop.call_later(self.request_timeout, self._timed_out)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _timed_out(self) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        # Past the head, self.cycle is this request's: an answer already begun is not cut
        # into; the connection is only closed.
        answering = self._reading is not HEAD and self.cycle.response_started
        if self._started and not answering:
            message = f"the request was not received within {self.request_timeout:g} s"
            self._answer_and_close(_response(b"408 Request Timeout", "request_timeout", message))
        else:
            self.transport.close()
        if self.cycle is not None and not self.cycle.response_complete:
            # The app may be waiting on the body: it is told the client left.
            self.cycle.disconnected = True
            self.cycle.message_event.set()


class FramingLost(Exception):
    pass


class CoalescedWrites:
    """A connection's transport whose writes within one turn of the event loop go out as
    one: uvicorn writes an answer's head as soon as it is started and its body after, two
    system calls on the socket for every answer (each, on loopback, carrying the packet
    through to the reader and waking it); joined, one. Everything else is the transport's
    own; what closes the connection first sends what is waiting."""

    __slots__ = ("_loop", "_transport", "_waiting")

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._waiting: list[bytes] = []

    def write(self, data: bytes) -> None:
        if not self._waiting:
            self._loop.call_soon(self.flush)
        self._waiting.append(data)

    def flush(self) -> None:
        if not self._waiting:
            return
        waiting, self._waiting = self._waiting, []
        if not self._transport.is_closing():
            self._transport.write(waiting[0] if len(waiting) == 1 else b"".join(waiting))

    def write_eof(self) -> None:
        self.flush()
        self._transport.write_eof()

    def close(self) -> None:
        self.flush()
        self._transport.close()

    def abort(self) -> None:
        self._waiting = []
        self._transport.abort()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)
