"""A rebuild's capped streams (the audit's feeds): a stream still within its cap is
written with each batch, one that outgrows it waits for the flush; either way the
streams end as a live projection, writing every entry as it comes, leaves them."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import replace

import pytest
import redis

from skald_campaign.projections.staging import Guard, StagedViews

CAP = 3


@pytest.fixture
def client(redis_url: str) -> Iterator[redis.Redis]:
    """The configured Redis, or an embedded one of this test's own."""
    connection = redis.Redis.from_url(redis_url)
    yield connection
    connection.close()


def entries(client: redis.Redis, key: str) -> list[tuple[bytes, dict[bytes, bytes]]]:
    return [(entry_id, fields) for entry_id, fields in client.xrange(key)]


def play(client: redis.Redis, defer: bool) -> tuple[str, list[list[int]]]:
    """Three batches into two streams under a root of their own; returns the root and,
    after each batch's commit and after the flush, how many entries each stream holds."""
    root = f"test-streams:{uuid.uuid4().hex[:12]}"
    capped, small = f"{root}:feed:capped", f"{root}:feed:small"
    staged = StagedViews(client, defer_streams=defer, fresh=True)
    guard = Guard(None, "", f"{root}:epoch", "", "app", [f"{root}:tracking"], [None])
    batches = [
        [(capped, 1), (capped, 2), (small, 3)],
        [(capped, 4), (capped, 5), (small, 6)],  # capped outgrows its cap of 3 here
        [(capped, 7), (small, 8)],
    ]
    held = []
    for batch in batches:
        for key, position in batch:
            staged.add_to_stream(key, f"{position}-0", position, CAP)
        assert staged.commit(guard, [batch[-1][1]]) == "ok"
        guard = replace(guard, positions=[batch[-1][1]])
        held.append([int(client.xlen(capped)), int(client.xlen(small))])
    assert staged.commit(guard, guard.positions, flush=True) == "ok"
    held.append([int(client.xlen(capped)), int(client.xlen(small))])
    return root, held


def test_streams_within_their_caps_go_with_each_batch_and_end_as_live_ones(
    client: redis.Redis,
) -> None:
    rebuilt, rebuilt_held = play(client, defer=True)
    live, live_held = play(client, defer=False)
    try:
        # Deferred: "small" never outgrows its cap, so it is written batch by batch;
        # "capped" is written with the first batch, then waits for the flush.
        assert rebuilt_held == [[2, 1], [2, 2], [2, 3], [3, 3]]
        assert live_held == [[2, 1], [3, 2], [3, 3], [3, 3]]
        for name in ("capped", "small"):
            assert entries(client, f"{rebuilt}:feed:{name}") == entries(
                client, f"{live}:feed:{name}"
            )
        assert [entry_id for entry_id, _ in entries(client, f"{rebuilt}:feed:capped")] == [
            b"4-0",
            b"5-0",
            b"7-0",
        ]
        assert entries(client, f"{rebuilt}:feed:small") == [
            (b"3-0", {b"seq": b"3"}),
            (b"6-0", {b"seq": b"6"}),
            (b"8-0", {b"seq": b"8"}),
        ]
    finally:
        for root in (rebuilt, live):
            for key in client.scan_iter(match=f"{root}:*"):
                client.delete(key)
