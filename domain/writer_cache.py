"""The writer thread's own aggregates: kept as saved, read without a copy or a query.

Every command of this process runs on the one writer thread (domain/group_commit.py),
so the aggregates it saved are exactly as the store holds them, unless something else
wrote since: another process, or a write that did not go through the writer. The
library's cache cannot know that, so on every read it copies the cached aggregate and
asks the store for newer events (a query, a decode and a re-apply of the event this
writer had just saved): most of a command's read time (bench/README.md).

Here the writer asks the store once per batch for its newest notification id instead.
If that is the id of the writer's own last save, nothing else wrote, and every kept
aggregate is current. If not, all are dropped and read again through the library. A
save whose notification ids do not directly follow the last known one (someone wrote in
between) also drops them. Ids are assigned in commit order (SQLite writes one at a time;
the library's PostgreSQL recorder locks the table to insert), and a gap in them only
costs a re-read.

A kept aggregate is changed in place by the next command, so: an aggregate a failed
command read is dropped (it may be half-changed), a failed batch drops them all, and a
command's result is copied before it leaves the writer.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from uuid import UUID


class WriterCache:
    def __init__(self, maxsize: int = 1000) -> None:
        self._aggregates: OrderedDict[UUID, Any] = OrderedDict()
        self._maxsize = maxsize
        self._newest: int | None = None  # the store's newest notification id, as last seen
        self.reads: set[UUID] = set()  # what the running command read (dropped if it fails)

    def __len__(self) -> int:
        return len(self._aggregates)

    def get(self, aggregate_id: UUID) -> Any | None:
        aggregate = self._aggregates.get(aggregate_id)
        if aggregate is not None:
            self._aggregates.move_to_end(aggregate_id)
        return aggregate

    def keep(self, aggregate_id: UUID, aggregate: Any) -> None:
        self._aggregates[aggregate_id] = aggregate
        self._aggregates.move_to_end(aggregate_id)
        while len(self._aggregates) > self._maxsize:
            self._aggregates.popitem(last=False)

    def drop(self, aggregate_ids: Iterable[UUID]) -> None:
        for aggregate_id in aggregate_ids:
            self._aggregates.pop(aggregate_id, None)

    def clear(self) -> None:
        self._aggregates.clear()

    def check(self, newest: int | None) -> None:
        """Before a batch: the store's newest notification id now. Anything but the id of
        this writer's last save means someone else wrote: drop everything."""
        if newest != self._newest:
            self.clear()
            self._newest = newest

    def saved(self, notification_ids: Sequence[int], aggregates: Mapping[UUID, Any]) -> None:
        """After a save committed: its notification ids, and the aggregates as saved."""
        if not notification_ids:  # a recorder without notification ids: keep nothing
            self.clear()
            self._newest = None
            return
        expected = range((self._newest or 0) + 1, (self._newest or 0) + 1 + len(notification_ids))
        if list(notification_ids) != list(expected):  # someone else wrote in between
            self.clear()
        self._newest = notification_ids[-1]
        for aggregate_id, aggregate in aggregates.items():
            self.keep(aggregate_id, aggregate)
