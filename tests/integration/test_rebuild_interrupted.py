"""A rebuild that fails or is stopped leaves no trace of its new views, and what a killed
one left is swept by the next (projections/leases.py, issue 39).

A full rebuild fills a new generation in Redis (hundreds of MB for a large store) and
switches to it at the end. Before: an error, a Ctrl-C or SIGTERM during the fill left
the partial generation in Redis for good (saved into the embedded Redis's snapshot at
every save). Now: the rebuild deletes it before the error goes on, the command says the
views were left as they were, and a generation left by a process that could not clean
up (SIGKILL) is swept by the next rebuild, never one that another live rebuild is
writing, never the current one. Real processes, real signals, a real Redis (the
configured one, or an embedded one of the test's own) throughout; the failures are
real ones: a Ctrl-C, a SIGTERM, a SIGKILL, and a second writer in the views."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from skald_campaign.application.application import SkaldApplication
from skald_campaign.projections.engine import PROJECTIONS
from skald_campaign.projections.keys import Generations, ViewKeys, delete_root
from skald_campaign.projections.leases import lease_key, signals_held
from skald_campaign.projections.rebuild import Rebuilder, RebuildError
from tests.integration.projection_support import (
    assert_same_views,
    current_root,
    play,
    snapshot,
    wait_until,
)
from tests.integration.test_projections_subprocess import open_store
from tests.patience import HANG_SECONDS

SKALD = str(Path(sys.executable).parent / "skald")


@pytest.fixture
def client(redis_url: str) -> Iterator[redis.Redis]:
    connection = redis.Redis.from_url(redis_url)
    yield connection
    connection.close()


def everything(client: redis.Redis, prefix: str) -> dict[str, Any]:
    """Every key of the prefix, with its content, but the counter that names generations
    (a rebuild that took a name and failed has still counted it)."""
    found = snapshot(client, prefix)
    found.pop("views:generations", None)
    return found


def roots(client: redis.Redis, prefix: str) -> set[str]:
    """The generations and scratch roots that have keys under the prefix's views, and
    "building" while any rebuild's lease is there."""
    start = f"{prefix}:views:"
    names = {k.decode()[len(start) :].split(":")[0] for k in client.scan_iter(f"{start}*")}
    return names - {"current", "generations"}


def current_views(client: redis.Redis, prefix: str) -> dict[str, Any]:
    return snapshot(client, current_root(client, prefix))


def fresh_rebuild(client: redis.Redis, app: SkaldApplication) -> dict[str, Any]:
    """The views a rebuild into an empty prefix gives: what the sweep must end with."""
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    Rebuilder(client, app.recorder, app.mapper, app.name, prefix).rebuild_all()
    views = snapshot(client, current_root(client, prefix))
    for key in client.scan_iter(f"{prefix}:*"):
        client.delete(key)
    return views


# --- in the process: the error goes on, the new generation is gone -------------------


def interrupted(done: int, total: int) -> None:
    raise KeyboardInterrupt  # a Ctrl-C, where Python raises it: between two batches


@pytest.mark.parametrize("failure", ["ctrl-c", "another writer"])
def test_a_rebuild_that_fails_half_way_leaves_no_key_of_its_generation(
    store_app: SkaldApplication, client: redis.Redis, failure: str
) -> None:
    play(store_app, campaigns=2, encounters=2, actions=20)
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    rebuilder = Rebuilder(client, store_app.recorder, store_app.mapper, store_app.name, prefix)
    rebuilder.rebuild_all()
    before = everything(client, prefix)
    old_root = current_root(client, prefix)
    batches = 0

    def progress(done: int, total: int) -> None:
        nonlocal batches
        batches += 1
        if batches < 3:
            return
        if failure == "ctrl-c":
            interrupted(done, total)
        # A runner that has not noticed the switch to come, writing into the new
        # generation: the rebuild's next commit finds the tracking position moved.
        new = ViewKeys(Generations(prefix).root("g2"))
        client.hset(new.tracking(PROJECTIONS[0].name), store_app.name, done + 1)

    slow = Rebuilder(client, store_app.recorder, store_app.mapper, store_app.name, prefix, batch=7)
    expected = KeyboardInterrupt if failure == "ctrl-c" else RebuildError
    with pytest.raises(expected):
        slow.rebuild_all(progress)
    assert batches >= 3, "the rebuild ended before it was interrupted"

    assert roots(client, prefix) == {old_root.rpartition(":")[2]}
    assert_same_views(before, everything(client, prefix))


def test_a_rebuild_that_lost_its_lease_stops_and_deletes_what_it_wrote(
    store_app: SkaldApplication, client: redis.Redis
) -> None:
    """A rebuild stalled past its lease (a paused process, a lost network) may have had
    its generation swept meanwhile: it must not go on, nor switch to what is left."""
    play(store_app, campaigns=2, encounters=2, actions=20)
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    rebuilder = Rebuilder(
        client, store_app.recorder, store_app.mapper, store_app.name, prefix, batch=7
    )
    rebuilder.rebuild_all()
    before = everything(client, prefix)

    def lapsed(done: int, total: int) -> None:
        client.delete(lease_key(prefix, "g2"))  # expired, or taken by a sweep

    with pytest.raises(RebuildError, match="another rebuild swept them"):
        rebuilder.rebuild_all(lapsed)
    assert_same_views(before, everything(client, prefix))


def test_a_second_ctrl_c_waits_for_the_deletion_of_the_unfinished_views(
    client: redis.Redis,
) -> None:
    """The deletion of a large unfinished generation takes a while, and an impatient GM
    presses Ctrl-C again: it must not stop the deletion half-way."""
    root = f"test-{uuid.uuid4().hex[:12]}:views:g2"
    client.mset({f"{root}:vitals:{n}": n for n in range(2500)})
    # Ctrl-C as a terminal's Python has it, whatever this process inherited (a suite run
    # in the background starts with SIGINT ignored).
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with signals_held("deleting the unfinished views g2"):
            signal.raise_signal(signal.SIGINT)  # a real one, delivered now
            deleted = delete_root(client, root)
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, inherited)
    assert deleted == 2500
    assert not list(client.scan_iter(f"{root}:*"))


# --- the command, stopped by a signal ---------------------------------------------------


@pytest.fixture(scope="module")
def played_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite store whose rebuild, one event a batch, lasts a few seconds."""
    data_dir = tmp_path_factory.mktemp("played") / "data"
    app = open_store(data_dir)
    try:
        play(app, campaigns=3, encounters=3, actions=250)
    finally:
        app.close()
    return data_dir


def start_rebuild(
    data_dir: Path, redis_url: str, prefix: str, *options: str
) -> subprocess.Popen[str]:
    """`skald projections rebuild` one event a batch, in a session of its own (its parts
    too), as a terminal's foreground job is: a Ctrl-C reaches the whole group."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKALD_")}
    env["SKALD_REDIS_PREFIX"] = prefix
    command = [SKALD, "projections", "rebuild", "--data-dir", str(data_dir)]
    command += ["--redis-url", redis_url, "--batch-size", "1", *options]
    return subprocess.Popen(
        command,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        # Ctrl-C's default, as a terminal's job has it: a suite run in the background
        # (nohup, `&` in a script) passes SIGINT on ignored, and Python then keeps it so.
        preexec_fn=sigint_as_in_a_terminal,
    )


def sigint_as_in_a_terminal() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def rebuilt_once(data_dir: Path, client: redis.Redis, prefix: str) -> SkaldApplication:
    """The views, rebuilt once in this process: the old generation a rebuild replaces."""
    app = open_store(data_dir)
    Rebuilder(client, app.recorder, app.mapper, app.name, prefix).rebuild_all()
    return app


def wait_half_way(client: redis.Redis, prefix: str, name: str) -> None:
    """Until the rebuild has written a good part of the new root's keys (and is not done)."""
    root = Generations(prefix).root(name)
    wait_until(
        lambda: sum(1 for _ in client.scan_iter(f"{root}:*", count=1000)) >= 20,
        HANG_SECONDS,
        f"the rebuild's first keys under {root}",
    )


def ended(process: subprocess.Popen[str]) -> tuple[int, str, str]:
    stdout, stderr = process.communicate(timeout=HANG_SECONDS)
    return process.returncode, stdout, stderr


def all_gone(group: int) -> bool:
    """Every process of the group (a rebuild's parts too) has ended."""
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return True
    return False


@pytest.mark.parametrize("processes", ["1", "2"])
@pytest.mark.parametrize("stop", ["ctrl-c", "sigterm"])
def test_a_rebuild_stopped_by_a_signal_leaves_the_views_as_they_were_and_says_so(
    played_dir: Path, redis_url: str, client: redis.Redis, stop: str, processes: str
) -> None:
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    rebuilt_once(played_dir, client, prefix).close()
    before = everything(client, prefix)
    rebuild = start_rebuild(played_dir, redis_url, prefix, "--processes", processes)
    try:
        wait_half_way(client, prefix, "g2")
        if stop == "ctrl-c":
            os.killpg(rebuild.pid, signal.SIGINT)  # the terminal sends it to the whole job
        else:
            rebuild.send_signal(signal.SIGTERM)  # `kill`, a service manager
        status, _, stderr = ended(rebuild)
        wait_until(lambda: all_gone(rebuild.pid), HANG_SECONDS, "the rebuild's parts")
    finally:
        if rebuild.poll() is None:
            os.killpg(rebuild.pid, signal.SIGKILL)
            rebuild.wait()

    assert roots(client, prefix) == {"g1"}
    assert_same_views(before, everything(client, prefix))
    if stop == "ctrl-c":
        assert status == 130, stderr
        assert "skald: interrupted: the views were left as they were" in stderr, stderr
    else:
        assert status == -signal.SIGTERM, stderr
        assert "skald: terminated: the views were left as they were" in stderr, stderr
    assert "(generation g1 still current)" in stderr, stderr


# --- killed outright: the next rebuild sweeps what it left ------------------------------


@pytest.mark.parametrize("what", ["all", "in parts", "a campaign"])
def test_what_a_killed_rebuild_left_is_swept_by_the_next_one(
    played_dir: Path, redis_url: str, client: redis.Redis, what: str
) -> None:
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    app = rebuilt_once(played_dir, client, prefix)
    try:
        options: list[str] = {"all": [], "in parts": ["--processes", "2"]}.get(what, [])
        if what == "a campaign":
            first = next(iter(client.scan_iter(f"{prefix}:views:g1:vitals-meta:*")))
            options = ["--campaign", first.decode().rpartition(":")[2]]
        killed = start_rebuild(played_dir, redis_url, prefix, *options)
        try:
            if what == "a campaign":
                wait_until(
                    lambda: any(n.startswith("rebuild-") for n in roots(client, prefix)),
                    HANG_SECONDS,
                    "the campaign rebuild's scratch root",
                )
                time.sleep(0.2)
            else:
                wait_half_way(client, prefix, "g2")
            killed.kill()  # SIGKILL: nothing of it runs again (its parts stop on their own)
            killed.wait(HANG_SECONDS)
            wait_until(lambda: all_gone(killed.pid), HANG_SECONDS, "the killed rebuild's parts")
        finally:
            if killed.poll() is None or not all_gone(killed.pid):
                os.killpg(killed.pid, signal.SIGKILL)
                killed.wait()
        left = roots(client, prefix) - {"g1", "building"}
        assert len(left) == 1, left  # what the killed one left
        orphan = left.pop()

        rebuild = start_rebuild(played_dir, redis_url, prefix)
        status, stdout, stderr = ended(rebuild)
        assert status == 0, stderr
        generation = Generations(prefix).current(client)
        assert generation is not None and generation != "g1"
        assert roots(client, prefix) == {generation}
        assert_same_views(fresh_rebuild(client, app), current_views(client, prefix))
        assert f"swept the views {orphan} (" in stdout, stdout
        assert "left by a rebuild that was killed" in stdout, stdout
    finally:
        app.close()


def test_a_live_rebuilds_views_are_not_swept_by_another(
    played_dir: Path, redis_url: str, client: redis.Redis
) -> None:
    """A campaign rebuild (which sweeps first) while a full rebuild runs in another
    process: the full one's new generation is live, not an orphan; it completes and
    serves exactly what a fresh rebuild gives."""
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    app = rebuilt_once(played_dir, client, prefix)
    try:
        first = next(iter(client.scan_iter(f"{prefix}:views:g1:vitals-meta:*")))
        campaign = uuid.UUID(first.decode().rpartition(":")[2])
        other = start_rebuild(played_dir, redis_url, prefix)
        try:
            wait_half_way(client, prefix, "g2")
            rebuilder = Rebuilder(client, app.recorder, app.mapper, app.name, prefix)
            report = rebuilder.rebuild_campaign(campaign)
            assert report.swept == ()
            assert other.poll() is None, "the other rebuild ended before the sweep"
            status, stdout, stderr = ended(other)
        finally:
            if other.poll() is None:
                os.killpg(other.pid, signal.SIGKILL)
                other.wait()
        assert status == 0, stderr
        assert "now serving generation g2" in stdout, stdout
        assert roots(client, prefix) == {"g2"}
        assert_same_views(fresh_rebuild(client, app), current_views(client, prefix))
    finally:
        app.close()
