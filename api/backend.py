"""What the API needs from the composition root (api/deps.py hands its parts to routes)."""

from __future__ import annotations

from typing import Any, Protocol

from api.keys import KeyMaker
from api.limits import ApiPolicy
from application.application import SkaldApplication
from application.webhooks import WebhookPolicy
from projections.reader import ViewReader
from projections.webhook_state import DeliveryState


class Backend(Protocol):
    application: SkaldApplication
    keys: KeyMaker
    views: ViewReader
    policy: ApiPolicy
    webhooks: WebhookPolicy
    deliveries: DeliveryState
    public_url: str | None

    def health(self) -> dict[str, Any]: ...
