"""An assistant's session with a real ``skald serve`` through the MCP SDK's own client,
over stdio (``skald mcp`` as a subprocess, which the client stops when it closes) or over
Streamable HTTP (``/campaigns/{id}/mcp``): the same tests run over both."""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import httpx2
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from tests.e2e.server import Server
from tests.patience import HANG_SECONDS

SKALD = shutil.which("skald", path=str(Path(sys.executable).parent)) or "skald"
SB = {"st": 8, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10}
CLUB = {"name": "club", "damage_class": 3, "damage_type": "impact", "skill": 11}
GOBLIN = {**SB, "st": 16, "weapons": [CLUB]}
TRANSPORTS = ("stdio", "http")


@dataclass
class Table:
    """A campaign on the server: a PC (Hero, the player's), an NPC (Goblin), a fight."""

    server: Server
    cid: str = ""
    keys: dict[str, str] = field(default_factory=dict)
    hero: str = ""
    goblin: str = ""
    eid: str = ""

    def http(self, role: str = "gm") -> httpx.Client:
        headers = {"authorization": f"Bearer {self.keys[role]}"}
        return httpx.Client(base_url=self.server.url, headers=headers, timeout=HANG_SECONDS)

    def set_up(self) -> Table:
        with httpx.Client(base_url=self.server.url, timeout=HANG_SECONDS) as http:
            created = http.post("/campaigns", json={"name": "Storm", "ruleset": "stamina-body"})
            assert created.status_code == 201, created.text
            self.cid = created.json()["id"]
            self.keys["gm"] = created.json()["gm_key"]
            gm = {"authorization": f"Bearer {self.keys['gm']}"}
            base = f"/campaigns/{self.cid}"
            self.hero = _ok(http.post(f"{base}/characters", headers=gm,
                                      json={"name": "Hero", "sheet": SB}), 201)["id"]  # fmt: skip
            self.goblin = _ok(http.post(f"{base}/characters", headers=gm,
                                        json={"name": "Goblin", "sheet": GOBLIN, "npc": True}),
                              201)["id"]  # fmt: skip
            for role, body in (
                ("player", {"role": "player", "label": "Ann", "characters": [self.hero]}),
                ("viewer", {"role": "viewer", "label": "Screen"}),
            ):
                self.keys[role] = _ok(http.post(f"{base}/keys", headers=gm, json=body), 201)["key"]
            fight = {
                "name": "Ambush",
                "combatants": [
                    {"character_id": self.hero, "side": "a"},
                    {"character_id": self.goblin, "side": "b"},
                ],
            }
            self.eid = _ok(http.post(f"{base}/encounters", headers=gm, json=fight), 201)["id"]
        return self

    def events(self) -> int:
        """How many events the store holds."""
        with httpx.Client(base_url=self.server.url, timeout=HANG_SECONDS) as http:
            return int(_ok(http.get("/health"))["event_store"]["events"])

    def wait_for_heals(self, count: int) -> list[dict[str, Any]]:
        """The healing worker's CharacterHealed entries, once there are `count`: it heals
        each day after the day is advanced, in the background."""
        deadline = time.monotonic() + HANG_SECONDS
        with self.http() as http:
            while True:
                path = f"/campaigns/{self.cid}/history?kind=CharacterHealed"
                entries: list[dict[str, Any]] = _ok(http.get(path))["entries"]
                if len(entries) >= count or time.monotonic() > deadline:
                    return entries
                time.sleep(0.05)

    @asynccontextmanager
    async def assistant(self, transport: str, role: str, **options: Any) -> AsyncIterator[Client]:
        """An MCP client session as this role's assistant."""
        if transport == "stdio":
            params = StdioServerParameters(
                command=SKALD,
                args=["mcp", "--url", self.server.url, "--campaign", self.cid],
                env={**os.environ, "SKALD_KEY": self.keys[role]},
            )
            async with Client(params, read_timeout_seconds=HANG_SECONDS, **options) as client:
                yield client
            return
        url = f"{self.server.url}/campaigns/{self.cid}/mcp"
        headers = {"authorization": f"Bearer {self.keys[role]}"}
        async with httpx2.AsyncClient(headers=headers, timeout=HANG_SECONDS) as http:
            transport_streams = streamable_http_client(url, http_client=http)
            async with Client(
                transport_streams, read_timeout_seconds=HANG_SECONDS, **options
            ) as client:
                yield client


def _ok(response: httpx.Response, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json()


async def call(client: Client, tool: str, **arguments: Any) -> Any:
    """A tool's structured answer; fails the test with its text when it answered an error."""
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    if result.structured_content is not None:
        return result.structured_content
    return json.loads(result.content[0].text)  # type: ignore[union-attr]


async def refusal(client: Client, tool: str, **arguments: Any) -> str:
    """The text of a tool's error answer; fails the test when the tool succeeded."""
    result = await client.call_tool(tool, arguments)
    assert result.is_error, result.structured_content
    return str(result.content[0].text)  # type: ignore[union-attr]
