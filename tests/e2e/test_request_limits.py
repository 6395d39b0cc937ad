"""A real `skald serve` bounds what it receives: a request's line and headers (431) and
the time a request may take to arrive, head and body (408), against real slow clients
over sockets."""

from __future__ import annotations

import json
import select
import socket
from collections.abc import Iterator

import httpx
import pytest

from tests.e2e.server import Server
from tests.patience import HANG_SECONDS

TIMEOUT = 2  # SKALD_REQUEST_TIMEOUT for these tests (default 20 s)
TRICKLE_CAP = 60  # bytes (one a second) a slow client sends before the test gives up


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    data_dir = tmp_path_factory.mktemp("limits") / "data"
    running = Server(data_dir, env={"SKALD_REQUEST_TIMEOUT": str(TIMEOUT)}).start()
    try:
        yield running
    finally:
        running.stop()


def read_to_end(connection: socket.socket) -> bytes:
    connection.settimeout(60)
    received = b""
    while chunk := connection.recv(65536):
        received += chunk
    return received


def refusal(answer: bytes) -> tuple[str, dict[str, str]]:
    head, _, body = answer.partition(b"\r\n\r\n")
    assert b"content-type: application/json" in head.lower(), answer
    return head.split(b"\r\n")[0].decode(), json.loads(body)


def test_a_100_kb_header_is_refused_with_431(server: Server) -> None:
    with socket.create_connection(("127.0.0.1", server.port)) as connection:
        connection.sendall(
            b"GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 100_000 + b"\r\n\r\n"
        )
        status, body = refusal(read_to_end(connection))
    assert status == "HTTP/1.1 431 Request Header Fields Too Large"
    assert body == {
        "error": "headers_too_large",
        "message": "the request line and headers are over the limit of 16384 bytes",
    }


def test_many_headers_over_the_limit_together_are_refused_too(server: Server) -> None:
    headers = b"".join(b"X-H%d: %s\r\n" % (i, b"b" * 1000) for i in range(20))
    with socket.create_connection(("127.0.0.1", server.port)) as connection:
        connection.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n" + headers + b"\r\n")
        status, body = refusal(read_to_end(connection))
    assert status == "HTTP/1.1 431 Request Header Fields Too Large"
    assert body["error"] == "headers_too_large"


def test_headers_under_the_limit_are_served(server: Server) -> None:
    answer = httpx.get(
        f"{server.url}/health", headers={"x-big": "a" * 12_000}, timeout=HANG_SECONDS
    )
    assert answer.status_code == 200


def trickle(port: int, request: bytes, clients: int) -> list[bytes]:
    """`clients` connections each sending `request` one byte a second; what each got
    back once the server closed it (the test fails if one is still open at the cap)."""
    connections = [socket.create_connection(("127.0.0.1", port)) for _ in range(clients)]
    answers = {c: b"" for c in connections}
    open_ = set(connections)
    try:
        for offset in range(min(TRICKLE_CAP, len(request))):
            for connection in list(open_):
                # Read first: a byte sent after the server closed would reset the
                # connection and lose its answer.
                readable, _, _ = select.select([connection], [], [], 0)
                if not readable:
                    connection.send(request[offset : offset + 1])
            readable, _, _ = select.select(list(open_), [], [], 1.0)
            for connection in readable:
                while chunk := connection.recv(65536):
                    answers[connection] += chunk
                    if not select.select([connection], [], [], 0.5)[0]:
                        break
                else:
                    open_.discard(connection)  # end of stream: the server closed it
            if not open_:
                break
        assert not open_, f"{len(open_)} of {clients} slow clients were still connected"
        return [answers[c] for c in connections]
    finally:
        for connection in connections:
            connection.close()


def test_30_slowloris_connections_are_answered_408_and_closed(server: Server) -> None:
    request = b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"s" * 200 + b"\r\n\r\n"
    answers = trickle(server.port, request, 30)
    for answer in answers:
        status, body = refusal(answer)
        assert status == "HTTP/1.1 408 Request Timeout"
        assert body == {
            "error": "request_timeout",
            "message": f"the request was not received within {TIMEOUT} s",
        }
    assert httpx.get(f"{server.url}/health", timeout=HANG_SECONDS).status_code == 200


def test_a_body_sent_one_byte_a_second_is_answered_408(server: Server) -> None:
    body = b'{"name": "Slow", "ruleset": "stamina-body"}' + b" " * 100
    request = (
        b"POST /campaigns HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
        b"content-length: %d\r\n\r\n" % len(body)
    )
    events = httpx.get(f"{server.url}/health", timeout=HANG_SECONDS).json()["event_store"]["events"]
    with socket.create_connection(("127.0.0.1", server.port)) as connection:
        connection.sendall(request)  # the head at once: only the body is slow
        [answer] = trickle_on(connection, body)
    status, refused = refusal(answer)
    assert status == "HTTP/1.1 408 Request Timeout"
    assert refused["error"] == "request_timeout"
    after = httpx.get(f"{server.url}/health", timeout=HANG_SECONDS).json()["event_store"]["events"]
    assert after == events  # nothing was written from half a body


def trickle_on(connection: socket.socket, data: bytes) -> list[bytes]:
    for offset in range(min(TRICKLE_CAP, len(data))):
        if select.select([connection], [], [], 0)[0]:
            break
        connection.send(data[offset : offset + 1])
        if select.select([connection], [], [], 1.0)[0]:
            break
    else:
        raise AssertionError("the server was still reading a body sent one byte a second")
    return [read_to_end(connection)]
