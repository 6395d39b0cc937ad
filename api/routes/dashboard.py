"""The pages: the GM dashboard, served as static files that read the API.

A page holds no data and needs no key to load: the key is typed into the page, or
follows a link in the fragment (`#key=...`, which browsers never send), and the
page keeps it in sessionStorage and sends it as a bearer header."""

from __future__ import annotations

from pathlib import Path
from uuid import UUID

from fastapi import APIRouter
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

STATIC = Path(__file__).resolve().parents[1] / "static"
router = APIRouter(tags=["pages"], include_in_schema=False)
NO_STORE = {"Cache-Control": "no-store"}


@router.get("/campaigns/{campaign_id}/dashboard", response_class=FileResponse)
def dashboard(campaign_id: UUID) -> FileResponse:
    """Party vitals, conditions, the encounter board and the live log.

    Open /campaigns/{id}/dashboard#key=skald_... (or sign in on the page)."""
    return FileResponse(STATIC / "dashboard.html", headers=NO_STORE)


def static_files() -> StaticFiles:
    return StaticFiles(directory=STATIC)
