"""The table: turn order, next turn, and the defender's declarations on waiting attacks."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Depends, Request

from api.auth import GM, Reader
from api.backend import application
from api.idempotency import claim
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
from domain.application import SkaldApplication
from domain.table_commands import DeclareDefense, NextTurn, SetTurnOrder, WithdrawExchange

router = APIRouter(prefix="/campaigns/{campaign_id}/encounters/{encounter_id}", tags=["table"])
App = Annotated[SkaldApplication, Depends(application)]


@router.put("/order")
def set_order(
    request: Request,
    campaign_id: UUID,
    encounter_id: UUID,
    body: OrderBody,
    app: App,
    access: GM,
) -> EncounterOut:
    """The GM sets (or changes) the turn order; the first named acts now."""
    command = SetTurnOrder(campaign_id, encounter_id, tuple(body.order), access.who)
    outcome = app.idempotent(claim(request, body, access), lambda: app.set_turn_order(command))
    return encounter_out(settled(app, campaign_id, outcome))


@router.post("/turn")
def next_turn(
    request: Request, campaign_id: UUID, encounter_id: UUID, app: App, access: GM
) -> EncounterOut:
    """Next in the order; after the last, the next round begins at the top."""
    command = NextTurn(campaign_id, encounter_id, access.who)
    outcome = app.idempotent(claim(request, None, access), lambda: app.next_turn(command))
    return encounter_out(settled(app, campaign_id, outcome))


@router.post("/exchanges/{number}/declare", status_code=201)
def declare(
    request: Request,
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
    outcome = app.idempotent(claim(request, body, access), lambda: app.declare_defense(command)[0])
    return outcome_out(settled(app, campaign_id, outcome))


@router.post("/exchanges/{number}/withdraw")
def withdraw(
    request: Request,
    campaign_id: UUID,
    encounter_id: UUID,
    number: int,
    body: WithdrawBody,
    app: App,
    access: GM,
) -> EncounterOut:
    """The GM withdraws a waiting attack; it is no action and nothing is rolled."""
    command = WithdrawExchange(campaign_id, encounter_id, number, body.reason, access.who)
    outcome = app.idempotent(claim(request, body, access), lambda: app.withdraw_exchange(command))
    return encounter_out(settled(app, campaign_id, outcome))


@router.post("/preview")
def preview_rolls(
    campaign_id: UUID, encounter_id: UUID, body: RollPreviewBody, app: App, _: Reader
) -> RollPreviewOut:
    """Which rolls this action would need now (given the current state), by human name,
    dice count and size, and which may follow. Writes nothing."""
    shown = app.preview_action(campaign_id, encounter_id, body.kind, body.actor, body.params)
    return RollPreviewOut.model_validate(shown)
