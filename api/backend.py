"""What the API needs from the composition root (api/deps.py hands its parts to routes)."""

from __future__ import annotations

from typing import Any, Protocol

from api.keys import KeyMaker
from api.limits import ApiPolicy
from application.application import SkaldApplication
from projections.reader import ViewReader


class Backend(Protocol):
    application: SkaldApplication
    keys: KeyMaker
    views: ViewReader
    policy: ApiPolicy

    def health(self) -> dict[str, Any]: ...
