"""What a view read (vitals, a board, the campaign's audit page) keeps between requests:
its commands as written to Redis, per generation, and the bytes of its last answer.

A view changes when the projections write it, not on every read: the GM screen and the
overlays poll it, and most polls find what the last one found. So each read still asks
Redis (one round trip: the view, the projections' positions, the generation pointer), but
when the view's own answers are the ones the last read got, the answer is the bytes made
then, with this read's lag (``projection``, the answer's last field) written in: no
decoding of the stored JSON, no checks of its shape, no encoding again. Answers differing
in any byte make the answer anew (api/fast_views.py's documents).

Used on the event loop only (one thread); bounded by the bytes it keeps.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable

import orjson
import redis

from skald_campaign.api.view_connection import ViewCommands
from skald_campaign.projections.view_reads import Lag

# A read by its path and query: what it asks for is all in them.
Name = tuple[str, bytes]
KEPT_BYTES = 16 * 1024 * 1024  # answers and their view's answers kept, over every read
COMMANDS_KEPT = 4096


def lag_json(lag: Lag) -> bytes | None:
    """The lag as the answer writes it (api/fast_views.py `_lag`), or None where the
    answer is made by the documents' checks (a value of another type)."""
    position, store, behind, generation = (
        lag["position"],
        lag["store"],
        lag["behind"],
        lag["generation"],
    )
    if not (
        type(position) is int
        and type(store) is int
        and type(behind) is int
        and (generation is None or type(generation) is str)
    ):
        return None
    return orjson.dumps(
        {"position": position, "store": store, "behind": behind, "generation": generation}
    )


def compared(answers: list[object]) -> list[object]:
    """The answers as compared with the kept ones: a hash's fields in the order read."""
    return [tuple(a.items()) if isinstance(a, dict) else a for a in answers]


def size_of(answers: list[object]) -> int:
    """About the bytes a view's answers hold (Redis strings, lists and hashes of them)."""
    total = 0
    for answer in answers:
        if isinstance(answer, bytes):
            total += len(answer)
        elif isinstance(answer, list):
            total += sum(len(item) for item in answer if isinstance(item, bytes))
        elif isinstance(answer, tuple):  # a hash's fields
            total += sum(len(k) + len(v) for k, v in answer if isinstance(v, bytes))
    return total + 64


class KeptViews:
    def __init__(self, budget: int = KEPT_BYTES) -> None:
        self.budget = budget
        self.size = 0
        self._commands: OrderedDict[tuple[Name, str], ViewCommands] = OrderedDict()
        self._answers: OrderedDict[Name, tuple[list[object], bytes, int]] = OrderedDict()

    def commands(
        self, name: Name, root: str, queue: Callable[[redis.client.Pipeline], object]
    ) -> ViewCommands:
        """The read's commands under the generation rooted at ``root``."""
        found = self._commands.get((name, root))
        if found is None:
            found = self._commands[(name, root)] = ViewCommands.of(queue)
            while len(self._commands) > COMMANDS_KEPT:
                self._commands.popitem(last=False)
        return found

    def answer(
        self,
        name: Name,
        answers: list[object],
        lag: Lag,
        make: Callable[[list[object], Lag], bytes | None],
    ) -> bytes | None:
        """The answer's bytes: the kept ones with this lag when the view's answers are
        the same as when they were made, else ``make``'s (kept when they end with the lag)."""
        written_lag = lag_json(lag)
        if written_lag is None:
            return make(answers, lag)
        seen = compared(answers)
        kept = self._answers.get(name)
        if kept is not None and kept[0] == seen:
            self._answers.move_to_end(name)
            return kept[1] + written_lag + b"}"
        payload = make(answers, lag)
        tail = b'"projection":' + written_lag + b"}"
        if payload is not None and payload.endswith(tail):
            self._keep(name, seen, payload[: len(payload) - len(written_lag) - 1])
        return payload

    def _keep(self, name: Name, answers: list[object], head: bytes) -> None:
        size = size_of(answers) + len(head)
        if size > self.budget // 8:  # one read may not take the room of many
            return
        dropped = self._answers.pop(name, None)
        if dropped is not None:
            self.size -= dropped[2]
        self._answers[name] = (answers, head, size)
        self.size += size
        while self.size > self.budget:
            _, (_, _, gone) = self._answers.popitem(last=False)
            self.size -= gone


KEPT = KeptViews()
