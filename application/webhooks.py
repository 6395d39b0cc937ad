"""Registering a campaign's webhooks, and the rule of where they may point.

A webhook may only reach a URL the GM registered, and only over http(s). Unless the
deployment allows it (SKALD_WEBHOOKS_ALLOW_PRIVATE=true), a URL whose host is or
resolves to a loopback, link-local, private, or otherwise non-public address is
refused: a webhook must not become a way to reach the server's own neighbours. The
deliveries check again before each attempt (a name may resolve elsewhere later).
"""

from __future__ import annotations

import base64
import ipaddress
import secrets
import socket
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError

from skald_campaign.application.store import Commands
from skald_campaign.domain.access import Role
from skald_campaign.domain.errors import InvalidInput, NotFound
from skald_campaign.domain.event_catalog import PUBLISHED, type_name
from skald_campaign.domain.webhooks import CampaignWebhooks, Format, Webhook

SCHEMES = ("http", "https")
PUBLISHED_TYPES = frozenset(type_name(cls) for cls in PUBLISHED)


class BlockedTarget(InvalidInput):
    """A webhook URL the SSRF rule refuses (422, naming the rule)."""


@dataclass(frozen=True)
class WebhookPolicy:
    allow_private: bool = False  # SKALD_WEBHOOKS_ALLOW_PRIVATE
    failure_limit: int = 10  # consecutive failed attempts before a webhook is disabled
    timeout: float = 10.0  # seconds per attempt
    backoff_initial: float = 1.0  # seconds before the first retry (then doubling, jittered)
    backoff_max: float = 300.0


def _addresses(host: str) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
    try:
        return [ipaddress.ip_address(host.strip("[]"))]
    except ValueError:
        pass
    try:
        found = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except OSError as error:
        raise BlockedTarget(f"the webhook's host '{host}' does not resolve: {error}") from None
    return [ipaddress.ip_address(str(info[4][0]).split("%", 1)[0]) for info in found]


def check_target(url: str, allow_private: bool) -> None:
    """Refuse a URL a webhook may not reach, naming the rule it breaks."""
    try:
        parts = urlsplit(url)
        host = parts.hostname
        parts.port  # noqa: B018 (a port that is not a number raises here, not later)
    except ValueError as error:
        raise BlockedTarget(f"the webhook URL '{url}' cannot be read: {error}") from None
    if parts.scheme not in SCHEMES:
        raise BlockedTarget(f"a webhook URL must be http or https, not '{parts.scheme}:'")
    if not host:
        raise BlockedTarget(f"the webhook URL '{url}' names no host")
    if parts.username or parts.password:
        raise BlockedTarget("a webhook URL may not carry a user name or password")
    if allow_private:
        return
    for address in _addresses(host):
        for rule, broken in (
            ("loopback", address.is_loopback),
            ("link-local", address.is_link_local),
            ("private", address.is_private),
            ("multicast", address.is_multicast),
            ("unspecified", address.is_unspecified),
            ("reserved", address.is_reserved),
        ):
            if broken:
                raise BlockedTarget(
                    f"webhooks may not reach {rule} addresses ({host} is "
                    f"{address}); SKALD_WEBHOOKS_ALLOW_PRIVATE=true allows them"
                )


def new_secret() -> str:
    return "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode()


def check_filter(events: Sequence[str]) -> None:
    unknown = sorted(set(events) - PUBLISHED_TYPES)
    if unknown:
        raise InvalidInput(
            f"unknown event types {unknown}: GET /schema/events lists the published ones"
        )


@dataclass(frozen=True)
class RegisterWebhook:
    campaign_id: UUID
    url: str
    events: tuple[str, ...] = ()
    encounter_id: str | None = None
    role: Role = "viewer"
    format: Format = "json"
    by: str = "gm"


class WebhookCommands(Commands):
    def campaign_webhooks(self, campaign_id: UUID) -> CampaignWebhooks | None:
        try:
            found: object = self.store.repository.get(CampaignWebhooks.create_id(campaign_id))
        except AggregateNotFoundError:
            return None
        return found if isinstance(found, CampaignWebhooks) else None

    def webhook(self, campaign_id: UUID, webhook_id: str) -> Webhook:
        hooks = self.campaign_webhooks(campaign_id)
        if hooks is None:
            raise NotFound(f"no webhook {webhook_id} in campaign {campaign_id}")
        return hooks.hook(webhook_id)

    def list_webhooks(self, campaign_id: UUID) -> list[Webhook]:
        hooks = self.campaign_webhooks(campaign_id)
        return list(hooks.hooks.values()) if hooks is not None else []

    def register_webhook(self, command: RegisterWebhook, allow_private: bool) -> Webhook:
        c = command
        check_filter(c.events)
        check_target(c.url, allow_private)
        self.store.campaign(c.campaign_id)  # 404 for a campaign that is not there
        webhook_id, secret = str(uuid.uuid4()), new_secret()

        def attempt() -> Webhook:
            hooks = self.campaign_webhooks(c.campaign_id) or CampaignWebhooks(c.campaign_id)
            # Deliveries start after the last event stored when the GM registered it.
            start = self.store.recorder.max_notification_id() or 0
            hooks.register(
                webhook_id, c.url, c.events, c.encounter_id, c.role, c.format, secret, start, c.by
            )
            self.store.save(hooks)
            return hooks.hooks[webhook_id]

        return self.store.run_command(attempt)

    def _changing(
        self, campaign_id: UUID, webhook_id: str, change: Callable[[CampaignWebhooks], None]
    ) -> Webhook | None:
        """Run a change on the campaign's webhooks; the webhook after (None once deleted)."""

        def attempt() -> Webhook | None:
            hooks = self.campaign_webhooks(campaign_id)
            if hooks is None:
                raise NotFound(f"no webhook {webhook_id} in campaign {campaign_id}")
            change(hooks)
            self.store.save(hooks)
            return hooks.hooks.get(webhook_id)

        return self.store.run_command(attempt)

    def set_webhook_enabled(
        self, campaign_id: UUID, webhook_id: str, enabled: bool, reason: str, by: str
    ) -> Webhook | None:
        def change(hooks: CampaignWebhooks) -> None:
            if enabled:
                hooks.enable(webhook_id, by)
            else:
                hooks.disable(webhook_id, reason, by)

        return self._changing(campaign_id, webhook_id, change)

    def delete_webhook(self, campaign_id: UUID, webhook_id: str, by: str) -> None:
        self._changing(campaign_id, webhook_id, lambda hooks: hooks.delete(webhook_id, by))
