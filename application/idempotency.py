"""The idempotency claim of the request being handled, carried to the writer thread.

The record itself (domain/idempotency.py) is pure; which claim guards the
command now running is context, set by the api and read by the writer.
"""

from __future__ import annotations

from contextvars import ContextVar

from skald_campaign.domain.idempotency import Claim

current_claim: ContextVar[Claim | None] = ContextVar("current_claim", default=None)
