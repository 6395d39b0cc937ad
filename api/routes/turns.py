"""The table: turn order, initiative, next and previous turn, delay, and the defender's
declarations on waiting attacks (RULINGS T1; docs/table.md)."""

from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter

from skald_campaign.api.deps import GM, App, Idempotency, IfMatch, Reader
from skald_campaign.api.routes.encounters import settled
from skald_campaign.api.schemas import (
    ActionOut,
    DeclareBody,
    EncounterOut,
    OrderBody,
    RollPreviewBody,
    RollPreviewOut,
    WithdrawBody,
)
from skald_campaign.api.table_schemas import DelayBody, InitiativeBody, OrderMoveBody, RoundDiceBody
from skald_campaign.api.views import encounter_out, outcome_out
from skald_campaign.application.table_commands import (
    DeclareDefense,
    MoveInOrder,
    MoveTurn,
    NextTurn,
    RollInitiative,
    SetTurnOrder,
    WithdrawExchange,
)

router = APIRouter(prefix="/campaigns/{campaign_id}/encounters/{encounter_id}", tags=["table"])


@router.put("/order")
def set_order(
    idempotency: Idempotency,
    expected: IfMatch,
    campaign_id: UUID,
    encounter_id: UUID,
    body: OrderBody,
    app: App,
    access: GM,
) -> EncounterOut:
    """The GM sets (or changes) the turn order; the first named acts now."""
    command = SetTurnOrder(campaign_id, encounter_id, tuple(body.order), access.who)
    outcome = app.idempotent(
        idempotency.claim(body, access), lambda: app.set_turn_order(command), expected
    )
    return encounter_out(settled(app, campaign_id, outcome))


@router.post("/turn")
def next_turn(
    idempotency: Idempotency,
    expected: IfMatch,
    campaign_id: UUID,
    encounter_id: UUID,
    app: App,
    access: GM,
    body: RoundDiceBody | None = None,
) -> EncounterOut:
    """Next in the order; after the last, the next round begins at the top (with
    `each_round` initiative, rolled again with the table's `dice` where given; dice
    for a turn that starts no round are refused with 422)."""
    dice = dict(body.dice or {}) or None if body is not None else None
    command = NextTurn(campaign_id, encounter_id, access.who, dice)
    outcome = app.idempotent(
        idempotency.claim(body, access), lambda: app.next_turn(command), expected
    )
    return encounter_out(settled(app, campaign_id, outcome))


@router.post("/order/move")
def move_in_order(
    idempotency: Idempotency,
    expected: IfMatch,
    campaign_id: UUID,
    encounter_id: UUID,
    body: OrderMoveBody,
    app: App,
    access: GM,
) -> EncounterOut:
    """One combatant one place up (earlier) or down in the order; the turn goes back to
    the top, as when the GM sets the order."""
    steps = -1 if body.direction == "up" else 1
    command = MoveInOrder(campaign_id, encounter_id, body.combatant, steps, access.who)
    outcome = app.idempotent(
        idempotency.claim(body, access), lambda: app.move_in_order(command), expected
    )
    return encounter_out(settled(app, campaign_id, outcome))


@router.post("/initiative")
def roll_initiative(
    idempotency: Idempotency,
    expected: IfMatch,
    campaign_id: UUID,
    encounter_id: UUID,
    body: InitiativeBody,
    app: App,
    access: GM,
) -> EncounterOut:
    """Roll initiative (the campaign's `initiative` option, mode `roll`): highest total
    first, ties in enrolment order; the table's dice accepted by combatant id."""
    only = tuple(body.combatants) if body.combatants is not None else None
    dice = dict(body.dice or {}) or None
    command = RollInitiative(campaign_id, encounter_id, dice, only, access.who)
    outcome = app.idempotent(
        idempotency.claim(body, access), lambda: app.roll_initiative(command), expected
    )
    return encounter_out(settled(app, campaign_id, outcome))


@router.post("/turn/previous")
def previous_turn(
    idempotency: Idempotency,
    expected: IfMatch,
    campaign_id: UUID,
    encounter_id: UUID,
    app: App,
    access: GM,
) -> EncounterOut:
    """Back one place in the order (from the top of a round, to the last of the one
    before); recorded, and undone by voiding it."""
    command = MoveTurn(campaign_id, encounter_id, "previous", None, access.who)
    outcome = app.idempotent(
        idempotency.claim(None, access), lambda: app.move_turn(command), expected
    )
    return encounter_out(settled(app, campaign_id, outcome))


@router.post("/turn/delay")
def delay_turn(
    idempotency: Idempotency,
    expected: IfMatch,
    campaign_id: UUID,
    encounter_id: UUID,
    body: DelayBody,
    app: App,
    access: GM,
) -> EncounterOut:
    """The combatant whose turn it is acts later this round: placed after `after` (by
    default last); the next in the order acts now."""
    command = MoveTurn(campaign_id, encounter_id, "delay", body.after, access.who)
    outcome = app.idempotent(
        idempotency.claim(body, access), lambda: app.move_turn(command), expected
    )
    return encounter_out(settled(app, campaign_id, outcome))


@router.post("/exchanges/{number}/declare", status_code=201)
def declare(
    idempotency: Idempotency,
    expected: IfMatch,
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
        idempotency.claim(body, access), lambda: app.declare_defense(command)[0], expected
    )
    return outcome_out(settled(app, campaign_id, outcome))


@router.post("/exchanges/{number}/withdraw")
def withdraw(
    idempotency: Idempotency,
    expected: IfMatch,
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
        idempotency.claim(body, access), lambda: app.withdraw_exchange(command), expected
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
