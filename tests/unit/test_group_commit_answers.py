"""What a caller of the writer gets: its command's result as the command left it, either a
copy or the answer it asked for (`enqueue_answered(attempt, answer)`), made on the writer before the
next command of the batch runs and handed out only after the batch committed."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

import pytest

from skald_campaign.application.group_commit import GroupCommitWriter
from tests.patience import HANG_SECONDS


class Store:
    """Stands in for the application: one shared, changing aggregate (a list)."""

    def __init__(self) -> None:
        self.aggregate: list[str] = []
        self.saves: list[tuple[Any, ...]] = []
        self.done_at_save: list[bool] = []
        self.futures: list[Future[Any]] = []

    def run_alone(self, attempt: Callable[[], Any]) -> Any:
        return attempt()

    def run_once(self, attempt: Callable[[], Any]) -> Any:
        return attempt()

    def save_together(self, *objs: Any) -> None:
        self.done_at_save = [f.done() for f in self.futures]
        self.saves.append(objs)


def batch(store: Store, answers: list[Callable[[Any], Any] | None]) -> list[Future[Any]]:
    """One command holds the writer while the others queue; they then run as one batch,
    each appending its name to the shared aggregate and returning it."""
    writer = GroupCommitWriter(store.run_alone, store.run_once, store.save_together)
    gate, started = threading.Event(), threading.Event()

    def hold() -> str:
        started.set()
        gate.wait(HANG_SECONDS)
        return "held"

    def appending(name: str) -> Callable[[], list[str]]:
        def attempt() -> list[str]:
            store.aggregate.append(name)
            found = writer.batch
            assert found is not None
            found.to_save.append(name)
            return store.aggregate

        return attempt

    try:
        held = writer.enqueue(hold)
        assert started.wait(HANG_SECONDS)
        for n, answer in enumerate(answers):
            attempt = appending(f"c{n}")
            queued = (
                writer.enqueue(attempt)
                if answer is None
                else writer.enqueue_answered(attempt, answer)
            )
            store.futures.append(queued)
        gate.set()
        assert held.result(5) == "held"
        for queued in store.futures:
            queued.exception(5)  # wait for each, answered or refused
        return store.futures
    finally:
        writer.close()


def test_each_caller_gets_its_answer_made_as_its_command_left_the_aggregate() -> None:
    store = Store()
    threads: list[str] = []

    def answer(result: list[str]) -> tuple[str, ...]:
        threads.append(threading.current_thread().name)
        return tuple(result)

    futures = batch(store, [answer, answer, answer])
    assert [f.result() for f in futures] == [("c0",), ("c0", "c1"), ("c0", "c1", "c2")]
    assert threads == ["skald-writer"] * 3  # made on the writer, not by the caller
    assert store.saves == [("c0", "c1", "c2")]
    assert store.done_at_save == [False, False, False]  # nobody is answered before the commit


def test_without_an_answer_the_caller_gets_a_copy_of_the_result() -> None:
    store = Store()
    futures = batch(store, [None, None])
    results = [f.result() for f in futures]
    assert results == [["c0"], ["c0", "c1"]]
    assert all(r is not store.aggregate for r in results)
    assert store.aggregate == ["c0", "c1"]


def test_an_answer_that_fails_refuses_only_its_caller_after_the_commit() -> None:
    store = Store()

    def failing(result: list[str]) -> Any:
        raise ValueError(f"cannot answer {result[-1]}")

    futures = batch(store, [tuple, failing, tuple])
    assert futures[0].result() == ("c0",)
    with pytest.raises(ValueError, match="cannot answer c1"):
        futures[1].result()
    assert futures[2].result() == ("c0", "c1", "c2")
    assert store.saves == [("c0", "c1", "c2")]  # its command was written all the same
