"""uvicorn's httptools protocol with two bounds it lacks: the size of a request's head
(431) and the time to receive a request, head and body (408).

Neither is an option of uvicorn on httptools: `h11_max_incomplete_event_size` bounds
h11 only (and answers 400, not 431), `timeout_keep_alive` only closes a connection
idle between requests, and nothing limits a request that trickles in. Without them a
100 KB header was answered 200, and 30 connections sending one byte a second were all
still open after 30 s. The bounds are counted here, on the bytes as they arrive.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import orjson
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from skald.settings import MAX_HEAD_BYTES, REQUEST_TIMEOUT

LINGER = 2.0  # seconds a refused connection drains what its client still sends


class RefusalsOnlyAccessLog(logging.Logger):
    """`uvicorn.access` as the connections call it: a served request's line (status
    below 400) is not built at all. skald/logs.py's RefusalsOnly drops that line too,
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


class BoundedHttpToolsProtocol(HttpToolsProtocol):
    max_head_bytes = MAX_HEAD_BYTES
    request_timeout = REQUEST_TIMEOUT

    # Each connection's state starts from these (the first change sets it on the
    # connection itself), so uvicorn's constructor is not overridden.
    _in_head = True  # between requests too: the next byte begins a head
    _head_whole = 0  # bytes of chunks that lay wholly inside the head
    _head_parsed = 0  # the request line and headers the parser has completed
    _head_too_large = False
    _started = False  # a byte of the current request has arrived
    _deadline: asyncio.TimerHandle | None = None
    _closing = False

    # The head's size: exact for what the parser completed, and for a chunk that began
    # and ended inside the head (a header still arriving is not in the parser's count).
    def data_received(self, data: bytes) -> None:
        if self._closing:
            return  # what a refused client still sends is read and dropped
        began_in_head = self._in_head
        super().data_received(data)
        if began_in_head and self._in_head and not self._head_too_large:
            self._head_whole += len(data)
            if self._head_whole > self.max_head_bytes:
                self._refuse_head()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._started = True
        if self._deadline is None:  # a kept-alive connection: the clock starts now
            self._arm()

    def on_url(self, url: bytes) -> None:
        super().on_url(url)
        self._count(len(url))

    def on_header(self, name: bytes, value: bytes) -> None:
        super().on_header(name, value)
        self._count(len(name) + len(value) + 4)

    def on_headers_complete(self) -> None:
        self._in_head = False
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._disarm()
        self._in_head, self._head_whole, self._head_parsed = True, 0, 0
        self._started = False

    def _count(self, size: int) -> None:
        self._head_parsed += size
        if self._head_parsed > self.max_head_bytes:
            self._head_too_large = True
            raise HeadTooLarge  # stops the parser; uvicorn answers it with send_400_response

    def send_400_response(self, msg: str) -> None:
        if self._head_too_large:
            self._refuse_head()
        else:
            super().send_400_response(msg)

    def _refuse_head(self) -> None:
        self._head_too_large = True
        self._disarm()
        message = f"the request line and headers are over the limit of {self.max_head_bytes} bytes"
        self._answer_and_close(
            _response(b"431 Request Header Fields Too Large", "headers_too_large", message)
        )

    def _answer_and_close(self, response: bytes) -> None:
        """Send the refusal, then close without losing it: closing a socket that has unread
        bytes resets the connection, and a client still sending would never read the
        answer. So the sending side is shut, and what arrives is dropped until the client
        closes (asyncio then closes the transport) or LINGER seconds have passed."""
        if self.transport.is_closing():
            return
        self._closing = True
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
        answering = not self._in_head and self.cycle.response_started
        if self._started and not answering:
            message = f"the request was not received within {self.request_timeout:g} s"
            self._answer_and_close(_response(b"408 Request Timeout", "request_timeout", message))
        else:
            self.transport.close()
        if self.cycle is not None and not self.cycle.response_complete:
            # The app may be waiting on the body: it is told the client left.
            self.cycle.disconnected = True
            self.cycle.message_event.set()


class HeadTooLarge(Exception):
    pass
