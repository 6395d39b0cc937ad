"""The read side: views out of Redis for the API, each with how far behind the store it is."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import redis
from redis.asyncio import Redis as AsyncRedis

from skald_campaign.domain.records import JSONObject
from skald_campaign.projections.engine import PROJECTIONS, halts_of
from skald_campaign.projections.keys import Generations, ViewKeys
from skald_campaign.projections.narrow import integer, redis_text, text
from skald_campaign.projections.view_reads import (
    AnyPipeline,
    Audit,
    Lag,
    Reads,
    Vitals,
    audit_of,
    audit_reads,
    board_of,
    board_reads,
    vitals_of,
    vitals_reads,
)


class ViewReader:
    def __init__(
        self,
        client: redis.Redis,
        prefix: str,
        store_position: Callable[[], int],
        application_name: str,
        redis_url: str,
        fresh_position: Callable[[], int | None] = lambda: None,
    ) -> None:
        self.client = client
        self.generations = Generations(prefix)
        self.store_position = store_position
        # The store's position when known without asking the store (else None): what a
        # read on the event loop may use, which must not wait on the database.
        self.fresh_position = fresh_position
        self.application_name = application_name
        self.redis_url = redis_url  # the feed opens its own (async) connection
        self._last_seen: ViewKeys | None = None

    def keys(self) -> ViewKeys | None:
        generation = self.generations.current(self.client)
        return ViewKeys(self.generations.root(generation)) if generation else None

    def lag(self, keys: ViewKeys | None, positions: list[object] | None = None) -> Lag:
        """How far the views are behind the store: the slowest projection's position."""
        if keys is not None and positions is None:
            pipe = self.client.pipeline(transaction=False)
            for projection in PROJECTIONS:
                pipe.hget(keys.tracking(projection.name), self.application_name)
            positions = pipe.execute()
        return self._lag_at(keys, positions, self.store_position())

    def _lag_at(self, keys: ViewKeys | None, positions: list[object] | None, store: int) -> Lag:
        texts = [redis_text(p) for p in positions or [None]]
        position = min((int(p) if p is not None else 0 for p in texts), default=0)
        return {
            "position": position,
            "store": store,
            "behind": max(store - position, 0),
            "generation": keys.root.rsplit(":", 1)[-1] if keys else None,
        }

    def halted(self) -> list[JSONObject]:
        """The views stopped at an event they cannot apply (docs/projections.md)."""
        keys = self.keys()
        if keys is None:
            return []
        positions = {}
        for projection in PROJECTIONS:
            value = redis_text(
                self.client.hget(keys.tracking(projection.name), self.application_name)
            )
            positions[projection.name] = int(value) if value is not None else 0
        return halts_of(self.client, keys.root, positions)

    def read(self, count: int, add_reads: Reads) -> tuple[list[object], Lag]:
        """Run ``count`` reads, the tracking reads and a look at the generation pointer in
        one round trip, under the generation this reader last saw.

        Every Redis round trip of a request made under load waits for the interpreter
        lock again when its answer comes (the live lag's p99 is made of such waits:
        bench/http.py (f)), so the pointer is not read on its own first. It is read
        last: if it still names the generation the reads used, no switch came before
        them; if it moved, the reads run again under the new one."""
        for _ in range(3):  # a pointer moving three times in one request: give up
            keys = self._seen
            if keys is None:
                return [None] * count, self.lag(None)
            pipe = self.client.pipeline(transaction=False)
            self._queue_reads(pipe, keys, add_reads)
            settled = self._settle(keys, pipe.execute(), count, self.store_position())
            if settled is not None:
                return settled
        raise RuntimeError("the views' generation kept moving during one read")

    async def read_async(
        self, client: AsyncRedis, count: int, add_reads: Reads
    ) -> tuple[list[object], Lag] | None:
        """`_read` on an asyncio client, for a caller on the event loop: the same one
        round trip, without a hop to a worker thread. None when it would need anything
        but that round trip (the generation not seen yet, the store's position not known
        fresh, the pointer moving): the caller then reads through `_read`."""
        keys = self._last_seen
        position = self.fresh_position()
        if keys is None or position is None:
            return None
        pipe = client.pipeline(transaction=False)
        self._queue_reads(pipe, keys, add_reads)
        return self._settle(keys, await pipe.execute(), count, position)

    async def read_through(
        self,
        execute: Callable[[ViewKeys, Callable[[AnyPipeline], None]], Awaitable[list[object]]],
        count: int,
        add_reads: Reads,
    ) -> tuple[list[object], Lag] | None:
        """`read_async` through a caller's own connection: ``execute`` runs what the
        second argument queues on a pipeline, under the generation given, and answers as
        the pipeline would (api/view_connection.py); None as `read_async` says it."""
        keys = self._last_seen
        position = self.fresh_position()
        if keys is None or position is None:
            return None
        answers = await execute(keys, lambda pipe: self._queue_reads(pipe, keys, add_reads))
        return self._settle(keys, answers, count, position)

    def _queue_reads(self, pipe: AnyPipeline, keys: ViewKeys, add_reads: Reads) -> None:
        add_reads(pipe, keys)
        for projection in PROJECTIONS:
            pipe.hget(keys.tracking(projection.name), self.application_name)
        pipe.get(self.generations.pointer)

    def _settle(
        self, keys: ViewKeys, answers: list[object], count: int, store: int
    ) -> tuple[list[object], Lag] | None:
        """The reads and the lag, if the pointer still named the generation read; else
        None, and the reader follows the pointer to the next."""
        *results, pointer = answers
        generation = redis_text(pointer)
        now = ViewKeys(self.generations.root(generation)) if generation else None
        if now is not None and now.root == keys.root:
            return results[:count], self._lag_at(keys, results[count:], store)
        self._seen = now
        return None

    @property
    def _seen(self) -> ViewKeys | None:
        """The generation last seen; the pointer itself the first time."""
        if self._last_seen is None:
            self._last_seen = self.keys()
        return self._last_seen

    @_seen.setter
    def _seen(self, keys: ViewKeys | None) -> None:
        self._last_seen = keys

    def vitals(self, campaign_id: str) -> Vitals | None:
        return vitals_of(campaign_id, *self.read(2, vitals_reads(campaign_id)))

    def board(self, encounter_id: str) -> dict[str, object] | None:
        """The stored board, its combatants in order (side, rank, name) and without their
        sheets and maxima, and how far behind the views are."""
        return board_of(*self.read(1, board_reads(encounter_id)))

    def audit(self, campaign_id: str, offset: int, limit: int) -> Audit:
        reads = audit_reads(campaign_id, offset, limit)
        return audit_of(campaign_id, offset, limit, *self.read(2, reads))

    def positions(
        self, campaign_id: str, after: int, limit: int
    ) -> tuple[list[tuple[int, str, int]], Lag]:
        """The campaign's next ``limit`` events after a position, from the index: each
        (position, aggregate id, version). One round trip, whatever the history's length."""

        def reads(pipe: AnyPipeline, k: ViewKeys) -> None:
            pipe.zrange(
                k.positions(campaign_id), f"({after}", "+inf", byscore=True,
                offset=0, num=limit, withscores=True, score_cast_func=int,
            )  # fmt: skip

        (found,), lag = self.read(1, reads)
        entries = []
        for member, score in found if isinstance(found, list) else []:
            aggregate_id, _, version = text(redis_text(member)).partition(":")
            entries.append((integer(score), aggregate_id, int(version)))
        return entries, lag
