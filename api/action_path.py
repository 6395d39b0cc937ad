"""A GM's ordinary action POST answered before the middleware stack (issue 39: commands
at a third of the stack's cost; "remove layers, not microseconds").

The action fast path (api/fast_actions.py) answers the commonest command below the
router, but on its way in and out it still passed through every middleware: FastAPI's
three (server errors, telemetry, its body limit), then the security headers, the
unexpected errors, the assistant's mount, the rate limit, the ETags, the body limit, the
event log's fast path, the redaction and the attribution, each a coroutine call per
request and most a closure around ``send``. For a GM's ordinary action none of them
changes the answer but four, done here with the same code and in the same order: the
rate limit counts it (its decision travels with a request that goes on through the
stack, ``RATE_DECIDED``, so it is counted once), the body limit judges its size and its
JSON, an unexpected error is answered as a JSON 500, and the security headers are added.
What is done between is the action fast path's: the same command, the same answer
(``fast_actions.answer_bytes``), the same refusals.

Everything out of the ordinary goes through the whole stack as before, before its body
is read when the headers say so: another method or path, no key or two Authorization
headers, a key that is not the GM's (a player's answer is redacted: api/redacting.py), a
body without a Content-Length or over the limit, a Content-Encoding, an
Idempotency-Key or If-Match, a Skald-Client header (api/attribution.py), a rate limit
refusal (the stack's RateLimit sends the 429 decided here). After the body is read, a
body that is not plainly valid JSON for an action goes on through the stack with the
body as read (api/limits.py ``replaying``): the body limit's 422 and the route's answers.
"""

from __future__ import annotations

import logging
import re
from uuid import UUID

from fastapi.responses import JSONResponse
from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.types import Message, Receive, Scope, Send

from skald_campaign.api import fast_actions
from skald_campaign.api.access_reads import Rereads, access_before_stack
from skald_campaign.api.attribution import HEADER as CLIENT_HEADER
from skald_campaign.api.errors import UNEXPECTED, domain_error_response, error_body
from skald_campaign.api.json_body import json_problem, read_as_json
from skald_campaign.api.keys import bearer_in
from skald_campaign.api.limits import (
    MAX_BODY_BYTES,
    RateLimiter,
    decide_before_stack,
    presented_key,
    replaying,
)
from skald_campaign.api.loop_futures import on_this_loop
from skald_campaign.api.routes.encounters import action_command
from skald_campaign.api.schemas import ActionBody
from skald_campaign.api.security import security_headers
from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.commands import PerformAction
from skald_campaign.domain.access import Access
from skald_campaign.domain.errors import DomainError

log = logging.getLogger("skald.api")  # api/errors.py's: the same log as the stack's
ACTION_PATH = fast_actions.ACTION_PATH
# Headers that send a request through the stack: its own checks (the route's expected
# version and replays, the attribution, a coded body).
STACK_HEADERS = (b"idempotency-key", b"if-match", CLIENT_HEADER, b"content-encoding")


class ActionPath:
    """Called by the application before its middleware stack (api/app.py ``SkaldAPI``):
    ``answer`` answers the request and returns None, or returns the ``receive`` the stack
    is to read the request from (the body replayed if it was read) having sent nothing."""

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        self.rereads: Rereads = {}  # see api/access_reads.py

    def takes(self, scope: Scope) -> re.Match[str] | None:
        if not self.enabled or scope["type"] != "http" or scope["method"] != "POST":
            return None
        return ACTION_PATH.match(scope["path"])

    async def answer(
        self, app: Starlette, scope: Scope, found: re.Match[str], receive: Receive, send: Send
    ) -> Receive | None:
        state = app.state
        limiter: RateLimiter | None = getattr(state, "rate_limiter", None)
        headers = dict(scope["headers"])
        presented = bearer_in(headers.items())
        declared = headers.get(b"content-length", b"")
        if (
            limiter is None
            or presented is None
            or presented[0] != presented_key(scope)  # two Authorization headers
            or any(name in headers for name in STACK_HEADERS)
            or not headers.get(b"content-type", b"").startswith(b"application/json")
            or not declared.isdigit()
            or int(declared) > MAX_BODY_BYTES
        ):
            return receive
        key, key_id = presented
        if decide_before_stack(limiter, scope, key) is not None:
            return receive  # the stack's RateLimit sends the 429 it decided here
        application: SkaldApplication = state.backend.application
        try:
            campaign_id, encounter_id = UUID(found.group(1)), UUID(found.group(2))
        except ValueError:  # the route's 422
            return receive
        access = await access_before_stack(application, campaign_id, key_id, key, self.rereads)
        if access is None or access.role != "gm":
            return receive
        body = await fast_actions.read_body(receive)
        if body is None:  # the client went away
            return None
        command = ordinary_action(campaign_id, encounter_id, headers, body, access)
        if command is None:
            return replaying(body, receive)
        extra = security_headers(scope["path"])

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        try:
            # The answer is made on the writer as the action left the encounter.
            status, payload = await on_this_loop(
                application.perform_action_answered(command, fast_actions.answer_bytes)
            )
        except DomainError as refusal:  # nothing was written
            await domain_error_response(refusal)(scope, receive, with_headers)
            return None
        except Exception:  # as api/errors.py UnexpectedErrors answers it
            log.exception("unexpected error answering %s %s", scope["method"], scope["path"])
            unexpected = JSONResponse(error_body("internal_error", UNEXPECTED), status_code=500)
            await unexpected(scope, receive, with_headers)
            return None
        start = [
            (b"content-length", str(len(payload)).encode()),
            (b"content-type", b"application/json"),
            *extra,
        ]
        await send({"type": "http.response.start", "status": status, "headers": start})
        await send({"type": "http.response.body", "body": payload})
        return None


def ordinary_action(
    campaign_id: UUID,
    encounter_id: UUID,
    headers: dict[bytes, bytes],
    body: bytes,
    access: Access,
) -> PerformAction | None:
    """The command, when the body is within the limit and valid JSON for an action (the
    body limit's checks, then the route's); else None: the stack's to answer."""
    if len(body) > MAX_BODY_BYTES:
        return None
    if body and read_as_json(headers.get(b"content-type")) and json_problem(body) is not None:
        return None
    try:
        parsed = ActionBody.model_validate_json(body)
        return action_command(campaign_id, encounter_id, parsed, access)
    except (ValueError, ValidationError, DomainError):  # the route says what is wrong
        return None
