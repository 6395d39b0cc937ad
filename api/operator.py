"""Who may create campaigns on this server: the operator's setting, checked on POST /campaigns.

SKALD_OPERATOR_KEY set: the request must carry it as its bearer key. Unset: the
embedded default (SQLite) stays open, as a single-machine tool should; a PostgreSQL
deployment, reachable by many, has creation turned off until the operator sets one.
"""

from __future__ import annotations

import hmac
from typing import Annotated

from fastapi import Depends, Request

from api.backend import backend
from domain.access import Forbidden, Unauthenticated


def operator_gate(request: Request) -> None:
    policy = backend(request).policy
    if policy.operator_key is None:
        if policy.creation_open:
            return
        raise Forbidden(
            "campaign creation is turned off on this server (a PostgreSQL store without "
            "SKALD_OPERATOR_KEY): its operator sets SKALD_OPERATOR_KEY and creates campaigns "
            "with it as the bearer key"
        )
    scheme, _, key = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not key.strip():
        raise Unauthenticated(
            "creating a campaign on this server needs the operator key: "
            "send 'Authorization: Bearer <SKALD_OPERATOR_KEY>'"
        )
    if not hmac.compare_digest(key.strip().encode(), policy.operator_key.encode()):
        raise Forbidden("that is not this server's operator key")


Operator = Annotated[None, Depends(operator_gate)]
