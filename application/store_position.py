"""The store's position (its last notification id) as the views' lag reports it, without
a query per read.

Every view answer says how far the views are behind the store (`projection.store`). Asked
of the database on each read, that was a query per read: 36% of the server's time under a
load of vitals reads (bench/README.md, issue 28). This process's own commits tell it the
position exactly as they happen (read-your-writes: a command's answer is sent after its
commit raised the position), so the database is asked only for other processes' writes,
and at most once every ``fresh_seconds``: a write made through another replica or the
CLI shows in the lag that much later at most.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class KnownPosition:
    def __init__(self, read: Callable[[], int | None], fresh_seconds: float = 0.1) -> None:
        self._read = read
        self.fresh_seconds = fresh_seconds
        self._position = 0
        self._read_at = float("-inf")  # monotonic time of the last read from the store
        self._lock = threading.Lock()  # one reader asks the store; the others wait for it

    def saw(self, position: int) -> None:
        """A position this process knows the store has reached (its own commit, or a read
        it made anyway). Only ever raises the position: the store's log only grows."""
        if position > self._position:
            self._position = position

    def fresh(self) -> int | None:
        """The position if it is fresh, else None: never asks the store (a caller on the
        event loop must not wait on the database)."""
        if time.monotonic() - self._read_at < self.fresh_seconds:
            return self._position
        return None

    def current(self) -> int:
        if time.monotonic() - self._read_at < self.fresh_seconds:
            return self._position
        with self._lock:
            if time.monotonic() - self._read_at >= self.fresh_seconds:  # not read meanwhile
                self.saw(self._read() or 0)
                self._read_at = time.monotonic()
        return self._position
