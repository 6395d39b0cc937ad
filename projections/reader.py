"""The read side: views out of Redis for the API, each with how far behind the store it is."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson
import redis

from projections.base import with_maxima
from projections.engine import PROJECTIONS, halts_of
from projections.keys import Generations, ViewKeys


class ViewReader:
    def __init__(
        self,
        client: redis.Redis,
        prefix: str,
        store_position: Callable[[], int],
        application_name: str,
        redis_url: str,
    ) -> None:
        self.client = client
        self.generations = Generations(prefix)
        self.store_position = store_position
        self.application_name = application_name
        self.redis_url = redis_url  # the feed opens its own (async) connection
        self._last_seen: ViewKeys | None = None

    def keys(self) -> ViewKeys | None:
        generation = self.generations.current(self.client)
        return ViewKeys(self.generations.root(generation)) if generation else None

    def lag(self, keys: ViewKeys | None, positions: list[Any] | None = None) -> dict[str, Any]:
        """How far the views are behind the store: the slowest projection's position."""
        if keys is not None and positions is None:
            pipe = self.client.pipeline(transaction=False)
            for projection in PROJECTIONS:
                pipe.hget(keys.tracking(projection.name), self.application_name)
            positions = pipe.execute()
        position = min((int(p) if p is not None else 0 for p in positions or [None]), default=0)
        store = self.store_position()
        return {
            "position": position,
            "store": store,
            "behind": max(store - position, 0),
            "generation": keys.root.rsplit(":", 1)[-1] if keys else None,
        }

    def halted(self) -> list[dict[str, Any]]:
        """The views stopped at an event they cannot apply (docs/projections.md)."""
        keys = self.keys()
        if keys is None:
            return []
        positions = {}
        for projection in PROJECTIONS:
            value: Any = self.client.hget(keys.tracking(projection.name), self.application_name)
            positions[projection.name] = int(value) if value is not None else 0
        return halts_of(self.client, keys.root, positions)

    def _read(self, count: int, add_reads: Callable[[Any, ViewKeys], Any]) -> tuple[list[Any], Any]:
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
            add_reads(pipe, keys)
            for projection in PROJECTIONS:
                pipe.hget(keys.tracking(projection.name), self.application_name)
            pipe.get(self.generations.pointer)
            *results, pointer = pipe.execute()
            now = ViewKeys(self.generations.root(pointer.decode())) if pointer else None
            if now is not None and now.root == keys.root:
                return results[:count], self.lag(keys, results[count:])
            self._seen = now
        raise RuntimeError("the views' generation kept moving during one read")

    @property
    def _seen(self) -> ViewKeys | None:
        """The generation last seen; the pointer itself the first time."""
        if self._last_seen is None:
            self._last_seen = self.keys()
        return self._last_seen

    @_seen.setter
    def _seen(self, keys: ViewKeys | None) -> None:
        self._last_seen = keys

    def vitals(self, campaign_id: str) -> dict[str, Any] | None:
        (meta_raw, fields), lag = self._read(
            2,
            lambda pipe, k: pipe.get(k.vitals_meta(campaign_id)).hgetall(k.vitals(campaign_id)),
        )
        if meta_raw is None:
            return None
        meta = orjson.loads(meta_raw)
        characters = {}
        for raw in (fields or {}).values():
            c = orjson.loads(raw)
            characters[c["id"]] = {
                "id": c["id"],
                "name": c["name"],
                "tracks": with_maxima(c["tracks"], c["maxima"]),
                "conditions": c["conditions"],
                "state": c["state"],
                "encounter": c["encounter"],
                "changes": c["changes"],
                "position": c["position"],
            }
        return {
            "campaign_id": campaign_id,
            "name": meta["name"],
            "ruleset": meta["ruleset"],
            "day": meta["day"],
            "events": meta["events"],
            "characters": [characters[cid] for cid in meta["characters"] if cid in characters],
            "encounters": meta["encounters"],
            "projection": lag,
        }

    def board(self, encounter_id: str) -> dict[str, Any] | None:
        (raw,), lag = self._read(1, lambda pipe, k: pipe.get(k.board(encounter_id)))
        if raw is None:
            return None
        board = orjson.loads(raw)
        combatants = sorted(
            board.pop("combatants").values(), key=lambda c: (c["side"], c["rank"], c["name"])
        )
        board["combatants"] = [
            {
                "id": c["id"],
                "name": c["name"],
                "side": c["side"],
                "rank": c["rank"],
                "tracks": with_maxima(c["tracks"], c["maxima"]),
                "conditions": c["conditions"],
                "state": c["state"],
            }
            for c in combatants
        ]
        board["projection"] = lag
        return dict(board)

    def audit(self, campaign_id: str, offset: int, limit: int) -> dict[str, Any]:
        (total, entries), lag = self._read(
            2,
            lambda pipe, k: pipe.llen(k.audit(campaign_id)).lrange(
                k.audit(campaign_id), offset, offset + limit - 1
            ),
        )
        return {
            "campaign_id": campaign_id,
            "total": int(total or 0),
            "offset": offset,
            "limit": limit,
            "entries": [orjson.loads(e) for e in entries or []],
            "projection": lag,
        }
