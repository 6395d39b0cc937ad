"""Kill the healing worker with SIGKILL mid-batch; a restart finishes the job exactly once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from eventsourcing.utils import get_topic

from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.commands import (
    AdvanceDays,
    Combatant,
    CreateCampaign,
    EndEncounter,
    EnrolCharacter,
    PerformAction,
    StartEncounter,
)
from skald_campaign.domain.campaign.aggregate import Campaign
from skald_campaign.domain.rulesets.stamina_body.healing import DayPlan, daily_heal
from skald_campaign.embedded_redis import EmbeddedRedis
from skald_campaign.settings import Settings
from skald_campaign.store import persistence_env
from tests.patience import HANG_SECONDS
from tests.services import REDIS_URL, require_postgres, require_redis

HEALED = get_topic(Campaign.CharacterHealed)  # type: ignore[attr-defined]
CHARACTERS, DAYS = 10, 30


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


def heal_events(app: SkaldApplication) -> list[tuple[str, int]]:
    found = app.recorder.select_notifications(start=1, limit=100_000, topics=[HEALED])
    events = [app.mapper.to_domain_event(n) for n in found]
    return [(e.character_id, e.day) for e in events]  # type: ignore[attr-defined]


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[dict[str, str]]:
    """The store's eventsourcing env, and the worker's own settings for the same store."""
    if request.param == "sqlite":
        data_dir = tmp_path / "data"
        yield {**persistence_env(Settings(data_dir=data_dir)), "SKALD_DATA_DIR": str(data_dir)}
        return
    url = require_postgres()
    schema = f"skald_heal_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield {
            **persistence_env(Settings(database=url)),
            "POSTGRES_SCHEMA": schema,
            "SKALD_DATABASE": url,
            "SKALD_SECRET_KEY": "test-secret-" + "x" * 20,
        }
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


def start_worker(
    store: dict[str, str], redis_url: str, prefix: str, log: Path
) -> subprocess.Popen[bytes]:
    skald = str(Path(sys.executable).parent / "skald")
    # The worker reads SKALD_* settings; POSTGRES_SCHEMA reaches the store's env as is.
    passed = {k: v for k, v in store.items() if k.startswith("SKALD_") or k == "POSTGRES_SCHEMA"}
    return subprocess.Popen(
        [skald, "worker", "healing", "--redis-url", redis_url],
        env={**os.environ, **passed, "SKALD_REDIS_PREFIX": prefix},
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
    )


def wait_until(condition: object, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return
        time.sleep(0.002)
    raise AssertionError(f"timed out waiting for {what}")


def test_sigkill_mid_batch_then_restart_heals_every_day_exactly_once(
    tmp_path: Path, redis_url: str, store: dict[str, str]
) -> None:
    app = SkaldApplication(env={k: v for k, v in store.items() if not k.startswith("SKALD_")})
    campaign = app.create_campaign(CreateCampaign("Long road", "stamina-body"))
    start_tracks = {}
    for n in range(CHARACTERS):
        sheet = {"st": 10, "con": 5 + n, "stamina_max": 12, "body_max": 40}
        _, cid = app.enrol_character(EnrolCharacter(campaign.id, f"Hero {n}", sheet))
        start_tracks[cid] = sheet
    fight = app.start_encounter(
        StartEncounter(
            campaign.id, "Ambush", tuple(Combatant(cid, "party") for cid in start_tracks)
        )
    )
    for cid in start_tracks:
        app.perform_action(
            PerformAction(
                campaign.id,
                fight.id,
                "take_hit",
                {"target": cid, "damage_type": "piercing", "damage_class": 4},
                dice={"damage": [6, 6, 6, 5]},
            )
        )  # 15 Stamina, 7 Body each
    app.end_encounter(EndEncounter(campaign.id, fight.id))
    app.advance_days(AdvanceDays(campaign.id, DAYS, {"rest": "light", "care": False}))
    prefix = f"crash-{uuid.uuid4().hex[:8]}"
    log = tmp_path / "worker.log"

    worker = start_worker(store, redis_url, prefix, log)
    try:
        wait_until(lambda: len(heal_events(app)) >= CHARACTERS, HANG_SECONDS, "the first heals")
        worker.send_signal(signal.SIGKILL)
        worker.wait(HANG_SECONDS)
    finally:
        if worker.poll() is None:
            worker.kill()
    at_kill = len(heal_events(app))
    assert 0 < at_kill < CHARACTERS * DAYS, f"the kill did not land mid-batch ({at_kill})"
    print(f"killed after {at_kill} of {CHARACTERS * DAYS} heals")

    worker = start_worker(store, redis_url, prefix, log)
    try:
        wait_until(lambda: len(heal_events(app)) >= CHARACTERS * DAYS, HANG_SECONDS, "all heals")
        time.sleep(0.5)  # let it poll again: nothing more may appear
    finally:
        worker.send_signal(signal.SIGTERM)
        worker.wait(HANG_SECONDS)
    healed = heal_events(app)
    assert len(healed) == CHARACTERS * DAYS
    assert set(Counter(healed).values()) == {1}

    final = app.campaign(campaign.id)
    plan = DayPlan(rest="light", care=False)
    for cid, sheet in start_tracks.items():
        tracks = {"stamina": 12 - 15, "body": 40 - 7}
        for _ in range(DAYS):
            tracks = daily_heal(sheet, tracks, {"piercing_wound": True}, plan).tracks
        assert final.characters[cid].tracks == tracks
        assert final.characters[cid].healed_through == DAYS
    app.close()
