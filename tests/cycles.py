"""Counting the reference cycles a piece of code leaves, and only those.

`gc.collect()`'s return counts every unreachable object of the process. Under the whole
suite (CI's configured pass: e2e and integration before unit, in one process) it counted
87 objects beside a writer that had left none: three redis-py asyncio connection pools
(29 objects each) of earlier tests, left unreachable by finalizers that the collection
before the measure had run. So the process's garbage is first collected until none is
left (`settle`); then the collector keeps what it finds (`gc.DEBUG_SAVEALL`), the garbage
is split into its cycles (connected parts), and only the cycles that hold one of the
measured code's own objects are counted: a frame of its functions or one of its errors
(threads of other tests may make garbage of their own meanwhile)."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable
from types import FrameType
from typing import Any


def cyclic_garbage(send: Callable[[], None]) -> list[list[Any]]:
    """The cycles that only the cyclic collector would free once ``send`` has run (none
    collected meanwhile), as lists of objects. Freed, not kept, when this returns."""
    settle()
    gc.disable()
    try:
        send()
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            gc.collect()
            found = list(gc.garbage)
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
    finally:
        gc.enable()
    try:
        return connected_parts(found)
    finally:
        found.clear()


def settle() -> None:
    """Collect until nothing is found: a collection runs finalizers (``__del__``, weakref
    callbacks), which can leave other objects unreachable that only the next one frees."""
    for _ in range(10):
        if gc.collect() == 0:
            return


def connected_parts(objects: list[Any]) -> list[list[Any]]:
    """``objects`` split into the parts their references connect (either way)."""
    index = {id(o): i for i, o in enumerate(objects)}
    parent = list(range(len(objects)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, o in enumerate(objects):
        for referent in gc.get_referents(o):
            j = index.get(id(referent))
            if j is not None:
                parent[root(i)] = root(j)
    parts: dict[int, list[Any]] = {}
    for i, o in enumerate(objects):
        parts.setdefault(root(i), []).append(o)
    return list(parts.values())


def holding(
    parts: list[list[Any]], files: Iterable[str], errors: tuple[type[BaseException], ...]
) -> list[list[Any]]:
    """The cycles holding a frame of code in one of ``files`` or one of ``errors``."""
    suffixes = tuple(files)

    def ours(o: Any) -> bool:
        if isinstance(o, FrameType):
            return o.f_code.co_filename.endswith(suffixes)
        return isinstance(o, errors)

    return [part for part in parts if any(ours(o) for o in part)]


def described(parts: list[list[Any]]) -> str:
    """What a failing assertion shows: each cycle's size and its objects' types."""
    lines = []
    for part in parts:
        kinds: dict[str, int] = {}
        for o in part:
            name = type(o).__qualname__
            if isinstance(o, FrameType):
                name = f"frame of {o.f_code.co_name} ({o.f_code.co_filename})"
            kinds[name] = kinds.get(name, 0) + 1
        lines.append(f"{len(part)} objects: {kinds}")
    return "\n".join(lines)
