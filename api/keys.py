"""Bearer keys: made from a server secret, stored by the campaign only as hashes.

A key is ``skald_<key id>_<mac>``, the mac an HMAC of the key id under the
server's secret. The campaign keeps only the key's SHA-256, so a copy of the
event store opens nothing. The server can re-derive a key it issued, which is
what lets a retried request (same Idempotency-Key) get the very same response.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable

PREFIX = "skald"


class KeyMaker:
    def __init__(self, secret: bytes) -> None:
        if len(secret) < 16:
            raise ValueError("the server secret must be at least 16 bytes")
        self._secret = secret

    def new(self) -> tuple[str, str]:
        """A fresh (key id, key)."""
        key_id = secrets.token_hex(8)
        return key_id, self.key_for(key_id)

    def key_for(self, key_id: str) -> str:
        mac = hmac.new(self._secret, key_id.encode(), hashlib.sha256).hexdigest()[:40]
        return f"{PREFIX}_{key_id}_{mac}"

    @staticmethod
    def digest(key: str) -> str:
        return hashlib.sha256(key.encode()).hexdigest()

    @staticmethod
    def key_id(key: str) -> str | None:
        parts = key.split("_")
        if len(parts) != 3 or parts[0] != PREFIX or len(parts[1]) != 16:
            return None
        return parts[1]


def bearer_in(headers: Iterable[tuple[bytes, bytes]]) -> tuple[str, str] | None:
    """An ASGI request's bearer key and its key id; None when it carries no Skald key."""
    scheme, _, key = dict(headers).get(b"authorization", b"").decode("latin-1").partition(" ")
    key = key.strip()
    key_id = KeyMaker.key_id(key) if scheme.lower() == "bearer" else None
    return None if key_id is None else (key, key_id)
