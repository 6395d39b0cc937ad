"""The store's position from memory: the store is asked at most once while fresh, this
process's own commits count at once, and the position never goes back."""

from __future__ import annotations

import time

from skald_campaign.application.store_position import KnownPosition


class Store:
    def __init__(self, position: int | None) -> None:
        self.position = position
        self.reads = 0

    def read(self) -> int | None:
        self.reads += 1
        return self.position


def test_the_store_is_read_once_while_the_position_is_fresh() -> None:
    store = Store(7)
    known = KnownPosition(store.read, fresh_seconds=60)
    assert [known.current() for _ in range(50)] == [7] * 50
    assert store.reads == 1


def test_a_commit_of_this_process_counts_without_asking_the_store() -> None:
    store = Store(7)
    known = KnownPosition(store.read, fresh_seconds=60)
    assert known.current() == 7
    known.saw(9)  # this process committed up to 9
    assert known.current() == 9
    assert store.reads == 1


def test_another_process_write_shows_once_the_position_is_stale() -> None:
    store = Store(7)
    known = KnownPosition(store.read, fresh_seconds=0.05)
    assert known.current() == 7
    store.position = 12  # written by another replica
    assert known.current() == 7  # fresh still: from memory
    time.sleep(0.06)
    assert known.current() == 12
    assert store.reads == 2


def test_the_position_never_goes_back() -> None:
    store = Store(5)
    known = KnownPosition(store.read, fresh_seconds=0)
    known.saw(8)
    assert known.current() == 8  # the store said 5: a read that began before 8 committed
    known.saw(3)
    assert known.current() == 8


def test_an_empty_store_is_at_zero() -> None:
    assert KnownPosition(Store(None).read, fresh_seconds=0).current() == 0
