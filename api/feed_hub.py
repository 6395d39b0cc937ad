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
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from typing import Any

import redis.asyncio as aioredis

from skald_campaign.projections.keys import Generations, ViewKeys

BLOCK_MS = 1000  # how long one XREAD waits; also how soon a rebuilt generation is noticed
READ_COUNT = 200
Entry = tuple[int, str]  # (notification id, the audit entry's JSON)
Batch = list[Entry] | Exception  # a reader's batch, or why it stopped


async def read_after(
    client: aioredis.Redis, keys: ViewKeys, campaign_id: str, after: int, block: int | None
) -> list[Entry]:
    """The feed's entries after ``after`` (waiting up to ``block`` ms for one), each
    with its audit entry."""
    key = keys.feed(campaign_id)
    result: Any = await client.xread({key: f"{after}-0"}, block=block, count=READ_COUNT)
    found: list[Entry] = []
    for _, entries in result or []:
        seqs = [int(fields[b"seq"]) for _, fields in entries]
        log: Any = await client.lrange(keys.audit(campaign_id), seqs[0] - 1, seqs[-1] - 1)
        for (entry_id, _), seq in zip(entries, seqs, strict=True):
            found.append((int(entry_id.split(b"-")[0]), log[seq - seqs[0]].decode()))
    return found


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
        self.task = asyncio.get_running_loop().create_task(self._read())
        self.task.add_done_callback(settled)

    async def _read(self) -> None:
        client, generations = self.hub.client, self.hub.generations
        try:
            while True:
                keys = await current_keys(client, generations)
                if keys is None:  # no views yet (or a flushed Redis): wait for the runner
                    await asyncio.sleep(BLOCK_MS / 1000)
                    continue
                batch = await read_after(client, keys, self.campaign_id, self.position, BLOCK_MS)
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
        self.feeds: dict[str, CampaignFeed] = {}

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
