"""Whether the event store and Redis answer: what a load balancer or a monitor asks."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from skald_campaign.api.deps import backend

router = APIRouter(tags=["health"])


@router.get(
    "/health",
    responses={
        200: {"description": "the event store and Redis answer"},
        503: {"description": "degraded: the same report, saying which does not answer"},
    },
)
def health(request: Request) -> JSONResponse:
    report: dict[str, Any] = backend(request).health()
    return JSONResponse(report, status_code=200 if report["status"] == "ok" else 503)
