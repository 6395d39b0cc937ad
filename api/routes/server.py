"""What the pages ask of the server itself: the address phones at the table reach it at.

A GM who opened the screen at http://localhost:8000/gm must still hand a player a link
their phone can open: the pages build every key's link and QR code on this address when
the server has one to advertise (`skald serve --lan`, `--advertise`), else on their own."""

from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from skald_campaign.api.deps import backend

router = APIRouter(tags=["server"])


class ServerOut(BaseModel):
    public_url: str | None = Field(
        description="the base URL phones at the table reach this server at "
        "(skald serve --lan, --advertise); null: the address the page was opened at"
    )


@router.get("/server")
async def about_this_server(request: Request) -> ServerOut:
    """Where the keys' links and QR codes point; no key needed (it is no secret on the
    network it is advertised to)."""
    return ServerOut(public_url=backend(request).public_url)
