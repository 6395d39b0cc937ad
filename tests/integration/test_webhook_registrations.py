"""A campaign's webhooks as stored (issue 25): tests/fixtures/compat/webhooks-issue25.jsonl
holds every event class of the CampaignWebhooks aggregate as the code that introduced
them wrote them. Inserted into a fresh store of each kind, they read back to the same
registrations. Never regenerate the file with newer code."""

from __future__ import annotations

from pathlib import Path
from uuid import UUID

import orjson
from eventsourcing.persistence import StoredEvent

from skald_campaign.application.application import SkaldApplication
from skald_campaign.domain.webhooks import CampaignWebhooks, Webhook

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "compat" / "webhooks-issue25.jsonl"
CAMPAIGN = UUID("11111111-2222-4333-8444-555555555555")


def test_the_stored_registrations_read_back_as_they_were_written(
    store_app: SkaldApplication,
) -> None:
    lines = [orjson.loads(line) for line in FIXTURE.read_bytes().splitlines()]
    topics = [line["topic"] for line in lines]
    assert topics == [
        f"domain.webhooks:CampaignWebhooks.{name}"
        for name in ("Opened", "Registered", "Registered", "Disabled", "Enabled", "Disabled")
    ] + ["domain.webhooks:CampaignWebhooks.Deleted"]
    store_app.recorder.insert_events(
        [
            StoredEvent(
                UUID(line["originator_id"]),
                line["originator_version"],
                line["topic"],
                line["state"].encode(),
            )
            for line in lines
        ]
    )
    assert CampaignWebhooks.create_id(CAMPAIGN) == UUID(lines[0]["originator_id"])
    hooks = store_app.campaign_webhooks(CAMPAIGN)
    assert hooks is not None
    assert hooks.version == 7
    assert hooks.hooks == {
        "w-2": Webhook(
            id="w-2",
            url="https://93.184.215.14/two",
            events=(),
            encounter_id="e-1",
            role="gm",
            format="discord",
            secret="whsec_" + "A" * 32,
            start=9,
            enabled=False,
            disabled_reason="10 failed attempts in a row; the last: 503: down",
        )
    }
    assert store_app.list_webhooks(CAMPAIGN) == list(hooks.hooks.values())
