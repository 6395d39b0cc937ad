"""The healing worker looks through each notification once (issue 28 item 3): its
position moves to the store's newest notification after every poll, days or not, so a
poll never has the store look through the events since the last day again; and every
day is still healed, exactly once."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

import redis

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
from skald_campaign.workers.healing import HealingWorker
from tests.integration.test_heal_race import SHEET, heals, hurt
from tests.patience import HANG_SECONDS


def test_each_notification_is_looked_through_once_and_each_day_healed_once(
    store_app: SkaldApplication, redis_url: str
) -> None:
    app = store_app
    client = redis.Redis.from_url(redis_url)
    worker = HealingWorker(app, client, prefix=f"heal-{uuid.uuid4().hex[:8]}", batch=2)
    looked: list[tuple[int | None, int | None]] = []
    select = app.recorder.select_notifications

    def counting(
        start: int | None, limit: int, stop: int | None = None, **kw: Any
    ) -> Sequence[Any]:
        looked.append((start, stop))
        return select(start, limit, stop, **kw)

    app.recorder.select_notifications = counting  # type: ignore[method-assign]
    campaign = app.create_campaign(CreateCampaign("Long road", "stamina-body"))
    _, hero = app.enrol_character(EnrolCharacter(campaign.id, "Hero", SHEET))
    hurt(app, campaign.id, hero)
    app.advance_days(AdvanceDays(campaign.id, 1))
    assert worker.run_once() == 1
    assert worker.healed == 1

    # A long fight and no day: one look through it, then none at all.
    fight = app.start_encounter(StartEncounter(campaign.id, "Long", (Combatant(hero, "p"),)))
    for _ in range(30):
        params = {"target": hero, "damage_type": "impact", "damage_class": 1}
        app.perform_action(
            PerformAction(campaign.id, fight.id, "take_hit", params, dice={"damage": [1]})
        )
    app.end_encounter(EndEncounter(campaign.id, fight.id))
    newest = app.recorder.max_notification_id()
    assert newest is not None
    looked.clear()
    assert worker.run_once() == 0
    assert len(looked) == 1 and looked[0][1] == newest
    assert worker.position() == newest
    assert worker.run_once() == 0
    assert len(looked) == 1  # nothing new: not even a query

    # Three days at once, more than a batch: each healed once, from where it left off.
    app.advance_days(AdvanceDays(campaign.id, 3))
    looked.clear()
    while worker.run_once():
        pass
    assert looked[0][0] == newest + 1  # not from the last day found before the fight
    assert worker.position() == app.recorder.max_notification_id()
    days = [day for _, day, _ in heals(app)]
    assert days == [1, 2, 3, 4]
    assert worker.run_once() == 0

    # A fresh worker on the same position heals nothing again; one from the start heals
    # nothing twice (exactly once is the campaign's).
    again = HealingWorker(app, client, prefix=worker.position_key.split(":")[0])
    assert again.run_once() == 0
    anew = HealingWorker(app, client, prefix=f"heal-{uuid.uuid4().hex[:8]}")
    while anew.run_once():
        pass
    assert anew.healed == 0
    assert [day for _, day, _ in heals(app)] == [1, 2, 3, 4]
    client.close()


class Counted(redis.Redis):
    """A real Redis client that counts the worker's reads and writes of its position."""

    gets = 0
    sets = 0

    def get(self, name: Any) -> Any:
        self.gets += 1
        return super().get(name)

    def set(self, name: Any, value: Any, *args: Any, **kwargs: Any) -> Any:
        self.sets += 1
        return super().set(name, value, *args, **kwargs)


def test_a_poll_without_a_day_neither_reads_nor_writes_the_position_in_redis(
    store_app: SkaldApplication, redis_url: str
) -> None:
    """Under steady commands every poll found notifications and no day, and each read
    the position from Redis and wrote it back: two round trips ten times a second
    (bench/README.md, the route40 lane). The position is kept in memory and written after
    a day, else at most once per ``save_interval``; a worker started on a position left
    behind rereads those notifications and heals no day twice."""
    app = store_app
    client = Counted.from_url(redis_url)
    prefix = f"heal-{uuid.uuid4().hex[:8]}"
    worker = HealingWorker(app, client, prefix=prefix, save_interval=HANG_SECONDS)
    campaign = app.create_campaign(CreateCampaign("Quiet road", "stamina-body"))
    _, hero = app.enrol_character(EnrolCharacter(campaign.id, "Hero", SHEET))
    hurt(app, campaign.id, hero)
    app.advance_days(AdvanceDays(campaign.id, 1))
    day_position = app.recorder.max_notification_id()  # the heal is recorded after it
    assert worker.run_once() == 1
    assert (client.gets, client.sets) == (1, 2)  # read once; the day's and the end's

    fight = app.start_encounter(StartEncounter(campaign.id, "Polls", (Combatant(hero, "p"),)))
    for _ in range(5):
        params = {"target": hero, "damage_type": "impact", "damage_class": 1}
        app.perform_action(
            PerformAction(campaign.id, fight.id, "take_hit", params, dice={"damage": [1]})
        )
        assert worker.run_once() == 0
    assert (client.gets, client.sets) == (1, 2)  # five polls, no round trip to Redis
    assert worker.position() == app.recorder.max_notification_id()
    assert int(client.get(worker.position_key) or 0) == day_position  # left behind

    # Killed now: its successor starts from the day and heals nothing twice.
    again = HealingWorker(app, client, prefix=prefix, save_interval=HANG_SECONDS)
    assert again.run_once() == 0
    assert again.healed == 0
    app.end_encounter(EndEncounter(campaign.id, fight.id))
    app.advance_days(AdvanceDays(campaign.id, 1))
    assert again.run_once() == 1
    assert [day for _, day, _ in heals(app)] == [1, 2]
    client.close()
