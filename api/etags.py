"""ETags on the views, and 304 Not Modified for a poller that already has the answer.

The GM screen, the player's page and the overlay poll the vitals, the board and the
audit log; most polls find nothing changed. Each answer of those routes carries a strong
ETag, a digest of the very bytes sent, and a request whose ``If-None-Match`` names it
gets 304 with no body. The digest is taken here, outside every middleware that may still
change the body (a player's or viewer's redaction), so it is over what the client got.
"""

from __future__ import annotations

import hashlib
import re

from starlette.types import ASGIApp, Message, Receive, Scope, Send

UUID_PART = r"[0-9a-fA-F-]{36}"
VIEW_PATH = re.compile(rf"^/campaigns/{UUID_PART}/(?:vitals|audit|encounters/{UUID_PART}/board)$")


def etag_of(body: bytes) -> bytes:
    return b'"' + hashlib.blake2b(body, digest_size=16).hexdigest().encode() + b'"'


def matches(if_none_match: bytes, etag: bytes) -> bool:
    """Whether an If-None-Match header names the ETag (weak comparison, RFC 9110 13.1.2)."""
    if if_none_match.strip() == b"*":
        return True
    for candidate in if_none_match.split(b","):
        candidate = candidate.strip()
        if candidate.startswith(b"W/"):
            candidate = candidate[2:]
        if candidate == etag:
            return True
    return False


class ViewETags:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope["method"] != "GET"
            or not VIEW_PATH.match(scope["path"])
        ):
            await self.app(scope, receive, send)
            return
        asked = dict(scope["headers"]).get(b"if-none-match")
        await self.app(scope, receive, TaggingSend(send, asked))


class TaggingSend:
    """The ``send`` of one view request: a 200 answer is held whole, tagged, and sent,
    or replaced by a 304 when the client has it already; anything else passes."""

    def __init__(self, send: Send, asked: bytes | None) -> None:
        self.send = send
        self.asked = asked
        self.start: Message | None = None
        self.body: list[bytes] = []

    async def __call__(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            if message["status"] == 200:
                self.start = message
                return
        elif message["type"] == "http.response.body" and self.start is not None:
            self.body.append(message.get("body", b""))
            if message.get("more_body", False):
                return
            await self._answer(b"".join(self.body))
            return
        await self.send(message)

    async def _answer(self, body: bytes) -> None:
        assert self.start is not None
        etag = etag_of(body)
        headers = [(k, v) for k, v in self.start.get("headers", []) if k.lower() != b"etag"]
        if self.asked is not None and matches(self.asked, etag):
            kept = [
                (k, v) for k, v in headers if k.lower() not in (b"content-length", b"content-type")
            ]
            await self.send({**self.start, "status": 304, "headers": [*kept, (b"etag", etag)]})
            await self.send({"type": "http.response.body", "body": b""})
            return
        await self.send({**self.start, "headers": [*headers, (b"etag", etag)]})
        await self.send({"type": "http.response.body", "body": body})
