"""The campaigns a store holds, for the operator (`skald campaigns`)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from eventsourcing.domain import CanMutateAggregate
from eventsourcing.utils import get_topic

from skald_campaign.application.application import SkaldApplication
from skald_campaign.domain.campaign.aggregate import Campaign

CAMPAIGN_CREATED = get_topic(Campaign.Created)
BATCH = 1000


@dataclass(frozen=True)
class CampaignLine:
    id: UUID
    name: str
    ruleset: str
    day: int
    last_change: datetime  # of the campaign or any of its encounters


def campaign_ids(application: SkaldApplication) -> Iterator[UUID]:
    position = 0
    while True:
        batch = application.recorder.select_notifications(
            start=position, limit=BATCH, topics=[CAMPAIGN_CREATED], inclusive_of_start=False
        )
        if not batch:
            return
        for notification in batch:
            yield UUID(str(notification.originator_id))
        position = batch[-1].id


def last_change(application: SkaldApplication, aggregate_id: UUID) -> datetime:
    latest = application.recorder.select_events(aggregate_id, desc=True, limit=1)
    event = application.mapper.to_domain_event(latest[0])
    if not isinstance(event, CanMutateAggregate):
        raise TypeError(f"aggregate {aggregate_id}'s latest event is not an aggregate's event")
    return event.timestamp


def list_campaigns(application: SkaldApplication) -> Iterator[CampaignLine]:
    for campaign_id in campaign_ids(application):
        campaign = application.campaign(campaign_id)
        changed = max(
            [campaign.modified_on]
            + [last_change(application, UUID(e)) for e in campaign.encounters]
        )
        yield CampaignLine(campaign.id, campaign.name, campaign.ruleset_id, campaign.day, changed)
