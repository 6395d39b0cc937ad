"""A batch that lost a race with another process is run again as a batch (re-reading),
and only after BATCH_ATTEMPTS losses one command at a time."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from eventsourcing.persistence import IntegrityError

from skald_campaign.application.group_commit import BATCH_ATTEMPTS, GroupCommitWriter
from tests.patience import HANG_SECONDS


class Store:
    """Stands in for the application: counts what the writer asks of it."""

    def __init__(self, losses: int) -> None:
        self.losses = losses
        self.saves: list[tuple[Any, ...]] = []
        self.alone: list[Any] = []
        self.runs = 0

    def run_alone(self, attempt: Callable[[], Any]) -> Any:
        result = attempt()
        self.alone.append(result)
        return result

    def run_once(self, attempt: Callable[[], Any]) -> Any:
        self.runs += 1
        return attempt()

    def save_together(self, *objs: Any) -> None:
        self.saves.append(objs)
        if len(self.saves) <= self.losses:
            raise IntegrityError("another process wrote first")


def saving(writer: GroupCommitWriter, name: str) -> Callable[[], str]:
    """A command that saves one object, as the application's save does within a batch."""

    def attempt() -> str:
        batch = writer.batch
        if batch is not None:  # run alone, the application's save writes at once
            batch.to_save.append(name)
        return name

    return attempt


def batch_of_three(store: Store) -> list[Any]:
    writer = GroupCommitWriter(store.run_alone, store.run_once, store.save_together)
    gate, started = threading.Event(), threading.Event()

    def first_command() -> str:
        started.set()
        gate.wait(HANG_SECONDS)
        return "first"

    try:
        with ThreadPoolExecutor(4) as pool:
            first = pool.submit(writer.submit, first_command)
            assert started.wait(HANG_SECONDS)  # the writer is busy with it: the next three queue up
            later = [pool.submit(writer.submit, saving(writer, f"job {n}")) for n in range(3)]
            while writer._jobs.qsize() < 3:
                threading.Event().wait(0.01)
            gate.set()
            return [first.result(5)] + [f.result(5) for f in later]
    finally:
        writer.close()


def test_a_batch_that_lost_once_is_saved_as_a_batch_on_its_second_run() -> None:
    store = Store(losses=1)
    assert batch_of_three(store) == ["first", "job 0", "job 1", "job 2"]
    assert store.alone == ["first"]  # the three ran as a batch, twice, never alone
    assert store.runs == 6
    assert store.saves == [("job 0", "job 1", "job 2")] * 2


def test_a_batch_that_keeps_losing_is_run_one_by_one() -> None:
    store = Store(losses=BATCH_ATTEMPTS)
    assert batch_of_three(store) == ["first", "job 0", "job 1", "job 2"]
    assert store.alone == ["first", "job 0", "job 1", "job 2"]
    assert store.runs == 3 * BATCH_ATTEMPTS
