"""Who may create campaigns on this server: the operator's setting, checked on POST /campaigns.

SKALD_OPERATOR_KEY set: the request must carry it as its bearer key. Unset: the
embedded default (SQLite) stays open, as a single-machine tool should; a PostgreSQL
deployment, reachable by many, has creation turned off until the operator sets one.
"""

from __future__ import annotations

import hmac
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from api.backend import backend
from domain.access import Forbidden, Unauthenticated

# Declared as its own bearer scheme, so the docs say which key POST /campaigns takes.
operator_bearer = HTTPBearer(
    auto_error=False,
    scheme_name="operator key",
    description="SKALD_OPERATOR_KEY: needed to create campaigns when the operator set one",
)
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(operator_bearer)]


def operator_gate(request: Request, credentials: Credentials) -> None:
    policy = backend(request).policy
    if policy.operator_key is None:
        if policy.creation_open:
            return
        raise Forbidden(
            "campaign creation is turned off on this server (a PostgreSQL store without "
            "SKALD_OPERATOR_KEY): its operator sets SKALD_OPERATOR_KEY and creates campaigns "
            "with it as the bearer key"
        )
    key = credentials.credentials.strip() if credentials is not None else ""
    if not key:
        raise Unauthenticated(
            "creating a campaign on this server needs the operator key: "
            "send 'Authorization: Bearer <SKALD_OPERATOR_KEY>'"
        )
    if not hmac.compare_digest(key.encode(), policy.operator_key.encode()):
        raise Forbidden("that is not this server's operator key")


Operator = Annotated[None, Depends(operator_gate)]
