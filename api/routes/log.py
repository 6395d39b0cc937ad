"""The open feed's reads: a campaign's event log by position, and the event catalog.

Each page is served from the bytes the log projection kept when it took each event in
(projections/log.py): no event is read from the store, decoded or validated per request.
A page holds only events the log projection has taken in, in their order, after the
position asked: an event committed but not yet projected is not on the page (the page's
``projection.behind`` says how many the views lack), and it comes on a later page, after
the last position a reader was given, since the projection takes events in in position
order. A reader following ``next`` thus gets every event once, in order.

The log's positions are the store's notification ids, the same as the SSE feed's event
ids (api/routes/feed.py): a client may read the log up to a position and go on with
the feed from it (Last-Event-ID), or the other way round, and miss nothing."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Query, Response
from pydantic import BaseModel, Field

from skald_campaign.api.deps import Reader, Views
from skald_campaign.api.routes.feed import LARGEST_ID
from skald_campaign.api.routes.views import Lag
from skald_campaign.domain.event_catalog import catalog
from skald_campaign.projections.log import log_page, log_reads

router = APIRouter(tags=["open feed"])


class LoggedEventOut(BaseModel):
    position: int = Field(description="the store's notification id; the SSE feed's event id")
    type: str = Field(description="the event type, as in GET /schema/events")
    type_version: int
    aggregate_id: str
    aggregate_version: int
    time: str
    by: str | None
    payload: dict[str, object] = Field(description="the event's public fields (GET /schema/events)")


class EventLogOut(BaseModel):
    campaign_id: str
    events: list[LoggedEventOut]
    next: int = Field(description="the position to ask from next (after=)")
    projection: Lag


class CatalogEntry(BaseModel):
    type: str
    version: int
    aggregate: str
    schema_: dict[str, object] = Field(alias="schema", description="JSON Schema of the payload")


class CatalogOut(BaseModel):
    events: list[CatalogEntry]


@router.get(
    "/campaigns/{campaign_id}/events", response_model=EventLogOut, response_model_by_alias=True
)
def read_event_log(
    campaign_id: UUID,
    access: Reader,
    views: Views,
    after: Annotated[
        int, Query(ge=0, le=LARGEST_ID, description="the events after this position")
    ] = 0,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> Response:
    """The campaign's events in order from a position, each with its type and version,
    aggregate and version, when, by whom and its payload: a player's or a viewer's key
    reads them redacted, as every read (docs/access.md)."""
    # Each event's JSON was written when it was projected (projections/log.py): the page
    # is one read and a concatenation, as EventLogOut would write it. The redaction of a
    # player's or viewer's page is api/redacting.py's, as for every answer about a
    # campaign: applying it here too would apply it twice.
    cid = str(campaign_id)
    (found,), lag = views.read(1, log_reads(cid, after, limit))
    return Response(content=log_page(cid, found, after, lag), media_type="application/json")


@router.get("/schema/events", response_model_by_alias=True)
def read_event_catalog() -> CatalogOut:
    """Every event type the open feed publishes, its version and a JSON Schema of its
    payload (docs/integrations.md says how events are versioned)."""
    return CatalogOut.model_validate({"events": catalog()})
