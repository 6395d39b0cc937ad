"""The writer keeps the aggregates it saved and reads them without a copy or a query,
on SQLite and PostgreSQL; anything written by another writer (another process) is seen
by the next command, a failed command leaves no half-change behind, and what a caller
is handed does not change under it afterwards."""

from __future__ import annotations

import random
from typing import Any
from uuid import UUID

import pytest

from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.writer_cache import WriterCache
from skald_campaign.domain.errors import DomainError
from tests.integration.test_store import hit, open_app, setup_fight, store_env
from tests.patience import HANG_SECONDS

__all__ = ["store_env"]  # the fixture, shared with test_store.py
a, b, c, d = (UUID(int=n) for n in range(1, 5))  # aggregate ids for the cache alone


def grouped(store_env: dict[str, str]) -> SkaldApplication:
    app = SkaldApplication(env=store_env, roller=random.Random(1), write_attempts=3)
    app.start_group_commit()
    return app


def stamina(app: SkaldApplication, cid: Any, eid: Any, hero: str) -> int:
    value: int = app.encounter(cid, eid).combatants[hero].tracks["stamina"]
    return value


def test_a_kept_encounter_is_read_without_asking_the_store(
    store_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    app = grouped(store_env)
    try:
        cid, hero, eid = setup_fight(app)
        app.perform_action(hit(cid, eid, hero, 1))
        assert app.writer_cache is not None
        kept = app.writer_cache.get(eid)
        assert kept is not None and kept.version == 2
        fetched: list[Any] = []
        original = app.repository.get
        monkeypatch.setattr(
            app.repository, "get", lambda *a, **k: fetched.append(a) or original(*a, **k)
        )
        encounter, record = app.perform_action(hit(cid, eid, hero, 2))
        assert fetched == []  # read as kept: no copy, no fast-forward query
        assert app.writer_cache.get(eid) is kept and kept.version == 3
        assert encounter is not kept  # the caller's is a copy
        assert (record["number"], encounter.version) == (2, 3)
    finally:
        app.close()


def test_what_another_process_wrote_is_seen_by_the_next_command(
    store_env: dict[str, str],
) -> None:
    first, second = grouped(store_env), grouped(store_env)
    try:
        cid, hero, eid = setup_fight(first)
        # On this sheet faces 1, 2 and 3 take 1, 1 and 2 stamina.
        first.perform_action(hit(cid, eid, hero, 1))  # kept by the first writer at 199
        second.perform_action(hit(cid, eid, hero, 2))  # 198 in the store
        encounter, record = first.perform_action(hit(cid, eid, hero, 3))
        assert record["number"] == 3
        assert encounter.combatants[hero].tracks["stamina"] == 196
        assert [a.number for a in encounter.actions] == [1, 2, 3]
        fresh = open_app(store_env)
        assert stamina(fresh, cid, eid, hero) == 196
        fresh.close()
    finally:
        first.close()
        second.close()


def test_another_process_writing_one_encounter_leaves_the_others_kept(
    store_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = grouped(store_env), grouped(store_env)
    try:
        cid, hero, mine = setup_fight(first)
        other, other_hero, theirs = setup_fight(first)
        first.perform_action(hit(cid, mine, hero, 1))
        first.perform_action(hit(other, theirs, other_hero, 1))
        second.perform_action(hit(other, theirs, other_hero, 2))
        assert first.writer_cache is not None
        kept = first.writer_cache.get(mine)
        fetched: list[Any] = []
        original = first.repository.get
        monkeypatch.setattr(
            first.repository, "get", lambda *a, **k: fetched.append(a[0]) or original(*a, **k)
        )
        first.perform_action(hit(cid, mine, hero, 1))
        assert fetched == [] and first.writer_cache.get(mine) is kept  # untouched: kept
        encounter, record = first.perform_action(hit(other, theirs, other_hero, 3))
        assert fetched == [theirs]  # written by the other process: read again
        assert record["number"] == 3
        assert encounter.combatants[other_hero].tracks["stamina"] == 196
    finally:
        first.close()
        second.close()


def test_another_process_writes_are_looked_at_in_one_round_trip(
    store_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """On PostgreSQL the writer's look before a batch, when another process has written
    (compose's replicas, every batch), is one round trip: the newest id and what the
    unseen notifications touched, read together. It was two: the newest id, then those
    notifications (their state too) read back."""
    if "POSTGRES_SCHEMA" not in store_env:
        pytest.skip("SQLite's newest id is read on a connection kept for it")
    first, second = grouped(store_env), grouped(store_env)
    try:
        cid, hero, mine = setup_fight(first)
        other, other_hero, theirs = setup_fight(first)
        first.perform_action(hit(cid, mine, hero, 1))
        second.perform_action(hit(other, theirs, other_hero, 1))
        second.perform_action(hit(other, theirs, other_hero, 2))
        datastore = first.recorder.datastore
        taken: list[str] = []
        original = datastore.get_connection
        monkeypatch.setattr(
            datastore, "get_connection", lambda *a, **k: taken.append("") or original(*a, **k)
        )
        assert first.writer is not None
        first.writer.submit(lambda: None)  # a batch of nothing: its look, no commit
        assert len(taken) == 1
        assert first.writer_cache is not None and first.writer_cache.get(theirs) is None
        assert first.writer_cache.get(mine) is not None  # not theirs: kept
        assert first.store_position() == second.store_position()
        taken.clear()
        first.writer.submit(lambda: None)  # nothing new: one round trip as well
        assert len(taken) == 1
        encounter, record = first.perform_action(hit(other, theirs, other_hero, 3))
        assert record["number"] == 3  # read again, with the other process's two actions
        assert encounter.combatants[other_hero].tracks["stamina"] == 196
    finally:
        first.close()
        second.close()


def test_a_command_that_fails_half_way_leaves_the_kept_encounter_as_stored(
    store_env: dict[str, str],
) -> None:
    app = grouped(store_env)
    try:
        cid, hero, eid = setup_fight(app)
        app.perform_action(hit(cid, eid, hero, 1))

        def half_then_fail() -> None:
            encounter = app.encounter(cid, eid)
            encounter.act("take_hit", None, hit(cid, eid, hero, 5).params, {"damage": [5]},
                          app.roller, "gm")  # fmt: skip
            raise DomainError("refused after changing the encounter")

        with pytest.raises(DomainError):
            app.run_command(half_then_fail)
        encounter, record = app.perform_action(hit(cid, eid, hero, 2))
        assert record["number"] == 2  # the failed command's action 2 was never kept
        assert encounter.combatants[hero].tracks["stamina"] == 198  # 1 and 1, not the 5
    finally:
        app.close()


def test_a_callers_encounter_does_not_change_under_it(store_env: dict[str, str]) -> None:
    app = grouped(store_env)
    try:
        cid, hero, eid = setup_fight(app)
        first, _ = app.perform_action(hit(cid, eid, hero, 1))
        app.perform_action(hit(cid, eid, hero, 2))
        assert first.version == 2 and len(first.actions) == 1
        assert first.combatants[hero].tracks["stamina"] == 199
    finally:
        app.close()


def test_without_a_way_to_read_others_writes_it_drops_everything() -> None:
    cache = WriterCache(maxsize=2)
    cache.check(10)
    cache.saved([11, 12], {a: "A"})
    assert cache.get(a) == "A"
    cache.check(12)  # nothing else since: kept
    assert cache.get(a) == "A"
    cache.check(13)  # someone else wrote 13
    assert len(cache) == 0
    cache.saved([14], {b: "B"})
    cache.saved([15], {c: "C"})
    cache.saved([16], {d: "D"})  # at most two kept: the oldest goes
    assert (cache.get(b), cache.get(c), cache.get(d)) == (None, "C", "D")


def test_it_drops_what_others_wrote_and_keeps_the_rest() -> None:
    log = {11: a, 12: b, 13: c, 14: a, 15: d, 16: b}  # notification id: its aggregate
    asked: list[tuple[int, int]] = []

    def originators(after: int, upto: int) -> list[tuple[int, UUID]]:
        asked.append((after, upto))
        return [(n, log[n]) for n in range(after + 1, upto + 1)]

    cache = WriterCache(originators=originators)
    cache.check(10)
    cache.saved([11, 12], {a: "A", b: "B"})
    cache.saved([13], {c: "C"})
    assert asked == []  # its own, one after the other: nothing to read
    cache.saved([15], {d: "D"})  # 14 was someone else's
    cache.check(16)  # and so is 16
    assert asked == [(13, 16)]
    assert (cache.get(a), cache.get(b), cache.get(c), cache.get(d)) == (None, None, "C", "D")
    cache.saved([17], {a: "A2"})
    assert cache.get(a) == "A2"


def test_a_caller_that_goes_away_neither_cancels_the_command_nor_stops_the_writer(
    store_env: dict[str, str],
) -> None:
    """An async route awaiting a command is cancelled when its client disconnects; the
    command still commits, and the writer goes on answering the next ones."""
    app = grouped(store_env)
    try:
        cid, hero, eid = setup_fight(app)
        queued = [
            app.idempotent_later(None, lambda: app.perform_action_later(hit(cid, eid, hero, 1)))
            for _ in range(5)
        ]
        assert [future.cancel() for future in queued] == [False] * 5
        answers = [future.result(timeout=HANG_SECONDS) for future in queued]
        assert [answer[1]["number"] for answer in answers] == [1, 2, 3, 4, 5]
        _, record = app.perform_action(hit(cid, eid, hero, 1))
        assert record["number"] == 6
    finally:
        app.close()
