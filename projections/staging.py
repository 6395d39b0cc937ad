"""The views a projection engine reads and writes, staged between commits.

Reads go through a cache of decoded values, so a batch touching one character
a hundred times reads it once. The cache outlives a batch: every writer of the
views moves their tracking positions (or the epoch), and the commit checks
those, so a cache that survived a successful commit is still the truth. After a
conflict the engine forgets it and reads again.

Writes are staged and go to Redis in one script per batch (``commit``), together
with the tracking positions: either all of a batch lands, or none of it (a rebuild's
JSON aside, which goes beside the script in the same MULTI: see ``bulk_apart``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import orjson
import redis

from skald_campaign.projections.feed_entries import Kept

MISSING = object()
OUTGROWN = -1  # a stream whose entries wait for the flush (StagedViews.streamed)
CHUNK = 500  # values per HSET inside the script: Lua's unpack has a stack limit
CACHE_LIMIT = 200_000  # cached keys and hash fields before the cache is dropped

_COMMIT = """
local CHUNK = 500
local p = tonumber(ARGV[4])
if ARGV[1] ~= '' then
  if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 'generation' end
end
if (redis.call('GET', KEYS[2]) or '') ~= ARGV[2] then return 'epoch' end
for n = 1, p do
  if (redis.call('HGET', KEYS[2 + n], ARGV[3]) or '') ~= ARGV[4 + n] then return 'tracking' end
end
local i = 5 + 2 * p
while i <= #ARGV do
  local op, key = ARGV[i], KEYS[tonumber(ARGV[i + 1])]
  if op == 'S' then
    redis.call('SET', key, ARGV[i + 2])
    i = i + 3
  elseif op == 'H' then
    local n = tonumber(ARGV[i + 2])
    redis.call('HSET', key, unpack(ARGV, i + 3, i + 2 + 2 * n))
    i = i + 3 + 2 * n
  elseif op == 'R' then
    -- values arrive as one blob and their lengths: far cheaper to send than one
    -- argument each
    local blob, at, values = ARGV[i + 3], 1, {}
    for length in string.gmatch(ARGV[i + 2], '%d+') do
      values[#values + 1] = string.sub(blob, at, at + tonumber(length) - 1)
      at = at + tonumber(length)
      if #values == CHUNK then redis.call('RPUSH', key, unpack(values)); values = {} end
    end
    if #values > 0 then redis.call('RPUSH', key, unpack(values)) end
    i = i + 4
  elseif op == 'X' then
    -- entries as 'id seq id seq ...': the stream entry id, and the audit entry it names
    for id, seq in string.gmatch(ARGV[i + 3], '(%S+) (%d+)') do
      redis.call('XADD', key, 'MAXLEN', ARGV[i + 2], id, 'seq', seq)
    end
    i = i + 4
  elseif op == 'Z' then
    -- sorted set members as 'score member score member ...'
    local pairs_ = {}
    for score, member in string.gmatch(ARGV[i + 2], '(%S+) (%S+)') do
      pairs_[#pairs_ + 1] = score
      pairs_[#pairs_ + 1] = member
      if #pairs_ == 2 * CHUNK then redis.call('ZADD', key, unpack(pairs_)); pairs_ = {} end
    end
    if #pairs_ > 0 then redis.call('ZADD', key, unpack(pairs_)) end
    i = i + 3
  elseif op == 'Y' then
    -- sorted set members of any bytes: their scores, their lengths, then one blob
    local blob, at, pairs_ = ARGV[i + 4], 1, {}
    local lengths = string.gmatch(ARGV[i + 3], '%d+')
    for score in string.gmatch(ARGV[i + 2], '%S+') do
      local length = tonumber(lengths())
      pairs_[#pairs_ + 1] = score
      pairs_[#pairs_ + 1] = string.sub(blob, at, at + length - 1)
      at = at + length
      if #pairs_ == 2 * CHUNK then redis.call('ZADD', key, unpack(pairs_)); pairs_ = {} end
    end
    if #pairs_ > 0 then redis.call('ZADD', key, unpack(pairs_)) end
    i = i + 5
  else
    return redis.error_reply('unknown op ' .. op)
  end
end
for n = 1, p do
  redis.call('HSET', KEYS[2 + n], ARGV[3], ARGV[4 + p + n])
end
return 'ok'
"""


def dumps(value: object) -> bytes:
    return orjson.dumps(value, default=str)


def loads(raw: object) -> object:
    """A value read from Redis: decoded JSON, or None for a missing key."""
    if raw is None:
        return None
    if isinstance(raw, (bytes, bytearray, memoryview, str)):
        return orjson.loads(raw)
    raise TypeError(f"Redis answered {type(raw).__name__}, not bytes")


# One argument of the commit script (redis-py sends each as bytes).
Arg = str | int | bytes
# A commit: the script's keys and arguments, and the plain commands sent beside it.
Prepared = tuple[list[str], list[Arg], list[tuple[Arg, ...]]]


@dataclass(frozen=True)
class Guard:
    """What must still hold in Redis for a batch to land (else it is a conflict)."""

    pointer: str | None  # the generation pointer key, or None for a fixed root
    generation: str
    epoch_key: str
    epoch: str
    application: str
    tracking_keys: Sequence[str]
    positions: Sequence[int | None]


class StagedViews:
    def __init__(
        self,
        client: redis.Redis,
        cache_limit: int = CACHE_LIMIT,
        defer_streams: bool = False,
        fresh: bool = False,
        bulk_apart: bool = False,
    ) -> None:
        self.client = client
        # A rebuild, sole writer of a root no one reads until it is complete: each
        # batch's audit entries and logged events (~3 KB of JSON each) go as plain RPUSH
        # and ZADD beside the guarded script, in one MULTI/EXEC, rather than as blobs the
        # script splits into Lua strings, each copied again into Redis's own (Lua's
        # strings were ~20% of Redis's CPU in a rebuild; ~0.4 s of its ~2 s for 100,300
        # events, bench/README.md "rebuild19 lane"). Atomic as before for any reader; but
        # a commit whose guard fails still writes them, into that root, which the failed
        # rebuild then never switches to: so only for a rebuild, never a live runner.
        self.bulk_apart = bulk_apart
        self.cache_limit = cache_limit
        # A rebuild fills a generation no one reads until it is complete: the capped
        # streams need only their last entries, written once at the end (``flush``).
        # Only those of a stream that has outgrown its cap, though: until then none of
        # its entries will be trimmed, and they go with each batch's commit, which
        # Redis runs while the next batch is projected, rather than all at the end,
        # which everyone waits for (a quarter of a second of a 100,000-event rebuild
        # whose campaigns all fit in their feeds, bench/README.md).
        self.defer_streams = defer_streams
        self._commit = client.register_script(_COMMIT)
        self.stream_entries: dict[str, tuple[int, list[tuple[str, int]]]] = {}
        # Entries of each stream written before the flush; OUTGROWN once it went past
        # its cap (its entries then wait for the flush, so they stay in order).
        self.streamed: dict[str, int] = {}
        # A new generation's root is empty and only its rebuild writes it (the commit's
        # guard checks that): a key missing from the cache is missing from Redis, so
        # reading it would be a round trip for nothing (one per new campaign and
        # encounter). Only until the cache is dropped after a commit was sent: from
        # then on, what was committed is in Redis alone.
        self.fresh = fresh
        self.sent = False
        # The feed entries of the batch being staged, with their JSON, while the engine
        # keeps them for this process's feed readers (projections/feed_entries.py); None
        # while it does not.
        self.feed_kept: list[Kept] | None = None
        self.forget()

    def forget(self) -> None:
        """Drop the cache and what is staged; deferred stream entries of batches already
        committed stay until they are written."""
        if self.sent:
            self.fresh = False
        self.values: dict[str, object] = {}
        self.fields: dict[str, dict[str, object]] = {}
        self._clear_staged(streams=not self.defer_streams)

    def _within_caps(self) -> list[tuple[str, tuple[int, list[tuple[str, int]]]]]:
        """The deferred entries of the streams that, with them, are still within their
        caps (none of them will be trimmed): taken out of the deferred ones, to be
        written now. A stream that outgrows its cap waits for the flush from then on."""
        ready = []
        for key, (maxlen, entries) in list(self.stream_entries.items()):
            written = self.streamed.get(key, 0)
            if written == OUTGROWN or not entries:
                continue
            if written + len(entries) > maxlen:
                self.streamed[key] = OUTGROWN
                continue
            self.streamed[key] = written + len(entries)
            ready.append((key, (maxlen, entries)))
            del self.stream_entries[key]
        return ready

    def _clear_staged(self, streams: bool = True) -> None:
        self.dirty_values: set[str] = set()
        self.dirty_fields: dict[str, set[str]] = {}
        self.appends: dict[str, list[bytes]] = {}
        self.indexed: dict[str, list[tuple[int, str]]] = {}
        self.ranked: dict[str, list[tuple[int, bytes]]] = {}
        if streams:
            self.stream_entries = {}
        else:  # deferred: keep only what the caps will keep
            for maxlen, entries in self.stream_entries.values():
                del entries[:-maxlen]

    # -- reads (through the cache) -------------------------------------------------

    def get(self, key: str) -> object:
        """The decoded JSON under ``key`` (None if there is none): each caller knows the
        shape of the views it wrote there."""
        value = self.values.get(key, MISSING)
        if value is MISSING:
            value = None if self.fresh else loads(self.client.get(key))
            self.values[key] = value
        return value

    def get_field(self, key: str, field: str) -> object:
        cached = self.fields.setdefault(key, {})
        value = cached.get(field, MISSING)
        if value is MISSING:
            value = None if self.fresh else loads(self.client.hget(key, field))
            cached[field] = value
        return value

    # -- staged writes ---------------------------------------------------------------

    def put(self, key: str, value: object) -> None:
        self.values[key] = value
        self.dirty_values.add(key)

    def put_field(self, key: str, field: str, value: object) -> None:
        self.fields.setdefault(key, {})[field] = value
        self.dirty_fields.setdefault(key, set()).add(field)

    def append(self, key: str, raw: bytes) -> None:
        self.appends.setdefault(key, []).append(raw)

    def index(self, key: str, score: int, member: str) -> None:
        """A member of a sorted set (no spaces in it), by its score."""
        self.indexed.setdefault(key, []).append((score, member))

    def rank(self, key: str, score: int, raw: bytes) -> None:
        """A member of a sorted set that may hold any bytes (a JSON document), by its score."""
        self.ranked.setdefault(key, []).append((score, raw))

    def add_to_stream(self, key: str, entry_id: str, seq: int, maxlen: int) -> None:
        """A capped stream entry that names an audit entry by its place in the log."""
        self.stream_entries.setdefault(key, (maxlen, []))[1].append((entry_id, seq))

    def keep_feed_entry(self, key: str, notification_id: int, seq: int, raw: bytes) -> None:
        """A feed entry's JSON, kept for this process's readers if the engine keeps them."""
        if self.feed_kept is not None:
            self.feed_kept.append((key, notification_id, seq, raw))

    # -- the commit --------------------------------------------------------------------

    def commit(self, guard: Guard, new_positions: Sequence[int | None], flush: bool = False) -> str:
        """Write everything staged and the new positions, if the guard holds; 'ok' or why not.

        Deferred stream entries are written only when ``flush`` is set."""
        outcome = self.settle(self.send(self.prepare(guard, new_positions, flush)))
        if self.over_limit():
            self.forget()
        return outcome

    def settle(self, outcome: str) -> str:
        """After a commit: a conflict means the cache may be stale."""
        if outcome != "ok":
            self.forget()
        return outcome

    def over_limit(self) -> bool:
        """Whether the cache has grown past its limit (forget it once nothing is in flight:
        a read that misses must find every earlier commit in Redis)."""
        return len(self.values) + len(self.fields) > self.cache_limit

    def send(self, prepared: Prepared) -> str:
        """Run a prepared commit (no other state touched: it may run on another thread)."""
        keys, args, bulk = prepared
        self.sent = True
        outcome: object
        if not bulk:
            outcome = self._commit(keys=keys, args=args)
        else:
            pipe = self.client.pipeline(transaction=True)
            self._commit(keys=keys, args=args, client=pipe)
            for command in bulk:
                pipe.execute_command(*command)  # type: ignore[no-untyped-call]
            outcome = pipe.execute()[0]
        return outcome.decode() if isinstance(outcome, bytes) else str(outcome)

    def prepare(
        self, guard: Guard, new_positions: Sequence[int | None], flush: bool = False
    ) -> Prepared:
        """The commit script's keys and arguments for everything staged, which is cleared;
        and, with ``bulk_apart``, the appends and ranked members as plain commands."""
        write_streams = flush or not self.defer_streams
        keys = [guard.pointer or guard.epoch_key, guard.epoch_key, *guard.tracking_keys]
        index: dict[str, int] = {}

        def key_ref(key: str) -> int:
            if key not in index:
                keys.append(key)
                index[key] = len(keys)  # Lua counts from 1
            return index[key]

        args: list[Arg] = [
            guard.generation if guard.pointer else "",
            guard.epoch,
            guard.application,
            len(guard.tracking_keys),
            *("" if p is None else str(p) for p in guard.positions),
            *("" if p is None else str(p) for p in new_positions),
        ]
        for key in self.dirty_values:
            args += ["S", key_ref(key), dumps(self.values[key])]
        for key, names in self.dirty_fields.items():
            values = self.fields[key]
            pairs = sorted(names)
            for start in range(0, len(pairs), CHUNK):
                chunk = pairs[start : start + CHUNK]
                args += ["H", key_ref(key), len(chunk)]
                for name in chunk:
                    args += [name, dumps(values[name])]
        bulk: list[tuple[Arg, ...]] = []
        for key, raws in self.appends.items():
            if self.bulk_apart:
                for start in range(0, len(raws), CHUNK):
                    bulk.append(("RPUSH", key, *raws[start : start + CHUNK]))
                continue
            args += ["R", key_ref(key), " ".join(str(len(r)) for r in raws), b"".join(raws)]
        for key, members in self.indexed.items():
            args += ["Z", key_ref(key), " ".join(f"{score} {member}" for score, member in members)]
        for key, ranked in self.ranked.items():
            if self.bulk_apart:
                for start in range(0, len(ranked), CHUNK):
                    flat: list[Arg] = []
                    for score, raw in ranked[start : start + CHUNK]:
                        flat += (score, raw)
                    bulk.append(("ZADD", key, *flat))
                continue
            scores = " ".join(str(score) for score, _ in ranked)
            lengths = " ".join(str(len(raw)) for _, raw in ranked)
            args += ["Y", key_ref(key), scores, lengths, b"".join(raw for _, raw in ranked)]
        for key, (maxlen, entries) in (
            self.stream_entries.items() if write_streams else self._within_caps()
        ):
            # A capped stream keeps only its last maxlen entries, so entries that a
            # later one in this same batch would trim away need not be written.
            listed = " ".join(f"{entry_id} {seq}" for entry_id, seq in entries[-maxlen:])
            args += ["X", key_ref(key), maxlen, listed]
        self._clear_staged(streams=write_streams)
        return keys, args, bulk
