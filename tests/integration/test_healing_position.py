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
