"""A campaign's webhooks (the GM's): register, list, disable and enable, delete, send a
test event, and each one's delivery log. Deliveries are the worker's
(workers/webhooks.py): no request here waits for a receiver."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Path, Request

from skald_campaign.api.deps import GM, App, Idempotency, backend
from skald_campaign.api.schemas import (
    DeliveriesOut,
    DisableWebhookBody,
    RegisteredWebhookOut,
    WebhookBody,
    WebhookOut,
)
from skald_campaign.application.webhooks import RegisterWebhook
from skald_campaign.domain.idempotency import Replayed
from skald_campaign.domain.webhooks import CampaignWebhooks, Webhook

router = APIRouter(prefix="/campaigns/{campaign_id}/webhooks", tags=["webhooks"])
WebhookId = Annotated[str, Path(min_length=1, max_length=64)]


def webhook_out(hook: Webhook) -> WebhookOut:
    return WebhookOut(
        id=hook.id, url=hook.url, events=list(hook.events), encounter_id=hook.encounter_id,
        role=hook.role, format=hook.format, enabled=hook.enabled,
        disabled_reason=hook.disabled_reason,
    )  # fmt: skip


def replayed_hook(app: App, outcome: Replayed, webhook_id: str | None = None) -> Webhook | None:
    """The webhook as the first answer of a retried request left it."""
    hooks: object = app.repository.get(outcome.subject_id, version=outcome.subject_version)
    assert isinstance(hooks, CampaignWebhooks)
    if webhook_id is None:  # a registration: the one that version registered, the last
        return list(hooks.hooks.values())[-1]
    return hooks.hooks.get(webhook_id)


@router.post("", status_code=201)
def register_webhook(
    idempotency: Idempotency, campaign_id: UUID, body: WebhookBody, app: App, access: GM,
    request: Request,
) -> RegisteredWebhookOut:  # fmt: skip
    """Register a URL for the campaign's events; the answer shows its secret, once."""
    command = RegisterWebhook(
        campaign_id, body.url, tuple(body.events), body.encounter_id, body.role, body.format,
        access.who,
    )  # fmt: skip
    allow_private = backend(request).webhooks.allow_private
    outcome = app.idempotent(
        idempotency.claim(body, access), lambda: app.register_webhook(command, allow_private)
    )
    hook = replayed_hook(app, outcome) if isinstance(outcome, Replayed) else outcome
    assert hook is not None
    return RegisteredWebhookOut(**webhook_out(hook).model_dump(), secret=hook.secret)


@router.get("")
def list_webhooks(campaign_id: UUID, app: App, access: GM) -> list[WebhookOut]:
    """The campaign's webhooks (their secrets are never shown again)."""
    return [webhook_out(hook) for hook in app.list_webhooks(campaign_id)]


def _enabled(
    app: App, idempotency: Idempotency, campaign_id: UUID, webhook_id: str, access: GM,
    enabled: bool, body: DisableWebhookBody | None,
) -> WebhookOut:  # fmt: skip
    reason = body.reason if body is not None else ""
    outcome = app.idempotent(
        idempotency.claim(body, access),
        lambda: app.set_webhook_enabled(campaign_id, webhook_id, enabled, reason, access.who),
    )
    hook = replayed_hook(app, outcome, webhook_id) if isinstance(outcome, Replayed) else outcome
    assert hook is not None
    return webhook_out(hook)


@router.post("/{webhook_id}/disable")
def disable_webhook(
    idempotency: Idempotency, campaign_id: UUID, webhook_id: WebhookId, app: App, access: GM,
    body: DisableWebhookBody,
) -> WebhookOut:  # fmt: skip
    """Stop deliveries; they resume from where they stopped when it is enabled."""
    return _enabled(app, idempotency, campaign_id, webhook_id, access, False, body)


@router.post("/{webhook_id}/enable")
def enable_webhook(
    idempotency: Idempotency, campaign_id: UUID, webhook_id: WebhookId, app: App, access: GM
) -> WebhookOut:
    """Enable a webhook (also one disabled after failing): its run of failures restarts."""
    return _enabled(app, idempotency, campaign_id, webhook_id, access, True, None)


@router.delete("/{webhook_id}")
def delete_webhook(
    idempotency: Idempotency, campaign_id: UUID, webhook_id: WebhookId, app: App, access: GM
) -> dict[str, str]:
    """Delete a webhook for good."""
    app.idempotent(
        idempotency.claim(None, access),
        lambda: app.delete_webhook(campaign_id, webhook_id, access.who),
    )
    return {"deleted": webhook_id}


@router.post("/{webhook_id}/test", status_code=202)
def test_webhook(
    idempotency: Idempotency,
    campaign_id: UUID,
    webhook_id: WebhookId,
    app: App,
    access: GM,
    request: Request,
) -> dict[str, str]:
    """Queue a signed test event (type 'webhook.test'); its outcome shows in the log. With
    an Idempotency-Key, a retry queues no second one."""
    app.webhook(campaign_id, webhook_id)  # 404 for one that is not there
    deliveries = backend(request).deliveries
    claim = idempotency.claim(None, access)
    if claim is None:
        deliveries.request_test(webhook_id)
    else:  # the key is in the claim's scope and the body is none: a repeat is a retry
        deliveries.request_test_once(webhook_id, claim.scope, claim.request_hash)
    return {"queued": webhook_id}


@router.get("/{webhook_id}/deliveries")
def read_deliveries(
    campaign_id: UUID, webhook_id: WebhookId, app: App, access: GM, request: Request
) -> DeliveriesOut:
    """The webhook's delivery log: the delivery in progress, then the last 50."""
    hook = app.webhook(campaign_id, webhook_id)
    state = backend(request).deliveries
    return DeliveriesOut(
        webhook_id=webhook_id,
        delivered_through=max(state.delivered(webhook_id), hook.start),
        failures_in_a_row=state.failures(webhook_id),
        deliveries=[dict(entry) for entry in state.log(webhook_id)],
    )
