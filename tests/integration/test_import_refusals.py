"""A corrupted export is refused before anything is written (issue 26 item 1).

A real store is exported through `skald export`, one event of the file is changed, and
the real `skald import` must refuse the whole file with one line naming the event (its
line, aggregate, version, type, and what is wrong), exit non-zero and leave the target
store without a single event; the good file then imports whole. The changed file's
digests are computed again (``signed_again``), as whoever changed it on purpose would:
what refuses it here is the check of its meaning, not of its digests
(tests/integration/test_import_integrity.py)."""

from __future__ import annotations

import hashlib
import uuid
from pathlib import Path

import orjson
import pytest
from fastapi.testclient import TestClient

from skald_campaign.application.application import SkaldApplication
from skald_campaign.settings import Settings
from skald_campaign.store import persistence_env
from tests.helpers import act, enrol, new_campaign, ok, start
from tests.integration.test_export_import import BARE, OGRE, export, skald
from tests.services import REDIS_URL


def a_store(client: TestClient) -> tuple[str, str]:
    cid = new_campaign(client, "stamina-body", name="Corrupted")
    ogre = enrol(client, cid, "Ogre", OGRE)
    bran = enrol(client, cid, "Bran", BARE)
    eid = start(
        client,
        cid,
        [{"character_id": ogre, "side": "foes"}, {"character_id": bran, "side": "party"}],
    )
    act(client, cid, eid, "attack", ogre, {"hit": [1, 2, 2], "damage": [6, 6]},
        target=bran, weapon="spear", defense="none")  # fmt: skip
    key = ok(client.post(f"/campaigns/{cid}/keys", json={"role": "viewer"}), 201)["id"]
    ok(client.delete(f"/campaigns/{cid}/keys/{key}"))
    return cid, eid


def target_env(tmp_path: Path) -> dict[str, str]:
    env = {"SKALD_DATA_DIR": str(tmp_path / "target"), "SKALD_REDIS_PREFIX": uuid.uuid4().hex}
    if REDIS_URL:
        env["SKALD_REDIS_URL"] = REDIS_URL
    return env


def events_in(data_dir: Path) -> int:
    if not (data_dir / "events.sqlite3").exists():
        return 0
    application = SkaldApplication(env=persistence_env(Settings(data_dir=data_dir)))
    try:
        return application.recorder.max_notification_id() or 0
    finally:
        application.close()


def corrupt(lines: list[bytes], topic_ends: str, old: bytes, new: bytes) -> tuple[list[bytes], int]:
    """The file with ``old`` -> ``new`` in the first event of that topic; its line number."""
    for index, line in enumerate(lines[1:-1], start=1):
        if orjson.loads(line)["topic"].endswith(topic_ends) and old in line:
            changed = [*lines]
            changed[index] = line.replace(old, new, 1)
            return changed, index + 1
    raise AssertionError(f"no {topic_ends} event holds {old!r}")


def line_digest(content: dict[str, object]) -> str:
    """A line's digest as docs/operations.md defines it: the SHA-256 of its JSON with
    its keys sorted, its own digest left out."""
    return hashlib.sha256(orjson.dumps(content, option=orjson.OPT_SORT_KEYS)).hexdigest()


def signed_again(lines: list[bytes]) -> list[bytes]:
    """An export's lines with every line's digest and the file's computed again."""
    signed, digests = [], []
    for line in lines[:-1]:
        content = {k: v for k, v in orjson.loads(line).items() if k != "sha256"}
        digests.append(line_digest(content))
        signed.append(orjson.dumps({**content, "sha256": digests[-1]}))
    end = orjson.loads(lines[-1])
    end["file_sha256"] = hashlib.sha256("".join(digests[1:]).encode()).hexdigest()
    return [*signed, orjson.dumps(end)]


# (the event to change, the bytes changed, what the refusal must say)
CORRUPTIONS = {
    "a ruleset in the campaign": (
        "Campaign.Created",
        b"stamina-body",
        b"suamina-body",
        "unknown ruleset 'suamina-body'",
    ),
    "a ruleset in the encounter": (
        "Encounter.Started",
        b"stamina-body",
        b"suamina-body",
        "unknown ruleset 'suamina-body'",
    ),
    "an unknown event type": (
        "Campaign.CharacterEnrolled",
        b"Campaign.CharacterEnrolled",
        b"Campaign.CharacterEnroled",
        "its type is unknown",
    ),
    "a payload field renamed": (
        "Campaign.CharacterEnrolled",
        b'\\"sheet\\"',
        b'\\"shoot\\"',
        "its payload lacks sheet",
    ),
    "a payload that is not JSON": (
        "Encounter.Started",
        b'{\\"',
        b'{\\"\\"\\"',
        "its payload cannot be read: JSONDecodeError: unexpected character",
    ),
    # A key id of the right form (16 hex digits: one of another form is refused by its
    # type first, tests/integration/test_import_integrity.py) that no key has: written
    # after the real one, whose value the JSON's last key_id overrides.
    "an event its aggregate cannot apply": (
        "Campaign.KeyRevoked",
        b'\\",\\"by\\":\\"',
        b'\\",\\"key_id\\":\\"0000000000000000\\",\\"by\\":\\"',
        "it cannot be applied: KeyError: '0000000000000000'",
    ),
}


@pytest.mark.parametrize("case", list(CORRUPTIONS))
def test_a_corrupted_export_is_refused_whole_and_the_good_file_then_imports(
    case: str, client: TestClient, settings: Settings, tmp_path: Path
) -> None:
    cid, eid = a_store(client)
    good = tmp_path / "good.jsonl"
    lines = export(settings.data_dir, good)
    topic, old, new, why = CORRUPTIONS[case]
    changed, number = corrupt(lines, topic, old, new)
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"\n".join(signed_again(changed)) + b"\n")
    line = orjson.loads(changed[number - 1])
    aggregate, version = line["originator_id"], line["originator_version"]
    kind = line["topic"].rpartition(":")[2]  # as the file now names it
    assert aggregate == (cid if topic.startswith("Campaign.") else eid)

    env = target_env(tmp_path)
    refused = skald("import", str(bad), env=env)
    assert refused.returncode == 1, refused.stdout
    assert "imported" not in refused.stdout
    assert "Traceback" not in refused.stderr
    message = refused.stderr.splitlines()[-1]  # after the progress bar, one line
    assert message.startswith(
        f"skald: line {number}: event {version} of aggregate {aggregate} ({kind}): "
    ), message
    assert why in message, message
    assert message.endswith("nothing was imported"), message
    assert events_in(tmp_path / "target") == 0

    imported = skald("import", str(good), env=env)
    assert imported.returncode == 0, imported.stderr
    assert f"imported {len(lines) - 2} events" in imported.stdout
    assert events_in(tmp_path / "target") == len(lines) - 2
