"""Every dependency the routes share, declared once: the application, the views, the key
maker, who is asking (a campaign key, a GM's, the operator's) and the Idempotency-Key.

Route modules import the ``Annotated`` aliases from here (``app: App``, ``access: GM``)
and declare nothing of their own. The providers that only read ``app.state`` are
``async``: a plain attribute read is not worth a hop to the thread pool per request.
"""

from __future__ import annotations

import hmac
import ipaddress
from dataclasses import dataclass
from typing import Annotated
from uuid import UUID

from fastapi import Depends, Header, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel

from skald_campaign.api.backend import Backend
from skald_campaign.api.idempotency import claim
from skald_campaign.api.keys import KeyMaker
from skald_campaign.api.preconditions import expected_of
from skald_campaign.application.application import SkaldApplication
from skald_campaign.domain.access import Access, Forbidden, Unauthenticated
from skald_campaign.domain.idempotency import Claim
from skald_campaign.domain.writing.preconditions import Expected
from skald_campaign.projections.reader import ViewReader


def backend(request: Request) -> Backend:
    return request.app.state.backend  # type: ignore[no-any-return]


async def application(request: Request) -> SkaldApplication:
    return backend(request).application


async def view_reader(request: Request) -> ViewReader:
    return backend(request).views


async def key_maker(request: Request) -> KeyMaker:
    return backend(request).keys


App = Annotated[SkaldApplication, Depends(application)]
Views = Annotated[ViewReader, Depends(view_reader)]
Keys = Annotated[KeyMaker, Depends(key_maker)]


# --- a campaign key: who is asking, and whether they are its GM ---

# Declared in the OpenAPI as a bearer scheme, so the docs' Authorize button sends it.
# A key is only ever taken from this header: never from a URL, which browsers send on
# in Referer and servers write to logs (the pages keep it in sessionStorage).
bearer = HTTPBearer(
    auto_error=False,
    scheme_name="campaign_key",
    description="A campaign key (GM, player or viewer): skald_<id>_<secret>",
)
CampaignCredentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


def presented_key(credentials: CampaignCredentials) -> str:
    if credentials is not None and credentials.credentials.strip():
        return credentials.credentials.strip()
    raise Unauthenticated("this request needs a campaign key: send 'Authorization: Bearer <key>'")


async def reader(credentials: CampaignCredentials, campaign_id: UUID, app: App) -> Access:
    # async: the check is answered from memory almost always, and a hop to the thread
    # pool per request was a tenth of the server's time under load (bench/README.md);
    # only when the campaign must be read from the store again does a thread do it.
    key = presented_key(credentials)
    key_id = KeyMaker.key_id(key)
    if key_id is None:
        raise Unauthenticated("that is not a Skald key (they look like skald_<id>_<secret>)")
    digest = KeyMaker.digest(key)
    known = app.access_if_fresh(campaign_id, key_id, digest)
    if known is not None:
        return known
    return await run_in_threadpool(app.access, campaign_id, key_id, digest)


Reader = Annotated[Access, Depends(reader)]


async def gm(access: Reader, request: Request) -> Access:
    access.require_gm(f"{request.method} {request.url.path}")
    return access


GM = Annotated[Access, Depends(gm)]


# --- the operator key: who may create campaigns on this server ---
# SKALD_OPERATOR_KEY set: the request must carry it as its bearer key. Unset: the
# embedded default (SQLite) stays open, as a single-machine tool should; a PostgreSQL
# deployment, reachable by many, has creation turned off until the operator sets one.
# A table served to the home network (`skald serve --lan`) without one stays open to the
# GM's own machine only: a phone at the table, or anyone else on the network, is refused.

# Declared as its own bearer scheme, so the docs say which key POST /campaigns takes.
operator_bearer = HTTPBearer(
    auto_error=False,
    scheme_name="operator_key",
    description="SKALD_OPERATOR_KEY: needed to create campaigns when the operator set one",
)
OperatorCredentials = Annotated[HTTPAuthorizationCredentials | None, Depends(operator_bearer)]


def operator_gate(request: Request, credentials: OperatorCredentials) -> None:
    policy = backend(request).policy
    if policy.operator_key is None:
        if policy.creation_open and not policy.creation_from_this_machine:
            return
        if policy.creation_open:
            if from_this_machine(request):
                return
            raise Forbidden(
                "on a table served to the network (skald serve --lan), campaigns are created "
                "from the GM's own machine: open the GM screen there at http://localhost (or "
                "127.0.0.1) on this server's port, or set SKALD_OPERATOR_KEY and send it as "
                "the bearer key"
            )
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


def from_this_machine(request: Request) -> bool:
    """The request came over loopback. (Behind a proxy on this machine, uvicorn puts the
    forwarded client's address here: a phone through the proxy is not this machine.)"""
    host = request.client.host if request.client is not None else ""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback


# --- the Idempotency-Key header ---


@dataclass(frozen=True, slots=True)
class IdempotencyKey:
    """The request's Idempotency-Key, claimed by the route once it has its body and its
    caller: the claim is scoped to the caller's key and hashes the parsed body, and a
    malformed header is refused only after the key and the body were checked."""

    request: Request

    def claim(self, body: BaseModel | None, access: Access | None) -> Claim | None:
        """The claim, or None when the client sent no Idempotency-Key."""
        return claim(self.request, body, access)


async def idempotency_key(request: Request) -> IdempotencyKey:
    return IdempotencyKey(request)


Idempotency = Annotated[IdempotencyKey, Depends(idempotency_key)]


# --- If-Match: the version a write was decided on (api/preconditions.py) ---

IF_MATCH_DESCRIPTION = (
    "the ETag of the version this write was decided on (from GET of the encounter or the "
    "campaign, whichever the write's subject is: docs/access.md); refused with 412, "
    "nothing written, when it is not the current one, before the write is decided (a "
    "write that would be refused anyway is refused with 412). `*` or no header: no check"
)


async def if_match(
    if_match: Annotated[
        str | None, Header(alias="If-Match", description=IF_MATCH_DESCRIPTION)
    ] = None,
) -> Expected | None:
    return expected_of(if_match)


IfMatch = Annotated[Expected | None, Depends(if_match)]
