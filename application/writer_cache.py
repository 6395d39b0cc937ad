"""The writer thread's own aggregates: kept as saved, read without a copy or a query.

Every command of this process runs on the one writer thread (application/group_commit.py),
so the aggregates it saved are exactly as the store holds them, unless something else
wrote since: another process, or a write that did not go through the writer. The
library's cache cannot know that, so on every read it copies the cached aggregate and
asks the store for newer events (a query, a decode and a re-apply of the event this
writer had just saved): most of a command's read time (bench/README.md).

Here the writer asks the store once per batch for its newest notification id instead
(on PostgreSQL, for the ids and aggregate ids of the notifications after the newest it
knows, which answers both questions in one round trip: `WriteRunner._begin_batch`).
If that is the id of the writer's own last save, nothing else wrote, and every kept
aggregate is current. If not, it reads which aggregates the notifications it has not
seen belong to (others' writes: another process's, or a write that did not go through
the writer) and drops those, and only those, so that two API processes on one
PostgreSQL store keep what the other did not touch; past FOREIGN_READ_LIMIT unseen
notifications it drops everything instead. Its own saves are known by their ids. Ids
are assigned in commit order (SQLite writes one at a time; the library's PostgreSQL
recorder locks the table to insert).

A kept aggregate is changed in place by the next command, so: an aggregate a failed
command read is dropped (it may be half-changed), a failed batch drops them all, and a
command's result is copied before it leaves the writer.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from uuid import UUID

# Unseen notifications read one by one to drop only what they touched; past this many,
# dropping everything is cheaper than reading them.
FOREIGN_READ_LIMIT = 1000

# The originator ids of the notifications after one id up to another (both given).
ReadOriginators = Callable[[int, int], Iterable[tuple[int, UUID]]]


class WriterCache:
    def __init__(self, maxsize: int = 1000, originators: ReadOriginators | None = None) -> None:
        self._aggregates: OrderedDict[UUID, object] = OrderedDict()
        self._maxsize = maxsize
        self._newest: int | None = None  # the newest notification id everything here reflects
        self._ours: set[int] = set()  # this writer's notification ids after `_newest`
        self._originators = originators
        self.reads: set[UUID] = set()  # what the running command read (dropped if it fails)

    def __len__(self) -> int:
        return len(self._aggregates)

    def get(self, aggregate_id: UUID) -> object | None:
        aggregate = self._aggregates.get(aggregate_id)
        if aggregate is not None:
            self._aggregates.move_to_end(aggregate_id)
        return aggregate

    def keep(self, aggregate_id: UUID, aggregate: object) -> None:
        self._aggregates[aggregate_id] = aggregate
        self._aggregates.move_to_end(aggregate_id)
        while len(self._aggregates) > self._maxsize:
            self._aggregates.popitem(last=False)

    def drop(self, aggregate_ids: Iterable[UUID]) -> None:
        for aggregate_id in aggregate_ids:
            self._aggregates.pop(aggregate_id, None)

    def clear(self) -> None:
        self._aggregates.clear()

    @property
    def newest(self) -> int | None:
        """The newest notification id everything kept reflects; None: nothing to tell
        others' writes from yet."""
        return self._newest

    @property
    def readable(self) -> int:
        """How many notifications after `newest` are read one by one (past this many,
        `check` drops everything instead)."""
        return FOREIGN_READ_LIMIT + len(self._ours)

    def check(self, newest: int | None, unseen: Iterable[tuple[int, UUID]] | None = None) -> None:
        """Before a batch: the store's newest notification id now. Whatever someone else
        wrote since the last look is dropped (see the module's docstring). ``unseen``: the
        notifications after `newest` up to ``newest`` (ids and aggregate ids), when the
        caller has read them already; else they are read here if needed."""
        if newest == self._newest:
            return
        count = (newest or 0) - (self._newest or 0)
        if self._newest is None or newest is None or (self._originators is None and unseen is None):
            self.clear()
        elif 0 < count <= self.readable:
            if unseen is None:
                assert self._originators is not None
                unseen = self._originators(self._newest, newest)
            for notification_id, originator_id in unseen:
                if notification_id not in self._ours:
                    self._aggregates.pop(originator_id, None)
        else:
            self.clear()
        self._newest = newest
        self._ours.clear()

    def saved(self, notification_ids: Sequence[int], aggregates: Mapping[UUID, object]) -> None:
        """After a save committed: its notification ids, and the aggregates as saved."""
        if not notification_ids:  # a recorder without notification ids: keep nothing
            self.clear()
            self._newest = None
            return
        first = (self._newest or 0) + 1
        if (
            self._newest is not None
            and not self._ours
            and list(notification_ids) == list(range(first, first + len(notification_ids)))
        ):
            self._newest = notification_ids[-1]  # nobody wrote in between
        elif self._newest is None:
            self.clear()  # nothing to tell others' writes from: start afresh after this
            self._newest = notification_ids[-1]
        else:
            self._ours.update(notification_ids)  # the next check reads past them
        for aggregate_id, aggregate in aggregates.items():
            self.keep(aggregate_id, aggregate)
