"""The read side: views out of Redis for the API, each with how far behind the store it is."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypedDict

import redis
from redis.client import Pipeline

from domain.records import JSONObject
from projections.base import Bar, with_maxima
from projections.engine import PROJECTIONS, halts_of
from projections.keys import Generations, ViewKeys
from projections.narrow import integer, json_object, redis_text, text
from projections.staging import loads
from projections.views import Board, EncounterLine, VitalsCharacter, VitalsMeta, stored


class Lag(TypedDict):
    position: int
    store: int
    behind: int
    generation: str | None


class CharacterVitals(TypedDict):
    id: str
    name: str
    tracks: dict[str, Bar]
    conditions: list[str]
    state: JSONObject
    encounter: str | None
    changes: int
    position: int


class Vitals(TypedDict):
    campaign_id: str
    name: str
    ruleset: str
    day: int
    events: int
    characters: list[CharacterVitals]
    encounters: list[EncounterLine]
    projection: Lag


class Combatant(TypedDict):
    id: str
    name: str
    side: str
    rank: int
    tracks: dict[str, Bar]
    conditions: list[str]
    state: JSONObject


class Audit(TypedDict):
    campaign_id: str
    total: int
    offset: int
    limit: int
    entries: list[JSONObject]
    projection: Lag


def hash_values(answer: object) -> list[object]:
    """The values of a hash Redis answered (HGETALL: {} for a missing key; None: not read)."""
    if answer is None:
        return []
    if not isinstance(answer, dict):
        raise TypeError(f"Redis answered {type(answer).__name__}, not a hash")
    return list(answer.values())


def redis_list(answer: object) -> list[object]:
    """The items of a list Redis answered (LRANGE: [] for a missing key; None: not read)."""
    if answer is None:
        return []
    if not isinstance(answer, list):
        raise TypeError(f"Redis answered {type(answer).__name__}, not a list")
    return answer


Reads = Callable[[Pipeline, ViewKeys], object]  # adds a view's reads to the pipeline


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

    def lag(self, keys: ViewKeys | None, positions: list[object] | None = None) -> Lag:
        """How far the views are behind the store: the slowest projection's position."""
        if keys is not None and positions is None:
            pipe = self.client.pipeline(transaction=False)
            for projection in PROJECTIONS:
                pipe.hget(keys.tracking(projection.name), self.application_name)
            positions = pipe.execute()
        texts = [redis_text(p) for p in positions or [None]]
        position = min((int(p) if p is not None else 0 for p in texts), default=0)
        store = self.store_position()
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

    def _read(self, count: int, add_reads: Reads) -> tuple[list[object], Lag]:
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
            generation = redis_text(pointer)
            now = ViewKeys(self.generations.root(generation)) if generation else None
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

    def vitals(self, campaign_id: str) -> Vitals | None:
        def reads(pipe: Pipeline, k: ViewKeys) -> None:
            pipe.get(k.vitals_meta(campaign_id))
            pipe.hgetall(k.vitals(campaign_id))

        (meta_raw, fields), lag = self._read(2, reads)
        if meta_raw is None:
            return None
        meta = stored(VitalsMeta, loads(meta_raw))
        characters: dict[str, CharacterVitals] = {}
        for raw in hash_values(fields):
            c = stored(VitalsCharacter, loads(raw))
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

    def board(self, encounter_id: str) -> dict[str, object] | None:
        """The stored board, its combatants in order (side, rank, name) and without their
        sheets and maxima, and how far behind the views are."""
        (raw,), lag = self._read(1, lambda pipe, k: pipe.get(k.board(encounter_id)))
        if raw is None:
            return None
        stored_board = stored(Board, loads(raw))
        combatants = sorted(
            stored_board["combatants"].values(), key=lambda c: (c["side"], c["rank"], c["name"])
        )
        board: dict[str, object] = dict(stored_board)
        del board["combatants"]
        board["combatants"] = [
            Combatant(
                id=c["id"],
                name=c["name"],
                side=c["side"],
                rank=c["rank"],
                tracks=with_maxima(c["tracks"], c["maxima"]),
                conditions=c["conditions"],
                state=c["state"],
            )
            for c in combatants
        ]
        board["projection"] = lag
        return board

    def audit(self, campaign_id: str, offset: int, limit: int) -> Audit:
        def reads(pipe: Pipeline, k: ViewKeys) -> None:
            pipe.llen(k.audit(campaign_id))
            pipe.lrange(k.audit(campaign_id), offset, offset + limit - 1)

        (total, entries), lag = self._read(2, reads)
        return {
            "campaign_id": campaign_id,
            "total": integer(total or 0),
            "offset": offset,
            "limit": limit,
            "entries": [json_object(loads(e)) for e in redis_list(entries)],
            "projection": lag,
        }

    def positions(
        self, campaign_id: str, after: int, limit: int
    ) -> tuple[list[tuple[int, str, int]], Lag]:
        """The campaign's next ``limit`` events after a position, from the index: each
        (position, aggregate id, version). One round trip, whatever the history's length."""

        def reads(pipe: Pipeline, k: ViewKeys) -> None:
            pipe.zrange(
                k.positions(campaign_id), f"({after}", "+inf", byscore=True,
                offset=0, num=limit, withscores=True, score_cast_func=int,
            )  # fmt: skip

        (found,), lag = self._read(1, reads)
        entries = []
        for member, score in found if isinstance(found, list) else []:
            aggregate_id, _, version = text(redis_text(member)).partition(":")
            entries.append((integer(score), aggregate_id, int(version)))
        return entries, lag
