"""The read side follows the generation pointer without reading it on its own: one
round trip per view read once a generation has been seen, and a switch (a rebuild,
a flushed Redis) is noticed by the very read that comes after it."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import orjson
import pytest
import redis

from skald_campaign.projections.engine import PROJECTIONS
from skald_campaign.projections.keys import Generations, ViewKeys
from skald_campaign.projections.reader import ViewReader

APP = "SkaldApplication"


class CountingRedis(redis.Redis):
    """Counts round trips: single commands and pipelines alike."""

    round_trips = 0

    def execute_command(self, *args: Any, **options: Any) -> Any:
        self.round_trips += 1
        return super().execute_command(*args, **options)

    def pipeline(self, transaction: bool = True, shard_hint: Any = None) -> Any:
        pipe = super().pipeline(transaction, shard_hint)
        run = pipe.execute

        def execute(raise_on_error: bool = True) -> Any:
            self.round_trips += 1
            return run(raise_on_error)

        pipe.execute = execute  # type: ignore[method-assign]
        return pipe


@pytest.fixture
def client(redis_url: str) -> Iterator[CountingRedis]:
    counting = CountingRedis.from_url(redis_url)
    yield counting
    counting.close()


def board(client: redis.Redis, generation: str, prefix: str, name: str, position: int) -> None:
    keys = ViewKeys(Generations(prefix).root(generation))
    client.set(keys.board("e1"), orjson.dumps({"id": "e1", "name": name, "combatants": {}}))
    for projection in (p.name for p in PROJECTIONS):
        client.hset(keys.tracking(projection), APP, position)


def test_a_view_read_is_one_round_trip_and_follows_a_switch_at_once(
    client: CountingRedis, redis_url: str
) -> None:
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    pointer = Generations(prefix).pointer
    reader = ViewReader(client, prefix, lambda: 9, APP, redis_url)
    assert reader.board("e1") is None  # no generation yet

    board(client, "g1", prefix, "Ambush", 7)
    client.set(pointer, "g1")
    first = reader.board("e1")
    client.round_trips = 0
    again = reader.board("e1")
    assert client.round_trips == 1
    assert first == again
    assert again is not None and again["name"] == "Ambush"
    assert again["projection"] == {"position": 7, "store": 9, "behind": 2, "generation": "g1"}

    board(client, "g2", prefix, "Ambush, rebuilt", 9)
    client.set(pointer, "g2")  # a rebuild switched generations
    switched = reader.board("e1")
    assert switched is not None and switched["name"] == "Ambush, rebuilt"
    assert switched["projection"]["generation"] == "g2"
    assert switched["projection"]["behind"] == 0

    client.delete(pointer)  # a flushed Redis: no views until the runner starts again
    assert reader.board("e1") is None
    assert reader.vitals("c1") is None
    assert reader.audit("c1", 0, 10)["projection"]["generation"] is None
    client.delete(*client.keys(f"{prefix}:*"))
