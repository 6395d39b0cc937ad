"""The access log keeps refused and failed requests only, and still redacts keys."""

from __future__ import annotations

import logging

from skald.logs import RedactKeys, RefusalsOnly


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
