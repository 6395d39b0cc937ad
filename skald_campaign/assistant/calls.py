"""The assistant's requests to Skald's HTTP API, and what a write sends with it.

Every tool answer comes from one of these requests, made with the assistant's own key:
the server redacts a player's or a viewer's answers (RULINGS T3, T3a) exactly as it does
for the pages, and refuses what the key may not do. Nothing here opens the store.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import httpx
from mcp.server.mcpserver.exceptions import ToolError

# The longest answer body a tool passes on as its error text.
ERROR_TEXT = 2000


class Refused(ToolError):
    """Skald refused the request: the tool's answer is an error naming why (its status,
    error code and message, as the API gave them). Nothing was written."""

    def __init__(self, status: int, body: str) -> None:
        self.status = status
        self.body = body
        try:
            parsed = json.loads(body)
        except ValueError:
            parsed = None
        if isinstance(parsed, dict) and "message" in parsed:
            text = f"{status} {parsed.get('error', '')}: {parsed['message']}"
            if "current_version" in parsed:
                text += f" (current version: {parsed['current_version']})"
        else:
            text = f"{status}: {body[:ERROR_TEXT]}"
        super().__init__(text)


def write_headers(expected_version: int | None, idempotency_key: str) -> dict[str, str]:
    """The headers of an assistant's write: the Idempotency-Key it is retried under, the
    version it was decided on (If-Match: a stale one is refused with 412 and writes
    nothing) and the mark that it was made via an assistant (the audit says so)."""
    # Skald-Client: attribution only (docs/access.md): the events it records say "via assistant".
    headers = {"idempotency-key": idempotency_key, "skald-client": "assistant"}
    if expected_version is not None:
        headers["if-match"] = f'"v{expected_version}"'  # the GET's version tag (docs/access.md)
    return headers


def derived_key(tool: str, arguments: Mapping[str, Any], expected_version: int | None) -> str:
    """The idempotency key of a call that names none: from the tool, its arguments and
    the version it was decided on (never the MCP request id, which a client's retry
    changes), so the same call retried writes once and gets the first answer again."""
    named = {k: v for k, v in arguments.items() if k != "idempotency_key" and v is not None}
    text = json.dumps(
        {"tool": tool, "arguments": named, "expected_version": expected_version},
        sort_keys=True,
        separators=(",", ":"),
        default=str,
    )
    return "assistant-" + hashlib.sha256(text.encode()).hexdigest()[:48]


@dataclass(frozen=True, slots=True)
class Caller:
    """One campaign, one key: the requests a tool makes."""

    client: httpx.AsyncClient
    campaign_id: str
    key: str

    @property
    def key_id(self) -> str:
        return self.key.split("_")[1] if self.key.count("_") == 2 else ""

    @property
    def base(self) -> str:
        return f"/campaigns/{self.campaign_id}"

    def _headers(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        return {"authorization": f"Bearer {self.key}", **(extra or {})}

    async def get(self, path: str, params: Mapping[str, Any] | None = None) -> Any:
        """GET a path: the campaign's own paths are given relative to it ('/vitals')."""
        query = {k: v for k, v in (params or {}).items() if v is not None}
        response = await self.client.get(self._url(path), params=query, headers=self._headers())
        return self._answer(response)

    async def read_post(self, path: str, body: Any) -> Any:
        """A POST that writes nothing (a preview, the odds)."""
        response = await self.client.post(self._url(path), json=body, headers=self._headers())
        return self._answer(response)

    async def write(
        self,
        method: str,
        path: str,
        body: Any,
        expected_version: int | None,
        idempotency_key: str,
    ) -> Any:
        headers = self._headers(write_headers(expected_version, idempotency_key))
        response = await self.client.request(method, self._url(path), json=body, headers=headers)
        return self._answer(response)

    def _url(self, path: str) -> str:
        return path if path.startswith(("/campaigns", "/schema", "/rulesets")) else self.base + path

    @staticmethod
    def _answer(response: httpx.Response) -> Any:
        if response.status_code >= 400:
            raise Refused(response.status_code, response.text)
        return response.json()
