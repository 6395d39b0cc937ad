"""The feed entries this process's projection runner has just committed, kept for this
process's feed readers (api/feed_hub.py), so that a reader takes each entry's JSON
from memory rather than from Redis.

A feed reader wakes on its blocking XREAD when a commit adds entries to a campaign's
stream. A stream entry only names its audit entry by its place in the campaign's log,
so the reader then read the entries' JSON with an LRANGE: a second round trip to Redis
per batch, on the event loop, between the commit and the SSE (bench/README.md, "lag18
lane": that hop's p50 2-4 ms and p99 16-32 ms on a busy machine). When the runner that
made the commit runs in this process (``skald serve``'s embedded default), it keeps
the JSON of each feed entry it commits here, and the reader takes it from here.

The stream stays the truth: which entries there are and in which order is what the
XREAD answers, as before. An entry is taken from here only when its Redis server, its
stream (a key of one generation), its notification id and its place in the log all
match what the XREAD answered, which only the runner's own commit of that entry wrote;
any other entry (a runner in another process, one evicted from here, a reader on
another Redis) is read from Redis. The runner keeps nothing while no reader is open.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping

KEEP = 2000  # entries kept, every feed together: a reader takes them within a batch or two

Kept = tuple[str, int, int, bytes]  # stream key, notification id, place in the log, JSON
Found = tuple[bytes, "Commit"]  # an entry's JSON and the commit that wrote it


def server_of(connection_kwargs: Mapping[str, object]) -> str:
    """Which Redis server and database a client talks to (sync and asyncio clients alike)."""
    place = connection_kwargs.get("path") or (
        f"{connection_kwargs.get('host')}:{connection_kwargs.get('port')}"
    )
    return f"{place}/{connection_kwargs.get('db', 0)}"


class Commit:
    """A runner's commit of kept entries: in flight until the runner has Redis's answer."""

    def __init__(self) -> None:
        self.landed: bool | None = None  # None: in flight
        self.waiters: list[Callable[[], None]] = []


class KeptFeedEntries:
    """Feed entries by (server, stream key, notification id): their place in the log,
    their JSON and the commit that wrote them. The runner's thread keeps, the event
    loop's takes; a lock guards both.

    The runner keeps a batch's entries before it sends the commit and says how it went
    once Redis answered: Redis wakes the reader's XREAD as it runs the commit, so the
    reader often looks here before the runner has the answer. A reader that finds an
    entry of a commit in flight waits for the answer (``landed``) before it takes it;
    the entries of a commit that did not land are dropped."""

    def __init__(self, keep: int = KEEP) -> None:
        self.keep_at_most = keep
        self.readers = 0  # feed readers open in this process
        self._entries: OrderedDict[tuple[str, str, int], tuple[int, bytes, Commit]] = OrderedDict()
        self._lock = threading.Lock()

    def wanted(self) -> bool:
        """Whether any reader is open in this process (else nothing is worth keeping)."""
        return self.readers > 0

    def opened(self) -> None:
        with self._lock:
            self.readers += 1

    def closed(self) -> None:
        with self._lock:
            self.readers -= 1
            if self.readers == 0:
                self._entries.clear()

    def keep(self, server: str, entries: Iterable[Kept]) -> Commit:
        """Entries about to be committed to ``server`` (the oldest are dropped past the
        limit); the runner says how the commit went with ``settle``."""
        commit = Commit()
        with self._lock:
            kept = self._entries
            for key, notification_id, seq, raw in entries:
                kept[(server, key, notification_id)] = (seq, raw, commit)
            while len(kept) > self.keep_at_most:
                kept.popitem(last=False)
        return commit

    def settle(self, commit: Commit, landed: bool) -> None:
        """The commit's answer: its entries may be taken, or are dropped."""
        with self._lock:
            commit.landed = landed
            waiters, commit.waiters = commit.waiters, []
            if not landed:
                kept = self._entries
                for place in [p for p, (_, _, c) in kept.items() if c is commit]:
                    del kept[place]
        for wake in waiters:
            wake()

    def find(self, server: str, key: str, notification_id: int, seq: int) -> Found | None:
        """The JSON of the entry ``notification_id`` of ``key`` at ``seq`` in its log, and
        the commit that wrote it, if this process's runner kept it and it was not
        dropped; else None."""
        with self._lock:
            found = self._entries.get((server, key, notification_id))
        return (found[1], found[2]) if found is not None and found[0] == seq else None

    def when_settled(self, commit: Commit, wake: Callable[[], None]) -> bool:
        """Call ``wake`` (on the runner's thread) once the commit is settled; False, and no
        call, if it is settled already."""
        with self._lock:
            if commit.landed is not None:
                return False
            commit.waiters.append(wake)
            return True


KEPT = KeptFeedEntries()  # this process's
