"""``skald mcp``: the assistant's tools over stdio, for a desktop assistant on the GM's
(or a player's) machine. It talks HTTP to a running Skald with one key and never opens
the store: the server decides, records and redacts, as for any other client."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio
import httpx
from mcp.server.mcpserver import Context

from skald_campaign.assistant.calls import Caller, Refused
from skald_campaign.assistant.tools import ROLES, Role, build_server

# A tool call waits this long for Skald's answer (an exact odds request may take a while).
TIMEOUT = httpx.Timeout(60.0, connect=10.0)


class CannotStart(Exception):
    """The key or the address does not open the campaign: said before serving."""


async def serve(url: str, key: str, campaign_id: str) -> None:
    async with httpx.AsyncClient(base_url=url.rstrip("/"), timeout=TIMEOUT) as client:
        caller = Caller(client, campaign_id, key)
        try:
            me = await caller.get("/me")
        except Refused as refused:
            raise CannotStart(
                f"{url} refused the key for campaign {campaign_id}: {refused}"
            ) from None
        except httpx.HTTPError as error:
            raise CannotStart(f"no Skald answers at {url}: {error}") from error
        role = me["role"]
        if role not in ROLES:
            raise CannotStart(f"a key of role {role!r} has no tools")
        checked: Role = role

        @asynccontextmanager
        async def connect(_ctx: Context) -> AsyncIterator[Caller]:
            yield caller  # one client for the process, closed when it ends

        server = build_server(checked, connect)
        await server.run_stdio_async()


def run(url: str, key: str, campaign_id: str) -> None:
    # stdout carries the protocol; stderr only what went wrong, not each request.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    anyio.run(serve, url, key, campaign_id)
