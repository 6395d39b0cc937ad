"""A campaign's webhooks: the URLs its GM registered for the open feed, as an aggregate
of their own (one per campaign, its id derived from the campaign's), so registering
one never contends with the campaign's own writes and its history is kept as events.

What deliveries have reached (the last position delivered, the delivery log, the run
of failures) is not here: it changes with every delivery and is kept beside the
worker (workers/webhooks.py); only what the GM decides, and an automatic disabling,
is recorded as an event.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate, event

from skald_campaign.domain.access import Role
from skald_campaign.domain.errors import NotFound
from skald_campaign.domain.records import Record

Format = Literal["json", "discord"]
FORMATS: tuple[Format, ...] = ("json", "discord")
# The namespace of the webhooks aggregates' ids (uuid5 of the campaign's id): fixed forever.
WEBHOOKS_NAMESPACE = UUID("6f1c3b1e-4a52-4d7e-9a0c-25f0c2d5e7a1")


class Webhook(Record, frozen=True):
    id: str
    url: str
    events: tuple[str, ...]  # event types to send; empty: every type
    encounter_id: str | None  # only this encounter's events (and none of the campaign's)
    role: Role  # whose view of each event is sent
    format: Format
    secret: str  # 'whsec_' + base64: signs each delivery (Standard Webhooks)
    start: int  # deliveries begin after this position (the store's, at registration)
    enabled: bool = True
    disabled_reason: str = ""

    def wants(self, event_type: str, aggregate_id: str) -> bool:
        if self.events and event_type not in self.events:
            return False
        return self.encounter_id is None or aggregate_id == self.encounter_id


class CampaignWebhooks(Aggregate):
    TOPIC = "domain.webhooks:CampaignWebhooks"

    # Not recorded by Skald (the library defines it on every aggregate); named so its
    # topic is explicit like every other class here.
    class Created(Aggregate.Created):
        TOPIC = "domain.webhooks:CampaignWebhooks.Created"

    @staticmethod
    def create_id(campaign_id: UUID) -> UUID:
        return uuid5(WEBHOOKS_NAMESPACE, str(campaign_id))

    class Opened(Aggregate.Created):
        TOPIC = "domain.webhooks:CampaignWebhooks.Opened"
        campaign_id: UUID

    @event(Opened)
    def __init__(self, campaign_id: UUID) -> None:
        self.campaign_id = campaign_id
        self.hooks: dict[str, Webhook] = {}

    def hook(self, webhook_id: str) -> Webhook:
        found = self.hooks.get(webhook_id)
        if found is None:
            raise NotFound(f"no webhook {webhook_id} in campaign {self.campaign_id}")
        return found

    class Registered(Aggregate.Event):
        TOPIC = "domain.webhooks:CampaignWebhooks.Registered"
        webhook_id: str
        url: str
        events: Sequence[str]
        encounter_id: str | None
        role: Role
        format: Format
        secret: str
        start: int
        by: str

    @event(Registered)
    def register(
        self,
        webhook_id: str,
        url: str,
        events: Sequence[str],
        encounter_id: str | None,
        role: Role,
        format: Format,
        secret: str,
        start: int,
        by: str,
    ) -> None:
        self.hooks[webhook_id] = Webhook(
            webhook_id, url, tuple(events), encounter_id, role, format, secret, start
        )

    class Disabled(Aggregate.Event):
        TOPIC = "domain.webhooks:CampaignWebhooks.Disabled"
        webhook_id: str
        reason: str
        by: str

    def disable(self, webhook_id: str, reason: str, by: str) -> None:
        if self.hook(webhook_id).enabled:
            self._disabled(webhook_id, reason, by)

    @event(Disabled)
    def _disabled(self, webhook_id: str, reason: str, by: str) -> None:
        hook = self.hooks[webhook_id]
        self.hooks[webhook_id] = Webhook(
            hook.id, hook.url, hook.events, hook.encounter_id, hook.role, hook.format,
            hook.secret, hook.start, enabled=False, disabled_reason=reason,
        )  # fmt: skip

    class Enabled(Aggregate.Event):
        TOPIC = "domain.webhooks:CampaignWebhooks.Enabled"
        webhook_id: str
        by: str

    def enable(self, webhook_id: str, by: str) -> None:
        if not self.hook(webhook_id).enabled:
            self._enabled(webhook_id, by)

    @event(Enabled)
    def _enabled(self, webhook_id: str, by: str) -> None:
        hook = self.hooks[webhook_id]
        self.hooks[webhook_id] = Webhook(
            hook.id, hook.url, hook.events, hook.encounter_id, hook.role, hook.format,
            hook.secret, hook.start,
        )  # fmt: skip

    class Deleted(Aggregate.Event):
        TOPIC = "domain.webhooks:CampaignWebhooks.Deleted"
        webhook_id: str
        by: str

    def delete(self, webhook_id: str, by: str) -> None:
        self.hook(webhook_id)
        self._deleted(webhook_id, by)

    @event(Deleted)
    def _deleted(self, webhook_id: str, by: str) -> None:
        del self.hooks[webhook_id]
