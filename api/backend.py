"""What the API needs from the composition root (api/deps.py hands its parts to routes)."""

from __future__ import annotations

from typing import Any, Protocol

from skald_campaign.api.keys import KeyMaker
from skald_campaign.api.limits import ApiPolicy
from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.webhooks import WebhookPolicy
from skald_campaign.projections.reader import ViewReader
from skald_campaign.projections.webhook_state import DeliveryState


class Backend(Protocol):
    application: SkaldApplication
    keys: KeyMaker
    views: ViewReader
    policy: ApiPolicy
    webhooks: WebhookPolicy
    deliveries: DeliveryState
    public_url: str | None

    def health(self) -> dict[str, Any]: ...
