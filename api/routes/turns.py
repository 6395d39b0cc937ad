"""The table: turn order, next turn, and the defender's declarations on waiting attacks."""

from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter

from api.deps import GM, App, Idempotency, Reader
from api.routes.encounters import settled
from api.schemas import (
    ActionOut,
    DeclareBody,
    EncounterOut,
    OrderBody,
    RollPreviewBody,
    RollPreviewOut,
    WithdrawBody,
)
from api.views import encounter_out, outcome_out
from application.table_commands import DeclareDefense, NextTurn, SetTurnOrder, WithdrawExchange

router = APIRouter(prefix="/campaigns/{campaign_id}/encounters/{encounter_id}", tags=["table"])


@router.put("/order")
def set_order(
    idempotency: Idempotency,
    campaign_id: UUID,
    encounter_id: UUID,
    body: OrderBody,
    app: App,
    access: GM,
) -> EncounterOut:
    """The GM sets (or changes) the turn order; the first named acts now."""
    command = SetTurnOrder(campaign_id, encounter_id, tuple(body.order), access.who)
    outcome = app.idempotent(idempotency.claim(body, access), lambda: app.set_turn_order(command))
    return encounter_out(settled(app, campaign_id, outcome))


@router.post("/turn")
def next_turn(
    idempotency: Idempotency, campaign_id: UUID, encounter_id: UUID, app: App, access: GM
) -> EncounterOut:
    """Next in the order; after the last, the next round begins at the top."""
    command = NextTurn(campaign_id, encounter_id, access.who)
    outcome = app.idempotent(idempotency.claim(None, access), lambda: app.next_turn(command))
    return encounter_out(settled(app, campaign_id, outcome))


@router.post("/exchanges/{number}/declare", status_code=201)
def declare(
    idempotency: Idempotency,
    campaign_id: UUID,
    encounter_id: UUID,
    number: int,
    body: DeclareBody,
    app: App,
    access: Reader,
) -> ActionOut:
    """The defender's declaration: their player's key or the GM; then the exchange resolves."""
    command = DeclareDefense(
        campaign_id, encounter_id, number, body.choice, access, dict(body.dice or {}) or None
    )
    outcome = app.idempotent(
        idempotency.claim(body, access), lambda: app.declare_defense(command)[0]
    )
    return outcome_out(settled(app, campaign_id, outcome))


@router.post("/exchanges/{number}/withdraw")
def withdraw(
    idempotency: Idempotency,
    campaign_id: UUID,
    encounter_id: UUID,
    number: int,
    body: WithdrawBody,
    app: App,
    access: GM,
) -> EncounterOut:
    """The GM withdraws a waiting attack; it is no action and nothing is rolled."""
    command = WithdrawExchange(campaign_id, encounter_id, number, body.reason, access.who)
    outcome = app.idempotent(
        idempotency.claim(body, access), lambda: app.withdraw_exchange(command)
    )
    return encounter_out(settled(app, campaign_id, outcome))


@router.post("/preview")
def preview_rolls(
    campaign_id: UUID, encounter_id: UUID, body: RollPreviewBody, app: App, _: Reader
) -> RollPreviewOut:
    """Which rolls this action would need now (given the current state), by human name,
    dice count and size, and which may follow. Writes nothing."""
    shown = app.preview_action(campaign_id, encounter_id, body.kind, body.actor, body.params)
    return RollPreviewOut.model_validate(shown)
