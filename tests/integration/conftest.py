"""Integration fixtures: a fresh event store per test, on SQLite or PostgreSQL (a schema
of its own), and a Redis."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from skald_campaign.application.application import SkaldApplication
from skald_campaign.domain.play.dice import Roller
from skald_campaign.embedded_redis import EmbeddedRedis
from skald_campaign.settings import Settings
from skald_campaign.store import persistence_env
from tests.services import REDIS_URL, require_postgres, require_redis


@pytest.fixture(params=["sqlite", "postgresql"])
def store_env(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[dict[str, str]]:
    """The eventsourcing env of an empty store of each kind."""
    if request.param == "sqlite":
        yield persistence_env(Settings(data_dir=tmp_path / "data"))
        return
    url = require_postgres()
    schema = f"skald_t_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield {**persistence_env(Settings(database=url)), "POSTGRES_SCHEMA": schema}
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture
def store_app(store_env: dict[str, str]) -> Iterator[SkaldApplication]:
    app = SkaldApplication(env=store_env)
    try:
        yield app
    finally:
        app.close()


def app_on(store_env: dict[str, str], roller: Roller | None = None) -> SkaldApplication:
    return SkaldApplication(env=store_env, roller=roller)


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    require_redis()
    if REDIS_URL is not None:
        yield REDIS_URL
        return
    server = EmbeddedRedis(tmp_path / "redis")
    try:
        yield server.url
    finally:
        server.stop()
