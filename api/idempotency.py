"""The Idempotency-Key header: the same key and body get the first response again."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from fastapi import Request
from pydantic import BaseModel

from skald_campaign.domain.access import Access
from skald_campaign.domain.errors import InvalidInput
from skald_campaign.domain.idempotency import Claim

MAX_KEY = 200


def claim(request: Request, body: BaseModel | None, access: Access | None) -> Claim | None:
    """The request's claim, or None when the client sent no Idempotency-Key."""
    key = request.headers.get("idempotency-key")
    if key is None:
        return None
    key = key.strip()
    if not 1 <= len(key) <= MAX_KEY:
        raise InvalidInput(f"an Idempotency-Key is 1 to {MAX_KEY} characters")
    holder = access.key_id if access is not None else "anyone"
    scope = f"{holder} {request.method} {request.url.path} {key}"
    payload: Any = body.model_dump(mode="json") if body is not None else None
    digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
    return Claim(scope, digest)
