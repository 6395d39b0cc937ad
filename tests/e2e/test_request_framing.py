"""A real `skald serve` answers what it did: a request's line and headers are bounded
as received (431) and its body by its own limit (413), however the bytes arrive: a head
and its body in one read, split at any byte around the head's end, pipelined behind
another request, after `Expect: 100-continue`. Each case asserts the answer and the
store: a refused request wrote nothing, a 201 wrote its campaign, once.

(A request whose body ended in the same read as its head was once counted whole as
head: a 17,000-byte body was answered 431 and carried out.)"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import httpx
import orjson
import pytest

from tests.e2e.server import Server
from tests.patience import HANG_SECONDS

MAX_HEAD = 16384  # SKALD_MAX_HEADER_BYTES's default
MAX_BODY = 256 * 1024
SPLIT_PAUSE = 0.05  # between the two parts of a split request, so that they are likely
# read apart; the answer and the store must be the same whether they are or not


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("framing") / "data").start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def per_campaign(server: Server) -> int:
    """The events one campaign's creation stores."""
    before = events(server)
    created = httpx.post(
        f"{server.url}/campaigns", json={"name": "Plain", "ruleset": "stamina-body"},
        timeout=HANG_SECONDS,
    )  # fmt: skip
    assert created.status_code == 201
    return events(server) - before


def events(server: Server) -> int:
    health = httpx.get(f"{server.url}/health", timeout=HANG_SECONDS).json()
    return int(health["event_store"]["events"])


def campaign_body(name: str, size: int = 0) -> bytes:
    """A campaign's JSON, padded with (valid) trailing whitespace to `size` bytes."""
    body = orjson.dumps({"name": name, "ruleset": "stamina-body"})
    return body + b" " * (size - len(body))


def post(body: bytes, head_size: int = 0, headers: bytes = b"") -> tuple[bytes, bytes]:
    """A POST /campaigns's head and body; the head padded to `head_size` bytes exactly
    (its line, headers and the blank line that ends it)."""
    head = (
        b"POST /campaigns HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
        b"content-length: %d\r\n" % len(body) + headers
    )
    if head_size:
        padding = b"x-pad: \r\n"
        head += b"x-pad: " + b"p" * (head_size - len(head) - len(padding) - 2) + b"\r\n"
    head += b"\r\n"
    assert not head_size or len(head) == head_size
    return head, body


def answers(received: bytes) -> list[tuple[int, bytes]]:
    """The responses in what a connection received: each one's status and body."""
    found = []
    while received:
        head, blank, rest = received.partition(b"\r\n\r\n")
        if not blank:
            break
        lines = head.split(b"\r\n")
        length = 0
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        if len(rest) < length:
            break
        found.append((int(lines[0].split()[1]), rest[:length]))
        received = rest[length:]
    return found


def exchange(server: Server, *parts: bytes, finals: int = 1) -> list[tuple[int, bytes]]:
    """Send the parts (pausing between them) on one connection, and read until `finals`
    final answers (not 1xx) came, or the server closed it."""
    with socket.create_connection(("127.0.0.1", server.port)) as connection:
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        connection.settimeout(HANG_SECONDS)
        for number, part in enumerate(parts):
            if number:
                time.sleep(SPLIT_PAUSE)
            connection.sendall(part)
        received = b""
        while len([a for a in answers(received) if a[0] >= 200]) < finals:
            chunk = connection.recv(65536)
            if not chunk:
                break
            received += chunk
    return answers(received)


def statuses(found: list[tuple[int, bytes]]) -> list[int]:
    return [status for status, _ in found]


def error(found: tuple[int, bytes]) -> str:
    return str(orjson.loads(found[1])["error"])


def test_a_head_and_body_in_one_read_are_answered_as_carried_out(
    server: Server, per_campaign: int
) -> None:
    before = events(server)
    head, body = post(campaign_body("Seventeen thousand", 17_000))
    assert statuses(exchange(server, head + body)) == [201]
    assert events(server) == before + per_campaign

    # Bodies refused as JSON, by their own rule (422), not as a head over its bound.
    deep = b"[" * 100_000 + b"]" * 100_000
    long_integer = b'{"name": ' + b"1" * 200_000 + b"}"
    for refused in (deep, long_integer):
        head, body = post(refused)
        [answer] = exchange(server, head + body)
        assert (answer[0], error(answer)) == (422, "malformed_json")
    assert events(server) == before + per_campaign


def test_the_body_limit_is_256_kib_whatever_the_head(server: Server, per_campaign: int) -> None:
    before = events(server)
    head, body = post(campaign_body("Just fits", MAX_BODY))
    assert statuses(exchange(server, head + body)) == [201]
    head, body = post(campaign_body("One byte over", MAX_BODY + 1))
    [answer] = exchange(server, head + body)
    message = "the request body is over the limit of 262144 bytes"
    assert (answer[0], orjson.loads(answer[1])) == (
        413,
        {"error": "body_too_large", "message": message},
    )
    assert events(server) == before + per_campaign


def test_the_head_bound_is_exact_at_every_split_around_the_heads_end(
    server: Server, per_campaign: int
) -> None:
    for head_size, expected in ((MAX_HEAD, 201), (MAX_HEAD + 1, 431)):
        head, body = post(campaign_body(f"Head of {head_size}"), head_size=head_size)
        request = head + body
        splits = [None, *range(head_size - 5, head_size + 6)]
        for split in splits:
            before = events(server)
            parts = (request,) if split is None else (request[:split], request[split:])
            found = exchange(server, *parts)
            assert statuses(found) == [expected], (head_size, split)
            stored = per_campaign if expected == 201 else 0
            assert events(server) == before + stored, (head_size, split)
        if expected == 431:
            assert error(found[0]) == "headers_too_large"


def test_a_large_body_split_at_every_byte_around_the_heads_end_is_served_once(
    server: Server, per_campaign: int
) -> None:
    head, body = post(campaign_body("Split", 17_000))
    request = head + body
    for split in range(len(head) - 6, len(head) + 7):
        before = events(server)
        assert statuses(exchange(server, request[:split], request[split:])) == [201], split
        assert events(server) == before + per_campaign, split


def chunked(body: bytes, size: int) -> bytes:
    pieces = [body[at : at + size] for at in range(0, len(body), size)]
    return b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in pieces) + b"0\r\n\r\n"


def test_pipelined_requests_in_one_read_are_each_answered_as_carried_out(
    server: Server, per_campaign: int
) -> None:
    before = events(server)
    first, second = (b"".join(post(campaign_body(n, 10_000))) for n in ("First", "Second"))
    assert statuses(exchange(server, first + second, finals=2)) == [201, 201]
    assert events(server) == before + 2 * per_campaign

    # A chunked body (its bytes framed, not counted by Content-Length), then another.
    head = (
        b"POST /campaigns HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
        b"transfer-encoding: chunked\r\n\r\n"
    )
    chunked_request = head + chunked(campaign_body("Chunked", 20_000), 5_000)
    after = b"".join(post(campaign_body("After the chunks")))
    assert statuses(exchange(server, chunked_request + after, finals=2)) == [201, 201]
    assert events(server) == before + 4 * per_campaign

    # A head over the bound behind a request being served: answered after it.
    oversized = b"".join(post(campaign_body("Oversized"), head_size=MAX_HEAD + 1))
    found = exchange(server, first + oversized, finals=2)
    assert statuses(found) == [201, 431]
    assert error(found[1]) == "headers_too_large"
    assert events(server) == before + 5 * per_campaign


def test_expect_100_continue_is_answered_as_carried_out(server: Server, per_campaign: int) -> None:
    before = events(server)
    expect = b"expect: 100-continue\r\n"
    # A client that does not wait for the 100 (RFC 9110 allows it): head and body at once.
    head, body = post(campaign_body("Eager", 17_000), headers=expect)
    assert statuses(exchange(server, head + body)) == [100, 201]
    assert events(server) == before + per_campaign

    # One that waits for the 100 before its body.
    head, body = post(campaign_body("Patient", 17_000), headers=expect)
    with socket.create_connection(("127.0.0.1", server.port)) as connection:
        connection.settimeout(HANG_SECONDS)
        connection.sendall(head)
        assert connection.recv(65536) == b"HTTP/1.1 100 Continue\r\n\r\n"
        connection.sendall(body)
        received = b""
        while not answers(received):
            received += connection.recv(65536)
    assert statuses(answers(received)) == [201]
    assert events(server) == before + 2 * per_campaign

    # A body declared over the limit is refused before it is asked for: no 100.
    head, _ = post(campaign_body("Too big", MAX_BODY + 1), headers=expect)
    found = exchange(server, head)
    assert statuses(found) == [413]
    assert events(server) == before + 2 * per_campaign


def test_a_chunked_bodys_size_lines_and_trailers_are_bounded_as_a_head(
    server: Server, per_campaign: int
) -> None:
    head = (
        b"POST /campaigns HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
        b"transfer-encoding: chunked\r\n\r\n"
    )
    before = events(server)
    # Any number of chunks: 1,250 size lines, over 16 KiB of them in all, pass.
    many = head + chunked(campaign_body("Many chunks", 20_000), 16)
    assert statuses(exchange(server, many)) == [201]
    assert events(server) == before + per_campaign

    body = campaign_body("Framed")
    last_chunk = b"%x\r\n%s\r\n0\r\n" % (len(body), body)
    trailer = b"x-trailer: " + b"t" * MAX_HEAD + b"\r\n\r\n"
    extension = b"%x;ext=%s\r\n%s\r\n0\r\n\r\n" % (len(body), b"e" * MAX_HEAD, body)
    for framed in (head + last_chunk + trailer, head + extension):
        [answer] = exchange(server, framed)
        assert (answer[0], orjson.loads(answer[1])) == (
            431,
            {
                "error": "headers_too_large",
                "message": "the chunked body's size lines and trailer fields are over the "
                "limit of 16384 bytes",
            },
        )
    # Trailers within the bound are fine.
    fitting = head + last_chunk + b"x-trailer: " + b"t" * 1000 + b"\r\n\r\n"
    assert statuses(exchange(server, fitting)) == [201]
    assert events(server) == before + 2 * per_campaign
