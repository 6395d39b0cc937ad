"""The MCP server an assistant talks to: the tools its key's role may use, and no other.

One server is built per role (``build_server``): a viewer's lists only reads, a player's
adds acting and answering for their own characters (the API refuses the others', as it
does for the pages), the GM's has every tool. Each tool is one or two requests to the
HTTP API with the assistant's own key (``calls.Caller``), so every answer a player's or
viewer's assistant gets is redacted by the server exactly as the pages' are (RULINGS T3,
T3a): no tool reads the store, and none re-words an answer.

Writes: each takes the ``expected_version`` it was decided on (sent as If-Match: a stale
one is refused, nothing written) and an ``idempotency_key`` (when not given, derived from
the tool, its arguments and that version: ``calls.derived_key``), so a retried call
writes once and answers as the first did. A correction is two steps: a preview tool
answers what would change and a token; ``confirm_correction`` commits exactly that,
after a yes from the user where the client supports elicitation.
"""

import base64
import hashlib
import hmac
import json
import logging
import secrets
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.prompts.base import UserMessage
from mcp.server.mcpserver.resolve import Elicit, ElicitationResult, Resolve
from mcp_types import ToolAnnotations
from pydantic import BaseModel, Field

from skald_campaign.assistant import documents
from skald_campaign.assistant.calls import Caller, derived_key

Role = Literal["gm", "player", "viewer"]
ROLES: tuple[Role, ...] = ("gm", "player", "viewer")
# Each call gets its Caller from this: the stdio server's one, or the HTTP request's.
Connect = Callable[[Context], AbstractAsyncContextManager[Caller]]

READ = ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)
# An appended event: nothing before it changes (a later correction can strike it out).
ADD = ToolAnnotations(
    read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)
# Replaces what stood: tracks set, actions struck out or rolled again (kept on record).
REPLACE = ToolAnnotations(
    read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False
)

INSTRUCTIONS = (
    "Skald keeps the campaign's state: every number is resolved and recorded by the "
    "server. Never keep the fight's state in your head: read it (encounter, board, "
    "vitals) before deciding, and pass the encounter's (or, for advance_days and for "
    "track changes between fights, the campaign's) `version` as `expected_version` to "
    "every write. A write refused as stale wrote nothing: read again and decide again. "
    "Corrections are two steps: preview, then confirm_correction with the preview's token."
)

EncounterId = Annotated[str, Field(description="the encounter's id (see the campaign tool)")]
ExpectedVersion = Annotated[
    int,
    Field(
        ge=1,
        description="the version of the encounter (the campaign's for advance_days and for "
        "track changes outside a fight) this write was decided on; a stale one is refused "
        "and nothing is written",
    ),
]
IdempotencyKey = Annotated[
    str | None,
    Field(
        default=None,
        max_length=120,
        description="retry a write under the same key to get its first answer; by default "
        "derived from the tool, its arguments and expected_version",
    ),
]
Dice = Annotated[
    dict[str, list[int]] | None,
    Field(default=None, description="the table's physical dice by roll name; others rolled"),
]


class Confirm(BaseModel):
    confirm: bool = Field(description="apply the correction as previewed")


def build_server(role: Role, connect: Connect, token_secret: bytes | None = None) -> MCPServer:
    """The MCP server for a key of this role; ``connect`` gives each call its Caller."""
    # The SDK's constructor calls logging.basicConfig (a handler on the root logger at
    # INFO) when the root has none: Skald's server and CLI keep their own logging, so the
    # root is given a handler that does nothing for that moment.
    root, quiet = logging.getLogger(), logging.NullHandler()
    root.addHandler(quiet)
    try:
        server: MCPServer = MCPServer(
            "skald", title="Skald", instructions=INSTRUCTIONS, version="0.1.0"
        )
    finally:
        root.removeHandler(quiet)
    secret = token_secret or secrets.token_bytes(32)
    _reads(server, connect)
    if role in ("gm", "player"):
        _player_reads(server, connect)
        _player_writes(server, connect)
    if role == "gm":
        _gm_writes(server, connect)
        _corrections(server, connect, secret)
    documents.publish(server)
    _recap(server, connect)
    return server


async def _write(
    ctx: Context,
    connect: Connect,
    tool: str,
    method: str,
    path: str,
    body: Any,
    expected_version: int,
    idempotency_key: str | None,
    arguments: dict[str, Any],
) -> Any:
    key = idempotency_key or derived_key(tool, arguments, expected_version)
    async with connect(ctx) as caller:
        return await caller.write(method, path, body, expected_version, key)


async def _get(
    ctx: Context, connect: Connect, path: str, params: dict[str, Any] | None = None
) -> dict[str, Any]:
    async with connect(ctx) as caller:
        return dict(await caller.get(path, params))


async def _post(ctx: Context, connect: Connect, path: str, body: Any) -> dict[str, Any]:
    """A POST that writes nothing (the odds, a preview)."""
    async with connect(ctx) as caller:
        return dict(await caller.read_post(path, body))


def _reads(server: MCPServer, connect: Connect) -> None:
    @server.tool(annotations=READ)
    async def who_am_i(ctx: Context) -> dict[str, Any]:
        """This key's role, label and the characters it may act for."""
        return await _get(ctx, connect, "/me")

    @server.tool(annotations=READ)
    async def campaign(ctx: Context) -> dict[str, Any]:
        """The campaign: its day, version, characters and encounters (ids and names)."""
        return await _get(ctx, connect, "")

    @server.tool(annotations=READ)
    async def encounter(
        ctx: Context,
        encounter_id: EncounterId,
        offset: Annotated[int, Field(ge=0, description="the first action to list")] = 0,
        limit: Annotated[int, Field(ge=1, le=1000)] = 50,
    ) -> dict[str, Any]:
        """An encounter: its version, round, turn order and whose turn, combatants,
        markers, waiting exchanges and its actions (a page, oldest first)."""
        params = {"offset": offset, "limit": limit}
        return await _get(ctx, connect, f"/encounters/{encounter_id}", params)

    @server.tool(annotations=READ)
    async def board(ctx: Context, encounter_id: EncounterId) -> dict[str, Any]:
        """The encounter's board: round, combatants by side with tracks and conditions,
        the last actions, markers, initiative and the turn order."""
        return await _get(ctx, connect, f"/encounters/{encounter_id}/board")

    @server.tool(annotations=READ)
    async def vitals(ctx: Context) -> dict[str, Any]:
        """Every character's tracks (current and maximum) and conditions."""
        return await _get(ctx, connect, "/vitals")

    @server.tool(annotations=READ)
    async def character(
        ctx: Context, character_id: Annotated[str, Field(max_length=64)]
    ) -> dict[str, Any]:
        """One character: sheet, tracks, conditions, the encounter it is in."""
        return await _get(ctx, connect, f"/characters/{character_id}")

    @server.tool(annotations=READ)
    async def audit(
        ctx: Context,
        offset: Annotated[int, Field(ge=0, description="entries to skip")] = 0,
        limit: Annotated[int, Field(ge=1, le=500)] = 50,
    ) -> dict[str, Any]:
        """Every event of the campaign in order: who (the key's label), when, the dice
        and the breakdown."""
        return await _get(ctx, connect, "/audit", {"offset": offset, "limit": limit})

    @server.tool(annotations=READ)
    async def event_log(
        ctx: Context,
        after: Annotated[int, Field(ge=0, description="the events after this position")] = 0,
        limit: Annotated[int, Field(ge=1, le=500)] = 100,
    ) -> dict[str, Any]:
        """The campaign's events from a position (the store's), each with its type,
        aggregate, version, time, by whom and payload; `next` is where to go on from."""
        return await _get(ctx, connect, "/events", {"after": after, "limit": limit})

    @server.tool(annotations=READ)
    async def event_catalog(ctx: Context) -> dict[str, Any]:
        """Every event type the log carries, its version and the JSON Schema of its payload."""
        return await _get(ctx, connect, "/schema/events")


def _player_reads(server: MCPServer, connect: Connect) -> None:
    @server.tool(annotations=READ)
    async def odds(
        ctx: Context,
        encounter_id: EncounterId,
        kind: Annotated[str, Field(max_length=40, description="the action, e.g. attack")],
        actor: Annotated[str, Field(max_length=64, description="the acting combatant")],
        params: Annotated[dict[str, Any] | None, Field(default=None)] = None,
    ) -> dict[str, Any]:
        """Every outcome of an action about to happen, with its exact probability (those
        this key may read: RULINGS T3a). An attack that leaves the defense to its defender
        waits for their answer: its results are the hit, and `answers` holds each answer's
        odds. Writes nothing."""
        body = {"kind": kind, "actor": actor, "params": params or {}}
        return await _post(ctx, connect, f"/encounters/{encounter_id}/odds", body)

    @server.tool(annotations=READ)
    async def answer_odds(
        ctx: Context,
        encounter_id: EncounterId,
        number: Annotated[int, Field(ge=1, description="the waiting exchange's number")],
    ) -> dict[str, Any]:
        """The odds of each answer the defender may give to a waiting attack."""
        path = f"/encounters/{encounter_id}/exchanges/{number}/odds"
        return await _get(ctx, connect, path)


def _player_writes(server: MCPServer, connect: Connect) -> None:
    @server.tool(annotations=ADD)
    async def act(
        ctx: Context,
        encounter_id: EncounterId,
        kind: Annotated[str, Field(max_length=40, description="an action of the ruleset")],
        actor: Annotated[str, Field(max_length=64, description="the acting combatant")],
        expected_version: ExpectedVersion,
        params: Annotated[dict[str, Any] | None, Field(default=None)] = None,
        dice: Dice = None,
        idempotency_key: IdempotencyKey = None,
    ) -> dict[str, Any]:
        """Perform an action (a player only for their own characters). The server rolls
        what the table did not, resolves it and records it with its dice and breakdown.
        An attack that waits for the defender's answer has status `pending`."""
        body: dict[str, Any] = {"kind": kind, "actor": actor, "params": params or {}}
        if dice:
            body["dice"] = dice
        arguments = {"encounter_id": encounter_id, **body}
        path = f"/encounters/{encounter_id}/actions"
        return dict(
            await _write(
                ctx, connect, "act", "POST", path, body, expected_version, idempotency_key,
                arguments,
            )
        )  # fmt: skip

    @server.tool(annotations=ADD)
    async def answer(
        ctx: Context,
        encounter_id: EncounterId,
        number: Annotated[int, Field(ge=1, description="the waiting exchange's number")],
        choice: Annotated[str, Field(max_length=40, description="e.g. parry, dodge, none")],
        expected_version: ExpectedVersion,
        dice: Dice = None,
        idempotency_key: IdempotencyKey = None,
    ) -> dict[str, Any]:
        """The defender's answer to a waiting attack (their player or the GM); then the
        exchange resolves."""
        body: dict[str, Any] = {"choice": choice}
        if dice:
            body["dice"] = dice
        arguments = {"encounter_id": encounter_id, "number": number, **body}
        path = f"/encounters/{encounter_id}/exchanges/{number}/declare"
        return dict(
            await _write(
                ctx, connect, "answer", "POST", path, body, expected_version, idempotency_key,
                arguments,
            )
        )  # fmt: skip


def _gm_writes(server: MCPServer, connect: Connect) -> None:
    @server.tool(annotations=ADD)
    async def next_turn(
        ctx: Context,
        encounter_id: EncounterId,
        expected_version: ExpectedVersion,
        idempotency_key: IdempotencyKey = None,
    ) -> dict[str, Any]:
        """Next in the turn order; after the last, the next round begins at the top."""
        path = f"/encounters/{encounter_id}/turn"
        arguments = {"encounter_id": encounter_id}
        return dict(
            await _write(
                ctx, connect, "next_turn", "POST", path, None, expected_version,
                idempotency_key, arguments,
            )
        )  # fmt: skip

    @server.tool(annotations=ADD)
    async def next_round(
        ctx: Context,
        encounter_id: EncounterId,
        expected_version: ExpectedVersion,
        idempotency_key: IdempotencyKey = None,
    ) -> dict[str, Any]:
        """The next round, at the top of the order."""
        path = f"/encounters/{encounter_id}/round"
        arguments = {"encounter_id": encounter_id}
        return dict(
            await _write(
                ctx, connect, "next_round", "POST", path, None, expected_version,
                idempotency_key, arguments,
            )
        )  # fmt: skip

    @server.tool(annotations=ADD)
    async def end_encounter(
        ctx: Context,
        encounter_id: EncounterId,
        expected_version: ExpectedVersion,
        reason: Annotated[str | None, Field(default=None, max_length=500)] = None,
        idempotency_key: IdempotencyKey = None,
    ) -> dict[str, Any]:
        """End the fight (optionally saying why, on record); tracks go to the roster."""
        path = f"/encounters/{encounter_id}/end"
        body = {"reason": reason} if reason else None
        arguments = {"encounter_id": encounter_id, "reason": reason}
        return dict(
            await _write(
                ctx, connect, "end_encounter", "POST", path, body, expected_version,
                idempotency_key, arguments,
            )
        )  # fmt: skip

    @server.tool(annotations=ADD)
    async def place_marker(
        ctx: Context,
        encounter_id: EncounterId,
        target: Annotated[str, Field(max_length=64, description="the combatant marked")],
        name: Annotated[str, Field(min_length=1, max_length=40, description="e.g. prone")],
        expected_version: ExpectedVersion,
        note: Annotated[str | None, Field(default=None, max_length=200)] = None,
        rounds: Annotated[
            int | None, Field(default=None, ge=1, le=100, description="default: until removed")
        ] = None,
        idempotency_key: IdempotencyKey = None,
    ) -> dict[str, Any]:
        """Put a named marker (prone, hidden, ...) on a combatant (RULINGS T2)."""
        body: dict[str, Any] = {"target": target, "name": name}
        if note is not None:
            body["note"] = note
        if rounds is not None:
            body["rounds"] = rounds
        arguments = {"encounter_id": encounter_id, **body}
        path = f"/encounters/{encounter_id}/markers"
        return dict(
            await _write(
                ctx, connect, "place_marker", "POST", path, body, expected_version,
                idempotency_key, arguments,
            )
        )  # fmt: skip

    @server.tool(annotations=REPLACE)
    async def remove_marker(
        ctx: Context,
        encounter_id: EncounterId,
        number: Annotated[int, Field(ge=1, description="the marker's number")],
        expected_version: ExpectedVersion,
        idempotency_key: IdempotencyKey = None,
    ) -> dict[str, Any]:
        """Take a standing marker off."""
        path = f"/encounters/{encounter_id}/markers/{number}"
        arguments = {"encounter_id": encounter_id, "number": number}
        return dict(
            await _write(
                ctx, connect, "remove_marker", "DELETE", path, None, expected_version,
                idempotency_key, arguments,
            )
        )  # fmt: skip

    @server.tool(annotations=REPLACE)
    async def change_tracks(
        ctx: Context,
        character_id: Annotated[str, Field(max_length=64)],
        reason: Annotated[str, Field(min_length=1, max_length=500, description="on record")],
        expected_version: ExpectedVersion,
        set: Annotated[dict[str, int] | None, Field(default=None)] = None,
        adjust: Annotated[
            dict[str, int] | None, Field(default=None, description="move by an amount")
        ] = None,
        idempotency_key: IdempotencyKey = None,
    ) -> dict[str, Any]:
        """Set or move a character's tracks, with the reason (in a fight: the encounter's
        version is expected; between fights: the campaign's)."""
        body: dict[str, Any] = {"reason": reason}
        if set is not None:
            body["set"] = set
        if adjust is not None:
            body["adjust"] = adjust
        arguments = {"character_id": character_id, **body}
        path = f"/characters/{character_id}/tracks"
        return dict(
            await _write(
                ctx, connect, "change_tracks", "POST", path, body, expected_version,
                idempotency_key, arguments,
            )
        )  # fmt: skip

    @server.tool(annotations=ADD)
    async def advance_days(
        ctx: Context,
        expected_version: ExpectedVersion,
        days: Annotated[int, Field(ge=1, le=365)] = 1,
        default: Annotated[
            dict[str, Any] | None, Field(default=None, description="everyone's day plan")
        ] = None,
        idempotency_key: IdempotencyKey = None,
    ) -> dict[str, Any]:
        """Advance the calendar (the campaign's version is expected); healing follows."""
        body: dict[str, Any] = {"days": days}
        if default:
            body["default"] = default
        return dict(
            await _write(
                ctx, connect, "advance_days", "POST", "/days", body, expected_version,
                idempotency_key, dict(body),
            )
        )  # fmt: skip


# --- corrections: preview, then confirm with the preview's token ---


def _seal(secret: bytes, payload: dict[str, Any]) -> str:
    text = json.dumps(payload, sort_keys=True, separators=(",", ":")).encode()
    mac = hmac.new(secret, text, hashlib.sha256).hexdigest()[:32]
    return base64.urlsafe_b64encode(text).decode().rstrip("=") + "." + mac


def _open(secret: bytes, token: str) -> dict[str, Any]:
    body, _, mac = token.strip().partition(".")
    try:
        text = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    except ValueError as error:
        raise ToolError("that is not a token a preview gave: preview again") from error
    expected = hmac.new(secret, text, hashlib.sha256).hexdigest()[:32]
    if not hmac.compare_digest(mac, expected):
        raise ToolError(
            "that is not a token a preview gave (or the server restarted): preview again"
        )
    payload = json.loads(text)
    if not isinstance(payload, dict):
        raise ToolError("that is not a token a preview gave: preview again")
    return payload


def _corrections(server: MCPServer, connect: Connect, secret: bytes) -> None:
    async def preview(
        ctx: Context, what: str, encounter_id: str, path: str, body: dict[str, Any],
        fields: dict[str, Any],
    ) -> dict[str, Any]:  # fmt: skip
        async with connect(ctx) as caller:
            before = await caller.get(f"/encounters/{encounter_id}", {"limit": 1})
            found = dict(await caller.read_post(path, body))
            after = await caller.get(f"/encounters/{encounter_id}", {"limit": 1})
        if before["version"] != after["version"]:
            raise ToolError("the encounter changed while it was previewed: preview again")
        payload = {
            "what": what,
            "encounter_id": encounter_id,
            "version": after["version"],
            "key": caller.key_id,
            "message": str(found.get("message", ""))[:500],
            **fields,
        }
        found["token"] = _seal(secret, payload)
        found["expected_version"] = after["version"]
        return found

    @server.tool(annotations=READ)
    async def preview_void(
        ctx: Context,
        encounter_id: EncounterId,
        number: Annotated[int, Field(ge=1, description="the action's number")],
        reason: Annotated[str, Field(min_length=1, max_length=500)],
    ) -> dict[str, Any]:
        """What striking out an action would change, through the campaign; writes
        nothing. Answers a `token` for confirm_correction."""
        path = f"/encounters/{encounter_id}/actions/{number}/void/preview"
        fields = {"number": number, "reason": reason}
        return await preview(ctx, "void", encounter_id, path, {"reason": reason}, fields)

    @server.tool(annotations=READ)
    async def preview_reroll(
        ctx: Context,
        encounter_id: EncounterId,
        number: Annotated[int, Field(ge=1, description="the action's number")],
        reason: Annotated[str, Field(min_length=1, max_length=500)],
        dice: Dice = None,
    ) -> dict[str, Any]:
        """What rolling an action again would change (with the table's dice, or the
        server's: then the token fixes nothing of the new roll); writes nothing."""
        path = f"/encounters/{encounter_id}/actions/{number}/reroll/preview"
        body: dict[str, Any] = {"reason": reason}
        if dice:
            body["dice"] = dice
        fields = {"number": number, "reason": reason, "dice": dice}
        return await preview(ctx, "reroll", encounter_id, path, body, fields)

    @server.tool(annotations=READ)
    async def preview_rewind(
        ctx: Context,
        encounter_id: EncounterId,
        to_version: Annotated[int, Field(ge=1, description="the version to go back to")],
        reason: Annotated[str, Field(min_length=1, max_length=500)],
    ) -> dict[str, Any]:
        """What going back to an encounter version would change; writes nothing."""
        path = f"/encounters/{encounter_id}/rewind/preview"
        body = {"reason": reason, "to_version": to_version}
        fields = {"to_version": to_version, "reason": reason}
        return await preview(ctx, "rewind", encounter_id, path, body, fields)

    def ask(token: str, ctx: Context) -> Elicit[Confirm] | Confirm:
        """A yes/no from the user where the client can ask one; else the token is the
        confirmation (the preview was shown to whoever asked for it)."""
        payload = _open(secret, token)
        capabilities = ctx.client_capabilities
        if capabilities is None or capabilities.elicitation is None:
            return Confirm(confirm=True)
        what = {"void": "Strike out", "reroll": "Roll again", "rewind": "Rewind"}[
            str(payload["what"])
        ]
        subject = (
            f"action {payload['number']}"
            if "number" in payload
            else f"to version {payload['to_version']}"
        )
        message = f"{what} {subject} ({payload['reason']})? {payload['message']}".strip()
        return Elicit(message, Confirm)

    @server.tool(annotations=REPLACE)
    async def confirm_correction(
        ctx: Context,
        token: Annotated[str, Field(max_length=4000, description="the preview's token")],
        answer: Annotated[ElicitationResult[Confirm], Resolve(ask)],
        idempotency_key: IdempotencyKey = None,
    ) -> dict[str, Any]:
        """Apply a previewed correction, exactly as previewed: refused (nothing written)
        when the encounter changed since the preview, or when the user says no."""
        payload = _open(secret, token)
        if answer.action != "accept" or answer.data is None or not answer.data.confirm:
            said = "said no" if answer.action == "accept" else f"{answer.action}ed the question"
            return {"applied": False, "why": f"the user {said}: nothing was written"}
        encounter_id = str(payload["encounter_id"])
        what = str(payload["what"])
        body: dict[str, Any] = {"reason": payload["reason"]}
        if what == "rewind":
            body["to_version"] = payload["to_version"]
            path = f"/encounters/{encounter_id}/rewind"
        else:
            path = f"/encounters/{encounter_id}/actions/{payload['number']}/{what}"
            if what == "reroll" and payload.get("dice"):
                body["dice"] = payload["dice"]
        version = int(payload["version"])
        key = idempotency_key or derived_key("confirm_correction", {"token": token}, version)
        async with connect(ctx) as caller:
            if payload["key"] != caller.key_id:
                raise ToolError("that token was given to another key: preview again")
            found = dict(await caller.write("POST", path, body, version, key))
        return {"applied": True, **found}


# --- the recap prompt ---

RECAP_LIMIT = 2000


def _recap(server: MCPServer, connect: Connect) -> None:
    @server.prompt(title="Recap since a position")
    async def recap(
        ctx: Context,
        position: Annotated[str, Field(description="the log position to recap from")] = "0",
    ) -> list[UserMessage]:
        """A recap of what happened after a position of the log, from the texts this
        key may read (each event's summary and each action's narrative)."""
        async with connect(ctx) as caller:
            lines = await recap_lines(caller, int(position))
        text = "\n".join(lines) if lines else "(nothing happened since then)"
        return [
            UserMessage(
                "Recap for the table what happened, in order, from this record "
                f"(events after position {position}; state only what it says):\n\n{text}"
            )
        ]


async def recap_lines(caller: Caller, after: int) -> list[str]:
    """Each event after the position: its summary, and under an action its narrative
    lines, as this key reads them (the server redacts them for a player or a viewer)."""
    entries: list[dict[str, Any]] = []
    offset = 0
    while len(entries) < RECAP_LIMIT:
        page = await caller.get("/audit", {"offset": offset, "limit": 500})
        found = page["entries"]
        entries.extend(e for e in found if int(e["id"]) > after)
        offset += len(found)
        if not found or offset >= int(page["total"]):
            break
    narratives: dict[tuple[str, int], list[str]] = {}
    for encounter_id in dict.fromkeys(
        str(e["encounter_id"]) for e in entries if e.get("encounter_id") and e.get("number")
    ):
        fight = await caller.get(f"/encounters/{encounter_id}", {"limit": 1000})
        for action in fight["actions"]:
            lines = action.get("narrative")
            if isinstance(lines, list):
                narratives[(encounter_id, int(action["number"]))] = [str(x) for x in lines]
    out: list[str] = []
    for entry in entries[:RECAP_LIMIT]:
        out.append(f"[{entry['id']}] {entry['summary']}")
        number = entry.get("number")
        if entry.get("encounter_id") and number:
            out.extend(
                f"    {line}"
                for line in narratives.get((str(entry["encounter_id"]), int(number)), [])
            )
    return out
