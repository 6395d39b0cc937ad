"""Who is asking: the bearer key resolved to the campaign's access, as dependencies."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from fastapi import Depends, Request

from api.backend import application, backend
from api.keys import KeyMaker
from domain.access import Access, Unauthenticated
from domain.application import SkaldApplication

App = Annotated[SkaldApplication, Depends(application)]


def key_maker(request: Request) -> KeyMaker:
    return backend(request).keys


def presented_key(request: Request) -> str:
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    # Browsers cannot put a header on an EventSource or a page link: reads may carry
    # the key as ?key=, which the access log redacts.
    if request.method == "GET" and request.query_params.get("key"):
        return request.query_params["key"]
    raise Unauthenticated("this request needs a campaign key: send 'Authorization: Bearer <key>'")


def reader(request: Request, campaign_id: UUID, app: App) -> Access:
    key = presented_key(request)
    key_id = KeyMaker.key_id(key)
    if key_id is None:
        raise Unauthenticated("that is not a Skald key (they look like skald_<id>_<secret>)")
    return app.access(campaign_id, key_id, KeyMaker.digest(key))


def gm(access: Annotated[Access, Depends(reader)], request: Request) -> Access:
    access.require_gm(f"{request.method} {request.url.path}")
    return access


Reader = Annotated[Access, Depends(reader)]
GM = Annotated[Access, Depends(gm)]
