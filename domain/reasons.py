"""The reason every correction and every GM change carries: it stays on record."""

from __future__ import annotations

from skald_campaign.domain.errors import InvalidInput
from skald_campaign.domain.validation import refuse_hidden_characters

MAX_REASON = 500


def check_reason(reason: str) -> str:
    cleaned = reason.strip()
    if not cleaned:
        raise InvalidInput("a correction needs a reason: say why, it stays on record")
    if len(cleaned) > MAX_REASON:
        raise InvalidInput(f"the reason is {len(cleaned)} characters long; at most {MAX_REASON}")
    refuse_hidden_characters(cleaned, "reason")
    return cleaned
