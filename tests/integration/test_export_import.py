"""Moving house: a campaign exported from SQLite (server running) and imported into
PostgreSQL answers every read the same, byte for byte, and its keys still work."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import psycopg
import pytest
from fastapi.testclient import TestClient

from skald_campaign.api.app import create_app
from skald_campaign.domain.bestiary import CampaignBestiary
from skald_campaign.services import build_services
from skald_campaign.settings import Settings
from tests.helpers import GM, act, enrol, event_count, new_campaign, ok, start
from tests.patience import HANG_SECONDS
from tests.services import REDIS_URL, require_postgres

SKALD = str(Path(sys.executable).parent / "skald")
OPERATOR = "operator-key-of-the-new-home"
BARE = {"st": 12, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10}
OGRE = {
    **BARE,
    "st": 20,
    "weapons": [{"name": "spear", "damage_class": 2, "damage_type": "piercing", "skill": 14}],
}


def skald(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [SKALD, *args],
        capture_output=True,
        text=True,
        timeout=HANG_SECONDS,
        env={**os.environ, "COLUMNS": "200", **(env or {})},
    )


@pytest.fixture
def postgres_schema(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, str]]:
    url = require_postgres()
    schema = f"skald_move_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    monkeypatch.setenv("POSTGRES_SCHEMA", schema)  # the eventsourcing env reads it
    try:
        yield url, schema
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


class Story:
    """A campaign with fights, corrections (void, reroll, rewind), days healed, a wound,
    keys, and requests sent with Idempotency-Keys (whose replays must survive)."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        made = client.post(
            "/campaigns",
            json={"name": "The Long Road", "ruleset": "stamina-body", "options": {}},
            headers={"Idempotency-Key": "make-the-campaign"},
        )
        self.created = made.content
        self.cid = str(ok(made, 201)["id"])
        self.gm = {"authorization": f"Bearer {made.json()['gm_key']}"}
        client.headers.update(self.gm)
        self.ogre = enrol(client, self.cid, "Ogre", OGRE)
        enrolled = client.post(
            f"/campaigns/{self.cid}/characters",
            json={"name": "Bran", "sheet": BARE},
            headers={"Idempotency-Key": "enrol-bran"},
        )
        self.enrolled = enrolled.content
        self.bran = str(ok(enrolled, 201)["id"])
        self.mira = enrol(client, self.cid, "Mira", BARE)
        issued = ok(
            client.post(
                f"/campaigns/{self.cid}/keys", json={"role": "player", "characters": [self.bran]}
            ),
            201,
        )
        self.player = {"authorization": f"Bearer {issued['key']}"}
        self.encounters = [self.first_fight(), self.second_fight()]

    def first_fight(self) -> str:
        c, cid = self.client, self.cid
        eid = start(
            c,
            cid,
            [
                {"character_id": self.ogre, "side": "foes"},
                {"character_id": self.bran, "side": "party"},
                {"character_id": self.mira, "side": "party", "rank": 2},
            ],
        )
        base = f"/campaigns/{cid}/encounters/{eid}"
        spear = {"hit": [1, 2, 2], "damage": [6, 6]}
        act(
            c,
            cid,
            eid,
            "attack",
            self.ogre,
            spear,
            target=self.bran,
            weapon="spear",
            defense="none",
        )
        act(c, cid, eid, "take_hit", None, {"damage": [6]}, target=self.mira,
            damage_type="impact", damage_class=1)  # fmt: skip
        act(c, cid, eid, "recover", self.mira, {"recovery": [3, 3, 3]})
        ok(c.post(f"{base}/round", headers=GM))
        ok(c.post(f"{base}/actions/1/void", json={"reason": "out of reach"},
                  headers={"Idempotency-Key": "void-1"}))  # fmt: skip
        # Through the assistant (issue 40): its events say so, and so does the audit.
        ok(c.post(f"{base}/actions/2/reroll", headers={"skald-client": "assistant"},
                  json={"reason": "die fell", "dice": {"damage": [2]}}))  # fmt: skip
        ok(c.post(f"{base}/end"))
        ok(c.post(f"/campaigns/{cid}/days", json={"days": 2}), 201)
        ok(c.post(f"/campaigns/{cid}/characters/{self.mira}/wounds",
                  json={"wound": "broken_bones", "reason": "fell"}), 201)  # fmt: skip
        return eid

    def second_fight(self) -> str:
        c, cid = self.client, self.cid
        eid = start(c, cid, [{"character_id": self.bran, "side": "party"}], name="Ambush")
        for face in (3, 5, 1):
            act(c, cid, eid, "take_hit", None, {"damage": [face]}, target=self.bran,
                damage_type="impact", damage_class=1)  # fmt: skip
        ok(c.post(f"/campaigns/{cid}/encounters/{eid}/rewind",
                  json={"to_version": 2, "reason": "replay it"}))  # fmt: skip
        act(c, cid, eid, "take_hit", None, {"damage": [4]}, target=self.bran,
            damage_type="impact", damage_class=1)  # left open  # fmt: skip
        return eid

    def settle(self) -> None:
        """Wait for the healing worker (2 days, 3 characters) and the views to catch up."""
        deadline = time.monotonic() + HANG_SECONDS
        while time.monotonic() < deadline:
            heals = ok(self.client.get(f"/campaigns/{self.cid}/history?kind=CharacterHealed"))
            vitals = ok(self.client.get(f"/campaigns/{self.cid}/vitals"))
            if heals["total"] == 6 and vitals["projection"]["behind"] == 0:
                return
            time.sleep(0.05)
        raise AssertionError("the healing worker or the views did not catch up")


def every_read(client: TestClient, story: Story) -> dict[str, bytes]:
    """Path -> the exact body of every read the campaign answers."""
    cid = story.cid
    paths = [
        f"/campaigns/{cid}",
        f"/campaigns/{cid}/history?limit=1000",
        f"/campaigns/{cid}/vitals",
        f"/campaigns/{cid}/audit?limit=500",
        f"/campaigns/{cid}/keys",
    ]
    paths += [f"/campaigns/{cid}/characters/{ch}" for ch in (story.ogre, story.bran, story.mira)]
    history = ok(client.get(f"/campaigns/{cid}/history?limit=1000"))["entries"]
    for entry in history[::3]:
        paths.append(f"/campaigns/{cid}/vitals/at?at={entry['timestamp'].replace('+', '%2B')}")
        paths.append(f"/campaigns/{cid}?at={entry['timestamp'].replace('+', '%2B')}")
    for eid in story.encounters:
        base = f"/campaigns/{cid}/encounters/{eid}"
        latest = ok(client.get(base))["version"]
        paths += [base, f"{base}/audit?limit=1000", f"{base}/board", f"{base}/diff?from=1&to=3"]
        paths += [f"{base}?version={v}" for v in range(1, latest + 1)]
    reads = {}
    for path in paths:
        response = client.get(path)
        assert response.status_code == 200, (path, response.text)
        reads[path] = response.content
    return reads


def export(data_dir: Path, file: Path, *args: str) -> list[bytes]:
    exported = skald("export", *args, str(file), env={"SKALD_DATA_DIR": str(data_dir)})
    assert exported.returncode == 0, exported.stderr
    lines = file.read_bytes().splitlines()
    header, end = orjson.loads(lines[0]), orjson.loads(lines[-1])
    assert (header["format"], header["version"]) == ("skald-events", 2)
    # Every line but the closing one carries the SHA-256 of its canonical JSON, and the
    # closing line that of the event lines' digests in order (skald_campaign/exchange.py).
    digests = [orjson.loads(line).pop("sha256") for line in lines[:-1]]
    for line, digest in zip(lines[:-1], digests, strict=True):
        content = {k: v for k, v in orjson.loads(line).items() if k != "sha256"}
        canonical = orjson.dumps(content, option=orjson.OPT_SORT_KEYS)
        assert hashlib.sha256(canonical).hexdigest() == digest
    file_digest = hashlib.sha256("".join(digests[1:]).encode()).hexdigest()
    assert end == {"end": True, "events": len(lines) - 2, "file_sha256": file_digest}
    assert f"exported {len(lines) - 2} events" in exported.stdout
    return lines


def imported_into_a_new_data_dir(backup: Path, data_dir: Path) -> tuple[dict[str, str], Settings]:
    """`skald import` of the file into a fresh data dir (its own Redis prefix): the CLI's
    environment for that data dir, and the settings that serve what it imported."""
    prefix = "x" + uuid.uuid4().hex
    target = {"SKALD_DATA_DIR": str(data_dir), "SKALD_REDIS_PREFIX": prefix}
    if REDIS_URL:
        target["SKALD_REDIS_URL"] = REDIS_URL
    imported = skald("import", str(backup), env=target)
    assert imported.returncode == 0, imported.stderr
    return target, Settings(data_dir=data_dir, redis_url=REDIS_URL, redis_prefix=prefix)


def test_a_store_moves_from_sqlite_to_postgresql_and_reads_the_same_byte_for_byte(
    live_client: TestClient, settings: Settings, postgres_schema: tuple[str, str], tmp_path: Path
) -> None:
    story = Story(live_client)
    new_campaign(live_client, "d20", name="Someone else's")
    live_client.headers.update(story.gm)
    story.settle()
    before = every_read(live_client, story)

    backup = tmp_path / "backup.jsonl"
    lines = export(settings.data_dir, backup)  # the server is still running
    assert len(lines) - 2 == event_count(live_client)

    url, schema = postgres_schema
    secret = (settings.data_dir / "secret.key").read_text().strip()
    target = {
        "SKALD_DATABASE": url,
        "POSTGRES_SCHEMA": schema,
        "SKALD_SECRET_KEY": secret,  # the keys a replayed request re-derives come from it
        "SKALD_REDIS_PREFIX": f"{settings.redis_prefix}-moved",
        "SKALD_DATA_DIR": str(tmp_path / "target"),
        **({"SKALD_REDIS_URL": REDIS_URL} if REDIS_URL else {}),
    }
    imported = skald("import", str(backup), env=target)
    assert imported.returncode == 0, imported.stderr
    assert f"imported {len(lines) - 2} events" in imported.stdout
    assert f"rebuilt the views from {len(lines) - 2} events" in imported.stdout
    # Exported again from PostgreSQL, every event line is the same, byte for byte.
    again = skald("export", str(tmp_path / "from-postgresql.jsonl"), env=target)
    assert again.returncode == 0, again.stderr
    assert (tmp_path / "from-postgresql.jsonl").read_bytes().splitlines()[1:] == lines[1:]

    moved = Settings(
        database=url,
        secret_key=secret,
        redis_url=REDIS_URL,
        redis_prefix=target["SKALD_REDIS_PREFIX"],
        data_dir=tmp_path / "target",
        operator_key=OPERATOR,  # on PostgreSQL, creating campaigns needs it
    )
    with TestClient(create_app(lambda: build_services(moved))) as client:
        client.headers.update(story.gm)
        after = every_read(client, story)
        assert after.keys() == before.keys()
        # The reroll made through the assistant moved with its attribution (the typed
        # import read its `via` as the class's version 2 declares it).
        trail = f"/campaigns/{story.cid}/encounters/{story.encounters[0]}/audit?limit=1000"
        for path in (trail, f"/campaigns/{story.cid}/audit?limit=500"):
            assert after[path].count(b'"attributed":"GM via assistant"') == 1, path
        for path in before:  # the whole store moved: even the views' positions agree
            assert after[path] == before[path], path

        # The player key opens what it opened, and no more.
        bran = f"/campaigns/{story.cid}/characters/{story.bran}"
        assert client.get(bran, headers=story.player).content == before[bran]
        refused = client.post(f"/campaigns/{story.cid}/days", json={"days": 1},
                              headers=story.player)  # fmt: skip
        assert refused.status_code == 403
        # Requests retried with their Idempotency-Keys get the first answers, no new writes.
        count = event_count(client)
        again = client.post(
            "/campaigns",
            json={"name": "The Long Road", "ruleset": "stamina-body", "options": {}},
            headers={"Idempotency-Key": "make-the-campaign", "authorization": f"Bearer {OPERATOR}"},
        )
        assert (again.status_code, again.content) == (201, story.created)
        again = client.post(
            f"/campaigns/{story.cid}/characters",
            json={"name": "Bran", "sheet": BARE},
            headers={"Idempotency-Key": "enrol-bran"},
        )
        assert (again.status_code, again.content) == (201, story.enrolled)
        assert event_count(client) == count
        # And the campaign carries on where it stopped.
        ambush = story.encounters[1]
        hit = act(client, story.cid, ambush, "take_hit", None, {"damage": [2]},
                  target=story.bran, damage_type="impact", damage_class=1)  # fmt: skip
        assert hit["action"]["number"] == 5  # after 3 hits, a rewind and 1 more


def test_one_campaign_moves_with_its_encounters_and_request_records(
    live_client: TestClient, settings: Settings, tmp_path: Path
) -> None:
    new_campaign(live_client, "margin", name="Before")
    story = Story(live_client)
    new_campaign(live_client, "d20", name="After")
    live_client.headers.update(story.gm)
    story.settle()
    before = every_read(live_client, story)

    backup = tmp_path / "one.jsonl"
    lines = export(settings.data_dir, backup, "--campaign", story.cid)
    assert orjson.loads(lines[0])["campaign"] == story.cid
    ids = {orjson.loads(line)["originator_id"] for line in lines[1:-1]}
    records = ids - {story.cid, *story.encounters}
    assert len(records) == 3  # make-the-campaign, enrol-bran, void-1
    assert b"Before" not in backup.read_bytes() and b"After" not in backup.read_bytes()

    target, moved = imported_into_a_new_data_dir(backup, tmp_path / "target")
    with TestClient(create_app(lambda: build_services(moved))) as client:
        client.headers.update(story.gm)
        after = every_read(client, story)
    # The views count positions in the store, which here holds fewer events: those
    # differ, and nothing else does.
    for path in before:
        assert without_positions(after[path]) == without_positions(before[path]), path
    vitals = orjson.loads(after[f"/campaigns/{story.cid}/vitals"])["projection"]
    assert (vitals["store"], vitals["behind"]) == (len(lines) - 2, 0)

    # All or nothing: the whole store's file holds these aggregates and others; the
    # others are not imported either.
    everything = tmp_path / "all.jsonl"
    total = len(export(settings.data_dir, everything)) - 2
    refused = skald("import", str(everything), env=target)
    assert refused.returncode == 1
    aggregates = len({orjson.loads(line)["originator_id"] for line in
                      everything.read_bytes().splitlines()[1:-1]})  # fmt: skip
    assert refused.stderr.splitlines()[-1].startswith(
        f"skald: the store already holds {len(ids)} of the file's {aggregates} aggregates"
    )
    assert "nothing was imported" in refused.stderr
    assert total > len(lines) - 2
    listed = skald("campaigns", env=target)
    assert listed.returncode == 0, listed.stderr
    heading, line = listed.stdout.splitlines()  # the one campaign moved
    assert heading.split() == ["id", "ruleset", "day", "last", "change", "(UTC)", "name"]
    assert line.startswith(f"{story.cid}  stamina-body      2  20")
    assert line.endswith("  The Long Road")


def test_one_campaign_moves_with_its_bestiary_and_no_other(
    client: TestClient, settings: Settings, tmp_path: Path
) -> None:
    other = new_campaign(client, "stamina-body", name="Other")
    ok(client.post(f"/campaigns/{other}/bestiary", json={"name": "Orc", "sheet": BARE}), 201)
    cid = new_campaign(client, "stamina-body", name="Prepared")
    gm = {"authorization": client.headers["authorization"]}
    saved = client.post(f"/campaigns/{cid}/bestiary", json={"name": "Goblin", "sheet": BARE})
    goblin = ok(saved, 201)

    backup = tmp_path / "one.jsonl"
    lines = export(settings.data_dir, backup, "--campaign", cid)
    ids = {orjson.loads(line)["originator_id"] for line in lines[1:-1]}
    assert ids == {cid, str(CampaignBestiary.create_id(uuid.UUID(cid)))}
    assert b"Orc" not in backup.read_bytes()

    _, moved = imported_into_a_new_data_dir(backup, tmp_path / "target")
    with TestClient(create_app(lambda: build_services(moved))) as there:
        assert ok(there.get(f"/campaigns/{cid}/bestiary", headers=gm)) == [goblin]


def test_a_cut_short_or_foreign_file_is_refused_and_writes_nothing(tmp_path: Path) -> None:
    good = [
        b'{"format":"skald-events","version":1,"campaign":null}',
        b'{"originator_id":"6f2d3c1e-0000-4000-8000-000000000001","originator_version":1,'
        b'"topic":"domain.campaign:Campaign.Created","state":"{}"}',
    ]
    cases = {
        "cut.jsonl": (good, "the file ends without its closing line"),
        "count.jsonl": ([*good, b'{"end":true,"events":2}'], "says it holds 2 events but has 1"),
        "foreign.jsonl": ([b'{"hello":1}'], "this is not a Skald export"),
        "newer.jsonl": (
            [b'{"format":"skald-events","version":3}'],
            "format version 3; this Skald reads versions 1 and 2",
        ),
        "gap.jsonl": (
            [good[0], good[1].replace(b'"originator_version":1', b'"originator_version":2')],
            "has version 2 where 1 was expected",
        ),
    }
    env = {"SKALD_DATA_DIR": str(tmp_path / "data"), "SKALD_REDIS_PREFIX": uuid.uuid4().hex}
    if REDIS_URL:
        env["SKALD_REDIS_URL"] = REDIS_URL
    for name, (lines, message) in cases.items():
        (tmp_path / name).write_bytes(b"\n".join(lines) + b"\n")
        refused = skald("import", str(tmp_path / name), env=env)
        assert refused.returncode == 1, name
        assert message in refused.stderr.splitlines()[-1], (name, refused.stderr)
    listed = skald("campaigns", env=env)
    assert listed.stdout.splitlines()[1:] == []


def without_positions(body: bytes) -> Any:
    """The body without the notification ids of the store that answered it."""

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {
                k: strip(v)
                for k, v in value.items()
                if k != "projection" and not (k in ("position", "id") and isinstance(v, int))
            }
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    return strip(orjson.loads(body))


def test_an_import_whose_views_cannot_be_rebuilt_says_so_and_keeps_the_events(
    live_client: TestClient, settings: Settings, tmp_path: Path
) -> None:
    new_campaign(live_client, "margin", name="Kept")
    backup = tmp_path / "kept.jsonl"
    lines = export(settings.data_dir, backup)
    target = {
        "SKALD_DATA_DIR": str(tmp_path / "target"),
        "SKALD_REDIS_URL": "redis://127.0.0.1:1/0",
    }
    imported = skald("import", str(backup), env=target)
    # The events are stored: the import did its work (status 0), and says what it
    # could not do besides (issue 37 item 6).
    assert imported.returncode == 0, imported.stderr
    assert f"imported {len(lines) - 2} events" in imported.stdout
    assert imported.stderr.splitlines()[-1].startswith(
        "skald: warning: imported, but the views were not rebuilt: "
        "Error 111 connecting to 127.0.0.1:1"
    )
    listed = skald("campaigns", env=target)
    assert listed.stdout.splitlines()[1].endswith("  Kept")
    missing = skald("import", str(tmp_path / "nothing.jsonl"), env=target)
    assert (missing.returncode, missing.stderr) == (
        1,
        f"skald: no file {tmp_path}/nothing.jsonl to import\n",
    )
