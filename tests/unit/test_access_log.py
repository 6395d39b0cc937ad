"""The access log keeps refused and failed requests only, and still redacts keys."""

from __future__ import annotations

import asyncio
import logging

from starlette.types import Receive, Scope, Send
from uvicorn.config import Config
from uvicorn.server import ServerState

from skald_campaign.http_protocol import http_protocol
from skald_campaign.logs import RedactKeys, RefusalsOnly


def access_record(path: str, status: int) -> logging.LogRecord:
    return logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5000", "GET", path, "1.1", status),
        None,
    )


def test_served_requests_are_dropped_and_refusals_kept() -> None:
    only = RefusalsOnly()
    assert [only.filter(access_record("/c", status)) for status in (200, 201, 304)] == [
        False,
        False,
        False,
    ]
    assert [only.filter(access_record("/c", status)) for status in (400, 401, 429, 500)] == [
        True,
        True,
        True,
        True,
    ]


def test_a_kept_refusal_is_still_redacted() -> None:
    record = access_record("/campaigns/x?key=skald_0123456789abcdef_ffff", 401)
    assert RefusalsOnly().filter(record) and RedactKeys().filter(record)
    assert record.getMessage() == (
        '127.0.0.1:5000 - "GET /campaigns/x?key=[redacted] HTTP/1.1" 401'
    )


def test_other_records_pass() -> None:
    record = logging.LogRecord("uvicorn.error", logging.INFO, __file__, 1, "started", (), None)
    assert RefusalsOnly().filter(record)


class _Transport(asyncio.Transport):
    """What the protocol writes to, kept in memory (no socket)."""

    def __init__(self) -> None:
        super().__init__()
        self.written = bytearray()
        self.closed = False

    def get_extra_info(self, name: str, default: object = None) -> object:
        return default

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.written += data

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


async def _plain_app(scope: Scope, receive: Receive, send: Send) -> None:
    status = 200 if scope["path"] == "/served" else 404
    await send({"type": "http.response.start", "status": status, "headers": []})
    await send({"type": "http.response.body", "body": b""})


def test_the_server_builds_no_access_record_for_a_served_request() -> None:
    """skald serve's protocol (skald_campaign/http_protocol.py) hands a served request's line to no
    logger at all (RefusalsOnly would drop it after the record was made); a refusal's
    line reaches uvicorn.access and its filters."""
    statuses: list[object] = []

    class Seen(logging.Filter):
        def filter(self, record: logging.LogRecord) -> bool:
            statuses.append(record.args[4] if isinstance(record.args, tuple) else None)
            return False

    access = logging.getLogger("uvicorn.access")
    level = access.level
    access.setLevel(logging.INFO)  # as skald serve's log configuration has it
    seen = Seen()
    access.addFilter(seen)
    loop = asyncio.new_event_loop()
    try:
        config = Config(_plain_app, http=http_protocol(8192, 30.0), log_config=None)
        config.load()
        for path in ("/served", "/missing", "/served"):
            protocol = config.http_protocol_class(config, ServerState(), {}, _loop=loop)
            protocol.access_log = True  # as when uvicorn.access has handlers
            transport = _Transport()
            protocol.connection_made(transport)
            protocol.data_received(f"GET {path} HTTP/1.1\r\nhost: x\r\n\r\n".encode())
            loop.run_until_complete(asyncio.sleep(0.01))
            assert transport.written.startswith(b"HTTP/1.1 ")
            protocol.connection_lost(None)
    finally:
        access.removeFilter(seen)
        access.setLevel(level)
        loop.close()
    assert statuses == [404]
