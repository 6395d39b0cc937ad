"""Each view's reads (queued on a Redis pipeline, sync or asyncio alike) and the view
made from their answers: one definition whichever client reads it (projections/reader.py
reads on a worker thread, api/fast_views.py on the event loop)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypedDict, Union

from redis.asyncio.client import Pipeline as AsyncPipeline
from redis.client import Pipeline

from skald_campaign.domain.records import JSONObject
from skald_campaign.projections.base import Bar, with_maxima
from skald_campaign.projections.keys import ViewKeys
from skald_campaign.projections.narrow import integer, json_object
from skald_campaign.projections.staging import loads
from skald_campaign.projections.views import (
    Board,
    EncounterLine,
    VitalsCharacter,
    VitalsMeta,
    stored,
)

AnyPipeline = Union[Pipeline, AsyncPipeline]  # noqa: UP007 (a runtime alias of generics)
Reads = Callable[[AnyPipeline, ViewKeys], object]  # queues a view's reads on the pipeline


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
    seen_as: str | None


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
    seen_as: str | None


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


def vitals_reads(campaign_id: str) -> Reads:
    def reads(pipe: AnyPipeline, k: ViewKeys) -> None:
        pipe.get(k.vitals_meta(campaign_id))
        pipe.hgetall(k.vitals(campaign_id))

    return reads


def vitals_of(campaign_id: str, answers: list[object], lag: Lag) -> Vitals | None:
    meta_raw, fields = answers
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
            "seen_as": c.get("seen_as"),  # none in vitals written before it (issue 38)
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


def board_reads(encounter_id: str) -> Reads:
    def reads(pipe: AnyPipeline, k: ViewKeys) -> None:
        pipe.get(k.board(encounter_id))

    return reads


def board_of(answers: list[object], lag: Lag) -> dict[str, object] | None:
    """The stored board, its combatants in order (side, rank, name) and without their
    sheets and maxima, and how far behind the views are."""
    (raw,) = answers
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
            seen_as=c.get("seen_as"),  # none in boards written before it (issue 38)
        )
        for c in combatants
    ]
    board["projection"] = lag
    return board


def audit_reads(campaign_id: str, offset: int, limit: int) -> Reads:
    def reads(pipe: AnyPipeline, k: ViewKeys) -> None:
        pipe.llen(k.audit(campaign_id))
        pipe.lrange(k.audit(campaign_id), offset, offset + limit - 1)

    return reads


def audit_version_reads(campaign_id: str) -> Reads:
    """The audit list's version (projections/versions.py) and its length: two short
    answers that say whether a page read before is still the page."""

    def reads(pipe: AnyPipeline, k: ViewKeys) -> None:
        pipe.get(k.audit_version(campaign_id))
        pipe.llen(k.audit(campaign_id))

    return reads


def audit_entries_reads(campaign_id: str, offset: int, limit: int) -> Reads:
    def reads(pipe: AnyPipeline, k: ViewKeys) -> None:
        pipe.lrange(k.audit(campaign_id), offset, offset + limit - 1)

    return reads


def audit_of(campaign_id: str, offset: int, limit: int, answers: list[object], lag: Lag) -> Audit:
    total, entries = answers
    return {
        "campaign_id": campaign_id,
        "total": integer(total or 0),
        "offset": offset,
        "limit": limit,
        "entries": [json_object(loads(e)) for e in redis_list(entries)],
        "projection": lag,
    }
