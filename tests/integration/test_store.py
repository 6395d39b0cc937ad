"""The same store behaviour on SQLite and on PostgreSQL: durability, time travel,
snapshots and concurrent writers."""

from __future__ import annotations

import random
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.commands import (
    Combatant,
    CreateCampaign,
    EnrolCharacter,
    PerformAction,
    StartEncounter,
)
from skald_campaign.domain.errors import ConcurrentWrite
from skald_campaign.settings import Settings
from skald_campaign.store import persistence_env
from tests.services import require_postgres

SHEET = {"st": 12, "con": 12, "stamina_max": 200, "body_max": 200, "armour_resilience": 0}


@pytest.fixture(params=["sqlite", "postgresql"])
def store_env(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[dict[str, str]]:
    if request.param == "sqlite":
        yield persistence_env(Settings(data_dir=tmp_path))
        return
    url = require_postgres()
    schema = f"skald_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    env = persistence_env(Settings(database=url))
    env["POSTGRES_SCHEMA"] = schema
    try:
        yield env
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


def open_app(env: dict[str, str], seed: int = 1, snapshot_interval: int = 100) -> SkaldApplication:
    return SkaldApplication(
        env=env, roller=random.Random(seed), snapshot_interval=snapshot_interval
    )


def setup_fight(app: SkaldApplication) -> tuple[uuid.UUID, str, uuid.UUID]:
    campaign = app.create_campaign(CreateCampaign("Store", "stamina-body"))
    _, hero = app.enrol_character(EnrolCharacter(campaign.id, "Hero", SHEET))
    fight = app.start_encounter(StartEncounter(campaign.id, "Fight", (Combatant(hero, "a"),)))
    return campaign.id, hero, fight.id


def hit(campaign_id: uuid.UUID, encounter_id: uuid.UUID, target: str, face: int) -> PerformAction:
    return PerformAction(
        campaign_id,
        encounter_id,
        "take_hit",
        {"target": target, "damage_type": "impact", "damage_class": 1},
        dice={"damage": [face]},
    )


def test_everything_survives_closing_and_reopening_the_store(store_env: dict[str, str]) -> None:
    app = open_app(store_env)
    cid, hero, eid = setup_fight(app)
    _, record = app.perform_action(hit(cid, eid, hero, 6))
    expected = app.encounter(cid, eid)
    app.close()

    reopened = open_app(store_env)
    try:
        again = reopened.encounter(cid, eid)
        assert again.actions == expected.actions
        assert [a.as_json() for a in again.actions] == [record]
        assert again.combatants == expected.combatants
        assert reopened.campaign(cid).characters[hero].in_encounter == str(eid)
        assert reopened.recorder.max_notification_id() == 5
    finally:
        reopened.close()


def test_long_encounters_are_snapshotted_and_time_travel_still_works(
    store_env: dict[str, str],
) -> None:
    app = open_app(store_env, snapshot_interval=10)
    try:
        cid, hero, eid = setup_fight(app)
        for n in range(25):
            app.perform_action(hit(cid, eid, hero, 1 + n % 6))
        assert app.snapshots is not None
        snapshots = list(app.snapshots.get(eid))
        assert [s.originator_version for s in snapshots] == [10, 20]
        assert app.encounter(cid, eid).version == 26
        assert len(app.encounter(cid, eid, version=7).actions) == 6
    finally:
        app.close()


def test_two_concurrent_writers_lose_nothing(store_env: dict[str, str]) -> None:
    first = open_app(store_env)
    cid, hero, eid = setup_fight(first)
    second = open_app(store_env)
    outcomes: list[str] = []
    per_writer = 15

    def write(app: SkaldApplication) -> None:
        for _ in range(per_writer):
            try:
                app.perform_action(hit(cid, eid, hero, 1))
                outcomes.append("recorded")
            except ConcurrentWrite:
                outcomes.append("conflict")

    threads = [threading.Thread(target=write, args=(app,)) for app in (first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    try:
        fresh = open_app(store_env)
        final = fresh.encounter(cid, eid)
        recorded = outcomes.count("recorded")
        assert len(outcomes) == 2 * per_writer
        assert len(final.actions) == recorded
        assert [a.number for a in final.actions] == list(range(1, recorded + 1))
        # Each recorded hit of a 1 on the impact table took exactly 1 Stamina.
        assert final.combatants[hero].tracks["stamina"] == 200 - recorded
        fresh.close()
    finally:
        first.close()
        second.close()
