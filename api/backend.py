"""What the API needs from the composition root, and how routes reach it."""

from __future__ import annotations

from typing import Any, Protocol

from fastapi import Request

from domain.application import SkaldApplication


class Backend(Protocol):
    application: SkaldApplication

    def health(self) -> dict[str, Any]: ...


def backend(request: Request) -> Backend:
    return request.app.state.backend  # type: ignore[no-any-return]


def application(request: Request) -> SkaldApplication:
    return backend(request).application


def requester(request: Request) -> str:
    """Who asked, for the record; access control replaces this with the key's identity."""
    return request.headers.get("x-skald-user", "gm")[:80] or "gm"
