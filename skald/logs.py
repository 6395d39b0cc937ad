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


def install_redaction() -> None:
    for name in ("uvicorn", "uvicorn.access", "uvicorn.error", "skald"):
        logging.getLogger(name).addFilter(RedactKeys())
