"""The one place domain errors become HTTP statuses and JSON bodies."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

import fastapi.routing
import redis
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from skald_campaign.domain.access import Forbidden, Unauthenticated
from skald_campaign.domain.campaign.ruleset_versions import RulesetNotCurrent
from skald_campaign.domain.errors import (
    ActionRefused,
    ConcurrentWrite,
    DomainError,
    InvalidInput,
    NotFound,
    VersionMismatch,
)
from skald_campaign.domain.validation import InvalidFields

log = logging.getLogger("skald.api")

STATUS: list[tuple[type[DomainError], int, str]] = [
    (Unauthenticated, 401, "unauthenticated"),
    (Forbidden, 403, "forbidden"),
    (NotFound, 404, "not_found"),
    (InvalidInput, 422, "invalid_input"),
    (RulesetNotCurrent, 409, "ruleset_not_current"),
    (ActionRefused, 409, "action_refused"),
    (ConcurrentWrite, 409, "concurrent_write"),
    (VersionMismatch, 412, "version_mismatch"),
]


def error_body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"error": code, "message": message, **extra}


def _domain_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, DomainError)
    if isinstance(error, VersionMismatch):
        return version_problem(error, request.url.path)
    return domain_error_response(error)


VERSION_PROBLEM = "urn:skald:problem:version-mismatch"


def version_problem(error: VersionMismatch, instance: str) -> JSONResponse:
    """A write whose If-Match names a version its subject is not at (api/preconditions.py):
    412, an RFC 9457 problem that also carries Skald's own error and message, and names
    the subject and its current version (nothing was written)."""
    body = {
        "type": VERSION_PROBLEM,
        "title": "the version this write was decided on is not the current one",
        "status": 412,
        "detail": error.message,
        "instance": instance,
        **error_body("version_mismatch", error.message),
        "aggregate": error.kind,
        "aggregate_id": error.aggregate_id,
        "current_version": error.current_version,
        "if_match": error.expected,
    }
    return JSONResponse(body, status_code=412, media_type="application/problem+json")


RULESET_PROBLEM = "urn:skald:problem:ruleset-not-current"


def ruleset_problem(error: RulesetNotCurrent) -> JSONResponse:
    """A write to a campaign held read-only by its ruleset's version (issue 38): an RFC 9457
    problem (type, title, status, detail, instance) that also carries Skald's own error
    and message, and names both versions, the command to run and the GM's acceptance."""
    found = error.standing
    cid = found.campaign_id
    body = {
        "type": RULESET_PROBLEM,
        "title": "the campaign is read-only until its ruleset's version is settled",
        "status": 409,
        "detail": error.message,
        "instance": f"/campaigns/{cid}",
        **error_body("ruleset_not_current", error.message),
        **found.as_json(),
        "differing": error.differing,
        "command": error.command,
        "accept": None if found.missing else f"/campaigns/{cid}/ruleset/accept",
    }
    return JSONResponse(body, status_code=409, media_type="application/problem+json")


def domain_error_response(error: DomainError) -> JSONResponse:
    if isinstance(error, RulesetNotCurrent):
        return ruleset_problem(error)
    for cls, status, code in STATUS:
        if isinstance(error, cls):
            extra: dict[str, Any] = {}
            if isinstance(error, InvalidFields):
                extra["problems"] = [problem.as_json() for problem in error.problems]
            if isinstance(error, ConcurrentWrite) and error.current_version is not None:
                extra["current_version"] = error.current_version
            headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
            return JSONResponse(
                error_body(code, error.message, **extra), status_code=status, headers=headers
            )
    return JSONResponse(error_body("domain_error", error.message), status_code=400)


def _where(loc: tuple[Any, ...]) -> str:
    parts = [str(p) for p in loc if p not in ("body",)]
    return ".".join(parts) or "body"


def _validation_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    problems = []
    for item in error.errors():
        if item.get("type") == "json_invalid":
            ctx = item.get("ctx", {})
            message = f"the request body is not valid JSON: {ctx.get('error', 'parse error')}"
            return JSONResponse(error_body("malformed_json", message), status_code=422)
        problems.append({"field": _where(tuple(item["loc"])), "problem": item["msg"]})
    listed = "; ".join(f"{p['field']}: {p['problem']}" for p in problems)
    return JSONResponse(
        error_body("invalid_input", f"invalid request: {listed}", problems=problems),
        status_code=422,
    )


def _http_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, HTTPException)
    headers = dict(getattr(error, "headers", None) or {})
    if error.status_code == 405:
        headers["Allow"] = ", ".join(allowed_methods(request))
    return JSONResponse(
        error_body("http_error", str(error.detail)),
        status_code=error.status_code,
        headers=headers or None,
    )


def allowed_methods(request: Request) -> list[str]:
    """Every method some route takes on this path. Starlette's 405 names only the first
    route whose path matched (for /keys: POST, though GET is there too). Newer FastAPI
    keeps an included router's routes behind contexts that read like the route."""
    contexts = getattr(fastapi.routing, "iter_route_contexts", None)
    routes: Iterable[Any] = contexts(request.app.routes) if contexts else request.app.routes
    methods: set[str] = set()
    for route in routes:
        regex, taken = getattr(route, "path_regex", None), getattr(route, "methods", None)
        if regex is not None and taken and regex.match(request.scope["path"]):
            methods |= set(taken)
    return sorted(methods)


VIEWS_UNAVAILABLE = (
    "the views (vitals, boards, audit log, live feed) are unavailable: Redis does not "
    "answer; writes still go on, and the views catch up once Redis is back"
)
VIEWS_RETRY_AFTER_SECONDS = 5


def _views_unavailable(request: Request, error: Exception) -> JSONResponse:
    # Only the read side lives in Redis: the event store still takes every write.
    return JSONResponse(
        error_body("views_unavailable", VIEWS_UNAVAILABLE),
        status_code=503,
        headers={"Retry-After": str(VIEWS_RETRY_AFTER_SECONDS)},
    )


UNEXPECTED = (
    "the server met an unexpected error answering this request (it is logged with its "
    "traceback); a write it did not finish was not recorded, and a retry with the same "
    "Idempotency-Key is safe"
)


class UnexpectedErrors:
    """Whatever no handler maps becomes a JSON 500, and the connection stays open.

    An exception that reaches Starlette's outermost layer gets a text/plain 500 and is
    raised on to the server, which then closes the connection under the client's next
    request. Caught here, inside the security headers, it is logged once with its
    traceback and answered like every other error."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception:
            log.exception("unexpected error answering %s %s", scope["method"], scope["path"])
            if started:  # part of an answer is out: nothing else can be said on it
                raise
            response = JSONResponse(error_body("internal_error", UNEXPECTED), status_code=500)
            await response(scope, receive, send)


def install(app: FastAPI) -> None:
    app.add_exception_handler(DomainError, _domain_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(HTTPException, _http_error)
    app.add_exception_handler(redis.RedisError, _views_unavailable)
