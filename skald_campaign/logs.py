"""Logging set-up: keys never reach a log line."""

from __future__ import annotations

import logging
import re

SECRET = re.compile(r"(skald_[0-9a-f]{16}_)[0-9a-f]+|((?:[?&])key=)[^&\s\"]+")


def redact(text: str) -> str:
    return SECRET.sub(lambda m: (m.group(1) or m.group(2)) + "[redacted]", text)


class RedactKeys(logging.Filter):
    """Scrubs keys from a record's message and arguments (uvicorn logs request paths)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = redact(str(record.msg))
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        return True


class RefusalsOnly(logging.Filter):
    """The access log keeps refused and failed requests (status >= 400) and drops the
    rest: a line per served command cost the event loop more than the command's own
    routing (py-spy, bench/README.md). Runs before the redaction, so a dropped line
    is never scrubbed."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        status = args[4] if isinstance(args, tuple) and len(args) == 5 else None
        return not isinstance(status, int) or status >= 400


def install_redaction() -> None:
    logging.getLogger("uvicorn.access").addFilter(RefusalsOnly())
    for name in ("uvicorn", "uvicorn.access", "uvicorn.error", "skald"):
        logging.getLogger(name).addFilter(RedactKeys())
