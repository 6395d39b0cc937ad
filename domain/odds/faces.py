"""The distinct outcomes of one roll, each with its exact probability.

The rules read a roll's dice as a multiset (the order the dice landed in never
matters) and often through something coarser still: a margin pool only through
its total of successes, a 3d6 check only through its sum. A :class:`FaceModel`
names that coarser reading as a *key* of the faces, computed with the rules' own
functions, so the odds enumerate one representative throw per key with the summed
probability of every throw that reads the same. The resolver still sees real
faces (the representative's), so every rule it applies is the real one.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb, factorial, prod

Faces = tuple[int, ...]
Classes = tuple[tuple[Faces, Fraction], ...]
FaceKey = Callable[[Faces], Hashable]


@dataclass(frozen=True)
class FaceModel:
    """How the rules read one roll: ``key`` of the faces, or only their ``total``.

    ``key=None`` and ``total=False`` reads the multiset of faces (order ignored).
    """

    name: str
    key: FaceKey | None = None
    total: bool = False
    every_order: bool = False  # the unreduced reference: each ordered throw on its own

    def classes(self, count: int, sides: int) -> Classes:
        if count <= 0:
            return (((), Fraction(1)),)
        if self.every_order:
            return ordered(count, sides)
        if self.total:
            return by_total(count, sides)
        return by_key(count, sides, self.key)

    def work(self, count: int, sides: int) -> int:
        """An upper bound on the distinct outcomes listed before they are merged.

        It is cheap to compute, so a roll too large to list is refused before any
        time is spent on it (a d20 weapon may be 100d1000).
        """
        if count <= 0:
            return 1
        if self.every_order:
            return int(sides**count)
        if self.total:
            return count * (sides - 1) + 1
        return comb(count + len(_blocks(sides, self.key)) - 1, count)


MULTISET = FaceModel("multiset")
TOTAL = FaceModel("total", total=True)
EVERY_ORDER = FaceModel("every order", every_order=True)


@lru_cache(maxsize=1024)
def by_total(count: int, sides: int) -> Classes:
    """Every sum of ``count`` dice of ``sides``, with one throw that makes it."""
    ways: dict[int, tuple[int, Faces]] = {0: (1, ())}
    for _ in range(count):
        grown: dict[int, tuple[int, Faces]] = {}
        for total, (n, throw) in ways.items():
            for face in range(1, sides + 1):
                seen, example = grown.get(total + face, (0, (*throw, face)))
                grown[total + face] = (seen + n, example)
        ways = grown
    throws = sides**count
    return tuple((throw, Fraction(n, throws)) for _, (n, throw) in sorted(ways.items()))


def _compositions(count: int, parts: int) -> Iterator[tuple[int, ...]]:
    if parts == 1:
        yield (count,)
        return
    for first in range(count + 1):
        for rest in _compositions(count - first, parts - 1):
            yield (first, *rest)


@lru_cache(maxsize=1024)
def by_key(count: int, sides: int, key: FaceKey | None) -> Classes:
    """Throws grouped by ``key`` (or by multiset), enumerated block by block.

    Faces that read alike on a single die (the same key alone) are one block: a
    throw is then how many dice fell in each block, and a block of ``b`` faces
    holding ``n`` dice stands for ``b ** n`` orderings within it.
    """
    blocks = _blocks(sides, key)
    throws = sides**count
    grouped: dict[Hashable, tuple[int, Faces]] = {}
    for split in _compositions(count, len(blocks)):
        ways = factorial(count) // prod(factorial(n) for n in split)
        ways *= prod(len(block) ** n for block, n in zip(blocks, split, strict=True))
        faces = tuple(
            face for block, n in zip(blocks, split, strict=True) for face in [block[0]] * n
        )
        label: Hashable = faces if key is None else key(faces)
        seen, example = grouped.get(label, (0, faces))
        grouped[label] = (seen + ways, example)
    return tuple((faces, Fraction(n, throws)) for n, faces in grouped.values())


@lru_cache(maxsize=256)
def _blocks(sides: int, key: FaceKey | None) -> tuple[Faces, ...]:
    if key is None:
        return tuple((face,) for face in range(1, sides + 1))
    alike: dict[Hashable, list[int]] = {}
    for face in range(1, sides + 1):
        alike.setdefault(key((face,)), []).append(face)
    return tuple(tuple(faces) for faces in alike.values())


def ordered(count: int, sides: int) -> Classes:
    """Every ordered throw: the reference the reduced models are checked against."""
    throws: list[Faces] = [()]
    for _ in range(count):
        throws = [(*t, face) for t in throws for face in range(1, sides + 1)]
    each = Fraction(1, sides**count)
    return tuple((t, each) for t in throws)


@dataclass(frozen=True)
class Rolled(FaceModel):
    """A roll already made (an attack's hit before the defender answers): its faces,
    certainly."""

    faces: Faces = ()

    def classes(self, count: int, sides: int) -> Classes:
        return ((self.faces, Fraction(1)),)

    def work(self, count: int, sides: int) -> int:
        return 1
