"""The pages' requests, checked against the API's own contract (issue 36).

Every request a page makes in the browser tests (fetch and XHR: what the page's scripts
send, not its documents, scripts and styles) is validated as it is sent: its method and
path against the routes of /openapi.json, its JSON body against the operation's request
schema (openapi-core), and the bodies whose schema a ruleset publishes at /rulesets
(an action's params, a day plan, a sheet) against that schema (jsonschema). A request
the API would not take, or a field it does not know, is a violation naming the page,
the route and the field; the test that made it fails (tests/e2e/conftest.py).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
from jsonschema import Draft202012Validator
from playwright.sync_api import Request

from tests.patience import HANG_SECONDS

SCRIPTED = {"fetch", "xhr", "eventsource"}
CAMPAIGN = re.compile(r"^/campaigns/([0-9a-f-]{36})(/|$)")


@dataclass
class Contract:
    """What one test's pages sent that the API does not take."""

    violations: list[str] = field(default_factory=list)
    _documents: dict[str, Any] = field(default_factory=dict)  # openapi-core, per server
    _rulesets: dict[str, dict[str, Any]] = field(default_factory=dict)  # per server
    _campaigns: dict[str, str] = field(default_factory=dict)  # campaign -> ruleset

    def check(self, request: Request) -> None:
        if request.resource_type not in SCRIPTED:
            return
        url = urlsplit(request.url)
        origin = f"{url.scheme}://{url.netloc}"
        try:
            page = urlsplit(request.frame.url).path or "/"
        except Exception:  # a request of a page already closed
            page = "?"
        if page in ("/docs", "/redoc"):
            return  # the API's own documentation: what its reader tries is theirs
        where = f"page {page}: {request.method} {url.path}"
        try:
            body = request.post_data_json if request.post_data else None
        except (ValueError, json.JSONDecodeError):
            self.violations.append(f"{where}: the body is not JSON")
            return
        for problem in self._against_openapi(origin, request, url.path, url.query, body):
            self.violations.append(f"{where}: {problem}")
        for problem in self._against_rulesets(origin, request, url.path, body):
            self.violations.append(f"{where}: {problem}")

    # -- the OpenAPI document -----------------------------------------------------------

    def _openapi(self, origin: str) -> Any:
        from openapi_core import OpenAPI  # a test dependency, asked for only here

        if origin not in self._documents:
            spec = httpx.get(f"{origin}/openapi.json", timeout=HANG_SECONDS).json()
            # Who may ask is the server's to say (a key the page holds, an operator key
            # only where one is set): the contract here is the shape of what is sent.
            spec.pop("security", None)
            for operations in spec["paths"].values():
                for operation in operations.values():
                    if isinstance(operation, dict):
                        operation.pop("security", None)
            self._documents[origin] = OpenAPI.from_dict(spec)
        return self._documents[origin]

    def _against_openapi(
        self, origin: str, request: Request, path: str, query: str, body: Any
    ) -> Iterator[str]:
        from openapi_core.testing import MockRequest

        headers = {k: v for k, v in request.headers.items() if k.lower() != "cookie"}
        mock = MockRequest(
            origin,
            request.method.lower(),
            path,
            args={k: v[-1] for k, v in parse_qs(query).items()},
            headers=headers,
            data=json.dumps(body) if body is not None else None,
            content_type=headers.get("content-type", "application/json").split(";")[0],
        )
        try:
            self._openapi(origin).validate_request(mock)
        except Exception as error:  # openapi-core's errors: say what and where
            yield _words(error)

    # -- the schemas /rulesets publishes ---------------------------------------------------

    def _ruleset_of(self, origin: str, request: Request, path: str) -> dict[str, Any] | None:
        found = CAMPAIGN.match(path)
        if not found:
            return None
        campaign = found.group(1)
        if campaign not in self._campaigns:
            auth = request.headers.get("authorization")
            read = httpx.get(
                f"{origin}/campaigns/{campaign}",
                headers={"authorization": auth} if auth else {},
                timeout=HANG_SECONDS,
            )
            if read.status_code != 200:
                return None  # the API refuses the request itself: the page says so
            self._campaigns[campaign] = read.json()["ruleset"]
        if origin not in self._rulesets:
            listed = httpx.get(f"{origin}/rulesets", timeout=HANG_SECONDS).json()
            self._rulesets[origin] = {r["id"]: r for r in listed}
        return self._rulesets[origin].get(self._campaigns[campaign])

    def _against_rulesets(
        self, origin: str, request: Request, path: str, body: Any
    ) -> Iterator[str]:
        if request.method not in ("POST", "PUT") or not isinstance(body, dict):
            return
        ruleset = self._ruleset_of(origin, request, path)
        if ruleset is None:
            return
        tail = CAMPAIGN.sub("/", path)
        if re.fullmatch(r"/encounters/[^/]+/(actions|preview|odds)", tail):
            action = ruleset["actions"].get(body.get("kind"))
            if action is not None:  # an unknown kind: the API says so (a 422)
                yield from _schema_problems(action["params"], body.get("params", {}), "params")
        elif tail == "/days":
            plan = ruleset.get("day_plan_schema")
            if plan is None:
                for name in ("default", "characters"):
                    if body.get(name):
                        yield f"body.{name}: the {ruleset['id']} ruleset's days take no plan"
                return
            yield from _schema_problems(plan, body.get("default", {}), "default")
            for character, own in (body.get("characters") or {}).items():
                yield from _schema_problems(plan, own, f"characters.{character}")
        elif "sheet" in body and (
            tail == "/characters" or re.fullmatch(r"/bestiary(/[^/]+)?", tail)
        ):
            yield from _schema_problems(ruleset["sheet_schema"], body["sheet"], "sheet")


def _schema_problems(schema: dict[str, Any], value: Any, where: str) -> Iterator[str]:
    for error in Draft202012Validator(schema).iter_errors(value):
        at = ".".join(str(p) for p in (where, *error.absolute_path))
        yield f"body.{at}: {error.message}"


def _words(error: BaseException) -> str:
    """openapi-core's error and the schema errors under it, each with its field."""
    parts = [str(error)]
    cause: BaseException | None = error.__cause__ or error.__context__
    while cause is not None:
        details = getattr(cause, "schema_errors", None)
        if details:
            parts.extend(
                f"body.{'.'.join(str(p) for p in e.absolute_path) or '(root)'}: {e.message}"
                for e in details
            )
            break
        parts.append(str(cause))
        cause = cause.__cause__ or cause.__context__
    return "; ".join(parts)
