"""How a worker that keeps failing says so."""

from __future__ import annotations

import logging


def log_failure(
    logger: logging.Logger, again: bool, what: str, error: Exception, pause: float
) -> None:
    """The first failure of a run with its traceback; each retry after it in one line
    (Redis down for a minute was a screenful of identical tracebacks per second)."""
    if again:
        logger.warning(
            "%s again (%s: %s); retrying in %.1f s", what, type(error).__name__, error, pause
        )
    else:
        logger.exception("%s; retrying in %.1f s", what, pause)
