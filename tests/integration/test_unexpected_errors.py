"""No exception escapes as a text/plain 500 (issue 26 item 4): over a real HTTP server,
an error no handler maps is a JSON 500 with the security headers, and the same
connection answers the next request (the server used to close it under that one)."""

from __future__ import annotations

import http.client
import socket
import threading
from collections.abc import Iterator

import orjson
import pytest
import uvicorn

from skald_campaign.api.app import create_app
from skald_campaign.api.errors import UNEXPECTED
from skald_campaign.services import build_services
from skald_campaign.settings import Settings
from tests.patience import HANG_SECONDS


class Broken(RuntimeError):
    pass


@pytest.fixture
def server(settings: Settings) -> Iterator[int]:
    """The whole app on a real uvicorn server, with one route that fails unexpectedly."""
    app = create_app(lambda: build_services(settings))

    def boom() -> None:
        raise Broken("a bug nobody mapped")

    app.add_api_route("/boom", boom, methods=["GET", "POST"])
    listening = socket.socket()
    listening.bind(("127.0.0.1", 0))
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    try:
        port = listening.getsockname()[1]
        for _ in range(600):  # up while the thread lives
            if running.started or not thread.is_alive():
                break
            threading.Event().wait(0.05)
        assert running.started, "the server did not start"
        yield port
    finally:
        running.should_exit = True
        thread.join(timeout=HANG_SECONDS)
        listening.close()
        assert not thread.is_alive()


def test_an_unexpected_error_is_a_json_500_and_the_connection_goes_on(
    server: int, caplog: pytest.LogCaptureFixture
) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", server, timeout=30)
    try:
        for method, body in (("GET", None), ("POST", b'{"any": "thing"}')):
            connection.request(
                method, "/boom", body=body, headers={"content-type": "application/json"}
            )
            answer = connection.getresponse()
            raw = answer.read()
            assert answer.status == 500
            assert answer.getheader("content-type") == "application/json"
            assert orjson.loads(raw) == {"error": "internal_error", "message": UNEXPECTED}
            assert answer.getheader("x-content-type-options") == "nosniff"
            # The same connection, the next request: answered, not reset.
            connection.request("GET", "/health")
            health = connection.getresponse()
            assert health.status == 200
            assert orjson.loads(health.read())["event_store"]["ok"] is True
    finally:
        connection.close()
    logged = [r for r in caplog.records if r.name == "skald.api"]
    assert [r.getMessage() for r in logged] == [
        "unexpected error answering GET /boom",
        "unexpected error answering POST /boom",
    ]
    assert all(r.exc_info and r.exc_info[0] is Broken for r in logged)
