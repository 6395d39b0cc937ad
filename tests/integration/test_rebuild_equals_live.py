"""A rebuild on the same code gives the views the live projection gave, key by key and
value by value (issue 39): for the stores of the compat fixtures (every event class of
fe485e1 and 77c0eaa, read through today's upcasts) and for a long campaign played
while the runner follows it (hundreds of actions over several fights and days, its
feed past its cap). Every key the projections write under the generation's root is
compared (projection_support.snapshot: strings, hashes, lists, the feed streams, the
log's index), but the epoch, a signal a campaign rebuild bumps for the runners. Both
the CLI's default (one process) and a rebuild in two parts are compared."""

from __future__ import annotations

import random
import threading
import uuid
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest
import redis

from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.commands import (
    AdvanceDays,
    Combatant,
    CreateCampaign,
    EndEncounter,
    EnrolCharacter,
    NextRound,
    StartEncounter,
    VoidAction,
)
from skald_campaign.embedded_redis import EmbeddedRedis
from skald_campaign.exchange import import_events
from skald_campaign.projections.audit import FEED_LENGTH
from skald_campaign.projections.keys import Generations, ViewKeys
from skald_campaign.projections.partitioned import rebuild_partitioned
from skald_campaign.projections.rebuild import Rebuilder
from skald_campaign.services import SQLITE_RECORDER
from skald_campaign.settings import Settings
from skald_campaign.store import persistence_env
from skald_campaign.workers.projections import ProjectionRunner
from tests.integration.projection_support import (
    SHEET,
    assert_same_views,
    current_root,
    hit,
    snapshot,
    views_position,
    wait_until,
)
from tests.integration.test_rebuild_partitioned import opened
from tests.services import REDIS_URL, require_redis

COMPAT = Path(__file__).resolve().parents[1] / "fixtures" / "compat"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[redis.Redis]:
    require_redis()
    server = None if REDIS_URL is not None else EmbeddedRedis(tmp_path / "redis")
    connection = redis.Redis.from_url(REDIS_URL or server.url)  # type: ignore[union-attr]
    try:
        yield connection
    finally:
        connection.close()
        if server is not None:
            server.stop()


@pytest.fixture
def prefix(client: redis.Redis) -> Iterator[str]:
    """A prefix of the test's own, whose keys are deleted after it."""
    name = f"test-live-{uuid.uuid4().hex[:12]}"
    yield name
    for key in client.scan_iter(match=f"{name}:*", count=1000):
        client.delete(key)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[tuple[SkaldApplication, dict[str, str]]]:
    env = persistence_env(Settings(data_dir=tmp_path / "data"))
    env["APPLICATION_RECORDER_TOPIC"] = SQLITE_RECORDER  # wakes the live runner
    app = SkaldApplication(env=env, roller=random.Random(7))
    try:
        yield app, env
    finally:
        app.close()


class Following:
    """The live projection: a runner following the store, applying what it finds in
    batches of at most ``batch_limit`` events, as `skald serve` runs it."""

    def __init__(self, app: SkaldApplication, client: redis.Redis, prefix: str, batch: int):
        self.app, self.client, self.prefix = app, client, prefix
        self.stop = threading.Event()
        runner = ProjectionRunner(app, client, prefix, batch_limit=batch)
        self.thread = threading.Thread(target=runner.run, args=(self.stop,))

    def __enter__(self) -> Following:
        self.thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop.set()
        self.thread.join(30)
        assert not self.thread.is_alive()

    def caught_up(self) -> dict[str, object]:
        newest = self.app.recorder.max_notification_id()
        wait_until(
            lambda: views_position(self.client, self.prefix, self.app.name) == newest,
            120,
            "the live views to catch up",
        )
        return snapshot(self.client, current_root(self.client, self.prefix))


def rebuilt(
    app: SkaldApplication, client: redis.Redis, prefix: str, env: dict[str, str], parts: int
) -> dict[str, object]:
    """The views after `skald projections rebuild [--processes parts]`'s own calls."""
    rebuilder = Rebuilder(client, app.recorder, app.mapper, app.name, prefix)
    report = rebuild_partitioned(rebuilder, partial(opened, env, client), parts)
    assert report.events == app.recorder.max_notification_id()
    return snapshot(client, current_root(client, prefix))


@pytest.mark.parametrize("fixture", ["store-fe485e1.jsonl", "store-77c0eaa.jsonl"])
@pytest.mark.parametrize("parts", [1, 2])
def test_a_rebuild_of_a_compat_store_equals_its_live_views(
    store: tuple[SkaldApplication, dict[str, str]],
    client: redis.Redis,
    prefix: str,
    fixture: str,
    parts: int,
) -> None:
    app, env = store
    report = import_events(app.recorder, app.mapper, COMPAT / fixture)
    assert report.events == app.recorder.max_notification_id()
    with Following(app, client, prefix, batch=1) as live:  # one event per batch
        live_views = live.caught_up()
    # Every campaign of the story has its views (its vitals, audit log, feed and index).
    campaigns = {k.split(":", 1)[1] for k in live_views if k.startswith("vitals-meta:")}
    assert len(campaigns) >= 3
    for campaign in campaigns:
        for kind in ("vitals", "audit", "audit-meta", "feed", "positions"):
            assert f"{kind}:{campaign}" in live_views
    assert_same_views(live_views, rebuilt(app, client, prefix, env, parts))


def play_a_long_campaign(app: SkaldApplication) -> tuple[uuid.UUID, int]:
    """One party through four fights of 150 hits each (a round every 7, an action voided
    in each), a day advanced after each fight; the campaign and its number of actions."""
    campaign = app.create_campaign(CreateCampaign("The Long Road", "stamina-body"))
    heroes = [
        app.enrol_character(EnrolCharacter(campaign.id, f"Hero {h}", SHEET))[1] for h in range(3)
    ]
    actions = 0
    for fight_number in range(4):
        combatants = tuple(Combatant(h, "party", 1 + i) for i, h in enumerate(heroes))
        fight = app.start_encounter(
            StartEncounter(campaign.id, f"Fight {fight_number}", combatants)
        )
        for a in range(150):
            app.perform_action(hit(campaign.id, fight.id, heroes[a % 3], 1 + a % 6))
            actions += 1
            if a % 7 == 6:
                app.next_round(NextRound(campaign.id, fight.id))
        app.void_action(VoidAction(campaign.id, fight.id, 3, "the wrong target"))
        app.end_encounter(EndEncounter(campaign.id, fight.id))
        app.advance_days(AdvanceDays(campaign.id, 1))
    return campaign.id, actions


@pytest.mark.parametrize("parts", [1, 2])
def test_a_rebuild_of_a_long_campaign_equals_the_views_projected_live_as_it_was_played(
    store: tuple[SkaldApplication, dict[str, str]],
    client: redis.Redis,
    prefix: str,
    parts: int,
) -> None:
    app, env = store
    with Following(app, client, prefix, batch=5) as live:
        campaign, actions = play_a_long_campaign(app)
        live_views = live.caught_up()
    assert actions == 600
    keys = ViewKeys(current_root(client, prefix))
    audit = client.lrange(keys.audit(str(campaign)), 0, -1)
    assert len(audit) == app.recorder.max_notification_id()  # every event is this campaign's
    assert len(audit) > FEED_LENGTH
    assert client.xlen(keys.feed(str(campaign))) == FEED_LENGTH  # its feed past its cap
    generation = Generations(prefix).current(client)
    assert_same_views(live_views, rebuilt(app, client, prefix, env, parts))
    assert Generations(prefix).current(client) != generation
