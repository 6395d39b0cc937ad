"""tests/cycles.py counts the cycles of the measured code, not those other threads make
meanwhile (CI counted 87 objects of another thread's as a writer's)."""

from __future__ import annotations

import threading
from typing import Any

from tests.cycles import cyclic_garbage, holding
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
