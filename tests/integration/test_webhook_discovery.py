"""The webhook worker's look for registrations reads only what was written since its last
look, on SQLite and PostgreSQL: with no webhook event in a store (the common case) it
re-read the whole history five times a second, and under a fight's load that was a few
per cent of the server's CPU (bench/README.md, issue 28)."""

from __future__ import annotations

from typing import Any

import redis

from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.commands import CreateCampaign, EnrolCharacter
from skald_campaign.application.webhooks import RegisterWebhook, WebhookPolicy
from skald_campaign.projections.reader import ViewReader
from skald_campaign.projections.webhook_state import DeliveryState
from skald_campaign.workers.webhooks import WebhookWorker

SHEET = {"st": 10, "con": 10, "stamina_max": 20, "body_max": 20}


def worker_on(app: SkaldApplication, redis_url: str) -> tuple[WebhookWorker, list[int]]:
    """A worker whose every read of the store's notifications is noted by its start."""
    client = redis.Redis.from_url(redis_url)
    views = ViewReader(client, "skald-discovery", lambda: 0, app.name, redis_url)
    worker = WebhookWorker(app, views, DeliveryState(client, "skald-discovery"), WebhookPolicy())
    starts: list[int] = []
    select = app.recorder.select_notifications

    def noted(*args: Any, **kwargs: Any) -> Any:
        starts.append(kwargs["start"])
        return select(*args, **kwargs)

    app.recorder.select_notifications = noted  # type: ignore[method-assign]
    return worker, starts


def test_a_look_reads_only_the_events_since_the_last_one(
    store_app: SkaldApplication, redis_url: str
) -> None:
    campaign = store_app.create_campaign(CreateCampaign("Hooks", "stamina-body"))
    for n in range(5):
        store_app.enrol_character(EnrolCharacter(campaign.id, f"H{n}", SHEET))
    worker, starts = worker_on(store_app, redis_url)
    end = store_app.recorder.max_notification_id()
    assert end is not None

    worker.discover()
    assert starts == [1] and worker.seen == end and worker.hooks == {}
    worker.discover()  # nothing new: no read at all
    assert starts == [1]

    store_app.enrol_character(EnrolCharacter(campaign.id, "Late", SHEET))
    hook = store_app.register_webhook(
        RegisterWebhook(campaign.id, "http://127.0.0.1:9/skald"), allow_private=True
    )
    worker.discover()
    assert starts == [1, end + 1]  # from the last look on, not from the last webhook event
    assert list(worker.hooks) == [hook.id]
    assert worker.seen == store_app.recorder.max_notification_id()
