"""Request limits: the body size, enforced on the bytes actually received (not just
Content-Length), and the request rate per key and per address.

The body is read here, in full, before the app sees it: a chunked body has no
Content-Length, and an error raised from inside the framework's own body parsing
would be turned into its generic 400 instead of our 413. A JSON body is checked
here too (api/json_body.py), before the action fast path and every route.
"""

from __future__ import annotations

import hashlib
import math
import threading
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import orjson
from limits import RateLimitItem, parse_many
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from skald_campaign.api.errors import error_body
from skald_campaign.api.json_body import json_problem, read_as_json
from skald_campaign.api.policy import ApiPolicy

__all__ = ["ApiPolicy"]  # here too, where the middleware that applies it is

MAX_BODY_BYTES = 256 * 1024


class BodyLimit:
    def __init__(self, app: ASGIApp, max_bytes: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        coding = content_coding(scope)
        if coding is not None:
            await self._refuse_coding(send, coding)
            return
        declared = headers.get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await self._refuse(send)
            return
        chunks: list[bytes] = []
        received = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away mid-body
                return
            chunk = message.get("body", b"")
            received += len(chunk)
            if received > self.max_bytes:
                await self._refuse(send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if body and read_as_json(headers.get(b"content-type")):
            problem = json_problem(body)
            if problem is not None:  # before the fast path and every route alike
                await send_json(send, 422, error_body("malformed_json", problem))
                return
        await self.app(scope, replaying(body, receive), send)

    async def _refuse(self, send: Send) -> None:
        message = f"the request body is over the limit of {self.max_bytes} bytes"
        await send_json(send, 413, {"error": "body_too_large", "message": message})

    async def _refuse_coding(self, send: Send, coding: str) -> None:
        message = (
            f"the request body's Content-Encoding '{coding}' is not supported: "
            "send the body unencoded, without Content-Encoding"
        )
        body = {"error": "unsupported_content_encoding", "message": message}
        # RFC 9110 15.5.16: Accept-Encoding says which codings a request may use.
        await send_json(send, 415, body, [(b"accept-encoding", b"identity")])


def content_coding(scope: Scope) -> str | None:
    """The Content-Encoding a request declares, other than identity; None without one.

    A coded body is refused (415), never decoded: the body limit and the JSON checks
    count the bytes as received, and one read as plain JSON while labelled gzip was
    carried out as if the label were not there. Decoding would bring a decompression
    bomb's bound with it; no client of Skald's compresses what it sends."""
    headers: list[tuple[bytes, bytes]] = scope.get("headers") or []
    for name, value in headers:
        if name == b"content-encoding":
            coding = value.decode("latin-1").strip()
            if coding.lower() not in ("", "identity"):
                return coding
    return None


def replaying(body: bytes, receive: Receive) -> Receive:
    """A `receive` that hands on a body already read, then the client's next message."""
    replayed = False

    async def replay() -> Message:
        nonlocal replayed
        if not replayed:
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()  # after the body: wait for the disconnect, as before

    return replay


async def send_json(
    send: Send, status: int, body: dict[str, Any], headers: Sequence[tuple[bytes, bytes]] = ()
) -> None:
    payload = orjson.dumps(body)
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(payload)).encode()),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": payload})


@dataclass(frozen=True)
class Refusal:
    who: str
    limit: RateLimitItem
    retry_after: int


class MovingWindows:
    """The `limits` library's moving window (MovingWindowRateLimiter over its
    MemoryStorage), decided the same way: a hit is let in while fewer than the limit's
    amount were let in during the last `expiry` seconds; a refused hit is not counted;
    the window resets when its oldest hit leaves it. Without the library's timer thread:
    its storage starts a thread every 10 ms while hits come (to drop old ones), and keeps
    each window as a list it inserts at the front of; under bench/http.py (a) the two
    were 5% of the server's time. Here each window is a deque, old hits are dropped as
    the window is looked at, and windows nobody hit for a while are swept every
    SWEEP_SECONDS. Called from the event loop (one thread); a lock keeps it whole anyway."""

    SWEEP_SECONDS = 10.0

    def __init__(self) -> None:
        # (limit, who, bucket) -> expiry, hits. The library names a window by a string it
        # builds on each call (`key_for`, 0.9 us); a tuple of the three is hashed in 0.2.
        self._windows: dict[tuple[RateLimitItem, str, str], tuple[float, deque[float]]] = {}
        self._lock = threading.Lock()
        self._swept = time.time()

    def _current(self, limit: RateLimitItem, who: str, bucket: str, now: float) -> deque[float]:
        key = (limit, who, bucket)
        found = self._windows.get(key)
        if found is None:
            found = self._windows[key] = (limit.get_expiry(), deque())
        expiry, hits = found
        edge = now - expiry
        while hits and hits[0] < edge:
            hits.popleft()
        return hits

    def hit(self, limit: RateLimitItem, who: str, bucket: str) -> bool:
        now = time.time()
        with self._lock:
            if now - self._swept >= self.SWEEP_SECONDS:
                self._sweep(now)
            hits = self._current(limit, who, bucket, now)
            if len(hits) >= limit.amount:
                return False
            hits.append(now)
            return True

    def reset_time(self, limit: RateLimitItem, who: str, bucket: str) -> float:
        """When the window lets a hit in again: its oldest hit's time plus the expiry."""
        now = time.time()
        with self._lock:
            hits = self._current(limit, who, bucket, now)
            return (hits[0] if hits else now) + limit.get_expiry()

    def _sweep(self, now: float) -> None:
        self._swept = now
        for key, (expiry, hits) in list(self._windows.items()):
            if not hits or hits[-1] < now - expiry:
                del self._windows[key]


class RateLimiter:
    """Per bearer key and per client address, on a moving window, in this process's memory:
    the limit holds without Redis (writes go on when it is down), and each replica of a
    scaled-out API counts on its own."""

    def __init__(self, policy: ApiPolicy) -> None:
        self.per_key = parse_many(policy.per_key)
        self.per_address = parse_many(policy.per_address)
        self.window = MovingWindows()

    def hit(self, address: str, key: str | None) -> Refusal | None:
        checks = [("address", address, self.per_address)]
        if key is not None:
            # Buckets are named by a digest: the limiter never holds a key itself.
            digest = hashlib.sha256(key.encode()).hexdigest()[:32]
            checks.append(("key", digest, self.per_key))
        for who, bucket, limits in checks:
            for limit in limits:
                if not self.window.hit(limit, who, bucket):
                    reset = self.window.reset_time(limit, who, bucket)
                    return Refusal(who, limit, max(1, math.ceil(reset - time.time())))
        return None


def presented_key(scope: Scope) -> str | None:
    """The bearer key as api.deps reads it (only ever from the header), without judging it."""
    headers: list[tuple[bytes, bytes]] = scope.get("headers") or []
    for name, value in headers:
        if name == b"authorization":
            scheme, _, key = value.decode("latin-1").partition(" ")
            if scheme.lower() == "bearer" and key.strip():
                return key.strip()
    return None


# The rate limit's decision for a request made before the stack (api/read_path.py,
# api/action_path.py): a Refusal or None. A request that goes on through the stack is not
# counted again.
RATE_DECIDED = "skald.rate_decided"


def decide_before_stack(limiter: RateLimiter, scope: Scope, key: str) -> Refusal | None:
    """The rate limit's decision for a request answered before the stack, as the stack's
    RateLimit makes it (first: a refused caller costs little); it travels with the request
    (``RATE_DECIDED``) so that one handed on to the stack is counted once."""
    address = scope["client"][0] if scope.get("client") else "unknown"
    refused = limiter.hit(address, key)
    scope[RATE_DECIDED] = refused
    return refused


class RateLimit:
    """429 with Retry-After once a key or an address asks too often; every route."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        limiter: RateLimiter | None = getattr(scope["app"].state, "rate_limiter", None)
        if scope["type"] != "http" or limiter is None:
            await self.app(scope, receive, send)
            return
        if RATE_DECIDED in scope:
            refused: Refusal | None = scope[RATE_DECIDED]
        else:
            address = scope["client"][0] if scope.get("client") else "unknown"
            refused = limiter.hit(address, presented_key(scope))
        if refused is None:
            await self.app(scope, receive, send)
            return
        unit, multiples = refused.limit.GRANULARITY.name, refused.limit.multiples
        per = unit if multiples == 1 else f"{multiples} {unit}s"
        message = (
            f"too many requests from this {refused.who}: at most {refused.limit.amount} "
            f"per {per}; try again in {refused.retry_after} s"
        )
        await send_json(
            send,
            429,
            {"error": "rate_limited", "message": message},
            [(b"retry-after", str(refused.retry_after).encode())],
        )
