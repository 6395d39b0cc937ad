"""The assistant's tools over Streamable HTTP on ``skald serve``, at
``/campaigns/{id}/mcp`` (under the campaign's path, so a proxy that routes a campaign to
its replica routes its assistant there too), the campaign key as the bearer token.

Each request's key decides its tools: a server is built per role and the request goes
to its role's, so a viewer's assistant lists only reads and a player's no GM tool. The
tools call the API in-process, through httpx's ASGI transport into this same app with
the request's own key and client address: every middleware (redaction for a player or
a viewer, limits, the fast paths) and every route check applies exactly as to a request
from outside, without a second connection, and without knowing what address or socket
the server listens on (behind a proxy, on --lan, in a test's TestClient alike).
"""

from __future__ import annotations

import functools
import re
import secrets
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

import httpx
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from skald_campaign.api.keys import bearer_in
from skald_campaign.api.limits import MAX_BODY_BYTES
from skald_campaign.assistant.calls import Caller
from skald_campaign.assistant.tools import ROLES, build_server

PATH = re.compile(r"^/campaigns/([0-9a-fA-F-]{36})/mcp/?$")
# The origin the in-process requests name (never resolved: the transport is the app).
INSIDE = "http://skald.assistant"
TIMEOUT = httpx.Timeout(60.0)


def caller_for(scope: Scope, key: str, campaign_id: str) -> Caller:
    """The request's own key and client address, calling this same app in-process."""
    client = scope.get("client") or ("127.0.0.1", 0)
    transport = httpx.ASGITransport(app=scope["app"], client=(client[0], int(client[1])))
    return Caller(httpx.AsyncClient(transport=transport, base_url=INSIDE, timeout=TIMEOUT),
                  campaign_id, key)  # fmt: skip


@asynccontextmanager
async def request_caller(ctx: Context) -> AsyncIterator[Caller]:
    """The Caller of the HTTP request that carried this MCP message."""
    request: Any = ctx.request_context.request
    scope: Scope = request.scope
    found = bearer_in(scope["headers"])
    matched = PATH.match(scope["path"])
    if found is None or matched is None:  # the mount let no such request through
        raise RuntimeError("an assistant's request without a key or a campaign")
    caller = caller_for(scope, found[0], matched.group(1))
    async with caller.client:
        yield caller


@functools.cache
def servers() -> dict[str, MCPServer]:
    """The servers by role, built once a process (a few hundred milliseconds: each app's
    start, a test's included, would pay it again); each app's lifespan runs its own
    session managers on them. A token a GM's preview gives is good on this process (the
    campaign's replica)."""
    secret = secrets.token_bytes(32)
    return {role: build_server(role, request_caller, secret) for role in ROLES}


class Assistants:
    """The servers, one per role, and their session managers (run by the app's lifespan)."""

    def __init__(self) -> None:
        self.managers: dict[str, StreamableHTTPSessionManager] = {}

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        async with AsyncExitStack() as stack:
            for role, server in servers().items():
                # The key is the protection (a bearer only a client given it sends): the
                # SDK's Host/Origin allow-list for unauthenticated local servers would
                # refuse a table reached through a proxy or by the machine's LAN address.
                server.streamable_http_app(
                    transport_security=TransportSecuritySettings(
                        enable_dns_rebinding_protection=False
                    ),
                    max_request_body_size=MAX_BODY_BYTES,  # the API's own limit (413)
                )
                manager = server.session_manager
                await stack.enter_async_context(manager.run())
                self.managers[role] = manager
            try:
                yield
            finally:
                self.managers = {}

    async def handle(self, scope: Scope, receive: Receive, send: Send, campaign_id: str) -> None:
        found = bearer_in(scope["headers"])
        if found is None:
            refusal = JSONResponse(
                {
                    "error": "unauthenticated",
                    "message": "an assistant's requests carry a campaign key: "
                    "send 'Authorization: Bearer <key>'",
                },
                status_code=401,
                headers={"www-authenticate": "Bearer"},
            )
            await refusal(scope, receive, send)
            return
        caller = caller_for(scope, found[0], campaign_id)
        async with caller.client:
            answer = await caller.client.get(
                f"/campaigns/{campaign_id}/me", headers={"authorization": f"Bearer {found[0]}"}
            )
        role = answer.json().get("role") if answer.status_code == 200 else None
        manager = self.managers.get(role) if isinstance(role, str) else None
        if manager is None:
            refused = JSONResponse(answer.json(), status_code=answer.status_code)
            if answer.status_code == 200:  # a role with no tools
                refused = JSONResponse(
                    {"error": "forbidden", "message": f"a {role} key has no tools"},
                    status_code=403,
                )
            await refused(scope, receive, send)
            return
        await manager.handle_request(scope, receive, send)


class AssistantMount:
    """Answers ``/campaigns/{id}/mcp`` (ASGI middleware outside the API's own: the tools'
    requests come back in through all of them)."""

    def __init__(self, app: ASGIApp, assistants: Assistants) -> None:
        self.app = app
        self.assistants = assistants

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        matched = PATH.match(scope["path"]) if scope["type"] == "http" else None
        if matched is None:
            await self.app(scope, receive, send)
            return
        await self.assistants.handle(scope, receive, send, matched.group(1))
