"""Views served from Redis (vitals, encounter board, audit log), each saying how far
behind the event store it is. A view the projections have not reached yet is
answered empty, with ``projection.behind`` > 0: ask again shortly."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field

from skald_campaign.api.deps import App, Reader, Views
from skald_campaign.domain.errors import NotFound

router = APIRouter(prefix="/campaigns/{campaign_id}", tags=["views"])
MAX_OFFSET = 2**31  # Redis list indexes are 64-bit; no campaign comes near this


class Lag(BaseModel):
    position: int = Field(description="the last event the views include (notification id)")
    store: int = Field(description="the event store's last notification id")
    behind: int = Field(description="events the views have yet to take in")
    generation: str | None = Field(description="which generation of views answered")


class Bar(BaseModel):
    current: int
    max: int | None


SEEN_AS = Field(
    None,
    description="T3: the one word a player or a viewer reads for these tracks where the "
    "numbers are hidden (an NPC's descriptor), as the rules gave it when the event was "
    "recorded; null in views built before it",
)


class CharacterVitals(BaseModel):
    id: str
    name: str
    tracks: dict[str, Bar]
    conditions: list[str]
    state: dict[str, Any]
    encounter: str | None
    changes: int = Field(description="events that changed this character's tracks or state")
    position: int
    seen_as: str | None = SEEN_AS


class VitalsOut(BaseModel):
    campaign_id: str
    name: str
    ruleset: str
    day: int = 0
    events: int = Field(0, description="events of this campaign the views have taken in")
    characters: list[CharacterVitals] = []
    encounters: list[dict[str, Any]] = []
    projection: Lag


class Combatant(BaseModel):
    id: str
    name: str
    side: str
    rank: int
    tracks: dict[str, Bar]
    conditions: list[str]
    state: dict[str, Any]
    seen_as: str | None = SEEN_AS


class BoardOut(BaseModel):
    id: str
    campaign_id: str
    name: str = ""
    ruleset: str = ""
    round: int = 0
    ended: bool = False
    version: int = 0
    events: int = 0
    actions: int = 0
    combatants: list[Combatant] = []
    last_actions: list[dict[str, Any]] = []
    # The table (issue 23, RULINGS T1, T2): standing markers with their rounds left,
    # initiative totals, who the last turn change passed over and why; the end's reason.
    markers: list[dict[str, Any]] = []
    initiative: dict[str, int] = {}
    skipped: list[dict[str, Any]] = []
    end_reason: str | None = None
    projection: Lag


class AuditOut(BaseModel):
    campaign_id: str
    total: int
    offset: int
    limit: int
    entries: list[dict[str, Any]]
    projection: Lag


@router.get("/vitals")
def read_vitals(campaign_id: UUID, access: Reader, views: Views, app: App) -> VitalsOut:
    """Every character's tracks (current / max) and conditions."""
    vitals = views.vitals(str(campaign_id))
    if vitals is None:
        campaign = app.campaign(campaign_id)
        lag = views.lag(views.keys())
        return VitalsOut(
            campaign_id=str(campaign_id), name=campaign.name, ruleset=campaign.ruleset_id,
            projection=Lag(**lag),
        )  # fmt: skip
    return VitalsOut(**vitals)


@router.get("/encounters/{encounter_id}/board")
def read_board(
    campaign_id: UUID, encounter_id: UUID, access: Reader, views: Views, app: App
) -> BoardOut:
    """Round, combatants by side and rank with their tracks, state and conditions,
    the last actions, the table's markers, initiative and skips, and the end's reason."""
    board = views.board(str(encounter_id))
    if board is None:
        app.encounter(campaign_id, encounter_id)  # 404 if the store does not know it either
        lag = Lag(**views.lag(views.keys()))
        return BoardOut(id=str(encounter_id), campaign_id=str(campaign_id), projection=lag)
    if board["campaign_id"] != str(campaign_id):
        raise NotFound(f"encounter {encounter_id} does not belong to campaign {campaign_id}")
    table = board.pop("table", None)
    return BoardOut(**board, **(table if isinstance(table, dict) else {}))


@router.get("/audit")
def read_audit(
    campaign_id: UUID,
    access: Reader,
    views: Views,
    offset: Annotated[
        int, Query(ge=0, le=MAX_OFFSET, description="entries to skip (0: the first)")
    ] = 0,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
) -> AuditOut:
    """Every event of the campaign in order: who, when, the dice and the breakdown."""
    return AuditOut(**views.audit(str(campaign_id), offset, limit))
