"""Exports carry integrity, imports check meaning (issue 37 item 2).

A real store is exported through `skald export` and damaged the five ways an outside
prober found stored whole before: an action's number made a word, a character's id
given a '#...' tail, a key's hash and an idempotency record's body hash flipped by one
hex digit, an action's summary edited. Each damaged file is refused by the real
`skald import`, naming the line, with nothing stored. A file without digests (an
export of format version 1, or one whose digests were computed again after an edit)
is checked by meaning: a field not of its declared type is refused by its line and
field; a version 1 export still imports, with a warning that it cannot be checked."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from fastapi.testclient import TestClient

from skald_campaign.settings import Settings
from tests.helpers import act, enrol, ok, start
from tests.integration.test_compat_fe485e1 import STORE
from tests.integration.test_export_import import BARE, OGRE, export, skald
from tests.integration.test_import_refusals import events_in, signed_again, target_env

DAMAGED = "does not match its digest (sha256): the file was damaged after it was exported"
UNCHECKED = (
    "skald: warning: this export is format version 1, written before exports carried "
    "digests: damage to it cannot be detected, only events that cannot be read or applied "
    "are refused"
)


def a_store(client: TestClient) -> str:
    """A campaign with a character, an action, a key and an idempotency record."""
    created = client.post(
        "/campaigns",
        json={"name": "Damaged", "ruleset": "stamina-body", "options": {}},
        headers={"Idempotency-Key": "make-the-campaign"},
    )
    cid = str(ok(created, 201)["id"])
    client.headers["authorization"] = f"Bearer {created.json()['gm_key']}"
    ogre = enrol(client, cid, "Ogre", OGRE)
    bran = enrol(client, cid, "Bran", BARE)
    eid = start(
        client,
        cid,
        [{"character_id": ogre, "side": "foes"}, {"character_id": bran, "side": "party"}],
    )
    act(client, cid, eid, "attack", ogre, {"hit": [1, 2, 2], "damage": [6, 6]},
        target=bran, weapon="spear", defense="none")  # fmt: skip
    ok(client.post(f"/campaigns/{cid}/keys", json={"role": "viewer"}), 201)
    return bran


def flipped(hex_digit: bytes) -> bytes:
    return b"0" if hex_digit != b"0" else b"1"


def damage(
    lines: list[bytes], topic_ends: str, field: bytes, change: str
) -> tuple[list[bytes], int]:
    """The file with ``field``'s value in the first event of that topic changed; its line."""
    key = b'\\"' + field + b'\\":'
    for index, line in enumerate(lines[1:-1], start=1):
        if orjson.loads(line)["topic"].endswith(topic_ends) and key in line:
            at = line.index(key) + len(key)
            if change == "a word":  # 1 -> "seven"
                end = line.index(b",", at)
                changed = line[:at] + b'\\"seven\\"' + line[end:]
            elif change == "a tail":  # "...-7b8f3" -> "...-7b8f3#581988"
                end = line.index(b'\\"', at + 2)
                changed = line[:end] + b"#581988" + line[end:]
            elif change in ("a flipped digit", "a letter past f"):
                first = at + 2  # after the opening \"
                new = flipped(line[first : first + 1]) if change == "a flipped digit" else b"g"
                changed = line[:first] + new + line[first + 1 :]
            else:  # an edited text
                changed = line[: at + 2] + b"Edited: " + line[at + 2 :]
            return [*lines[:index], changed, *lines[index + 1 :]], index + 1
    raise AssertionError(f"no {topic_ends} event holds {field!r}")


# The prober's five damaged files: (the event, its field, the change).
DAMAGES = {
    "an action's number made a word": ("Encounter.ActionResolved", b"number", "a word"),
    "a character's id given a tail": ("Campaign.CharacterEnrolled", b"character_id", "a tail"),
    "a key's hash flipped": ("Campaign.KeyIssued", b"key_hash", "a flipped digit"),
    "a request's body hash flipped": (
        "IdempotentRequest.Recorded",
        b"request_hash",
        "a flipped digit",
    ),
    "an action's summary edited": ("Encounter.ActionResolved", b"summary", "an edited text"),
}


@pytest.mark.parametrize("case", list(DAMAGES))
def test_a_damaged_export_is_refused_naming_the_line_and_stores_nothing(
    case: str, client: TestClient, settings: Settings, tmp_path: Path
) -> None:
    a_store(client)
    lines = export(settings.data_dir, tmp_path / "good.jsonl")
    changed, number = damage(lines, *DAMAGES[case])
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"\n".join(changed) + b"\n")

    refused = skald("import", str(bad), env=target_env(tmp_path))
    assert refused.returncode == 1, refused.stdout
    assert "Traceback" not in refused.stderr
    assert refused.stderr.splitlines()[-1] == (
        f"skald: line {number} {DAMAGED}; nothing was imported"
    )
    assert events_in(tmp_path / "target") == 0


def test_lines_lost_or_moved_are_refused_by_the_files_digest(
    client: TestClient, settings: Settings, tmp_path: Path
) -> None:
    a_store(client)
    lines = export(settings.data_dir, tmp_path / "good.jsonl")
    # Two events of different aggregates swapped: each line is whole, each aggregate's
    # versions still in order, the count right; only the file's digest tells.
    first = next(i for i, line in enumerate(lines) if b"IdempotentRequest.Recorded" in line)
    moved = [*lines]
    moved[first], moved[first + 1] = moved[first + 1], moved[first]
    (tmp_path / "moved.jsonl").write_bytes(b"\n".join(moved) + b"\n")
    refused = skald("import", str(tmp_path / "moved.jsonl"), env=target_env(tmp_path))
    assert refused.returncode == 1, refused.stdout
    assert refused.stderr.splitlines()[-1] == (
        f"skald: line {len(lines)}: the file's digest (file_sha256) does not match its lines: "
        "lines were lost, added or moved after it was exported; nothing was imported"
    )
    assert events_in(tmp_path / "target") == 0


def test_a_header_whose_version_was_damaged_to_1_is_refused_not_read_unchecked(
    client: TestClient, settings: Settings, tmp_path: Path
) -> None:
    a_store(client)
    lines = export(settings.data_dir, tmp_path / "good.jsonl")
    header = lines[0].replace(b'"version":2', b'"version":1', 1)
    assert header != lines[0]
    (tmp_path / "older.jsonl").write_bytes(b"\n".join([header, *lines[1:]]) + b"\n")
    refused = skald("import", str(tmp_path / "older.jsonl"), env=target_env(tmp_path))
    assert refused.returncode == 1, refused.stdout
    assert refused.stderr.splitlines()[-1] == f"skald: line 1 {DAMAGED}; nothing was imported"
    assert "warning" not in refused.stderr
    assert events_in(tmp_path / "target") == 0


def as_version_1(lines: list[bytes]) -> list[bytes]:
    """The file as `skald export` wrote it before exports carried digests."""
    header = {k: v for k, v in orjson.loads(lines[0]).items() if k != "sha256"}
    events = [
        orjson.dumps({k: v for k, v in orjson.loads(line).items() if k != "sha256"})
        for line in lines[1:-1]
    ]
    end = {"end": True, "events": len(events)}
    return [orjson.dumps({**header, "version": 1}), *events, orjson.dumps(end)]


# A field not of its declared type, in a file whose digests cannot tell: (the event,
# its field, the change, what the refusal says after naming line, event and type).
MEANINGLESS = {
    "an action's number made a word": (
        "Encounter.ActionResolved",
        b"number",
        "a word",
        "Expected `int`, got `str` - at `$.number`",
    ),
    "a character's id given a tail": (
        "Campaign.CharacterEnrolled",
        b"character_id",
        "a tail",
        "Expected `str` of length <= 36 - at `$.character_id`",
    ),
    "a key's hash given a letter past f": (
        "Campaign.KeyIssued",
        b"key_hash",
        "a letter past f",
        "Expected `str` matching regex '^[0-9a-f]+$' - at `$.key_hash`",
    ),
}


@pytest.mark.parametrize("signed", [False, True], ids=["version 1", "digests computed again"])
@pytest.mark.parametrize("case", list(MEANINGLESS))
def test_a_field_not_of_its_declared_type_is_refused_naming_line_and_field(
    case: str, signed: bool, client: TestClient, settings: Settings, tmp_path: Path
) -> None:
    a_store(client)
    lines = export(settings.data_dir, tmp_path / "good.jsonl")
    topic, field, change, why = MEANINGLESS[case]
    changed, number = damage(lines, topic, field, change)
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"\n".join(signed_again(changed) if signed else as_version_1(changed)) + b"\n")
    line = orjson.loads(changed[number - 1])

    refused = skald("import", str(bad), env=target_env(tmp_path))
    assert refused.returncode == 1, refused.stdout
    assert refused.stderr.splitlines()[-1] == (
        f"skald: line {number}: event {line['originator_version']} of aggregate "
        f"{line['originator_id']} ({topic}): a field is not of its declared type: {why}; "
        "nothing was imported"
    )
    assert (UNCHECKED in refused.stderr.splitlines()) is not signed
    assert events_in(tmp_path / "target") == 0


def test_an_untouched_export_round_trips_with_its_digests(
    client: TestClient, settings: Settings, tmp_path: Path
) -> None:
    a_store(client)
    lines = export(settings.data_dir, tmp_path / "good.jsonl")  # digests checked there
    env = target_env(tmp_path)
    imported = skald("import", str(tmp_path / "good.jsonl"), env=env)
    assert imported.returncode == 0, imported.stderr
    assert "warning" not in imported.stderr
    assert f"imported {len(lines) - 2} events" in imported.stdout
    again = export(tmp_path / "target", tmp_path / "again.jsonl")
    # Every event line, its digest included, and the closing line (the file's digest is
    # the event lines'): only the header, which says when it was written, differs.
    assert again[1:] == lines[1:]


def test_an_export_of_format_version_1_imports_with_a_warning(tmp_path: Path) -> None:
    assert orjson.loads(STORE.read_bytes().splitlines()[0])["version"] == 1
    imported = skald("import", str(STORE), env=target_env(tmp_path))
    assert imported.returncode == 0, imported.stderr
    assert imported.stderr.splitlines()[0] == UNCHECKED
    assert "imported 156 events" in imported.stdout
    assert events_in(tmp_path / "target") == 156
