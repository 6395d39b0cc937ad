"""The GM dashboard: one static page that reads the views and follows the feed."""

from __future__ import annotations

from pathlib import Path
from uuid import UUID

from fastapi import APIRouter
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from api.auth import Reader

STATIC = Path(__file__).resolve().parents[1] / "static"
router = APIRouter(tags=["dashboard"])


@router.get("/campaigns/{campaign_id}/dashboard", response_class=FileResponse)
def dashboard(campaign_id: UUID, access: Reader) -> FileResponse:
    """The GM screen: party vitals, conditions, the encounter board and the live log.

    Open it with a campaign key (GM, player or viewer) in the address, as a browser
    cannot send a header with a link: /campaigns/{id}/dashboard?key=skald_... The
    page reads the views and follows the feed with that key."""
    return FileResponse(STATIC / "dashboard.html", headers={"Cache-Control": "no-store"})


def static_files() -> StaticFiles:
    return StaticFiles(directory=STATIC)
