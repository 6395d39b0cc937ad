"""A first start on an empty PostgreSQL schema: servers and workers started at once all
come up (they used to race to create the tables and one would die on a duplicate key)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import psycopg
import pytest

from tests.e2e.server import free_port
from tests.patience import HANG_SECONDS
from tests.services import REDIS_URL, require_postgres

SKALD = str(Path(sys.executable).parent / "skald")
READY = {
    "serve": "Application startup complete",
    "projections": "projection runner following the store",
    "healing": "healing worker started",
}


@pytest.fixture
def empty_schema() -> Iterator[tuple[str, str]]:
    url = require_postgres()
    schema = f"skald_first_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield url, schema
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


def launch(kind: str, n: int, env: dict[str, str], tmp_path: Path) -> subprocess.Popen[bytes]:
    data_dir = tmp_path / f"data-{n}"  # each its own, for an embedded Redis
    args = {
        "serve": ["serve", "--port", str(free_port())],
        "projections": ["worker", "projections"],
        "healing": ["worker", "healing"],
    }[kind]
    return subprocess.Popen(
        [SKALD, *args, "--data-dir", str(data_dir)],
        env=env,
        stdout=(tmp_path / f"{n}-{kind}.log").open("wb"),
        stderr=subprocess.STDOUT,
    )


@pytest.mark.parametrize("attempt", range(3))
def test_servers_and_workers_started_together_on_an_empty_schema_all_come_up(
    empty_schema: tuple[str, str], tmp_path: Path, attempt: int
) -> None:
    url, schema = empty_schema
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("SKALD_")},
        "SKALD_DATABASE": url,
        "POSTGRES_SCHEMA": schema,
        "SKALD_SECRET_KEY": "first-start-" + "k" * 20,
        "SKALD_REDIS_PREFIX": f"first-{uuid.uuid4().hex[:8]}",
        **({"SKALD_REDIS_URL": REDIS_URL} if REDIS_URL else {}),
    }
    kinds = ["serve", "projections", "healing", "serve", "projections", "healing"]
    processes: list[subprocess.Popen[bytes]] = []
    logs = [tmp_path / f"{n}-{kind}.log" for n, kind in enumerate(kinds)]
    try:
        for n, kind in enumerate(kinds):  # in the try: a failed launch stops the others
            processes.append(launch(kind, n, env, tmp_path))
        deadline = time.monotonic() + HANG_SECONDS  # a hang guard: six start at once
        waiting = set(range(len(kinds)))
        while waiting and time.monotonic() < deadline:
            for n in list(waiting):
                if processes[n].poll() is not None:
                    raise AssertionError(f"{kinds[n]} #{n} exited: {logs[n].read_text()}")
                if READY[kinds[n]] in logs[n].read_text():
                    waiting.discard(n)
            time.sleep(0.05)
        assert not waiting, {kinds[n]: logs[n].read_text() for n in waiting}
        with psycopg.connect(url) as conn:
            tables = conn.execute(
                "SELECT count(*) FROM information_schema.tables WHERE table_schema = %s",
                (schema,),
            ).fetchone()
        assert tables is not None and tables[0] >= 2  # the events and the snapshots
        port = processes[0].args[3]  # type: ignore[index]
        health = httpx.get(f"http://127.0.0.1:{port}/health", timeout=HANG_SECONDS)
        assert health.json()["event_store"] == {"kind": "postgresql", "events": 0, "ok": True}
    finally:
        for process in processes:
            if process.poll() is None:
                process.send_signal(signal.SIGINT)
        for process in processes:
            try:
                process.wait(HANG_SECONDS)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
