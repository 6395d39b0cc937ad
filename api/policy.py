"""What the operator decided about the API, as the settings and the composition root
read it: here, apart from the middleware that applies it (api/limits.py), so that
skald_campaign/settings.py and services.py, which every command imports, import no HTTP
framework (FastAPI and Starlette: ~0.15 s of CPU at each start of `skald projections
rebuild`, bench/README.md "rebuild41 lane")."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_PER_KEY = "1200/minute"
DEFAULT_PER_ADDRESS = "3000/minute"
_ONE_RATE = r"\d+ ?(/|per) ?(\d+ ?)?(second|minute|hour|day)s?"
RATE = rf"^{_ONE_RATE}(; ?{_ONE_RATE})*$"  # e.g. 20/second;600/hour, as `limits` reads them


@dataclass(frozen=True)
class ApiPolicy:
    """What the operator decided: who may create campaigns, and how fast anyone may ask.

    ``operator_key`` set: creating a campaign needs it as the bearer key. Unset:
    creation is open when ``creation_open`` (the embedded default), else turned off;
    open, but ``creation_from_this_machine`` (a table served to the network, `skald serve
    --lan`), only a request from a loopback address creates one: the GM's own machine.
    Rates are in the ``limits`` notation, e.g. ``1200/minute`` or ``20/second;600/hour``.
    """

    operator_key: str | None = None
    creation_open: bool = True
    creation_from_this_machine: bool = False
    per_key: str = DEFAULT_PER_KEY
    per_address: str = DEFAULT_PER_ADDRESS
