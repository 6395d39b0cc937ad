"""A rebuild's fresh generation is not read back from Redis until it has to be."""

from __future__ import annotations

from typing import Any

import orjson

from skald_campaign.projections.staging import Guard, StagedViews


class CountingClient:
    """Enough of a Redis client for StagedViews: counts reads, answers commits."""

    def __init__(self) -> None:
        self.reads = 0

    def register_script(self, script: str) -> Any:
        return lambda keys, args: b"ok"

    def get(self, key: str) -> Any:
        self.reads += 1
        return orjson.dumps({"from": "redis"})

    def hget(self, key: str, field: str) -> Any:
        self.reads += 1
        return orjson.dumps({"from": "redis"})


GUARD = Guard(None, "", "e", "", "app", ["t"], [None])


def test_a_fresh_root_is_not_read_until_the_cache_is_dropped_after_a_commit() -> None:
    client = CountingClient()
    staged = StagedViews(client, fresh=True)  # type: ignore[arg-type]
    staged.forget()  # the engine's first sync: nothing sent yet, the root still empty
    assert (staged.get("k"), staged.get_field("h", "f"), client.reads) == (None, None, 0)
    staged.put("k", {"n": 1})
    assert staged.commit(GUARD, [1]) == "ok"
    assert (staged.get("k"), client.reads) == ({"n": 1}, 0)
    staged.forget()  # dropped after a commit: Redis alone has what was committed
    assert (staged.get("k"), staged.get_field("h", "f"), client.reads) == (
        {"from": "redis"},
        {"from": "redis"},
        2,
    )


def test_a_root_not_known_fresh_is_read() -> None:
    client = CountingClient()
    staged = StagedViews(client)  # type: ignore[arg-type]
    assert (staged.get("k"), client.reads) == ({"from": "redis"}, 1)
