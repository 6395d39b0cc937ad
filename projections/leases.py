"""Who is building which views, and what is left of rebuilds that died.

A rebuild writes a root of its own in Redis (a new generation, or a campaign rebuild's
scratch root) that may grow to hundreds of MB. A rebuild that fails or is interrupted
deletes it before the error goes on (`abandoned`); one that cannot (killed with
SIGKILL, the machine lost) leaves it, and the next rebuild sweeps it (`sweep_orphans`).

To tell a root that is being written from an orphan, every rebuild holds a lease on
its root before it writes the first key: a hash under ``{prefix}:views:building:``
with a random token and the processes writing it, and a time to live that the
rebuild renews while it works (`Lease.keep`). A root is an orphan when it is not the
current generation and its lease is gone: expired, or held by processes that have
all ended (checked on this machine, through /proc, so that a rebuild run again right
after a kill sweeps what the killed one left without waiting for the time to live).

Why this is free of races: (1) a rebuild takes its lease on a name never used before
(a generation from the counter's INCR, a random scratch name) before it writes any key
under it, so any key a sweeper finds was written under a lease; (2) a lease is never
taken again once gone: renewing it and the switch to the new views (projections/
rebuild.py, `_SWITCH` and `_SWAP`) each check the token in the same script as what
they do, and fail if it is not there; (3) a sweeper removes a stale lease and checks
the pointer in one script (`_CLAIM`). So once a sweeper has claimed a root, nothing
can make it current or live again: a rebuild that was only stalled (paused past its
lease) finds its lease gone at its next batch or at its switch, fails, and deletes
what it wrote since. The current generation is never claimed: the script compares it
with the pointer, which only a lease holder's switch moves.
"""

from __future__ import annotations

import logging
import os
import re
import signal
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType

import orjson
import redis

from skald_campaign.projections.keys import Generations, delete_root, root_pages
from skald_campaign.projections.narrow import redis_text

log = logging.getLogger("skald.rebuild")

LEASE_SECONDS = 60.0  # how long a rebuild that stops renewing (stalled, on another machine) is live
RENEW_SECONDS = 10.0  # how often a working rebuild renews it

# The roots a rebuild writes: generations (projections/keys.py) and campaign scratch roots.
_ROOT = re.compile(rb"(g[0-9]+|rebuild-[0-9a-f]+):")

_TAKE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'token', ARGV[1], 'holder', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
"""

# Renewed, or its holders changed, only while it is still this rebuild's: never brought back.
_RENEW = """
if redis.call('HGET', KEYS[1], 'token') ~= ARGV[1] then return 0 end
if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'holder', ARGV[3]) end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
"""

_RELEASE = """
if redis.call('HGET', KEYS[1], 'token') == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
"""

# KEYS: pointer, lease; ARGV: the root's name, the token of the lease judged stale ('' if
# none was found). An orphan: not current, and its lease gone or still the stale one.
_CLAIM = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return 0 end
local token = redis.call('HGET', KEYS[2], 'token')
if token and token ~= ARGV[2] then return 0 end
redis.call('DEL', KEYS[2])
return 1
"""


def lease_key(prefix: str, name: str) -> str:
    return f"{prefix}:views:building:{name}"


# --- which processes hold a lease, and whether they are still running -----------------


def _machine() -> str | None:
    """This kernel's boot and this PID namespace: where a pid means the same process."""
    try:
        boot = open("/proc/sys/kernel/random/boot_id").read().strip()  # noqa: SIM115
        return f"{boot}/{os.readlink('/proc/self/ns/pid')}"
    except OSError:
        return None  # not Linux: the time to live alone says whether a lease is live


def _started(pid: int) -> str | None:
    """When ``pid`` started (clock ticks after boot), None if it is not running (gone, or a
    zombie): with the pid, it names one process, never a later one given the same pid."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rpartition(b")")[2].split()
    except OSError:
        return None
    state, start = fields[0], fields[19]
    return None if state in (b"Z", b"X", b"x") else start.decode()


def holder(pids: Sequence[int]) -> bytes:
    machine = _machine()
    return orjson.dumps(
        {
            "machine": machine,
            "processes": [[pid, _started(pid)] for pid in pids] if machine else [],
            "host": os.uname().nodename,
        }
    )


def holder_running(raw: bytes | str | None) -> bool:
    """False only when the holder is known to be gone: every process it named, on this
    machine, has ended. Another machine's, or one we cannot read: live (until its lease
    expires)."""
    if raw is None:
        return True
    try:
        found = orjson.loads(raw)
        machine, processes = found["machine"], found["processes"]
    except (orjson.JSONDecodeError, KeyError, TypeError):
        return True
    if machine is None or machine != _machine() or not processes:
        return True
    return any(start is not None and _started(pid) == start for pid, start in processes)


class Lease:
    """A rebuild's claim on the root it writes, renewed while it works."""

    def __init__(self, client: redis.Redis, prefix: str, name: str) -> None:
        self.client = client
        self.key = lease_key(prefix, name)
        self.name = name
        self.token = uuid.uuid4().hex
        self.renewed = 0.0
        self.became_current = False  # switched to: the lease is gone, the pointer protects it
        self._renew = client.register_script(_RENEW)

    @classmethod
    def take(cls, client: redis.Redis, prefix: str, name: str) -> Lease:
        lease = cls(client, prefix, name)
        taken = client.register_script(_TAKE)(
            keys=[lease.key],
            args=[lease.token, holder([os.getpid()]), int(LEASE_SECONDS * 1000)],
        )
        if not taken:  # a fresh name, so never: but then it is not ours to write
            raise RuntimeError(f"the views {name} are already being built")
        lease.renewed = time.monotonic()
        return lease

    def keep(self, pids: Sequence[int] = ()) -> bool:
        """Renewed if due (or if ``pids``, the processes writing, changed); False if the
        lease is lost (swept as an orphan's): the rebuild must stop."""
        now = time.monotonic()
        if not pids and now - self.renewed < RENEW_SECONDS:
            return True
        who = holder([os.getpid(), *pids]) if pids else b""
        if not self._renew(keys=[self.key], args=[self.token, int(LEASE_SECONDS * 1000), who]):
            return False
        self.renewed = now
        return True

    def release(self) -> None:
        self.client.register_script(_RELEASE)(keys=[self.key], args=[self.token])


# --- cleaning up --------------------------------------------------------------------


@contextmanager
def signals_held(doing: str) -> Iterator[None]:
    """SIGINT and SIGTERM wait while ``doing`` (a cleanup) runs: a second Ctrl-C while a
    failed rebuild deletes its views would otherwise stop the deletion half-way. SIGINT is
    then dropped (the process is stopping already), SIGTERM delivered once done, so that
    the process still ends by it. In the main thread only (the only one that may set
    handlers; Python runs them there whichever thread the signal reached)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        if not held:
            log.warning("still %s: stopping once that is done", doing)
        held.append(signum)

    previous = {s: signal.signal(s, hold) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        if signal.SIGTERM in held:
            signal.raise_signal(signal.SIGTERM)


def measured_delete(client: redis.Redis, root: str) -> tuple[int, int | None]:
    """`delete_root`, and how much the keys took (MEMORY USAGE, asked in the same round
    trip as each page's UNLINK; None if this Redis refuses it, as some managed ones do)."""
    deleted, size = 0, 0
    measured = True
    for page in root_pages(client, root):
        commands = client.pipeline(transaction=False)
        for key in page:
            commands.memory_usage(key)
        commands.unlink(*page)
        *sizes, unlinked = commands.execute(raise_on_error=False)
        if isinstance(unlinked, Exception):
            raise unlinked
        deleted += int(unlinked)
        measured = measured and not any(isinstance(s, Exception) for s in sizes)
        size += sum(int(s) for s in sizes if isinstance(s, int))
    return deleted, size if measured else None


def abandoned(client: redis.Redis, root: str, lease: Lease, before: Callable[[], None]) -> None:
    """A rebuild that fails or is interrupted: ``before`` (stop whatever still writes
    under ``root``), then delete the root and release its lease, SIGINT and SIGTERM held
    meanwhile. Called while the error goes on: a failure here is logged, not raised over
    it; what it leaves, the next rebuild sweeps. Nothing if the root was switched to (a
    signal held during the switch, raised once it was made)."""
    if lease.became_current:
        return
    with signals_held(f"deleting the unfinished views {lease.name}"):
        try:
            before()
            deleted = delete_root(client, root)
            lease.release()
            log.info("deleted the unfinished views %s (%d keys)", lease.name, deleted)
        except Exception as error:
            log.warning(
                "could not delete the unfinished views %s (%s): the next rebuild sweeps them",
                lease.name,
                error,
            )


# --- sweeping -----------------------------------------------------------------------


@dataclass(frozen=True)
class Swept:
    name: str
    keys: int
    bytes: int | None

    def line(self) -> str:
        size = f", {self.bytes / 1e6:,.1f} MB" if self.bytes is not None else ""
        return f"{self.name} ({self.keys:,} keys{size})"


def sweep_orphans(client: redis.Redis, prefix: str) -> list[Swept]:
    """Delete every root under the prefix's views left by a rebuild that died: not the
    current generation, and no live lease (see the module's docstring for why no live
    rebuild's root is ever taken)."""
    generations = Generations(prefix)
    start = len(f"{prefix}:views:")
    names: set[str] = set()
    for key in client.scan_iter(match=f"{prefix}:views:*", count=1000):
        found = _ROOT.match(key, start)
        if found:
            names.add(found.group(1).decode())
    current = generations.current(client)
    claim = client.register_script(_CLAIM)
    swept = []
    for name in sorted(names - {current} if current else names):
        key = lease_key(prefix, name)
        token = redis_text(client.hget(key, "token"))
        if token is not None and holder_running(client.hget(key, "holder")):
            continue  # another rebuild's, live
        if not claim(keys=[generations.pointer, key], args=[name, token or ""]):
            continue
        keys, size = measured_delete(client, generations.root(name))
        swept.append(Swept(name, keys, size))
        log.info("swept the views %s left by a rebuild that died", swept[-1].line())
    return swept
