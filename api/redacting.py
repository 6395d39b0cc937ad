"""Every answer about a campaign, redacted for its reader in one place (RULINGS T3).

A middleware, not a dependency: it sees every request to ``/campaigns/{id}/...`` whatever
route answers it (the action fast path, a route added later, the live feed), so a new
route cannot leave the policy out (tests/integration/test_role_matrix.py walks them all).
For a player's or a viewer's key it passes each JSON answer, and each ``entry`` event of
the feed, through ``Redaction.document`` (application/redaction.py); the GM's key, and a
request without a valid key (the route refuses it), pass untouched.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from uuid import UUID

import orjson
from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from skald_campaign.api.access_reads import Rereads, shared_access_read
from skald_campaign.api.keys import KeyMaker, bearer_in
from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.redaction import Redaction
from skald_campaign.domain.access import Access
from skald_campaign.domain.errors import DomainError

CAMPAIGN_PATH = re.compile(r"^/campaigns/([0-9a-fA-F-]{36})(?:/|$)")
# The caller's access found here, kept in the request's scope for the action fast path
# (api/fast_actions.py), which would otherwise make the same check again.
CALLER_ACCESS = "skald.caller_access"
# A fight read at an earlier version (the encounter's route puts it here): the redaction
# words its NPCs from its own kept readings, since their tracks then are none the fights
# now hold (application/queries.py ``Queries.redaction``).
REPLAYED_FIGHT = "skald.replayed_fight"


class RedactedReads:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.rereads: Rereads = {}  # see api/access_reads.py

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = CAMPAIGN_PATH.match(scope["path"]) if scope["type"] == "http" else None
        access = None if found is None else await caller(scope, found.group(1), self.rereads)
        if access is not None:
            scope[CALLER_ACCESS] = access
        if found is None or access is None or access.role == "gm":
            await self.app(scope, receive, send)
            return
        application: SkaldApplication = scope["app"].state.backend.application
        campaign_id = UUID(found.group(1))

        async def policy() -> Redaction | None:
            replayed = scope.get(REPLAYED_FIGHT)
            try:
                return await run_in_threadpool(
                    application.redaction, campaign_id, access.role, replayed
                )
            except DomainError:  # no such campaign: the route says so
                return None

        await self.app(scope, receive, RedactingSend(send, policy))


async def caller(scope: Scope, campaign: str, rereads: Rereads) -> Access | None:
    """The key's access to the campaign, as the routes check it; None when it has none."""
    presented = bearer_in(scope["headers"])
    if presented is None:
        return None
    key, key_id = presented
    try:
        campaign_id = UUID(campaign)
    except ValueError:
        return None
    application: SkaldApplication = scope["app"].state.backend.application
    digest = KeyMaker.digest(key)
    try:
        known = application.access_if_fresh(campaign_id, key_id, digest)
        if known is not None:
            return known
        # One read at a time per campaign; the others wait for it (a hop to a worker
        # thread apiece, every ACCESS_RECHECK_SECONDS, for every request then arriving).
        return await shared_access_read(application, campaign_id, key_id, digest, rereads)
    except DomainError:  # a key this campaign refuses: the route answers 401/403/404
        return None


class RedactingSend:
    """The ``send`` of one request: a JSON answer is held whole and sent redacted, with
    its new length; an event stream is redacted event by event as it goes."""

    def __init__(self, send: Send, policy: Callable[[], Awaitable[Redaction | None]]) -> None:
        self.send = send
        self.policy = policy
        self.start: Message | None = None
        self.mode = "pass"
        self.body: list[bytes] = []

    async def __call__(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            content_type = dict(message.get("headers", [])).get(b"content-type", b"")
            if content_type.startswith(b"application/json"):
                self.mode, self.start = "json", message
                return
            if content_type.startswith(b"text/event-stream"):
                self.mode = "events"
        elif message["type"] == "http.response.body" and self.mode == "json":
            self.body.append(message.get("body", b""))
            if message.get("more_body", False):
                return
            await self._send_json(b"".join(self.body))
            return
        elif message["type"] == "http.response.body" and self.mode == "events":
            chunk = message.get("body", b"")
            if b"event: entry" in chunk:
                message = {**message, "body": await self._redact_events(chunk)}
        await self.send(message)

    async def _send_json(self, payload: bytes) -> None:
        assert self.start is not None
        policy = await self.policy()
        if policy is not None and payload:
            payload = orjson.dumps(policy.document(orjson.loads(payload)))
        headers = [
            (name, value)
            for name, value in self.start.get("headers", [])
            if name.lower() != b"content-length"
        ]
        headers.append((b"content-length", str(len(payload)).encode()))
        await self.send({**self.start, "headers": headers})
        await self.send({"type": "http.response.body", "body": payload})

    async def _redact_events(self, chunk: bytes) -> bytes:
        policy = await self.policy()  # per chunk: an NPC enrolled meanwhile counts
        if policy is None:
            return chunk
        lines = chunk.decode().split("\r\n")
        for n, line in enumerate(lines):
            if line.startswith("data: {"):
                redacted = policy.document(orjson.loads(line[len("data: ") :]))
                lines[n] = "data: " + orjson.dumps(redacted).decode()
        return "\r\n".join(lines).encode()
