"""Encounters: start, read at any version, act, advance the round, end."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Query, Request, Response
from fastapi.concurrency import run_in_threadpool

from skald_campaign.api.deps import GM, App, Idempotency, IfMatch, Reader
from skald_campaign.api.loop_futures import on_this_loop
from skald_campaign.api.preconditions import version_etag
from skald_campaign.api.redacting import REPLAYED_FIGHT
from skald_campaign.api.schemas import (
    MAX_VERSION,
    ActionBody,
    ActionOut,
    EncounterOut,
    StartEncounterBody,
)
from skald_campaign.api.table_schemas import EndBody, RoundDiceBody
from skald_campaign.api.views import encounter_out, outcome_out
from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.commands import (
    Combatant,
    EndEncounter,
    NextRound,
    PerformAction,
    StartEncounter,
)
from skald_campaign.domain.access import Access
from skald_campaign.domain.encounter.aggregate import Encounter
from skald_campaign.domain.errors import InvalidInput
from skald_campaign.domain.idempotency import Replayed

router = APIRouter(prefix="/campaigns/{campaign_id}/encounters", tags=["encounters"])


def settled(app: SkaldApplication, campaign_id: UUID, outcome: Encounter | Replayed) -> Encounter:
    """The encounter a write produced, whether just now or by the first of its retries."""
    if isinstance(outcome, Replayed):
        return app.encounter(campaign_id, outcome.subject_id, outcome.subject_version)
    return outcome


@router.post("", status_code=201)
def start_encounter(
    idempotency: Idempotency, campaign_id: UUID, body: StartEncounterBody, app: App, access: GM
) -> EncounterOut:
    combatants = tuple(Combatant(c.character_id, c.side, c.rank) for c in body.combatants)
    command = StartEncounter(campaign_id, body.name, combatants, access.who)
    outcome = app.idempotent(idempotency.claim(body, access), lambda: app.start_encounter(command))
    return encounter_out(settled(app, campaign_id, outcome))


@router.get("/{encounter_id}")
def read_encounter(
    campaign_id: UUID,
    encounter_id: UUID,
    app: App,
    access: Reader,
    request: Request,
    response: Response,
    version: Annotated[
        int | None, Query(ge=1, le=MAX_VERSION, description="the encounter as it was then")
    ] = None,
    at: Annotated[
        datetime | None, Query(description="the encounter as it stood at this instant (ISO 8601)")
    ] = None,
    offset: Annotated[
        int, Query(ge=0, le=MAX_VERSION, description="the first action to list, from 0")
    ] = 0,
    limit: Annotated[int, Query(ge=1, le=1000, description="how many actions to list")] = 500,
) -> EncounterOut:
    """The encounter, with its actions a page at a time (oldest first). Its ETag names
    the version read: send it as If-Match on a write decided on it (api/preconditions.py)."""
    if at is not None:
        if version is not None:
            raise InvalidInput("give either version or at, not both")
        version = app.version_at(encounter_id, at, "encounter")
    encounter = app.encounter(campaign_id, encounter_id, version)
    # A player's or viewer's answer is redacted as the campaign now says (who is hidden).
    redacted_by = None if access.role == "gm" else app.campaign(campaign_id).version
    if redacted_by is not None and version is not None:
        request.scope[REPLAYED_FIGHT] = encounter  # its NPCs worded as it recorded them
    response.headers["ETag"] = version_etag(encounter.version, access.role, redacted_by)
    return encounter_out(encounter, offset, limit)


@router.post(
    "/{encounter_id}/actions",
    status_code=201,
    responses={
        202: {
            "model": ActionOut,
            "description": "an attack waits for the defender's declaration: `status` is "
            "`pending` and `exchange` says whose (declare it at `.../exchanges/{n}/declare`)",
        }
    },
)
async def perform_action(
    idempotency: Idempotency,
    expected: IfMatch,
    campaign_id: UUID,
    encounter_id: UUID,
    body: ActionBody,
    app: App,
    access: Reader,
    response: Response,
) -> ActionOut:
    """Perform an action. The GM acts for anyone; a player only for their own characters.

    201: the action resolved. 202: an attack waits for the defender's declaration
    (``exchange`` says whose); declare it at ``.../exchanges/{n}/declare``.
    """
    command = action_command(campaign_id, encounter_id, body, access)
    # Awaited, not waited for: the hot path holds no thread while the writer commits it.
    # The answer is made on the writer right after the action: no copy of the encounter.
    queued = app.idempotent_later(
        idempotency.claim(body, access),
        lambda: app.perform_action_answered(command, action_answer),
        expected,
    )
    outcome = await on_this_loop(queued)
    if isinstance(outcome, Replayed):  # a repeated request: read what the first one made
        encounter = await run_in_threadpool(settled, app, campaign_id, outcome)
        status, result = action_answer(encounter)
    else:
        status, result = outcome
    response.status_code = status
    return result


def action_command(
    campaign_id: UUID, encounter_id: UUID, body: ActionBody, access: Access
) -> PerformAction:
    """The command a request to act asks for, if its key may ask it (also the fast path's:
    api/fast_actions.py)."""
    access.require_writer_for(body.actor, f"perform '{body.kind}'")
    if body.hidden:
        access.require_gm('roll hidden dice ("hidden": true)')
    return PerformAction(
        campaign_id,
        encounter_id,
        body.kind,
        body.params,
        body.actor,
        body.dice,
        access.who,
        access.role,
        body.override_reason,
        body.hidden,
    )


def action_answer(encounter: Encounter) -> tuple[int, ActionOut]:
    """201 and the action; 202 when an attack waits for the defender's declaration."""
    result = outcome_out(encounter)
    return (202 if result.status == "pending" else 201), result


@router.post("/{encounter_id}/round")
def next_round(
    idempotency: Idempotency,
    expected: IfMatch,
    campaign_id: UUID,
    encounter_id: UUID,
    app: App,
    access: GM,
    body: RoundDiceBody | None = None,
) -> EncounterOut:
    """The next round at the top of the order (its start records first). With
    `each_round` initiative it rolls again, taking the table's `dice` by combatant id;
    dice for a round that rolls no initiative are refused with 422."""
    dice = dict(body.dice or {}) or None if body is not None else None
    command = NextRound(campaign_id, encounter_id, access.who, dice)
    outcome = app.idempotent(
        idempotency.claim(body, access), lambda: app.next_round(command), expected
    )
    return encounter_out(settled(app, campaign_id, outcome))


@router.post("/{encounter_id}/end")
def end_encounter(
    idempotency: Idempotency,
    expected: IfMatch,
    campaign_id: UUID,
    encounter_id: UUID,
    app: App,
    access: GM,
    body: EndBody | None = None,
) -> EncounterOut:
    """End the fight (optionally saying why: on the record); tracks go to the roster."""
    reason = body.reason.strip() or None if body is not None and body.reason else None
    command = EndEncounter(campaign_id, encounter_id, access.who, reason)
    outcome = app.idempotent(
        idempotency.claim(body, access), lambda: app.end_encounter(command), expected
    )
    return encounter_out(settled(app, campaign_id, outcome))
