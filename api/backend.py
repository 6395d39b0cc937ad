"""What the API needs from the composition root, and how routes reach it."""

from __future__ import annotations

from typing import Any, Protocol

from fastapi import Request

from api.keys import KeyMaker
from api.limits import ApiPolicy
from domain.application import SkaldApplication
from projections.reader import ViewReader


class Backend(Protocol):
    application: SkaldApplication
    keys: KeyMaker
    views: ViewReader
    policy: ApiPolicy

    def health(self) -> dict[str, Any]: ...


def backend(request: Request) -> Backend:
    return request.app.state.backend  # type: ignore[no-any-return]


async def application(request: Request) -> SkaldApplication:
    # async: a plain attribute read, not worth a hop to the thread pool per request
    return backend(request).application


async def view_reader(request: Request) -> ViewReader:
    return backend(request).views
