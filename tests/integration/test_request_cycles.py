"""Ordinary requests leave no reference cycle behind, served as `skald serve` serves them.

`skald serve` freezes its start-up heap and what lives once each snapshot is stored
(cli.keep_out_of_collections, application/snapshotting.py): the cyclic collector never
looks at frozen objects again, so a cycle alive at a freeze and dying later is kept for
the life of the process. Each kind of request below is sent to the real app on a real
uvicorn server (httptools, uvloop and our protocol, as serve runs them; the TestClient
makes garbage of its own) with the collector off, and `gc.collect()` must then find
nothing: reference counting alone freed the request. A replayed idempotent command left
~72 objects a request (bench/README.md, "pgstall lane")."""

from __future__ import annotations

import asyncio
import gc
import http.client
import socket
import threading
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import orjson
import pytest
import uvicorn

from skald_campaign.api.app import create_app
from skald_campaign.api.feed_hub import hub_for
from skald_campaign.http_protocol import http_protocol
from skald_campaign.projections.reader import ViewReader
from skald_campaign.services import build_services
from skald_campaign.settings import Settings
from tests.cycles import settle
from tests.patience import HANG_SECONDS

SENT = 5  # of each kind, after as many to warm up (first-use caches are not garbage)


class Table:
    """One kept-alive connection to the server, and a fight to act in."""

    def __init__(self, port: int, views: ViewReader) -> None:
        self.port = port
        self.views = views
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=HANG_SECONDS)
        made = self.send("POST", "/campaigns", {"name": "Cycles", "ruleset": "stamina-body"})
        self.campaign = made["id"]
        self.gm = {"authorization": f"Bearer {made['gm_key']}"}
        sheet = {"st": 12, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 90}
        self.hero, self.foe = (
            self.send(
                "POST",
                f"/campaigns/{self.campaign}/characters",
                {"name": name, "sheet": {**sheet, "body_max": 60}},
                self.gm,
            )["id"]
            for name in ("Hero", "Foe")
        )
        sides = [{"character_id": self.hero, "side": "party"}]
        sides.append({"character_id": self.foe, "side": "foes"})
        self.fight = self.send(
            "POST",
            f"/campaigns/{self.campaign}/encounters",
            {"name": "Fight", "combatants": sides},
            self.gm,
        )["id"]

    def request(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, bytes]:
        sent = dict(headers or {})
        data = None
        if body is not None:
            data = body if isinstance(body, bytes) else orjson.dumps(body)
            sent["content-type"] = "application/json"
        self.connection.request(method, path, body=data, headers=sent)
        answer = self.connection.getresponse()
        return answer.status, answer.read()

    def send(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> Any:
        status, raw = self.request(method, path, body, headers)
        assert status in (200, 201), raw
        return orjson.loads(raw)

    def hit(self, target: str) -> dict[str, Any]:
        params = {"target": target, "damage_type": "impact", "damage_class": 1}
        return {"kind": "take_hit", "params": params, "dice": {"damage": [1]}}


@pytest.fixture
def table(settings: Settings) -> Iterator[Table]:
    """The app with its workers on a real uvicorn server in this process, as serve runs
    it (and one route that fails unexpectedly), and a campaign with a fight."""
    app = create_app(lambda: build_services(settings, workers=True))

    def failing() -> None:
        raise RuntimeError("a bug no handler maps")  # errors.UnexpectedErrors answers it

    app.add_api_route("/fails", failing, methods=["GET"])
    listening = socket.socket()
    listening.bind(("127.0.0.1", 0))
    # The kept-alive connection idles while the collector runs between the requests, for
    # seconds in a process whose heap earlier tests grew (after test_permissions.py, every
    # time): neither uvicorn's keep-alive (5 s) nor the protocol's request timeout may
    # close it meanwhile.
    config = uvicorn.Config(
        app,
        log_level="warning",
        lifespan="on",
        http=http_protocol(settings.max_header_bytes, HANG_SECONDS),
        timeout_keep_alive=int(HANG_SECONDS),
    )
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    found: Table | None = None
    try:
        for _ in range(int(HANG_SECONDS / 0.05)):  # up while the thread lives
            if running.started or not thread.is_alive():
                break
            threading.Event().wait(0.05)
        assert running.started, "the server did not start"
        found = Table(listening.getsockname()[1], app.state.backend.views)
        yield found
    finally:
        if found is not None:
            found.connection.close()
        running.should_exit = True
        thread.join(timeout=HANG_SECONDS)
        listening.close()
        assert not thread.is_alive()


def actions(t: Table) -> str:
    return f"/campaigns/{t.campaign}/encounters/{t.fight}/actions"


KINDS: dict[str, tuple[int, Callable[[Table], tuple[int, bytes]]]] = {
    "an accepted action": (201, lambda t: t.request("POST", actions(t), t.hit(t.hero), t.gm)),
    "an action the rules refuse": (
        404,  # no such combatant: refused by the command, on the writer
        lambda t: t.request("POST", actions(t), t.hit(str(uuid.uuid4())), t.gm),
    ),
    "an action of no kind the ruleset has": (
        422,
        lambda t: t.request("POST", actions(t), {"kind": "fly", "params": {}}, t.gm),
    ),
    "a body that fails validation": (
        422,
        lambda t: t.request("POST", actions(t), {"kind": 5}, t.gm),
    ),
    "a body that is not JSON": (422, lambda t: t.request("POST", actions(t), b"{no", t.gm)),
    "an unknown encounter": (
        404,
        lambda t: t.request(
            "GET", f"/campaigns/{t.campaign}/encounters/{uuid.uuid4()}", headers=t.gm
        ),
    ),
    "no key": (401, lambda t: t.request("GET", f"/campaigns/{t.campaign}/vitals")),
    "a method the path does not take": (
        405,
        lambda t: t.request("DELETE", f"/campaigns/{t.campaign}/vitals", headers=t.gm),
    ),
    "the vitals": (
        200,
        lambda t: t.request("GET", f"/campaigns/{t.campaign}/vitals", headers=t.gm),
    ),
    "the encounter": (
        200,
        lambda t: t.request("GET", f"/campaigns/{t.campaign}/encounters/{t.fight}", headers=t.gm),
    ),
    "the event log": (
        200,
        lambda t: t.request("GET", f"/campaigns/{t.campaign}/events", headers=t.gm),
    ),
    "an idempotent action": (
        201,
        lambda t: t.request(
            "POST", actions(t), t.hit(t.foe), {**t.gm, "idempotency-key": uuid.uuid4().hex}
        ),
    ),
    "an unexpected error": (500, lambda t: t.request("GET", "/fails")),
    "an idempotent action replayed": (
        201,
        lambda t: t.request(
            "POST", actions(t), t.hit(t.foe), {**t.gm, "idempotency-key": "the-same-one"}
        ),
    ),
}


@pytest.mark.parametrize("kind", KINDS)
def test_a_request_is_freed_by_reference_counting(table: Table, kind: str) -> None:
    status, send = KINDS[kind]
    for _ in range(SENT):
        assert send(table)[0] == status
    settle()
    gc.disable()
    try:
        answered = [send(table) for _ in range(SENT)]
        assert [found for found, _ in answered] == [status] * SENT, answered
        del answered
        left = gc.collect()
    finally:
        gc.enable()
    assert left == 0, f"{left} objects in cycles after {SENT} requests"


def test_a_feed_reader_left_by_its_last_client_is_freed_by_reference_counting(
    table: Table,
) -> None:
    """The live feed's reader of a campaign (api/feed_hub.py) is cancelled when its last
    client leaves. A cancelled task keeps its CancelledError, whose traceback holds the
    reader's frame, which holds the feed, which holds the task: 60.7 objects a feed
    dropped over the real server before, 45 after 5 here. Measured on the hub itself (on
    a loop of this test's own, as each loop has its hub), because the stream's response
    leaves cycles of its own when dropped (sse_starlette and anyio's task group:
    bench/README.md, "pgstall lane")."""
    views, campaign = table.views, table.campaign

    async def leave() -> None:
        hub = hub_for(views.redis_url, views.generations)
        async with hub.subscribe(campaign):
            reader = hub.feeds[campaign].task
        await asyncio.wait([reader])  # it ended (its done callbacks ran before this one)
        assert reader.cancelled() and campaign not in hub.feeds

    async def measured() -> int:
        try:
            for _ in range(SENT):
                await leave()
            settle()
            gc.disable()
            try:
                for _ in range(SENT):
                    await leave()
                return gc.collect()
            finally:
                gc.enable()
        finally:
            await hub_for(views.redis_url, views.generations).client.aclose()

    left = asyncio.run(measured())
    assert left == 0, f"{left} objects in cycles after {SENT} feeds left"
