"""An export made on 77c0eaa (the last commit before the rulesets became plugins, issue
38) loads into today's store and answers the GM's reads as 77c0eaa answered them.

The export and the answers were written by tests/fixtures/compat/make_export_77c0eaa.py,
run with the code of 77c0eaa (its docstring says how): make_store.py's story of the
three rulesets (fights with their corrections, days, amendments, keys) and every read
of its campaigns, each with the key named beside it. `skald import` reads the export
into a fresh SQLite or PostgreSQL store and rebuilds the views; every read must then
answer the same bytes, but for the fields this issue added (ADDED_SINCE_77C0EAA), each
named with why. Never regenerate the fixtures with newer code.
"""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import psycopg
import pytest
from fastapi.testclient import TestClient

from skald_campaign.api.app import create_app
from skald_campaign.services import build_services
from skald_campaign.settings import Settings
from tests.integration.compat_texts import corrected_answers, corrected_since
from tests.services import REDIS_URL, require_postgres, require_redis

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "compat"
EXPORT = FIXTURE / "store-77c0eaa.jsonl"
RECORD = orjson.loads(gzip.decompress((FIXTURE / "answers-77c0eaa.json.gz").read_bytes()))
SKALD = str(Path(sys.executable).parent / "skald")
OPERATOR = "operator-key-of-the-77c0eaa-export"
# The fields of the answers this issue added (by name, wherever 77c0eaa's answer has no
# such key); everything else must be as 77c0eaa wrote it, byte for byte.
ADDED_SINCE_77C0EAA = {
    "ruleset_distribution": "the campaign's ruleset's distribution, on its creation (issue 38)",
    "ruleset_version": "the campaign's ruleset's version, on its creation (issue 38)",
    "seen_as": "the word a view's character or combatant reads as to players (T3, issue 38)",
}


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def imported(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[TestClient]:
    """The API over a fresh store of each kind into which `skald import` read the export
    (and rebuilt the views, as it does)."""
    require_redis()
    kind = request.param
    home = tmp_path_factory.mktemp(f"compat77-{kind}")
    prefix = f"compat77-{uuid.uuid4().hex[:12]}"
    env = {
        "SKALD_DATA_DIR": str(home / "data"),
        "SKALD_SECRET_KEY": RECORD["secret"],  # the keys are HMACs of their ids under it
        "SKALD_REDIS_PREFIX": prefix,
        **({"SKALD_REDIS_URL": REDIS_URL} if REDIS_URL else {}),
    }
    schema = None
    if kind == "postgresql":
        url = require_postgres()
        schema = f"skald_compat77_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
        env |= {"SKALD_DATABASE": url, "POSTGRES_SCHEMA": schema}
    saved = os.environ.get("POSTGRES_SCHEMA")
    try:
        done = subprocess.run(
            [SKALD, "import", str(EXPORT)],
            capture_output=True,
            text=True,
            timeout=300,
            env={**os.environ, **env},
            check=False,
        )
        assert done.returncode == 0, done.stderr
        if schema is not None:
            os.environ["POSTGRES_SCHEMA"] = schema  # the eventsourcing env reads it
        settings = Settings(
            data_dir=home / "data",
            database=env.get("SKALD_DATABASE"),
            secret_key=RECORD["secret"],
            redis_url=REDIS_URL,
            redis_prefix=prefix,
            operator_key=OPERATOR,
        )
        with TestClient(create_app(lambda: build_services(settings))) as client:
            yield client
    finally:
        if saved is None:
            os.environ.pop("POSTGRES_SCHEMA", None)
        else:
            os.environ["POSTGRES_SCHEMA"] = saved
        if schema is not None:
            with psycopg.connect(require_postgres(), autocommit=True) as conn:
                conn.execute(f"DROP SCHEMA {schema} CASCADE")


def bearer(name: str) -> dict[str, str]:
    return {"authorization": f"Bearer {RECORD['keys'][name]}"} if name else {}


def without_additions(now: Any, then: Any) -> Any:
    """``now`` without the keys of ADDED_SINCE_77C0EAA where ``then`` has none."""
    if isinstance(now, dict) and isinstance(then, dict):
        return {
            k: without_additions(v, then.get(k))
            for k, v in now.items()
            if k in then or k not in ADDED_SINCE_77C0EAA
        }
    if isinstance(now, list) and isinstance(then, list) and len(now) == len(then):
        return [without_additions(n, t) for n, t in zip(now, then, strict=True)]
    return now


def same_answer(body: bytes, recorded: str) -> bool:
    """The same bytes; or, once the fields added since are left out and the narratives told
    anew since are put in as corrected (compat_texts.py), the same bytes again (both are
    orjson's own serialisation of themselves, so re-serialising hides no difference of
    form)."""
    then = orjson.loads(recorded)
    expected = corrected_since(then)  # the narratives told anew since (compat_texts.py)
    if expected == then and body.decode() == recorded:
        return True
    now = orjson.loads(body)
    if orjson.dumps(now) != body or orjson.dumps(then).decode() != recorded:
        return False
    return orjson.dumps(without_additions(now, expected)) == orjson.dumps(expected)


def test_the_fixture_is_77c0eaas_story_of_the_three_rulesets() -> None:
    assert RECORD["commit"] == "77c0eaa"
    assert len(RECORD["campaigns"]) == 3
    assert len(RECORD["answers"]) == 236
    header = orjson.loads(EXPORT.read_bytes().splitlines()[0])
    assert (header["format"], header["version"], header["store_position"]) == (
        "skald-events",
        1,
        157,
    )


def test_the_narratives_told_anew_are_the_corrected_ones() -> None:
    """Of 77c0eaa's answers, those with a narrative corrected since (compat_texts.py: d20's
    Forceful Defense verdict and damage through armor, margin's answered Riposte,
    stamina-body's recovery): the corrections must each still find what they correct, or
    be taken out."""
    assert len(corrected_answers(RECORD["answers"])) == 81


def test_every_read_answers_as_77c0eaa_did(imported: TestClient) -> None:
    answers: dict[str, str] = RECORD["answers"]
    differ = []
    for request, expected in answers.items():
        key, path = request.split(" ", 1)
        response = imported.get(path, headers=bearer(key))
        if response.status_code != 200 or not same_answer(response.content, expected):
            differ.append((request, response.status_code, response.text[:3000], expected[:3000]))
    assert differ == [], f"{len(differ)} of {len(answers)} reads differ; the first: {differ[0]}"
