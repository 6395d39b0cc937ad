"""The expected version is checked on the writer, on the state each command is decided on,
before the command decides anything (issue 40): within a batch, on the version the earlier
commands of the batch left; after another process wrote, on what it wrote; on every re-run
after a lost race; and without a writer, the same. A stale version is refused first, even
on a command that would refuse anyway."""

from __future__ import annotations

import threading
from concurrent.futures import Future
from typing import Any

import pytest

from skald_campaign.application.table_commands import NextTurn
from skald_campaign.domain.encounter.aggregate import Encounter
from skald_campaign.domain.errors import ActionRefused, VersionMismatch
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


def test_in_a_batch_a_stale_version_is_refused_before_the_command_refuses(
    store_env: dict[str, str],
) -> None:
    app = grouped(store_env)
    try:
        cid, hero, eid = setup_fight(app)
        start = app.encounter(cid, eid).version
        release = threading.Event()
        holding = app.run_command_later(lambda: release.wait(HANG_SECONDS))
        acted = app.idempotent_later(
            None, lambda: app.perform_action_later(hit(cid, eid, hero, 1)), at(start)
        )
        # Next turn with no turn order: the command refuses it. Decided on the version
        # the action (earlier in the batch, not committed yet) left behind: that refusal;
        # on the version before it: stale, refused first.
        turns = [
            app.idempotent_later(
                None,
                lambda: app.run_command_later(lambda: app.next_turn(NextTurn(cid, eid))),
                at(version),
            )
            for version in (start, start + 1)
        ]
        release.set()
        assert holding.result(HANG_SECONDS) is True
        assert acted.result(HANG_SECONDS)[0].version == start + 1
        with pytest.raises(VersionMismatch) as stale:
            turns[0].result(HANG_SECONDS)
        assert (stale.value.kind, stale.value.current_version) == ("encounter", start + 1)
        with pytest.raises(ActionRefused) as refused:
            turns[1].result(HANG_SECONDS)
        assert refused.value.message == (
            "no turn order is set: the GM sets one (or rolls initiative) first"
        )
        fresh = open_app(store_env)
        assert fresh.encounter(cid, eid).version == start + 1
        fresh.close()
    finally:
        app.close()


def test_a_command_re_run_after_a_lost_race_is_checked_again_before_it_decides(
    store_env: dict[str, str],
) -> None:
    app = open_app(store_env)
    other = open_app(store_env)
    try:
        cid, hero, eid = setup_fight(app)
        start = app.encounter(cid, eid).version
        decided: list[int] = []

        def mark(encounter: Encounter) -> object:
            decided.append(encounter.version)
            if len(decided) == 1:  # another process writes after this attempt read
                other.perform_action(hit(cid, eid, hero, 2))
            return encounter.mark(hero, "prone", None, None, None, "end", "gm")

        before = app.recorder_position()
        with pytest.raises(VersionMismatch) as refused:
            app.idempotent(
                None, lambda: app.table_commands.change_encounter(cid, eid, mark), at(start)
            )
        # The first attempt lost the race as it saved; the second read the other's write
        # and was refused before it decided anything (the change ran once).
        assert decided == [start]
        assert refused.value.current_version == start + 1
        assert app.recorder_position() == before + 1  # the other process's action alone
        assert [a.kind for a in app.encounter(cid, eid).actions] == ["take_hit"]
    finally:
        other.close()
        app.close()


def test_a_command_that_never_said_what_it_decides_on_cannot_save_with_an_expected_version(
    store_env: dict[str, str],
) -> None:
    """The save's guard: with an expected version in force, a command saves first the
    aggregate it said it decides on (`decides_on`), or nothing of it is written."""
    app = open_app(store_env)
    try:
        cid, hero, eid = setup_fight(app)
        start = app.encounter(cid, eid).version
        before = app.recorder_position()

        def unsaid() -> None:
            encounter = app.encounter(cid, eid)
            encounter.mark(hero, "prone", None, None, None, "end", "gm")
            app.save(encounter)

        with pytest.raises(RuntimeError) as refused:
            app.idempotent(None, lambda: app.run_command(unsaid), at(start))
        assert str(refused.value) == (
            f"a write with an expected version saved Encounter {eid} as its subject, "
            "not the aggregate it was decided on"
        )
        assert app.recorder_position() == before
    finally:
        app.close()
