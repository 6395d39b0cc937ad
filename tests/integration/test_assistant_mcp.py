"""An assistant at the table (issue 40): Skald's MCP tools through the SDK's own client,
against a real `skald serve`, over stdio (`skald mcp`) and over Streamable HTTP
(`/campaigns/{id}/mcp`). Each test makes its own campaign on one server per module."""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.context import ClientRequestContext
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp_types import ElicitRequestParams, ElicitResult

from skald_campaign.assistant.documents import documents
from tests.e2e.server import Server
from tests.integration.assistant_support import SKALD, TRANSPORTS, Table, call, refusal
from tests.patience import HANG_SECONDS

READS = [
    "who_am_i", "campaign", "encounter", "board", "vitals", "character", "audit",
    "event_log", "event_catalog",
]  # fmt: skip
PLAYER = [*READS, "odds", "answer_odds", "act", "answer"]
GM = [
    *PLAYER, "next_turn", "next_round", "end_encounter", "place_marker", "remove_marker",
    "change_tracks", "advance_days", "preview_void", "preview_reroll", "preview_rewind",
    "confirm_correction",
]  # fmt: skip
DOC = Path(__file__).resolve().parents[2] / "docs" / "assistant.md"
READ_ONLY = {*READS, "odds", "answer_odds", "preview_void", "preview_reroll", "preview_rewind"}
DESTRUCTIVE = {"remove_marker", "change_tracks", "confirm_correction"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(Path(tmp_path_factory.mktemp("assistant")) / "data").start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def table(server: Server) -> Table:
    return Table(server).set_up()


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_each_role_lists_only_the_tools_it_may_use(table: Table, transport: str) -> None:
    async def listed(role: str) -> dict[str, Any]:
        async with table.assistant(transport, role) as client:
            return {tool.name: tool.annotations for tool in (await client.list_tools()).tools}

    async def main() -> None:
        gm, player, viewer = [await listed(role) for role in ("gm", "player", "viewer")]
        assert sorted(gm) == sorted(GM)
        assert sorted(player) == sorted(PLAYER)
        assert sorted(viewer) == sorted(READS)
        assert [name for name, hints in viewer.items() if not hints.read_only_hint] == []
        for name, hints in gm.items():
            assert (hints.read_only_hint, hints.destructive_hint, hints.idempotent_hint) == (
                name in READ_ONLY,
                name in DESTRUCTIVE,
                True,
            ), name
            assert hints.open_world_hint is False

    anyio.run(main)


def combatant(encounter: dict[str, Any], name: str) -> dict[str, Any]:
    return next(c for c in encounter["combatants"] if c["name"] == name)


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_fight_run_by_the_gms_and_the_players_assistants(table: Table, transport: str) -> None:
    async def main() -> None:
        async with (
            table.assistant(transport, "gm") as gm,
            table.assistant(transport, "player") as player,
        ):
            fight = await call(gm, "encounter", encounter_id=table.eid, limit=1)
            assert fight["version"] == 1
            attack = await call(
                gm, "act", encounter_id=table.eid, kind="attack", actor=table.goblin,
                params={"target": table.hero, "weapon": "club"}, dice={"hit": [1, 1, 1]},
                expected_version=1,
            )  # fmt: skip
            assert (attack["status"], attack["exchange"]["number"]) == ("pending", 1)
            assert attack["exchange"]["summary"] == (
                "Goblin's attack on Hero waits for Hero's defense: parry, dodge, none"
            )
            answered = await call(
                player, "answer", encounter_id=table.eid, number=1, choice="none",
                dice={"damage": [6, 6, 6]}, expected_version=attack["encounter"]["version"],
            )  # fmt: skip
            assert answered["action"]["summary"] == (
                "Goblin hits: Hero takes 15 Stamina and 3 Body (15/3 raw); Hero gains: stunned"
            )
            assert answered["encounter"]["version"] == 4
            hero = combatant(answered["encounter"], "Hero")
            assert (hero["tracks"], hero["conditions"]) == ({"stamina": -3, "body": 7}, ["stunned"])
            marked = await call(
                gm, "place_marker", encounter_id=table.eid, target=table.hero, name="prone",
                expected_version=4,
            )  # fmt: skip
            assert [(m["number"], m["target_name"], m["name"]) for m in marked["markers"]] == [
                (2, "Hero", "prone")
            ]
            ended = await call(
                gm, "end_encounter", encounter_id=table.eid, expected_version=marked["version"]
            )
            assert (ended["ended"], ended["version"]) == (True, 6)
            campaign = await call(gm, "campaign")
            days = await call(gm, "advance_days", expected_version=campaign["version"], days=1)
            assert (days["day"], days["days_advanced"]) == (1, 1)
            # The healing worker heals the day in the background: the preview follows it.
            healed = table.wait_for_heals(2)
            assert [(e["character_id"], e["tracks"][e["character_id"]]) for e in healed] == [
                (table.hero, {"stamina": 12, "body": 9}),
                (table.goblin, {"stamina": 12, "body": 10}),
            ]
            preview = await call(
                gm, "preview_void", encounter_id=table.eid, number=1, reason="the club missed"
            )
            assert (preview["changes_nothing"], preview["expected_version"]) == (False, 6)
            # Carried through the day: without the blow, Hero rests at full tracks.
            hero_changes = preview["characters"][table.hero]
            assert (hero_changes["before"]["tracks"], hero_changes["after"]["tracks"]) == (
                {"stamina": 12, "body": 9},
                {"stamina": 12, "body": 10},
            )
            confirmed = await call(gm, "confirm_correction", token=preview["token"])
            assert confirmed["applied"] is True
            assert (confirmed["correction"]["kind"], confirmed["correction"]["number"]) == (
                "void",
                1,
            )
            with table.http() as http:
                roster = http.get(f"/campaigns/{table.cid}/characters/{table.hero}").json()
            assert roster["tracks"]["body"] == 10

    anyio.run(main)


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_retried_write_writes_once_and_answers_as_the_first(table: Table, transport: str) -> None:
    async def main() -> None:
        async with table.assistant(transport, "gm") as gm:
            arguments = {"encounter_id": table.eid, "target": table.hero, "name": "hidden",
                         "expected_version": 1}  # fmt: skip
            first = await call(gm, "place_marker", **arguments)
            written = table.events()
            again = await call(gm, "place_marker", **arguments)
            assert again == first
            assert (first["version"], [m["name"] for m in first["markers"]]) == (2, ["hidden"])
            assert table.events() == written
            # A key the caller names holds the same way, across two sessions.
            named = {"encounter_id": table.eid, "expected_version": 2, "idempotency_key": "t-1"}
            turned = await call(gm, "next_round", **named)
            written = table.events()
        async with table.assistant(transport, "gm") as gm:
            assert await call(gm, "next_round", **named) == turned
            assert table.events() == written
            fight = await call(gm, "encounter", encounter_id=table.eid)
        assert (fight["version"], fight["round"], turned["round"]) == (3, 2, 2)

    anyio.run(main)


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_players_assistant_reads_no_npc_number(table: Table, transport: str) -> None:
    async def main() -> None:
        async with table.assistant(transport, "gm") as gm:
            await call(
                gm, "act", encounter_id=table.eid, kind="attack", actor=table.hero,
                params={"target": table.goblin}, dice={"hit": [1, 1, 1]}, expected_version=1,
            )  # fmt: skip
            hit = await call(
                gm, "answer", encounter_id=table.eid, number=1, choice="none",
                dice={"damage": [6, 6]}, expected_version=2,
            )  # fmt: skip
            assert combatant(hit["encounter"], "Goblin")["tracks"] == {"stamina": 2, "body": 8}
        for role in ("player", "viewer"):
            async with table.assistant(transport, role) as reader:
                # The roster's Goblin: as it went into the fight (its tracks go back at the end).
                goblin = await call(reader, "character", character_id=table.goblin)
                assert (goblin["sheet"], goblin["tracks"], goblin["descriptor"]) == (
                    {}, {}, "unhurt",
                )  # fmt: skip
                vitals = await call(reader, "vitals")
                (listed,) = [c for c in vitals["characters"] if c["name"] == "Goblin"]
                assert (listed["tracks"], listed["descriptor"]) == ({}, "winded")
                fight = await call(reader, "encounter", encounter_id=table.eid)
                seen = combatant(fight, "Goblin")
                assert (seen["tracks"], seen["maxima"], seen["descriptor"]) == ({}, {}, "winded")
                (action,) = fight["actions"]
                assert action["summary"] == "Hero hits: Goblin is winded"
                board = await call(reader, "board", encounter_id=table.eid)
                texts = repr(board) + repr(fight) + repr(await call(reader, "audit"))
                texts += repr(await call(reader, "event_log"))
                for number in ("'stamina': 2", "'body': 8", "Stamina 12 -> 2", "Body 10 -> 8"):
                    assert number not in texts, (role, number)

    anyio.run(main)


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_every_read_only_tool_leaves_the_store_as_it_was(table: Table, transport: str) -> None:
    async def main() -> None:
        async with table.assistant(transport, "gm") as gm:
            await call(
                gm, "act", encounter_id=table.eid, kind="attack", actor=table.goblin,
                params={"target": table.hero, "weapon": "club"}, dice={"hit": [1, 1, 1]},
                expected_version=1,
            )  # fmt: skip
            await call(
                gm, "answer", encounter_id=table.eid, number=1, choice="none",
                dice={"damage": [2, 2, 2]}, expected_version=2,
            )  # fmt: skip
            before = table.events()
            with table.http() as http:
                position = http.get(f"/campaigns/{table.cid}/events?after=0&limit=500").json()
            arguments: dict[str, dict[str, Any]] = {
                "encounter": {"encounter_id": table.eid},
                "board": {"encounter_id": table.eid},
                "character": {"character_id": table.goblin},
                "odds": {
                    "encounter_id": table.eid,
                    "kind": "attack",
                    "actor": table.hero,
                    "params": {"target": table.goblin},
                },
                "answer_odds": {"encounter_id": table.eid, "number": 1},
                "preview_void": {"encounter_id": table.eid, "number": 1, "reason": "why"},
                "preview_reroll": {"encounter_id": table.eid, "number": 1, "reason": "why"},
                "preview_rewind": {"encounter_id": table.eid, "to_version": 1, "reason": "why"},
            }
            listed = (await gm.list_tools()).tools
            read_only = [t.name for t in listed if t.annotations and t.annotations.read_only_hint]
            assert sorted(read_only) == sorted(READ_ONLY)
            answers = {}
            for name in read_only:
                result = await gm.call_tool(name, arguments.get(name, {}))
                answers[name] = result.is_error
            # answer_odds of a resolved exchange is refused (nothing waits): still a read
            assert answers == {name: name == "answer_odds" for name in read_only}
            assert table.events() == before
            with table.http() as http:
                after = http.get(f"/campaigns/{table.cid}/events?after=0&limit=500").json()
            assert after["next"] == position["next"]

    anyio.run(main)


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_the_rules_resources_and_the_recap_prompt(table: Table, transport: str) -> None:
    async def main() -> None:
        async with table.assistant(transport, "gm") as gm:
            with table.http() as http:
                start = http.get(f"/campaigns/{table.cid}/events?after=0&limit=500").json()
            await call(
                gm, "act", encounter_id=table.eid, kind="attack", actor=table.hero,
                params={"target": table.goblin}, dice={"hit": [6, 6, 6]}, expected_version=1,
            )  # fmt: skip
        async with table.assistant(transport, "player") as player:
            resources = (await player.list_resources()).resources
            assert sorted(str(r.uri) for r in resources) == [
                "skald://rules/d20", "skald://rules/margin", "skald://rules/stamina-body",
            ]  # fmt: skip
            read = await player.read_resource("skald://rules/stamina-body")
            (content,) = read.contents
            assert content.text == documents()["stamina-body"]  # type: ignore[union-attr]
            assert content.text.startswith("# ")  # type: ignore[union-attr]
            recap = await player.get_prompt("recap", {"position": str(start["next"])})
            (message,) = recap.messages
            text = message.content.text  # type: ignore[union-attr]
            assert text.splitlines()[2:] == [
                f"[{start['next'] + 1}] Hero misses Goblin",
                "    Unarmed: ST 8 // 4 = 2 dice (at least 1), impact",
                "    Hero's hit: 3d6 rolled 18 against unarmed skill 10: failure, hit score -8 "
                "(a natural 18 always fails)",
                "    Hero misses Goblin: no defense and no damage",
            ]

    anyio.run(main)


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_correction_asks_the_user_where_the_client_can(table: Table, transport: str) -> None:
    asked: list[str] = []
    answers = iter([False, True])

    async def elicit(_: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        asked.append(params.message)
        return ElicitResult(action="accept", content={"confirm": next(answers)})

    async def main() -> None:
        async with table.assistant(transport, "gm", elicitation_callback=elicit) as gm:
            await call(
                gm, "act", encounter_id=table.eid, kind="attack", actor=table.hero,
                params={"target": table.goblin}, dice={"hit": [6, 6, 6]}, expected_version=1,
            )  # fmt: skip
            before = table.events()
            preview = await call(
                gm, "preview_void", encounter_id=table.eid, number=1, reason="wrong target"
            )
            assert await call(gm, "confirm_correction", token=preview["token"]) == {
                "applied": False,
                "why": "the user said no: nothing was written",
            }
            assert table.events() == before
            done = await call(gm, "confirm_correction", token=preview["token"])
            assert (done["applied"], done["encounter"]["version"]) == (True, 3)
            question = (
                "Strike out action 1 (wrong target)? this correction changes nothing: no "
                "track, condition or later outcome moves"
            )
            assert asked == [question, question]
            forged = preview["token"][:-1] + ("0" if preview["token"][-1] != "0" else "1")
            assert "not a token a preview gave" in await refusal(
                gm, "confirm_correction", token=forged
            )

    anyio.run(main)


def test_the_mcp_path_wants_a_key(table: Table) -> None:
    with httpx.Client(base_url=table.server.url, timeout=HANG_SECONDS) as http:
        bare = http.post(f"/campaigns/{table.cid}/mcp", json={})
        assert (bare.status_code, bare.json()["error"]) == (401, "unauthenticated")
        wrong = "skald_0123456789abcdef_" + "0" * 40
        refused = http.post(
            f"/campaigns/{table.cid}/mcp", json={}, headers={"authorization": f"Bearer {wrong}"}
        )
        assert refused.status_code == 401, refused.text


def test_the_docs_client_configurations_work_as_written(table: Table) -> None:
    """docs/assistant.md's two JSON blocks, run with their placeholders filled in: the
    desktop client's stdio command, and the HTTP client's address and header."""
    blocks = re.findall(r"```json\n(.*?)```", DOC.read_text(), re.DOTALL)
    stdio, http = [json.loads(block)["mcpServers"]["skald"] for block in blocks]
    filled = {
        "http://127.0.0.1:8000": table.server.url,
        "<the campaign's id>": table.cid,
        "<the key>": table.keys["player"],
    }

    def fill(text: str) -> str:
        for placeholder, value in filled.items():
            text = text.replace(placeholder, value)
        return text

    assert (stdio["command"], stdio["args"]) == ("skald", ["mcp"])
    # The client starts it with the SDK's default environment (PATH, HOME...) and these.
    params = StdioServerParameters(
        command=SKALD, args=stdio["args"], env={k: fill(v) for k, v in stdio["env"].items()}
    )
    headers = {k: fill(v) for k, v in http["headers"].items()}

    async def main() -> None:
        async with Client(params, read_timeout_seconds=HANG_SECONDS) as client:
            assert sorted(t.name for t in (await client.list_tools()).tools) == sorted(PLAYER)
            assert (await call(client, "who_am_i"))["label"] == "Ann"
        async with (
            httpx2.AsyncClient(headers=headers, timeout=HANG_SECONDS) as session,
            Client(
                streamable_http_client(fill(http["url"]), http_client=session),
                read_timeout_seconds=HANG_SECONDS,
            ) as client,
        ):
            assert sorted(t.name for t in (await client.list_tools()).tools) == sorted(PLAYER)
            assert (await call(client, "who_am_i"))["label"] == "Ann"

    anyio.run(main)


def test_skald_mcp_says_why_it_cannot_start(table: Table) -> None:
    def mcp(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [SKALD, "mcp", *args],
            env={**os.environ, "SKALD_KEY": "", "SKALD_CAMPAIGN": "", **env},
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=HANG_SECONDS,
        )

    missing = mcp({}, "--url", table.server.url, "--campaign", table.cid)
    assert (missing.returncode, missing.stdout) == (2, "")
    assert "SKALD_KEY" in missing.stderr
    wrong = "skald_0123456789abcdef_" + "0" * 40
    refused = mcp({"SKALD_KEY": wrong}, "--url", table.server.url, "--campaign", table.cid)
    assert (refused.returncode, refused.stdout) == (1, "")
    assert refused.stderr.startswith(f"{table.server.url} refused the key for campaign ")
    assert wrong not in refused.stderr


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_stale_expected_version_is_refused_and_writes_nothing(
    table: Table, transport: str
) -> None:
    async def main() -> None:
        async with table.assistant(transport, "gm") as gm:
            moved = await call(
                gm, "place_marker", encounter_id=table.eid, target=table.goblin, name="hidden",
                expected_version=1,
            )  # fmt: skip
            assert moved["version"] == 2
            before = table.events()
            stale = {"expected_version": 1}
            refused = [
                await refusal(
                    gm, "act", encounter_id=table.eid, kind="attack", actor=table.hero,
                    params={"target": table.goblin}, **stale,
                ),
                await refusal(
                    gm, "place_marker", encounter_id=table.eid, target=table.hero, name="prone",
                    **stale,
                ),
                await refusal(
                    gm, "change_tracks", character_id=table.hero, reason="a fall",
                    adjust={"stamina": -1}, **stale,
                ),
                await refusal(gm, "next_round", encounter_id=table.eid, **stale),
            ]  # fmt: skip
            stale_text = (
                '412 version_mismatch: this write was decided on encounter version "v1", but '
                "the encounter is at version 2 now: read it again, decide again, and send the "
                "version read (If-Match) (current version: 2)"
            )
            assert refused == [
                f"Error executing tool {tool}: {stale_text}"
                for tool in ("act", "place_marker", "change_tracks", "next_round")
            ]
            assert table.events() == before
            # A correction confirmed after the fight moved on since its preview.
            preview = await call(
                gm, "preview_rewind", encounter_id=table.eid, to_version=1, reason="redo"
            )
            assert preview["expected_version"] == 2
            await call(gm, "remove_marker", encounter_id=table.eid, number=1, expected_version=2)
            before = table.events()
            text = await refusal(gm, "confirm_correction", token=preview["token"])
            assert "412" in text and "(current version: 3)" in text, text
            assert table.events() == before
            # The current version succeeds.
            done = await call(gm, "next_round", encounter_id=table.eid, expected_version=3)
            assert done["version"] == 4

    anyio.run(main)


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_the_audit_names_each_assistant_write_with_its_keys_label(
    table: Table, transport: str
) -> None:
    async def main() -> None:
        async with (
            table.assistant(transport, "gm") as gm,
            table.assistant(transport, "player") as player,
        ):
            first = (await call(gm, "audit", limit=500))["total"]
            await call(
                gm, "act", encounter_id=table.eid, kind="attack", actor=table.goblin,
                params={"target": table.hero, "weapon": "club"}, dice={"hit": [1, 1, 1]},
                expected_version=1,
            )  # fmt: skip
            await call(
                player, "answer", encounter_id=table.eid, number=1, choice="none",
                dice={"damage": [1, 1, 1]}, expected_version=2,
            )  # fmt: skip
            with table.http() as http:  # the GM's own write, not through the assistant
                body = {"target": table.goblin, "name": "hidden"}
                marked = http.post(f"/campaigns/{table.cid}/encounters/{table.eid}/markers",
                                   json=body)  # fmt: skip
                assert marked.status_code == 201, marked.text
            await call(gm, "end_encounter", encounter_id=table.eid, expected_version=5)
            campaign = await call(gm, "campaign")
            await call(
                gm, "change_tracks", character_id=table.hero, reason="a fall",
                adjust={"stamina": -1}, expected_version=campaign["version"],
            )  # fmt: skip
            with table.http() as http:
                log = http.get(f"/campaigns/{table.cid}/events?after=0&limit=500").json()
            entries: list[dict[str, Any]] = []
            deadline = time.monotonic() + HANG_SECONDS
            while time.monotonic() < deadline:  # the audit is a view: it follows the store
                audit = await call(gm, "audit", offset=first, limit=500)
                entries = audit["entries"]
                if audit["projection"]["position"] >= log["next"]:
                    break
                await anyio.sleep(0.05)
            assert [(e["type"], e.get("by"), e.get("attributed")) for e in entries] == [
                ("Encounter.ExchangeOpened", "gm:GM", "GM via assistant"),
                ("Encounter.DefenseDeclared", "player:Ann", "Ann via assistant"),
                ("Encounter.ActionResolved", "player:Ann", "Ann via assistant"),
                ("Encounter.TableRecorded", None, None),  # the GM's own write, not through it
                ("Encounter.Ended", "gm:GM", "GM via assistant"),
                ("Campaign.EncounterClosed", "gm:GM", "GM via assistant"),
                ("Campaign.TracksAdjusted", "gm:GM", "GM via assistant"),
            ]

    anyio.run(main)
