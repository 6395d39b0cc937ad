"""The FastAPI application factory; the backend is built in the lifespan, never at import."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractContextManager, asynccontextmanager

from fastapi import FastAPI
from starlette.types import Receive, Scope, Send

from skald_campaign.api import errors, openapi
from skald_campaign.api.action_path import ActionPath
from skald_campaign.api.attribution import ClientAttribution
from skald_campaign.api.backend import Backend
from skald_campaign.api.etags import ViewETags
from skald_campaign.api.fast_actions import ActionFastPath
from skald_campaign.api.fast_log import LogFastPath
from skald_campaign.api.fast_views import ViewFastPath
from skald_campaign.api.feed_hub import close_hubs_here
from skald_campaign.api.limits import BodyLimit, RateLimit, RateLimiter
from skald_campaign.api.read_path import ReadFastPath
from skald_campaign.api.redacting import RedactedReads
from skald_campaign.api.routes import (
    amendments,
    bestiary,
    calendar,
    campaigns,
    carry,
    corrections,
    dashboard,
    docs,
    encounters,
    feed,
    health,
    history,
    house_rules,
    keys,
    log,
    markers,
    me,
    odds,
    ruleset_version,
    saved_encounters,
    server,
    turns,
    views,
    webhooks,
)
from skald_campaign.api.security import SecurityHeaders
from skald_campaign.api.view_connection import close_lines_here
from skald_campaign.assistant.mount import AssistantMount, Assistants

BackendFactory = Callable[[], AbstractContextManager[Backend]]


class SkaldAPI(FastAPI):
    """FastAPI, with a GM's ordinary view read (api/read_path.py) and ordinary action
    (api/action_path.py) answered before its middleware stack; every other request goes
    through the whole stack."""

    read_path = ReadFastPath(enabled=False)
    action_path = ActionPath(enabled=False)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = self.read_path.takes(scope)
        if found is not None and await self.read_path.answer(self, scope, found, send):
            return
        action = self.action_path.takes(scope)
        if action is not None:
            handed_on = await self.action_path.answer(self, scope, action, receive, send)
            if handed_on is None:  # answered
                return
            receive = handed_on
        await super().__call__(scope, receive, send)


def create_app(
    build_backend: BackendFactory, fast_actions: bool = True, fast_views: bool = True
) -> FastAPI:
    assistants = Assistants()  # /campaigns/{id}/mcp: skald_campaign/assistant/mount.py

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        with build_backend() as backend:
            app.state.backend = backend
            app.state.rate_limiter = RateLimiter(backend.policy)
            try:
                async with assistants.running():
                    yield
            finally:
                close_lines_here()  # api/view_connection.py: the loop's connection to Redis
                await close_hubs_here()  # api/feed_hub.py: the loop's feed readers

    app = SkaldAPI(
        title="Skald",
        summary="Event-sourced campaign state for game masters: every roll on record.",
        version="0.1.0",
        lifespan=lifespan,
        docs_url=None,  # served from local assets by api.routes.docs
        redoc_url=None,
        # FastAPI's own OpenTelemetry spans, metrics and logs: Skald configures no
        # provider, yet with them on every request asked the global providers (reading
        # the environment each time) whether one had been set, on the event loop.
        telemetry={"tracing": False, "metrics": False, "logs": False, "operation_spans": False},
    )
    app.read_path = ReadFastPath(enabled=fast_views)
    app.action_path = ActionPath(enabled=fast_actions)
    errors.install(app)
    # Innermost: the view reads, answered below the router (api/fast_views.py).
    app.add_middleware(ViewFastPath, enabled=fast_views)
    # The commonest request answered below the router (api/fast_actions.py).
    app.add_middleware(ActionFastPath, enabled=fast_actions)
    # Around the fast path and every route: a write through the assistant says so.
    app.add_middleware(ClientAttribution)
    # Around the fast path too: every answer a player or viewer gets is redacted (T3).
    app.add_middleware(RedactedReads)
    # Just outside it, the event log's pages, answered below the router: a player's and
    # a viewer's redacted as it would, from each event's redacted bytes kept
    # (api/fast_log.py).
    app.add_middleware(LogFastPath, enabled=fast_views)
    app.add_middleware(BodyLimit)
    # Outside every middleware that may change an answer: the ETag is of the bytes sent.
    app.add_middleware(ViewETags)
    app.add_middleware(RateLimit)  # before the body is read: a refused caller costs little
    # Outside all the above: an assistant's tools call the API back through every one.
    app.add_middleware(AssistantMount, assistants=assistants)
    app.add_middleware(errors.UnexpectedErrors)  # a JSON 500, the connection kept
    app.add_middleware(SecurityHeaders)
    app.include_router(campaigns.router)
    app.include_router(encounters.router)
    app.include_router(turns.router)
    app.include_router(markers.router)
    app.include_router(corrections.router)
    app.include_router(amendments.router)
    app.include_router(carry.router)
    app.include_router(ruleset_version.router)
    app.include_router(house_rules.router)
    app.include_router(history.router)
    app.include_router(calendar.router)
    app.include_router(keys.router)
    app.include_router(me.router)
    app.include_router(views.router)
    app.include_router(odds.router)
    app.include_router(feed.router)
    app.include_router(log.router)
    app.include_router(webhooks.router)
    app.include_router(bestiary.router)
    app.include_router(saved_encounters.router)
    app.include_router(server.router)
    app.include_router(dashboard.router)
    app.include_router(docs.router)
    app.mount("/static", dashboard.static_files(), name="static")
    app.mount("/docs-assets", docs.assets(), name="docs-assets")

    # Every endpoint is a module's function, none a closure over this app: FastAPI keeps
    # what it learns of each endpoint in caches of its own (4,096 entries each), so an
    # endpoint defined in here would keep its app, with the whole backend, alive after it
    # stopped: the suite (an app per test) grew to 2.8 GB (tests/integration/
    # test_app_released.py).
    app.include_router(health.router)

    openapi.install(app)  # after every route: it completes each operation's description
    return app
