"""Who is asking: the bearer key resolved to the campaign's access, as dependencies."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from fastapi import Depends, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from api.backend import application, backend
from api.keys import KeyMaker
from domain.access import Access, Unauthenticated
from domain.application import SkaldApplication

App = Annotated[SkaldApplication, Depends(application)]


def key_maker(request: Request) -> KeyMaker:
    return backend(request).keys


# Declared in the OpenAPI as a bearer scheme, so the docs' Authorize button sends it.
# A key is only ever taken from this header: never from a URL, which browsers send on
# in Referer and servers write to logs (the pages keep it in sessionStorage).
bearer = HTTPBearer(
    auto_error=False,
    scheme_name="campaign key",
    description="A campaign key (GM, player or viewer): skald_<id>_<secret>",
)
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


def presented_key(credentials: Credentials) -> str:
    if credentials is not None and credentials.credentials.strip():
        return credentials.credentials.strip()
    raise Unauthenticated("this request needs a campaign key: send 'Authorization: Bearer <key>'")


async def reader(credentials: Credentials, campaign_id: UUID, app: App) -> Access:
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


async def gm(access: Annotated[Access, Depends(reader)], request: Request) -> Access:
    access.require_gm(f"{request.method} {request.url.path}")
    return access


Reader = Annotated[Access, Depends(reader)]
GM = Annotated[Access, Depends(gm)]
