"""The action POST, answered below FastAPI's routing and dependency machinery.

Under the load of bench/http.py (a) the framework's share of a command (routing, solving
the dependencies, validating and serialising) was most of the server's time, more than
the command itself (bench/README.md). The commonest request of all, a command to act,
is answered here, inside the same middlewares (rate limits, body limit, security
headers), by the same code as the route (`action_command`, `action_answer`, the access
check, the error mapping of api/errors.py): only the framing differs.

Anything out of the ordinary is handed on to the FastAPI route untouched, body
included, before anything is done: a missing or unknown key, a body that does not
validate, a key that may not act for that actor, an Idempotency-Key. The route then
answers as it always has (its errors, its 422s, its replays). A campaign whose keys must
be read from the store again is read here as the route's dependency reads it (in a
worker thread); if that check does not pass, the route makes it again and answers. A
command the domain refuses is answered here with the route's own error body; nothing of
it was written. The answer is made on the writer thread right after the action (so the
encounter, which the writer goes on changing, is not copied) and sent after the commit.
"""

from __future__ import annotations

import re
from uuid import UUID

from pydantic import ValidationError
from starlette.types import ASGIApp, Receive, Scope, Send

from skald_campaign.api.access_reads import Rereads, fresh_access
from skald_campaign.api.errors import domain_error_response
from skald_campaign.api.keys import KeyMaker, bearer_in
from skald_campaign.api.limits import replaying
from skald_campaign.api.loop_futures import on_this_loop
from skald_campaign.api.redacting import CALLER_ACCESS
from skald_campaign.api.routes.encounters import action_command
from skald_campaign.api.schemas import ActionBody
from skald_campaign.api.views import outcome_json
from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.commands import PerformAction
from skald_campaign.domain.access import Access
from skald_campaign.domain.encounter.aggregate import Encounter
from skald_campaign.domain.errors import DomainError

ACTION_PATH = re.compile(r"^/campaigns/([0-9a-f-]{36})/encounters/([0-9a-f-]{36})/actions$")


class ActionFastPath:
    def __init__(self, app: ASGIApp, enabled: bool = True) -> None:
        self.app = app
        self.enabled = enabled
        self.rereads: Rereads = {}  # see api/access_reads.py

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = (
            ACTION_PATH.match(scope["path"])
            if self.enabled and scope["type"] == "http" and scope["method"] == "POST"
            else None
        )
        if found is None:
            await self.app(scope, receive, send)
            return
        body = await read_body(receive)
        if body is None:  # the client went away
            return
        command = await self._command(scope, found, body)
        if command is None:
            await self.app(scope, replaying(body, receive), send)
            return
        application: SkaldApplication = scope["app"].state.backend.application
        try:
            # The answer is made on the writer as the action left the encounter: the
            # encounter, which the writer goes on changing, is not copied for it.
            status, payload = await on_this_loop(
                application.perform_action_answered(command, answer_bytes)
            )
        except DomainError as refused:  # nothing was written
            await domain_error_response(refused)(scope, receive, send)
            return
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-length", str(len(payload)).encode()),
                    (b"content-type", b"application/json"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": payload})

    async def _command(
        self, scope: Scope, found: re.Match[str], body: bytes
    ) -> PerformAction | None:
        """The command, when this request is an ordinary one; else None (the route's)."""
        headers = dict(scope["headers"])
        if (
            b"idempotency-key" in headers
            or b"if-match" in headers  # the route's: it checks the expected version
            or not headers.get(b"content-type", b"").startswith(b"application/json")
        ):
            return None
        presented = bearer_in(scope["headers"])
        if presented is None:
            return None
        key, key_id = presented
        try:
            campaign_id, encounter_id = UUID(found.group(1)), UUID(found.group(2))
            # Checked for this key and campaign by the redacting middleware, just before.
            access: Access | None = scope.get(CALLER_ACCESS)
            if access is None:
                application: SkaldApplication = scope["app"].state.backend.application
                digest = KeyMaker.digest(key)
                access = application.access_if_fresh(campaign_id, key_id, digest)
                if access is None:
                    access = await fresh_access(
                        application, campaign_id, key_id, digest, self.rereads
                    )
            if access is None:
                return None
            return action_command(
                campaign_id, encounter_id, ActionBody.model_validate_json(body), access
            )
        except (ValueError, ValidationError, DomainError):  # the route says what is wrong
            return None


def answer_bytes(encounter: Encounter) -> tuple[int, bytes]:
    """The route's answer to the action (`action_answer`: 201, or 202 while an attack
    waits for a declaration), as the bytes it sends (api/views.py `outcome_json`)."""
    try:
        pending, payload = outcome_json(encounter)
    except DomainError as error:  # the action was written: no refusal of it
        raise RuntimeError("the action's answer could not be made") from error
    return (202 if pending else 201), payload


async def read_body(receive: Receive) -> bytes | None:
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)
