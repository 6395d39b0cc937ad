"""The Skald-Client request header: a write made through the assistant says so (issue 40).

The MCP bridge (``skald mcp``, and ``/campaigns/{id}/mcp``) sends ``Skald-Client:
assistant`` on every request it makes for an assistant; the events its writes record
carry ``via: "assistant"`` (domain/writing/attribution.py), and the audit names their author
"<the key's label> via assistant". It is attribution only, never a permission: the key
decides what may be done, whatever the header says. Another value, or none, attributes
the write to no client (as before).

A middleware, around the action fast path and every route, so that no write can leave
it out; the attribution is the request's context, which the writer's job copies.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

from skald_campaign.application.idempotency import current_via
from skald_campaign.domain.writing.attribution import CLIENTS

HEADER = b"skald-client"


def client_of(headers: list[tuple[bytes, bytes]]) -> str | None:
    """The client a request names, when it is one writes are attributed to."""
    for name, value in headers:
        if name.lower() == HEADER:
            named = value.decode("latin-1").strip().lower()
            return named if named in CLIENTS else None
    return None


class ClientAttribution:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = client_of(scope["headers"]) if scope["type"] == "http" else None
        if client is None:
            await self.app(scope, receive, send)
            return
        token = current_via.set(client)
        try:
            await self.app(scope, receive, send)
        finally:
            current_via.reset(token)
