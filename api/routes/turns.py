"""The table: turn order, next turn, and the defender's declarations on waiting attacks."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field

from api.auth import GM, Reader
from api.backend import application
from api.idempotency import claim
from api.routes.encounters import settled
from api.schemas import ActionOut, Body, Dice, EncounterOut
from api.views import encounter_out, outcome_out
from domain.application import SkaldApplication
from domain.table_commands import DeclareDefense, NextTurn, SetTurnOrder, WithdrawExchange

router = APIRouter(prefix="/campaigns/{campaign_id}/encounters/{encounter_id}", tags=["table"])
App = Annotated[SkaldApplication, Depends(application)]


class OrderBody(Body):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "order": [
                        "3f0c1d2e-0000-4000-8000-000000000001",
                        "3f0c1d2e-0000-4000-8000-000000000002",
                    ]
                }
            ]
        },
    )
    order: list[str] = Field(
        min_length=1, max_length=50, description="combatant ids, first to act first"
    )


class DeclareBody(Body):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"choice": "parry", "dice": {"Bran's parry": [3, 3, 3]}}]},
    )
    choice: str = Field(min_length=1, max_length=40, description="e.g. parry, dodge or none")
    dice: Dice | None = Field(
        default=None, description="the defender's physical dice by roll name (e.g. defense)"
    )


class WithdrawBody(Body):
    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"reason": "the goblin flees instead"}]}
    )
    reason: str = Field(min_length=1, max_length=500, description="why; it stays on record")


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


class PreviewBody(Body):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "kind": "attack",
                    "actor": "3f0c1d2e-0000-4000-8000-000000000001",
                    "params": {"target": "3f0c1d2e-0000-4000-8000-000000000002", "weapon": "club"},
                }
            ]
        },
    )
    kind: str = Field(max_length=40, description="an action of the campaign's ruleset")
    actor: str | None = Field(default=None, max_length=64, description="the acting combatant")
    params: dict[str, Any] = Field(default_factory=dict, description="the action's parameters")


class RollOut(BaseModel):
    name: str = Field(description="the roll's human name; supply dice under it")
    roll: str = Field(description="the rules' own name for the roll (also accepted)")
    dice: str
    count: int
    sides: int
    when: str | None = Field(default=None, description="for a roll that may follow: when")


class PreviewOut(BaseModel):
    rolls: list[RollOut] = Field(description="rolls the action needs whatever the dice show")
    may_follow: list[RollOut] = Field(description="rolls that follow only on some dice")


@router.post("/preview")
def preview_rolls(
    campaign_id: UUID, encounter_id: UUID, body: PreviewBody, app: App, _: Reader
) -> PreviewOut:
    """Which rolls this action would need now (given the current state), by human name,
    dice count and size, and which may follow. Writes nothing."""
    shown = app.preview_action(campaign_id, encounter_id, body.kind, body.actor, body.params)
    return PreviewOut.model_validate(shown)
