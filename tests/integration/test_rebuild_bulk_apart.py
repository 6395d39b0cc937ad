"""A rebuild's audit entries and logged events go to Redis as plain RPUSH and ZADD
beside the guarded commit script, in one MULTI/EXEC (issue 39).

They went as one blob per key that the script split into Lua strings, each copied again
into Redis's own values: ~0.4 s of Redis's ~2 s of CPU in a rebuild of 100,300 events
(bench/README.md "rebuild19 lane"). The views are the same (test_rebuild_equals_live
compares a rebuild, in one process and in parts, with live projection); here: the
commit writes the same keys either way, the guard still says why a commit does not
land (its own writes and the positions untouched), and a real rebuild sends its JSON
that way (Redis's own count of transactions, on a Redis of the test's own)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from skald_campaign.embedded_redis import EmbeddedRedis
from skald_campaign.projections.rebuild import Rebuilder
from skald_campaign.projections.staging import CHUNK, Guard, StagedViews
from tests.integration.projection_support import play
from tests.integration.test_projections_subprocess import open_store


@pytest.fixture
def client(redis_url: str) -> Iterator[redis.Redis]:
    """The configured Redis, or an embedded one of this test's own."""
    connection = redis.Redis.from_url(redis_url)
    yield connection
    connection.close()


def stage(staged: StagedViews, root: str) -> None:
    """More entries than one RPUSH or ZADD takes, a value and a hash field beside them."""
    for n in range(CHUNK + 7):
        staged.append(f"{root}:audit", b'{"seq":%d,"text":"a b"}' % n)
        staged.rank(f"{root}:log", 1000 + n, b'{"position":%d}' % (1000 + n))
        staged.index(f"{root}:positions", 1000 + n, f"agg:{n}")
    staged.put(f"{root}:meta", {"count": CHUNK + 7})
    staged.put_field(f"{root}:fields", "f", [1, 2])


def written(client: redis.Redis, root: str) -> dict[str, Any]:
    return {
        "audit": client.lrange(f"{root}:audit", 0, -1),
        "log": client.zrange(f"{root}:log", 0, -1, withscores=True),
        "positions": client.zrange(f"{root}:positions", 0, -1, withscores=True),
        "meta": client.get(f"{root}:meta"),
        "fields": client.hgetall(f"{root}:fields"),
        "tracking": client.hgetall(f"{root}:tracking"),
    }


def guard(root: str, position: int | None = None) -> Guard:
    return Guard(None, "", f"{root}:epoch", "", "app", [f"{root}:tracking"], [position])


def drop(client: redis.Redis, root: str) -> None:
    for key in client.scan_iter(match=f"{root}:*"):
        client.delete(key)


def test_a_commit_with_its_json_apart_writes_what_the_script_alone_writes(
    client: redis.Redis,
) -> None:
    apart, whole = (f"test-bulk:{uuid.uuid4().hex[:12]}" for _ in range(2))
    try:
        for root, bulk_apart in ((apart, True), (whole, False)):
            staged = StagedViews(client, fresh=True, bulk_apart=bulk_apart)
            stage(staged, root)
            _, args, bulk = prepared = staged.prepare(guard(root), [2000])
            if bulk_apart:  # the JSON is in the plain commands, none of it in the script's
                assert [c[0] for c in bulk] == ["RPUSH", "RPUSH", "ZADD", "ZADD"]
                assert not any(isinstance(a, bytes) and b'"seq"' in a for a in args)
            else:
                assert bulk == []
            assert staged.send(prepared) == "ok"
        assert written(client, apart) == written(client, whole)
        assert len(written(client, apart)["audit"]) == CHUNK + 7
        assert written(client, apart)["tracking"] == {b"app": b"2000"}
    finally:
        drop(client, apart)
        drop(client, whole)


def test_a_commit_with_its_json_apart_still_says_why_it_does_not_land(
    client: redis.Redis,
) -> None:
    root = f"test-bulk:{uuid.uuid4().hex[:12]}"
    try:
        client.hset(f"{root}:tracking", "app", "5")  # another writer's position
        staged = StagedViews(client, fresh=True, bulk_apart=True)
        stage(staged, root)
        assert staged.commit(guard(root, None), [2000]) == "tracking"
        assert client.hgetall(f"{root}:tracking") == {b"app": b"5"}
        assert client.get(f"{root}:meta") is None  # the script's writes: none of them
    finally:
        drop(client, root)


def test_a_rebuild_sends_its_json_in_transactions_beside_the_script(tmp_path: Path) -> None:
    """Every commit of a rebuild of a played store carries JSON: one EXEC each."""
    app = open_store(tmp_path / "data")
    server = EmbeddedRedis(tmp_path / "redis")
    own = redis.Redis(unix_socket_path=server.socket_path)
    try:
        play(app, campaigns=2, encounters=2, actions=10)
        own.config_resetstat()
        rebuilder = Rebuilder(own, app.recorder, app.mapper, app.name, "skald", batch=20)
        report = rebuilder.rebuild_all()
        stats = own.info("commandstats")
        batches = -(-report.events // 20)
        assert report.events > 60
        assert stats["cmdstat_exec"]["calls"] == batches
    finally:
        own.close()
        server.stop()
        app.close()
