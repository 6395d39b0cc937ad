"""A refused command leaves no reference cycle behind on the writer.

`skald serve` freezes what lives once a snapshot is stored (application/snapshotting.py,
`keep_snapshotted_out_of_collections`): the cyclic collector never looks at frozen
objects again, so a cycle frozen while it was alive and dying later is kept for the life
of the process. A refusal's exception held by its caller's future, whose traceback held
the writer's frame, which held the job and so the future, was such a cycle (~100 objects
with the frames below it, a copy of the encounter among them: bench/README.md, "pgstall
lane"). Reference counting alone must free a refusal once its caller has it."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from skald_campaign.application import group_commit
from skald_campaign.application.group_commit import GroupCommitWriter
from tests.cycles import cyclic_garbage, described, holding
from tests.patience import HANG_SECONDS


class Refused(Exception):
    pass


def refuse() -> None:
    aggregate = {"combatants": [{"name": "Orc"}]}  # what a command's frames hold
    raise Refused(f"no: {len(aggregate)}")


class StoreGone(Exception):
    pass


@pytest.fixture
def writer() -> Iterator[GroupCommitWriter]:
    saved: list[tuple[Any, ...]] = []

    def run(attempt: Callable[[], Any]) -> Any:
        return attempt()

    def save(*objs: Any) -> None:
        if "unsavable" in objs:
            raise StoreGone("the database went away")
        saved.append(objs)

    found = GroupCommitWriter(run, run, save)
    try:
        yield found
    finally:
        found.close()


def cycles_left_by(send: Callable[[], None]) -> list[list[Any]]:
    """The cycles holding the writer's frames, this test's or its errors that only the
    cyclic collector would free once ``send``'s commands are answered and dropped (other
    threads' garbage meanwhile is not counted: tests/cycles.py)."""
    return holding(
        cyclic_garbage(send),
        files=(group_commit.__file__, __file__),
        errors=(Refused, StoreGone),
    )


def test_a_command_refused_alone_is_freed_by_reference_counting(
    writer: GroupCommitWriter,
) -> None:
    def send() -> None:
        future = writer.enqueue(refuse)
        assert isinstance(future.exception(HANG_SECONDS), Refused)
        del future
        writer.enqueue(lambda: None).result(HANG_SECONDS)  # the writer is done with it

    left = cycles_left_by(send)
    assert left == [], described(left)


@pytest.mark.parametrize("saves", ["saved", "unsavable"])
def test_a_command_refused_in_a_batch_is_freed_by_reference_counting(
    writer: GroupCommitWriter, saves: str
) -> None:
    """A command refused beside one saved; and a batch whose save fails (every caller
    gets that failure)."""
    gate, started = threading.Event(), threading.Event()

    def hold() -> str:
        started.set()
        gate.wait(HANG_SECONDS)
        return "held"

    def saving() -> str:
        batch = writer.batch
        assert batch is not None
        batch.to_save.append(saves)
        return "saved"

    def send() -> None:
        held = writer.enqueue(hold)
        assert started.wait(HANG_SECONDS)
        # Queued behind the held command, these two run as one batch.
        refused, saved = writer.enqueue(refuse), writer.enqueue(saving)
        gate.set()
        assert held.result(HANG_SECONDS) == "held"
        if saves == "saved":
            assert isinstance(refused.exception(HANG_SECONDS), Refused)
            assert saved.result(HANG_SECONDS) == "saved"
        else:
            assert isinstance(refused.exception(HANG_SECONDS), StoreGone)
            assert isinstance(saved.exception(HANG_SECONDS), StoreGone)
        del held, refused, saved
        writer.enqueue(lambda: None).result(HANG_SECONDS)

    left = cycles_left_by(send)
    assert left == [], described(left)
