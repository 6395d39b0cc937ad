"""One reader per campaign feed in a process, fanning the entries out to its clients.

Each SSE client used to poll Redis itself: a blocking XREAD, a GET of the generation
pointer and an LRANGE per wake-up, per client (bench/README.md, issue 28: the feed's
share of live lag under load). Now the first client of a campaign starts one reader
task in this process (per event loop); every client of that campaign gets the reader's
batches from a queue of its own, and the reader ends with the last client.

No gap, no repeat: a client subscribes first, then catches up from Redis itself from
its own position to the stream's end (api/routes/feed.py), then takes the reader's
batches, skipping what it already sent (entry ids are notification ids, in order).
The reader starts after the stream's last entry at the moment of the first
subscription, and a later subscriber joins between two of its batches, so every entry
after a subscription is in the queue or in the catch-up, or both. The reader reads the
generation pointer before each read, so a rebuild's switch is noticed within
``BLOCK_MS``, as before.

The reader's XREAD says which entries there are; their JSON comes from what this
process's projection runner kept as it committed them (projections/feed_entries.py),
and from the campaign's log in Redis (an LRANGE) only for entries it did not keep.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from functools import partial
from typing import Any

import redis.asyncio as aioredis

from skald_campaign.projections.feed_entries import KEPT, server_of
from skald_campaign.projections.keys import Generations, ViewKeys

BLOCK_MS = 1000  # how long one XREAD waits; also how soon a rebuilt generation is noticed
READ_COUNT = 200
Entry = tuple[int, str]  # (notification id, the audit entry's JSON)
Batch = list[Entry] | Exception  # a reader's batch, or why it stopped


async def read_after(
    client: aioredis.Redis,
    keys: ViewKeys,
    campaign_id: str,
    after: int,
    block: int | None,
    server: str | None = None,
) -> list[Entry]:
    """The feed's entries after ``after`` (waiting up to ``block`` ms for one), each
    with its audit entry: taken from what this process's runner kept when it committed
    them (projections/feed_entries.py) if it kept them all and ``server`` names the
    client's Redis, else read from the campaign's log."""
    key = keys.feed(campaign_id)
    result: Any = await client.xread({key: f"{after}-0"}, block=block, count=READ_COUNT)
    found: list[Entry] = []
    for _, entries in result or []:
        ids = [int(entry_id.split(b"-")[0]) for entry_id, _ in entries]
        seqs = [int(fields[b"seq"]) for _, fields in entries]
        kept = None if server is None else await taken(server, key, ids, seqs)
        if kept is not None:
            found.extend(zip(ids, kept, strict=True))
            continue
        log: Any = await client.lrange(keys.audit(campaign_id), seqs[0] - 1, seqs[-1] - 1)
        for n, seq in zip(ids, seqs, strict=True):
            found.append((n, log[seq - seqs[0]].decode()))
    return found


async def taken(server: str, key: str, ids: list[int], seqs: list[int]) -> list[str] | None:
    """The JSON of these entries of ``key`` as this process's runner kept them, once the
    commits that wrote them are answered; None unless every one was kept and landed."""
    found = [KEPT.find(server, key, n, seq) for n, seq in zip(ids, seqs, strict=True)]
    if None in found:
        return None
    kept = [entry for entry in found if entry is not None]
    for commit in {commit for _, commit in kept if commit.landed is None}:
        answered = asyncio.get_running_loop().create_future()
        if KEPT.when_settled(commit, partial(settle_soon, answered)):
            with suppress(TimeoutError):
                await asyncio.wait_for(answered, BLOCK_MS / 1000)
    if not all(commit.landed for _, commit in kept):
        return None
    return [raw.decode() for raw, _ in kept]


def settle_soon(answered: asyncio.Future[None]) -> None:
    """Called on the runner's thread: the waiting reader is woken on its loop."""
    loop = answered.get_loop()
    if not loop.is_closed():
        loop.call_soon_threadsafe(lambda: None if answered.done() else answered.set_result(None))


async def current_keys(client: aioredis.Redis, generations: Generations) -> ViewKeys | None:
    generation: Any = await client.get(generations.pointer)
    return None if generation is None else ViewKeys(generations.root(generation.decode()))


def settled(task: asyncio.Task[None]) -> None:
    """Takes a cancelled reader's CancelledError from its task. The task keeps it until
    asked, and its traceback holds the reader's frame, which holds the feed, which holds
    the task: a cycle reference counting cannot free, which `skald serve` keeps for good
    once a freeze caught it (cli.keep_out_of_collections). Asked, the error goes."""
    if task.cancelled():
        with suppress(asyncio.CancelledError):
            task.result()


class CampaignFeed:
    """The reader of one campaign's feed and the queues of its clients."""

    def __init__(self, hub: FeedHub, campaign_id: str, start: int) -> None:
        self.hub = hub
        self.campaign_id = campaign_id
        self.position = start
        self.queues: set[asyncio.Queue[Batch]] = set()
        KEPT.opened()  # this process's runner keeps the entries it commits while it reads
        self.task = asyncio.get_running_loop().create_task(self._read())
        self.task.add_done_callback(settled)
        self.task.add_done_callback(lambda _: KEPT.closed())

    async def _read(self) -> None:
        client, generations = self.hub.client, self.hub.generations
        try:
            while True:
                keys = await current_keys(client, generations)
                if keys is None:  # no views yet (or a flushed Redis): wait for the runner
                    await asyncio.sleep(BLOCK_MS / 1000)
                    continue
                batch = await read_after(
                    client, keys, self.campaign_id, self.position, BLOCK_MS, self.hub.server
                )
                if batch:
                    self.position = batch[-1][0]
                    for queue in self.queues:
                        queue.put_nowait(batch)
        except Exception as error:  # Redis went away, above all: every client is told
            for queue in self.queues:
                queue.put_nowait(error)
            self.hub.feeds.pop(self.campaign_id, None)  # the next client starts afresh


class FeedHub:
    """This process's feed readers (on one event loop), by campaign."""

    def __init__(self, redis_url: str, generations: Generations) -> None:
        self.client = aioredis.Redis.from_url(redis_url)
        self.generations = generations
        self.server = server_of(self.client.connection_pool.connection_kwargs)
        self.feeds: dict[str, CampaignFeed] = {}

    async def close(self) -> None:
        """Stop the readers and close the connections to Redis. Left to the collector,
        the client's pool and its connections stayed open until a finalizer freed them
        (in a test process, in the middle of another test's measure: session 18's CI)."""
        readers = [feed.task for feed in self.feeds.values()]
        self.feeds.clear()
        for reader in readers:
            reader.cancel()
        if readers:
            await asyncio.wait(readers)
        await self.client.aclose()

    @asynccontextmanager
    async def subscribe(self, campaign_id: str) -> AsyncIterator[asyncio.Queue[Batch]]:
        """A queue of the campaign's batches read from now on; the reader stops with
        its last client."""
        queue: asyncio.Queue[Batch] = asyncio.Queue()
        if campaign_id not in self.feeds:
            start = await self._stream_end(campaign_id)
            if campaign_id not in self.feeds:  # no other client started one meanwhile
                self.feeds[campaign_id] = CampaignFeed(self, campaign_id, start)
        feed = self.feeds[campaign_id]
        feed.queues.add(queue)
        try:
            yield queue
        finally:
            feed.queues.discard(queue)
            if not feed.queues and self.feeds.get(campaign_id) is feed:
                del self.feeds[campaign_id]
                feed.task.cancel()

    async def _stream_end(self, campaign_id: str) -> int:
        keys = await current_keys(self.client, self.generations)
        if keys is None:
            return 0
        last: Any = await self.client.xrevrange(keys.feed(campaign_id), count=1)
        return int(last[0][0].split(b"-")[0]) if last else 0


_HUBS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[tuple[str, str], FeedHub]] = (
    weakref.WeakKeyDictionary()
)


def hub_for(redis_url: str, generations: Generations) -> FeedHub:
    """The running event loop's hub for these views (a client is bound to its loop)."""
    hubs = _HUBS.setdefault(asyncio.get_running_loop(), {})
    key = (redis_url, generations.prefix)
    if key not in hubs:
        hubs[key] = FeedHub(redis_url, generations)
    return hubs[key]


async def close_hubs_here() -> None:
    """Close this event loop's hubs (the server stops serving on it)."""
    for hub in _HUBS.pop(asyncio.get_running_loop(), {}).values():
        await hub.close()
