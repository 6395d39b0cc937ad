"""What a view read (vitals, a board, the campaign's audit page) keeps between requests:
its commands as written to Redis, per generation, and the bytes of its last answer.

A view changes when the projections write it, not on every read: the GM screen and the
overlays poll it, and most polls find what the last one found. So each read still asks
Redis (one round trip: the view, the projections' positions, the generation pointer), but
when the view's own answers are the ones the last read got, the answer is the bytes made
then, with this read's lag (``projection``, the answer's last field) written in: no
decoding of the stored JSON, no checks of its shape, no encoding again. Answers differing
in any byte make the answer anew (api/fast_views.py's documents). The answer's ETag (a
digest of its bytes, api/etags.py) is kept the same way: the digest over all but the lag,
to which each read adds its own lag.

Used on the event loop only (one thread); bounded by the bytes it keeps.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Callable
from typing import NamedTuple

import orjson
import redis

from skald_campaign.api.etags import etag_of
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


class VersionTag(NamedTuple):
    """What a versioned page (api/fast_views.py `versioned_answer`) is kept under, in
    place of its answers from Redis: the generation read, the page's version
    (projections/versions.py), the size of what the version counts (a list's length,
    a sorted set's members) and anything else the answer was made under (a player's
    page: the campaign's version its redaction was made under)."""

    generation: str | None
    version: bytes
    size: int
    made_under: object


def is_tagged(answers: list[object]) -> bool:
    return len(answers) == 1 and type(answers[0]) is VersionTag


def size_of(answers: list[object]) -> int:
    """About the bytes a view's answers hold (Redis strings, lists and hashes of them)."""
    total = 0
    for answer in answers:
        if type(answer) is VersionTag:
            total += len(answer.version)
        elif isinstance(answer, bytes):
            total += len(answer)
        elif isinstance(answer, list):
            total += sum(len(item) for item in answer if isinstance(item, bytes))
        elif isinstance(answer, tuple):  # a hash's fields
            total += sum(len(k) + len(v) for k, v in answer if isinstance(v, bytes))
    return total + 64


class Kept(NamedTuple):
    answers: list[object]
    head: bytes
    digest: hashlib.blake2b  # over head: the ETag's, only the lag left to add
    size: int


class KeptViews:
    def __init__(self, budget: int = KEPT_BYTES) -> None:
        self.budget = budget
        self.size = 0
        self._commands: OrderedDict[tuple[Name, str, str], ViewCommands] = OrderedDict()
        # By read: the view's answers compared, the answer's bytes but its lag's and its
        # closing brace, its ETag's digest over those bytes so far (api/etags.py), size.
        self._answers: OrderedDict[Name, Kept] = OrderedDict()
        self._tagged: tuple[bytes, bytes] | None = None  # the last answer made, its ETag

    def commands(
        self,
        name: Name,
        root: str,
        queue: Callable[[redis.client.Pipeline], object],
        what: str = "",
    ) -> ViewCommands:
        """The read's commands under the generation rooted at ``root`` (``what``: which
        of a read's commands, when it has more than one set)."""
        found = self._commands.get((name, root, what))
        if found is None:
            found = self._commands[(name, root, what)] = ViewCommands.of(queue)
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
        if kept is None or kept.answers != seen:
            payload = make(answers, lag)
            tail = b'"projection":' + written_lag + b"}"
            if payload is None or not payload.endswith(tail):
                return payload
            kept = self._keep(name, seen, payload[: len(payload) - len(written_lag) - 1])
            if kept is None:
                return payload
        else:
            self._answers.move_to_end(name)
        return self._with_lag(kept, written_lag)

    def kept(self, name: Name, answers: list[object], lag: Lag) -> bytes | None:
        """`answer` when it would send the kept bytes; else None (nothing made)."""
        written_lag = lag_json(lag)
        kept = self._answers.get(name)
        if written_lag is None or kept is None or kept.answers != compared(answers):
            return None
        self._answers.move_to_end(name)
        return self._with_lag(kept, written_lag)

    def has(self, name: Name, answers: Callable[[list[object]], bool]) -> bool:
        """Whether the read keeps an answer, made from answers ``answers`` says yes to."""
        kept = self._answers.get(name)
        return kept is not None and answers(kept.answers)

    def _with_lag(self, kept: Kept, written_lag: bytes) -> bytes:
        end = written_lag + b"}"
        digest = kept.digest.copy()
        digest.update(end)
        payload = kept.head + end
        self._tagged = (payload, b'"' + digest.hexdigest().encode() + b'"')
        return payload

    def etag_of(self, payload: bytes) -> bytes:
        """api/etags.py `etag_of(payload)`: for the bytes `answer` just gave (the very
        object), from the digest kept over all but their last bytes (hashing a 34 KB
        audit page took 64 us of a 0.25 ms read); else over the bytes."""
        tagged = self._tagged
        if tagged is not None and tagged[0] is payload:
            return tagged[1]
        return etag_of(payload)

    def _keep(self, name: Name, answers: list[object], head: bytes) -> Kept | None:
        size = size_of(answers) + len(head)
        if size > self.budget // 8:  # one read may not take the room of many
            return None
        dropped = self._answers.pop(name, None)
        if dropped is not None:
            self.size -= dropped.size
        kept = self._answers[name] = Kept(
            answers, head, hashlib.blake2b(head, digest_size=16), size
        )
        self.size += size
        while self.size > self.budget:
            _, gone = self._answers.popitem(last=False)
            self.size -= gone.size
        return kept


KEPT = KeptViews()
