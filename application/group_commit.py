"""Group commit: one writer per process, and the commands that arrive together saved
in one transaction.

Request threads hand their command (a re-runnable `attempt`) to the writer and wait.
The writer takes every command waiting, runs them one after another on shared,
uncommitted copies of the aggregates (so a second command on one encounter sees the
first), then saves all of their events in one transaction, and only then answers
each caller. Within a process no two commands race for an aggregate (no refusals),
and a burst costs one commit instead of one each.

If any command leaves an aggregate half-changed, or the joint save loses a race
with another process, nothing of the batch was written: each command is run again
on its own, with the usual bounded retries. A caller is answered only after its
events are committed, so a crash never loses an acknowledged command, and what was
not acknowledged was not written.
"""

from __future__ import annotations

import contextvars
import copy
import queue
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, cast
from uuid import UUID

from eventsourcing.domain import BaseAggregate
from eventsourcing.persistence import IntegrityError

BATCH_LIMIT = 64  # commands per transaction; a bound on one commit's size and latency
# A batch that lost a race with another process is run again as a batch this many times
# in all (then one by one): across two processes on one hot encounter, 5 attempts one by
# one still left 1.3% of commands refused (bench/http.py, PostgreSQL).
BATCH_ATTEMPTS = 3
BATCH_BACKOFF_SECONDS = 0.002
_jitter = random.Random()  # pauses only; dice come from the injected roller
T = TypeVar("T")
R = TypeVar("R")


@dataclass
class Job:
    attempt: Callable[[], object]
    context: contextvars.Context
    # What the caller gets of the command's result, made on the writer right after the
    # command ran (later commands go on changing the aggregates the writer keeps): a copy
    # of it unless the caller said which answer it needs (e.g. an action's response).
    answer: Callable[[object], object] = copy.deepcopy
    future: Future[object] = field(default_factory=Future)


@dataclass
class Batch:
    """What the commands of one batch read and wrote, not yet committed."""

    aggregates: dict[UUID, object] = field(default_factory=dict)
    to_save: list[object] = field(default_factory=list)
    pending: dict[UUID, int] = field(default_factory=dict)
    # The aggregates the running command was handed (`WriteRunner._batched_get`): only
    # those can have changed since the last command settled, so only those are looked
    # at (looking at all of them made each command's cost grow with the batch).
    touched: set[UUID] = field(default_factory=set)

    def unsaved_changes(self) -> bool:
        """Did the last command change an aggregate and fail before saving it?"""
        return any(
            _pending(self.aggregates[aggregate_id]) != self.pending.get(aggregate_id, 0)
            for aggregate_id in self.touched
        )

    def settle(self) -> None:
        for aggregate_id in self.touched:
            self.pending[aggregate_id] = _pending(self.aggregates[aggregate_id])
        self.touched.clear()

    def objects(self) -> list[object]:
        seen: set[int] = set()
        unique: list[object] = []
        for obj in self.to_save:
            if id(obj) not in seen:
                seen.add(id(obj))
                unique.append(obj)
        return unique


class SaveTogether(Protocol):
    def __call__(self, *objs: object) -> object: ...


def _pending(aggregate: object) -> int:
    """How many events an aggregate holds that are not saved yet."""
    return len(aggregate.pending_events) if isinstance(aggregate, BaseAggregate) else 0


class GroupCommitWriter:
    """The writer thread. The application gives it three ways to work: `run_alone`
    runs one command with its retries and saves it; `run_once` runs a command's attempt
    once (after its idempotency check) within a batch; `save_together` commits."""

    def __init__(
        self,
        run_alone: Callable[[Callable[[], object]], object],
        run_once: Callable[[Callable[[], object]], object],
        save_together: SaveTogether,
        begin: Callable[[], None] | None = None,
        discard: Callable[[], None] | None = None,
    ) -> None:
        self._run_alone = run_alone
        self._run_once = run_once
        self._save_together = save_together
        # Before each batch (or command run alone), and after a batch failed: the
        # application's hooks for what the writer keeps between batches.
        self._begin = begin or (lambda: None)
        self._discard = discard or (lambda: None)
        self._jobs: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self._local = threading.local()
        self._thread = threading.Thread(target=self._loop, name="skald-writer", daemon=True)
        self._thread.start()

    # -- seen from the request threads ---------------------------------------------

    def submit(self, attempt: Callable[[], T]) -> T:
        if threading.current_thread() is self._thread:  # a command inside a command
            return cast(T, self._run_alone(attempt))
        return self.enqueue(attempt).result()

    def enqueue(self, attempt: Callable[[], T]) -> Future[T]:
        """Queue a command and return at once; its future is answered after its commit
        (an async route awaits it, and no thread is held waiting) with a copy of its
        result, made on the writer as the command left the aggregates."""
        return self._queue(attempt, lambda result: cast(T, copy.deepcopy(result)))

    def enqueue_answered(self, attempt: Callable[[], T], answer: Callable[[T], R]) -> Future[R]:
        """`enqueue`, answered with `answer(result)` made on the writer as the command left
        the aggregates, instead of a copy (an answer built from them needs no copy)."""
        return self._queue(attempt, lambda result: answer(cast(T, result)))

    def _queue(self, attempt: Callable[[], object], answer: Callable[[object], R]) -> Future[R]:
        if threading.current_thread() is self._thread:
            raise RuntimeError("a command inside a command runs at once: use submit")
        job = Job(attempt, contextvars.copy_context(), answer)
        # Running from now on, so it cannot be cancelled: a caller that goes away (an
        # HTTP client disconnecting cancels the awaiting task, which cancels this) does
        # not take the command back, and the writer can always answer it.
        job.future.set_running_or_notify_cancel()
        self._jobs.put(job)
        return cast("Future[R]", job.future)

    def close(self) -> None:
        self._jobs.put(None)
        self._thread.join(timeout=10)

    # -- seen from the application while the writer runs a batch -----------------------

    @property
    def on_writer_thread(self) -> bool:
        return threading.current_thread() is self._thread

    @property
    def batch(self) -> Batch | None:
        if threading.current_thread() is not self._thread:
            return None
        found: Batch | None = getattr(self._local, "batch", None)
        return found

    # -- the writer ----------------------------------------------------------------

    def _loop(self) -> None:
        while True:
            first = self._jobs.get()
            if first is None:
                return
            jobs = [first]
            while len(jobs) < BATCH_LIMIT:
                try:
                    job = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if job is None:
                    self._jobs.put(None)  # finish this batch, then stop
                    break
                jobs.append(job)
            if len(jobs) == 1:
                self._alone(jobs[0])
            else:
                self._together(jobs)

    def _alone(self, job: Job) -> None:
        try:
            self._begin()
            result = job.context.run(self._run_alone, job.attempt)
            # The writer goes on changing the aggregates it keeps: the caller gets a copy
            # (or the answer it asked for, made now).
            job.future.set_result(job.context.run(job.answer, result))
        except BaseException as error:  # the caller gets it, as if it had run the command
            job.future.set_exception(error)
            # The error's traceback holds this frame: without `job` it holds no way back to
            # the future that holds the error. A cycle there is freed only by the cyclic
            # collector, and serve's freezes (application/snapshotting.py) keep for good
            # one that was alive at a freeze.
            del job

    def _together(self, jobs: list[Job]) -> None:
        """Run and commit the batch; if it lost a race with another process, run it again
        (re-reading) after a jittered pause, a bounded number of times, before each
        command is run on its own with its own retries."""
        for number in range(BATCH_ATTEMPTS):
            try:
                self._begin()
                outcomes = self._run_batch(jobs)
            except _Abandon:
                self._discard()
                break
            except IntegrityError:
                self._discard()
                time.sleep(_jitter.uniform(0, BATCH_BACKOFF_SECONDS * 2**number))
                continue
            except BaseException as failure:  # e.g. the database went away: nothing saved
                self._discard()
                _deliver([(job, None, failure) for job in jobs])
                jobs.clear()
                return
            _deliver(outcomes)
            jobs.clear()
            return
        while jobs:
            self._alone(jobs.pop(0))

    # An error's traceback holds the frame that caught it, and each frame holds its caller
    # (f_back): the frames of `_together` and `_run_batch` stay alive with any refusal of
    # the batch. Once the batch is answered they must hold no job (whose future holds the
    # error) nor error: hence the lists emptied and the loops' names deleted. A cycle there
    # is freed only by the cyclic collector, and serve's freezes keep for good one that
    # was alive at a freeze (application/snapshotting.py; tests/unit/
    # test_group_commit_refusal_cycles.py).

    def _run_batch(self, jobs: list[Job]) -> list[tuple[Job, object, BaseException | None]]:
        batch = Batch()
        outcomes: list[tuple[Job, object, BaseException | None]] = []
        self._local.batch = batch
        try:
            for job in jobs:
                result, refused = _outcome(job.context, self._run_once, job.attempt)
                if refused is not None:
                    if batch.unsaved_changes():
                        raise _Abandon from refused
                    outcomes.append((job, None, refused))
                    continue
                batch.settle()
                # Later commands (of this batch or the next) go on changing the same
                # aggregates: the caller gets them as they stood after its own command
                # (a copy, or the answer it asked for, made now and handed out after the
                # commit; if making it fails, the caller gets that error, as it would
                # have building its answer itself from a copy).
                answer, failed = _outcome(job.context, job.answer, result)
                if failed is not None and not isinstance(failed, Exception):
                    raise failed  # an interrupt, not the caller's answer failing
                outcomes.append((job, answer, failed))
            # See `_together`: none of this frame's names may hold a job or an error.
            del job  # a batch has two jobs at least
            result = refused = answer = failed = None
        finally:
            self._local.batch = None
        objects = batch.objects()
        if objects:
            self._save_together(*objects)
        return outcomes


def _deliver(outcomes: list[tuple[Job, object, BaseException | None]]) -> None:
    """Each caller its result or error; the list emptied (see `GroupCommitWriter._together`)."""
    for job, result, refused in outcomes:
        if refused is None:
            job.future.set_result(result)
        else:
            job.future.set_exception(refused)
    outcomes.clear()


def _outcome(
    context: contextvars.Context, call: Callable[[Any], object], argument: object
) -> tuple[object, BaseException | None]:
    """``call(argument)`` in ``context``: its result, or what it raised. Caught here, an
    error's traceback starts at this frame, which holds neither the job nor the batch's
    outcomes: nothing in it leads back to the error (the caller's future will hold it),
    so reference counting alone frees it (see `GroupCommitWriter._alone`)."""
    try:
        return context.run(call, argument), None
    except BaseException as error:
        return None, error


class _Abandon(Exception):
    """A command failed half-way through changing an aggregate: run the batch one by one."""
