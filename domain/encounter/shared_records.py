"""A list of records that copies of an aggregate share, appended to in O(1).

Copies of an encounter share its list of action records (``Encounter.SHARED``): the
writer keeps each aggregate and changes it in place, and copies it for each command's
answer and for the snapshot thread, which reads its copy while the writer goes on. No
copy may see a change made after it was taken. Copying the whole list on every append
kept that, at a cost that grew with the fight (issue 39: ~0.11 ms of each command at
10,000 actions, bench/README.md "records20 lane").

Here each holder keeps a view instead: one backing list that is only ever appended to,
and how many of its first records are this view's (its own prefix, which never changes).
Appending to the view that ends where the backing list ends appends in place and gives
a new view one record longer; every older view still reads only its own prefix.
Appending to a view that ends before it (a copy taken earlier that now records something
of its own: a branch) first copies its prefix into a backing list of its own, so neither
branch sees the other's records.

Reading is safe beside an append on another thread (the snapshot thread reads its view
while the writer appends): a view reads only indices below its length, each read and
each ``list.append`` is one step under the GIL, and records are frozen.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from typing import TypeVar, overload

R = TypeVar("R")


class SharedRecords(Sequence[R]):
    """The first ``len(self)`` records of a backing list shared with other views."""

    __slots__ = ("_backing", "_length")

    _backing: list[R]
    _length: int

    def __init__(self, records: Iterable[R] = (), *, shown: int | None = None) -> None:
        """``records`` in a backing list of their own; with ``shown``, a view of the first
        ``shown`` of ``records``, a list then shared as it is (the views made here)."""
        if shown is None:
            self._backing = list(records)
            self._length = len(self._backing)
        elif isinstance(records, list) and 0 <= shown <= len(records):
            self._backing = records
            self._length = shown
        else:
            raise ValueError("a view is of the first records of a list")

    def appended(self, record: R) -> SharedRecords[R]:
        """A view of these records and ``record`` after them; this view is unchanged."""
        backing, length = self._backing, self._length
        if len(backing) == length:
            backing.append(record)
            # Another thread may have appended to the same backing list between the
            # look at its length and this append (a command run on another copy of
            # the aggregate): then ``record`` landed after that one, not at ``length``,
            # and this view branches like any other.
            if backing[length] is record:
                return SharedRecords(backing, shown=length + 1)
        # A branch: the backing list goes on past this view with records not its own.
        own = backing[:length]
        own.append(record)
        return SharedRecords(own, shown=length + 1)

    def with_last(self, record: R, just_made: bool) -> SharedRecords[R]:
        """These records with the last one replaced by ``record``.

        ``just_made``: the caller made this view itself (``appended``, or a new list) and
        nothing else holds it yet, so its last record may be replaced in place: no other
        view reads that index (an older one is shorter; one that went on past it after a
        copy of this view was taken shows in the backing list's length, and is refused
        here). Otherwise the records are copied into a view of their own."""
        backing, length = self._backing, self._length
        if length == 0:
            raise IndexError("no record to replace")
        if just_made and len(backing) == length:
            backing[length - 1] = record
            return self
        own = backing[: length - 1]
        own.append(record)
        return SharedRecords(own, shown=length)

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> R: ...
    @overload
    def __getitem__(self, index: slice) -> list[R]: ...
    def __getitem__(self, index: int | slice) -> R | list[R]:
        if isinstance(index, slice):
            # Bounded by this view's length first: never a record appended after it.
            start, stop, step = index.indices(self._length)
            if step == 1:
                return self._backing[start:stop]
            # (A stop of -1 here means before the first record, not the list's last.)
            return [self._backing[n] for n in range(start, stop, step)]
        n = index + self._length if index < 0 else index
        if not 0 <= n < self._length:
            raise IndexError("record index out of range")
        return self._backing[n]

    def __iter__(self) -> Iterator[R]:
        return itertools.islice(self._backing, self._length)

    def __eq__(self, other: object) -> bool:
        """Equal to another view or a list of the same records, as a list would be."""
        if isinstance(other, SharedRecords):
            return self[:] == other[:]
        if isinstance(other, list):
            return self[:] == other
        return NotImplemented

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self[:]!r})"

    # What a view shows never changes (but for the last record of one ``with_last``'s
    # caller has just made, before anything else holds it), so a copy of it is itself,
    # as a tuple's is: copying the backing list would copy every record after it too.
    def __copy__(self) -> SharedRecords[R]:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> SharedRecords[R]:
        return self
