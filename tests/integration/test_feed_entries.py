"""The feed entries a runner keeps for this process's feed readers
(projections/feed_entries.py, api/feed_hub.py), with a real store and a real Redis: a
reader takes the entries this process's runner committed from memory, without reading
the campaign's log, and gets exactly what the log holds; an entry someone else
committed, or kept under another place in the log or another Redis, is read from Redis;
nothing is kept while no reader is open, nor by a commit that did not land."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import orjson
import pytest
import redis.asyncio as aioredis
from fastapi.testclient import TestClient

from skald_campaign.api.feed_hub import Entry, read_after
from skald_campaign.projections.engine import ProjectionEngine
from skald_campaign.projections.feed_entries import KEPT, server_of
from skald_campaign.projections.keys import ViewKeys
from tests.helpers import act, enrol, new_campaign, start
from tests.integration.projection_support import current_root

SHEET = {"st": 12, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10}


def services(client: TestClient) -> Any:
    return client.app.state.backend  # type: ignore[attr-defined]


@pytest.fixture
def reader_open() -> Iterator[None]:
    """As while a feed reader of this process is open."""
    KEPT.opened()
    try:
        yield
    finally:
        KEPT.closed()


def a_fight(client: TestClient) -> str:
    """A campaign with a fight and three hits in the store (the views not projected:
    this client runs no workers)."""
    cid = new_campaign(client, "stamina-body", name="Kept")
    bran = enrol(client, cid, "Bran", SHEET)
    eid = start(client, cid, [{"character_id": bran, "side": "party", "rank": 1}])
    for _ in range(3):
        act(
            client,
            cid,
            eid,
            "take_hit",
            None,
            {"damage": [3]},
            target=bran,
            damage_type="impact",
            damage_class=1,
        )
    return cid


def engine(client: TestClient, keep_feed: bool) -> ProjectionEngine:
    s = services(client)
    app = s.application
    return ProjectionEngine(
        s.redis, app.mapper, app.name, prefix=s.redis_prefix, keep_feed=keep_feed
    )


def project_all(client: TestClient, engine: ProjectionEngine) -> bool:
    notifications = services(client).application.recorder.select_notifications(start=1, limit=1000)
    return engine.apply(notifications)


class Counted:
    """The feed reader's Redis client, its LRANGEs (reads of a campaign's log) counted."""

    def __init__(self, url: str) -> None:
        self.client = aioredis.Redis.from_url(url)
        self.lranges = 0
        lrange = self.client.lrange

        async def counted(*args: Any) -> Any:
            self.lranges += 1
            return await lrange(*args)

        self.client.lrange = counted  # type: ignore[method-assign]
        self.server = server_of(self.client.connection_pool.connection_kwargs)


def read(client: TestClient, cid: str, as_the_hub: bool = True) -> tuple[list[Entry], int]:
    """The campaign's feed from its start as the feed hub reads it (naming its Redis,
    so what this process kept is taken; else from Redis alone), and how many LRANGEs
    that took."""
    s = services(client)

    async def go() -> tuple[list[Entry], int]:
        reader = Counted(s.redis_url)
        try:
            keys = ViewKeys(current_root(s.redis, s.redis_prefix))
            server = reader.server if as_the_hub else None
            found = await read_after(reader.client, keys, cid, 0, None, server)
            return found, reader.lranges
        finally:
            await reader.client.aclose()

    return asyncio.run(go())


def the_log(client: TestClient, cid: str) -> list[Entry]:
    """The campaign's feed as the stream and the log in Redis hold it."""
    s = services(client)
    keys = ViewKeys(current_root(s.redis, s.redis_prefix))
    stream: Any = s.redis.xrange(keys.feed(cid))
    log: Any = s.redis.lrange(keys.audit(cid), 0, -1)
    return [
        (int(entry_id.split(b"-")[0]), log[int(fields[b"seq"]) - 1].decode())
        for entry_id, fields in stream
    ]


def test_a_reader_takes_what_this_process_runner_committed_without_reading_the_log(
    client: TestClient, reader_open: None
) -> None:
    cid = a_fight(client)
    assert project_all(client, engine(client, keep_feed=True))
    found, lranges = read(client, cid)
    assert lranges == 0
    assert found == the_log(client, cid)
    assert [orjson.loads(data)["type"] for _, data in found] == [
        "Campaign.Created",
        "Campaign.CharacterEnrolled",
        "Encounter.Started",
        "Campaign.EncounterOpened",
        *["Encounter.ActionResolved"] * 3,
    ]
    assert read(client, cid, as_the_hub=False) == (found, 1)  # Redis alone: the same, one LRANGE


def test_what_another_runner_committed_is_read_from_the_log(
    client: TestClient, reader_open: None
) -> None:
    cid = a_fight(client)
    assert project_all(client, engine(client, keep_feed=False))  # as another process's
    found, lranges = read(client, cid)
    assert lranges == 1
    assert found == the_log(client, cid)


def test_an_entry_kept_at_another_place_in_the_log_or_for_another_redis_is_not_taken(
    client: TestClient, reader_open: None
) -> None:
    cid = a_fight(client)
    assert project_all(client, engine(client, keep_feed=False))
    s = services(client)
    key = ViewKeys(current_root(s.redis, s.redis_prefix)).feed(cid)
    log = the_log(client, cid)
    first = log[0][0]
    server = server_of(s.redis.connection_pool.connection_kwargs)
    elsewhere = [(key, n, seq, b'"elsewhere"') for seq, (n, _) in enumerate(log, 2)]
    KEPT.settle(KEPT.keep(server, elsewhere), landed=True)
    KEPT.settle(KEPT.keep("elsewhere:6379/0", [(key, first, 1, b'"another Redis"')]), True)
    found, lranges = read(client, cid)
    assert lranges == 1
    assert found == log


def test_nothing_is_kept_while_no_reader_is_open(client: TestClient) -> None:
    cid = a_fight(client)
    assert not KEPT.wanted()
    assert project_all(client, engine(client, keep_feed=True))
    KEPT.opened()  # a reader opens only now: the entries were not kept
    try:
        found, lranges = read(client, cid)
    finally:
        KEPT.closed()
    assert lranges == 1
    assert found == the_log(client, cid)


def test_a_commit_that_met_a_conflict_keeps_nothing(client: TestClient, reader_open: None) -> None:
    cid = a_fight(client)
    late = engine(client, keep_feed=True)
    late.sync()
    assert project_all(client, engine(client, keep_feed=False))  # another runner got there first
    assert not project_all(client, late)  # its guard failed: nothing landed
    found, lranges = read(client, cid)
    assert lranges == 1
    assert found == the_log(client, cid)


@pytest.mark.parametrize("landed", [True, False])
def test_a_reader_that_finds_a_commit_in_flight_waits_for_its_answer(
    client: TestClient, reader_open: None, landed: bool
) -> None:
    """Redis wakes the reader as it runs the commit, before the runner has the answer:
    the reader takes the entries once the commit is answered as landed, and reads the
    log if it did not land."""
    cid = a_fight(client)
    assert project_all(client, engine(client, keep_feed=False))
    s = services(client)
    key = ViewKeys(current_root(s.redis, s.redis_prefix)).feed(cid)
    log = the_log(client, cid)
    server = server_of(s.redis.connection_pool.connection_kwargs)
    in_flight = KEPT.keep(server, [(key, n, seq, b'"kept"') for seq, (n, _) in enumerate(log, 1)])

    async def go() -> tuple[list[Entry], int]:
        reader = Counted(s.redis_url)
        try:
            keys = ViewKeys(current_root(s.redis, s.redis_prefix))
            reading = asyncio.create_task(
                read_after(reader.client, keys, cid, 0, None, reader.server)
            )
            while not in_flight.waiters:  # the reader found the entries and waits
                assert not reading.done()
                await asyncio.sleep(0)
            await asyncio.to_thread(KEPT.settle, in_flight, landed)  # on another thread
            return await reading, reader.lranges
        finally:
            await reader.client.aclose()

    found, lranges = asyncio.run(go())
    assert in_flight.landed is landed
    if landed:
        assert (found, lranges) == ([(n, '"kept"') for n, _ in log], 0)
    else:
        assert (found, lranges) == (log, 1)
