"""Shared fixtures: a real store, a real Redis and the real app over HTTP."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import settings as hypothesis_settings

from skald_campaign.api.app import create_app
from skald_campaign.services import build_services
from skald_campaign.settings import Settings
from tests.services import REDIS_URL, require_redis

# Hypothesis fails an example that takes over 200 ms by default: a wall-clock budget,
# which a loaded machine runs past although the property holds. Tests assert behaviour,
# never speed (bench/ measures it), so every property test runs without a deadline.
hypothesis_settings.register_profile("skald", deadline=None)
hypothesis_settings.load_profile("skald")


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    require_redis()
    # A prefix per test keeps tests that share one Redis out of each other's keys.
    return Settings(
        data_dir=tmp_path / "data",
        redis_url=REDIS_URL,
        dice_seed=1234,
        redis_prefix=f"test-{uuid.uuid4().hex[:12]}",
    )


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    """The whole API on a SQLite file in a fresh data directory."""
    app = create_app(lambda: build_services(settings))
    with TestClient(app, raise_server_exceptions=True) as test_client:
        yield test_client


@pytest.fixture
def live_client(settings: Settings) -> Iterator[TestClient]:
    """The API with its background workers running, as `skald serve` runs them."""
    app = create_app(lambda: build_services(settings, workers=True))
    with TestClient(app, raise_server_exceptions=True) as test_client:
        yield test_client


# The session's end fails the run if a skald or redis-server it started is left, or if
# the work tree changed (a test wrote outside its temporary directories).
from tests.leftovers import pytest_sessionfinish  # noqa: E402, F401
from tests.worktree import pytest_configure  # noqa: E402, F401
