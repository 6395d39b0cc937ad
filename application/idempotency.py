"""The idempotency claim, the expected version and the client of the request being
handled, carried to the writer thread.

The record itself (domain/idempotency.py) and the precondition (domain/writing/preconditions.py)
are pure; which claim guards the command now running, and which version its subject must
be at, is context, set by the api and read by the writer.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from skald_campaign.domain.idempotency import Claim
from skald_campaign.domain.writing.preconditions import Expected

current_claim: ContextVar[Claim | None] = ContextVar("current_claim", default=None)
current_expected: ContextVar[Expected | None] = ContextVar("current_expected", default=None)
# The client the request's writes go through ("assistant"; domain/writing/attribution.py).
current_via: ContextVar[str | None] = ContextVar("current_via", default=None)


@contextmanager
def own_fact() -> Iterator[None]:
    """A save within a command that records a fact of its own, not the request's answer
    (the ruleset's version on record): no claim's record, no expected version, written
    through no client."""
    claim = current_claim.set(None)
    expected = current_expected.set(None)
    client = current_via.set(None)
    try:
        yield
    finally:
        current_via.reset(client)
        current_expected.reset(expected)
        current_claim.reset(claim)
