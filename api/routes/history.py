"""The audit trail of an encounter and the difference between two versions.

Each handler only calls its query (application/queries.py). The audit and history pages
come written already, as their model (AuditPage, still the documented answer) writes them
(application/audit_entries.py; tests/integration/test_audit_page_bytes.py compares them):
validating and serialising each entry again was most of a long page's cost (issue 28)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any
from uuid import UUID

from fastapi import APIRouter, Query, Response

from skald_campaign.api.deps import App, Reader
from skald_campaign.api.schemas import MAX_VERSION, AuditPage, DiffOut

router = APIRouter(prefix="/campaigns/{campaign_id}", tags=["history"])

Kind = Annotated[str | None, Query(max_length=40, description="action, correction or event kind")]
Character = Annotated[str | None, Query(max_length=64, description="a character id")]
Offset = Annotated[int, Query(ge=0)]
Limit = Annotated[int, Query(ge=1, le=1000)]


def written(page: bytes) -> Response:
    """A page's bytes, sent as FastAPI sends a model it has serialised."""
    return Response(content=page, media_type="application/json")


@router.get("/encounters/{encounter_id}/audit", response_model=AuditPage)
def encounter_audit(
    campaign_id: UUID,
    encounter_id: UUID,
    app: App,
    _: Reader,
    kind: Kind = None,
    character: Character = None,
    offset: Offset = 0,
    limit: Limit = 100,
) -> Response:
    """Every event of the encounter in order, read from the event store: who, when (real
    time, in-game day, round), the dice, the breakdown and, for corrections, the reason."""
    return written(
        app.queries.encounter_audit_json(campaign_id, encounter_id, kind, character, offset, limit)
    )


@router.get("/history", response_model=AuditPage)
def campaign_history(
    campaign_id: UUID,
    app: App,
    _: Reader,
    kind: Kind = None,
    character: Character = None,
    offset: Offset = 0,
    limit: Limit = 100,
) -> Response:
    """The campaign's own events in order, read from the event store: enrolments,
    encounters opened and closed, days advanced, every heal with its arithmetic, wounds."""
    return written(app.queries.campaign_history_json(campaign_id, kind, character, offset, limit))


@router.get("/vitals/at")
def vitals_at(
    campaign_id: UUID,
    app: App,
    _: Reader,
    at: Annotated[datetime, Query(description="the instant (ISO 8601, with a time zone)")],
) -> dict[str, Any]:
    """Every character's tracks and conditions as they stood at an instant, read from the
    event store (the live view, `/vitals`, is the projection in Redis)."""
    return app.queries.vitals_at(campaign_id, at)


@router.get("/encounters/{encounter_id}/diff")
def encounter_diff(
    campaign_id: UUID,
    encounter_id: UUID,
    app: App,
    _: Reader,
    from_version: Annotated[int, Query(alias="from", ge=1, le=MAX_VERSION)],
    to_version: Annotated[int | None, Query(alias="to", ge=1, le=MAX_VERSION)] = None,
) -> DiffOut:
    """What changed between two versions: tracks, conditions, round and action statuses."""
    return DiffOut(
        **app.queries.encounter_diff(campaign_id, encounter_id, from_version, to_version)
    )
