"""The pages, served as static files that read the API: the GM screen, the player's page,
the stream overlay and the dashboard.

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


@router.get("/gm", response_class=FileResponse)
def gm_screen() -> FileResponse:
    """The GM screen: run a fight. Open /gm#campaign=<id>&key=<GM key>, or sign in."""
    return FileResponse(STATIC / "gm.html", headers=NO_STORE)


@router.get("/play", response_class=FileResponse)
def player_page() -> FileResponse:
    """A player's characters, their turn and their answers; phone-sized."""
    return FileResponse(STATIC / "play.html", headers=NO_STORE)


@router.get("/table", response_class=FileResponse)
def table_display() -> FileResponse:
    """The table display for a TV or projector: turn order, party, foes, the last roll
    (viewer key)."""
    return FileResponse(STATIC / "table.html", headers=NO_STORE)


@router.get("/overlay", response_class=FileResponse)
def overlay() -> FileResponse:
    """Vitals and the live log on a transparent background, for a stream (viewer key)."""
    return FileResponse(STATIC / "overlay.html", headers=NO_STORE)


def static_files() -> StaticFiles:
    return StaticFiles(directory=STATIC)
