"""tests/cycles.py counts the cycles of the measured code, not those other threads make
meanwhile nor those a finalizer of earlier garbage leaves (CI counted 87 objects of
three redis-py pools as a writer's)."""

from __future__ import annotations

import gc
import threading
from typing import Any

from tests.cycles import cyclic_garbage, holding, settle
from tests.patience import HANG_SECONDS


class Measured(Exception):
    pass


def make_cycles(stop: threading.Event, made: threading.Event) -> None:
    while not stop.is_set():
        loop: list[Any] = []
        loop.append(loop)
        del loop
        made.set()


def test_another_thread_s_cycles_are_not_counted_and_the_measured_code_s_are() -> None:
    stop, made = threading.Event(), threading.Event()
    other = threading.Thread(target=make_cycles, args=(stop, made), daemon=True)

    def send() -> None:
        made.clear()
        assert made.wait(HANG_SECONDS)  # the other thread made garbage meanwhile
        try:
            raise Measured("kept by its own traceback's frame")
        except Measured as error:
            kept = error  # noqa: F841 (the frame holds the error, which holds the frame)

    other.start()
    try:
        found = cyclic_garbage(send)
    finally:
        stop.set()
        other.join(HANG_SECONDS)
    ours = holding(found, files=(), errors=(Measured,))
    assert len(found) > len(ours) == 1
    assert any(isinstance(o, Measured) for o in ours[0])


POOLS: dict[int, Any] = {}  # held for their clients, as a library's registry would


class Owner:
    """Like a client whose finalizer lets go of its pool: the pool, a cycle of its own,
    becomes garbage only once the owner's collection has run the finalizer."""

    def __init__(self) -> None:
        pool: list[Any] = []
        pool.append(pool)
        POOLS[id(self)] = pool
        self.me = self

    def __del__(self) -> None:
        del POOLS[id(self)]


def test_garbage_a_finalizer_leaves_is_collected_before_the_measure() -> None:
    Owner()
    found = cyclic_garbage(lambda: None)
    assert found == []


def test_settle_collects_until_nothing_is_left() -> None:
    Owner()
    settle()
    assert gc.collect() == 0
