"""The expected version is checked on the writer, on the state each command is decided on
(issue 40): within a batch, on the version the earlier commands of the batch left; after
another process wrote, on what it wrote; and without a writer, the same."""

from __future__ import annotations

import threading
from concurrent.futures import Future
from typing import Any

import pytest

from skald_campaign.domain.errors import VersionMismatch
from skald_campaign.domain.writing.preconditions import Expected
from tests.integration.test_group_commit import grouped
from tests.integration.test_store import hit, open_app, setup_fight, store_env
from tests.patience import HANG_SECONDS

__all__ = ["store_env"]  # the fixture, shared with test_store.py


def at(version: int) -> Expected:
    return Expected(frozenset({version}), f'"v{version}"')


def test_in_a_batch_each_command_is_checked_on_the_version_it_read(
    store_env: dict[str, str],
) -> None:
    app = grouped(store_env)
    try:
        cid, hero, eid = setup_fight(app)
        start = app.encounter(cid, eid).version
        release = threading.Event()
        holding = app.run_command_later(lambda: release.wait(HANG_SECONDS))
        queued: list[Future[Any]] = []
        # Three actions, each decided on the version the one before leaves; a fourth on
        # the version they all started from; a fifth on the version the three leave.
        for expected in (start, start + 1, start + 2, start, start + 3):
            command = hit(cid, eid, hero, 1)
            queued.append(
                app.idempotent_later(
                    None, lambda c=command: app.perform_action_later(c), at(expected)
                )
            )
        release.set()
        assert holding.result(HANG_SECONDS) is True
        versions = [f.result(HANG_SECONDS)[0].version for n, f in enumerate(queued) if n != 3]
        assert versions == [start + 1, start + 2, start + 3, start + 4]
        with pytest.raises(VersionMismatch) as refused:
            queued[3].result(HANG_SECONDS)
        assert (refused.value.kind, refused.value.current_version) == ("encounter", start + 3)
        fresh = open_app(store_env)
        assert [a.number for a in fresh.encounter(cid, eid).actions] == [1, 2, 3, 4]
        fresh.close()
    finally:
        app.close()


def test_a_write_from_another_process_makes_a_queued_commands_version_stale(
    store_env: dict[str, str],
) -> None:
    app = grouped(store_env)
    other = open_app(store_env)
    try:
        cid, hero, eid = setup_fight(app)
        start = app.encounter(cid, eid).version
        release = threading.Event()
        holding = app.run_command_later(lambda: release.wait(HANG_SECONDS))
        command = hit(cid, eid, hero, 1)
        queued = app.idempotent_later(None, lambda: app.perform_action_later(command), at(start))
        other.perform_action(hit(cid, eid, hero, 2))  # another process, meanwhile
        release.set()
        assert holding.result(HANG_SECONDS) is True
        with pytest.raises(VersionMismatch) as refused:
            queued.result(HANG_SECONDS)
        assert refused.value.current_version == start + 1
        fresh = open_app(store_env)
        assert [a.number for a in fresh.encounter(cid, eid).actions] == [1]
        fresh.close()
    finally:
        other.close()
        app.close()


def test_without_a_writer_the_same(store_env: dict[str, str]) -> None:
    app = open_app(store_env)
    try:
        cid, hero, eid = setup_fight(app)
        start = app.encounter(cid, eid).version
        before = app.recorder_position()
        with pytest.raises(VersionMismatch) as refused:
            app.idempotent(None, lambda: app.perform_action(hit(cid, eid, hero, 1)), at(start - 1))
        assert refused.value.current_version == start
        assert app.recorder_position() == before
        done = app.idempotent(None, lambda: app.perform_action(hit(cid, eid, hero, 1)), at(start))
        assert isinstance(done, tuple) and done[0].version == start + 1
    finally:
        app.close()
