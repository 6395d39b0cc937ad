"""A soak: mixed load on a real `skald serve` (the embedded default, SQLite and the
embedded Redis, in a temporary data directory) for a given time, with kill -9s of the
server, the webhook worker and the embedded Redis at seeded random moments; then the
checks that nothing answered was lost, nothing was stored twice, and the views equal a
rebuild from the store.

    .venv/bin/python bench/soak.py [--minutes 30] [--seed 1] [--tables 3] [--kill-every 90]

The load, all over loopback:

- GM commands and player answers: one "table" thread per campaign plays rounds of an
  encounter: the GM's attack (202, waiting), the defender's declaration with the
  player's key (stamina-body's defender answer), a take_hit, the defender's recover,
  the next round; the dice are supplied from the seeded generator;
- a day advance every minute per campaign (`POST .../days`: the table ends its
  encounter, advances the day and starts a new encounter);
- reads (the vitals, the board, the campaign and encounter audit pages, the event log)
  from a reader thread, and the SSE feed of every campaign (reconnecting with
  `Last-Event-ID` after a kill);
- a webhook per campaign to a local receiver (tests/receiver.py), delivered by a
  standalone `skald worker webhooks` pointed at the embedded Redis's socket
  (`SKALD_WEBHOOKS_WORKER=false` on the server: the process that can be killed apart).

Every write carries an Idempotency-Key and is sent again, with the same key, until it is
answered (a dropped connection, a 5xx or a 429 is no answer), up to a bound. Kills hit a
target chosen by the seeded generator (`skald serve`, whose embedded Redis is left
orphaned until the next start stops it; the webhook worker; the embedded Redis, which
the server starts again by itself), each followed by the restart the target needs.
The healing and projection workers are threads of `skald serve` on the embedded
default: they die with it. The last 20% of the run (at least a minute) has no kills, so
the last server's resident memory and open files are measured over a long life.

At the end, load stopped and the views caught up:

- lost: an answered write (2xx) whose idempotency record, or the version that record
  names, is not in the store; doubled: an aggregate holding more events of a kind than
  the answered writes made (e.g. more `ActionResolved` in an encounter than answered
  actions), or one action number answered to two writes; a refused write (4xx) whose
  record is in the store counts as both an answer and a store that disagree;
- views = rebuild: each character's vitals, each encounter's board, every audit page
  and the event log, read over HTTP from the live views, then again after `skald
  projections rebuild` (the server stopped, then started again), compared; and the
  Redis keys of the two generations, key by key;
- the event log, the feed and the webhook deliveries against the store's positions;
- the server's resident memory (VmRSS) and open files (/proc/PID/fd) at the start of
  the load and at its end (and the embedded Redis's memory).

It prints its figures and exits 1 if anything was lost, doubled or differs (or a write
was never answered), 0 otherwise. Every process it starts is stopped on every path,
Ctrl-C included (bench/processes.py).
"""

# ruff: noqa: E402
from __future__ import annotations

import sys
from pathlib import Path

# This folder holds http.py and projections.py, which would shadow the `http` module
# and the `projections` package: the repository goes first on the path instead.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse
import contextlib
import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import redis
import standardwebhooks

from bench.processes import everything_stopped
from bench.receiver import Receiver
from bench.server import Server
from skald_campaign.projections.keys import Generations

SHEET = {
    "st": 12,
    "con": 12,
    "parry": 11,
    "dodge": 10,
    "stamina_max": 200,
    "body_max": 200,
    "weapons": [{"name": "club", "damage_class": 1, "damage_type": "impact", "skill": 12}],
}
DAY_SECONDS = 60.0
ANSWER_BOUND = 600.0  # seconds one write is sent again before the run gives up on it
CATCH_UP_BOUND = 600.0  # seconds to wait for the views, the feed and the webhooks
KILL_TARGETS = ("serve", "worker", "redis")

# What one answered write adds to the store, by the event's class name (topic's tail):
# the doubled check compares these counts per aggregate with the store's.
ADDS: dict[str, tuple[tuple[str, str], ...]] = {
    "create": (("campaign", "Campaign.Created"),),
    "enrol": (("campaign", "Campaign.CharacterEnrolled"),),
    "key": (("campaign", "Campaign.KeyIssued"),),
    "webhook": (),
    "start": (("encounter", "Encounter.Started"), ("campaign", "Campaign.EncounterOpened")),
    "attack_pending": (("encounter", "Encounter.ExchangeOpened"),),
    "attack_resolved": (("encounter", "Encounter.ActionResolved"),),
    "declare": (
        ("encounter", "Encounter.DefenseDeclared"),
        ("encounter", "Encounter.ActionResolved"),
    ),
    "take_hit": (("encounter", "Encounter.ActionResolved"),),
    "recover": (("encounter", "Encounter.ActionResolved"),),
    "round": (("encounter", "Encounter.RoundStarted"),),
    "end": (("encounter", "Encounter.Ended"), ("campaign", "Campaign.EncounterClosed")),
    "days": (("campaign", "Campaign.DayAdvanced"),),
}
COUNTED = {name for adds in ADDS.values() for _, name in adds}
RECORDED = "IdempotentRequest.Recorded"  # an idempotency record's event (domain/idempotency.py)


def compact(answer: Any) -> dict[str, Any]:
    """What the run reads of an answer: an action's answer holds the whole encounter,
    and kept whole for 10^5 writes they took this process to 21 GB in 26 minutes."""
    if not isinstance(answer, dict):
        return {}
    kept = {k: answer[k] for k in ("id", "gm_key", "key", "secret", "error") if k in answer}
    for part in ("action", "exchange"):
        if isinstance(answer.get(part), dict) and "number" in answer[part]:
            kept[part] = {"number": answer[part]["number"]}
    return kept


class Unanswered(RuntimeError):
    """A write the server did not answer within ANSWER_BOUND."""


@dataclass(slots=True)
class Write:
    kind: str
    method: str
    path: str
    body: Any
    auth: str
    campaign: str
    encounter: str | None = None
    key: str = ""
    status: int = 0
    answer: Any = None
    attempts: int = 0
    dropped: int = 0  # attempts that got no answer (connection refused or cut)
    server_errors: int = 0  # attempts answered 5xx, sent again


@dataclass
class Deliveries:
    """The receiver's deliveries, taken from it as they come (each one verified, only
    its webhook-id kept): held whole, 10^5 bodies and headers would grow without bound."""

    receiver: Receiver
    verifiers: list[standardwebhooks.Webhook] = field(default_factory=list)
    ids: Counter[str] = field(default_factory=Counter)
    bad: int = 0

    def drain(self) -> None:
        with self.receiver.lock:
            batch, self.receiver.received = self.receiver.received, []
        for delivery in batch:
            self.ids[delivery.headers["webhook-id"]] += 1
            self.bad += not any(self.verified(v, delivery) for v in self.verifiers)

    @staticmethod
    def verified(verifier: standardwebhooks.Webhook, delivery: Any) -> bool:
        try:
            verifier.verify(delivery.body.decode(), delivery.headers)
        except standardwebhooks.WebhookVerificationError:
            return False
        return True

    def follow(self, stop: threading.Event) -> None:
        while not stop.wait(1.0):
            self.drain()
        self.drain()


@dataclass
class Tally:
    """Everything the load saw, shared by the threads (appends are atomic)."""

    writes: list[Write] = field(default_factory=list)
    reads: Counter[str] = field(default_factory=Counter)
    feed_ids: dict[str, list[int]] = field(default_factory=dict)
    feed_events: Counter[str] = field(default_factory=Counter)
    kills: list[tuple[float, str, float]] = field(default_factory=list)  # at, target, restart s
    unanswered: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    abort: threading.Event = field(default_factory=threading.Event)  # writes stop retrying
    last_server_start: tuple[int, int] = (0, 0)  # the last server's RSS and files at its start
    last_server_since: float = 0.0  # seconds into the load when it started
    own_memory: list[int] = field(default_factory=list)  # soak.py's RSS: load start, end


def rss_and_files(pid: int) -> tuple[int, int]:
    """Resident memory in KiB and the number of open file descriptors, from /proc."""
    rss = 0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1])
    return rss, len(os.listdir(f"/proc/{pid}/fd"))


def own_memory() -> tuple[int, int]:
    """This process's resident memory and its peak (VmRSS, VmHWM), in KiB."""
    found = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(("VmRSS:", "VmHWM:")):
            found[line.split(":")[0]] = int(line.split()[1])
    return found["VmRSS"], found["VmHWM"]


def redis_socket(data_dir: Path) -> tuple[int, str]:
    """The embedded Redis's pid and socket, from the pidfile `skald serve` writes."""
    recorded = json.loads((data_dir / "embedded-redis.pid").read_text())
    return int(recorded["pid"]), str(Path(recorded["socket_dir"]) / "redis.sock")


class Processes:
    """`skald serve` and `skald worker webhooks` on one data directory; killed, restarted."""

    def __init__(self, data_dir: Path, env: dict[str, str]) -> None:
        self.data_dir, self.env = data_dir, env
        self.server = Server(data_dir, env)
        self.worker: subprocess.Popen[bytes] | None = None
        self.worker_log = data_dir.parent / "worker.log"
        self.lock = threading.Lock()

    def start(self) -> None:
        self.server.start()
        self.start_worker()

    def start_worker(self) -> None:
        _, socket = redis_socket(self.data_dir)
        skald = str(Path(sys.executable).parent / "skald")
        self.worker = subprocess.Popen(
            [
                skald,
                "worker",
                "webhooks",
                "--data-dir",
                str(self.data_dir),
                "--redis-url",
                f"unix://{socket}",
            ],
            env=self.env,
            stdout=self.worker_log.open("ab"),
            stderr=subprocess.STDOUT,
        )

    def stop_worker(self) -> None:
        if self.worker is not None and self.worker.poll() is None:
            self.worker.send_signal(signal.SIGTERM)
            try:
                self.worker.wait(60)
            except subprocess.TimeoutExpired:
                self.worker.kill()
                self.worker.wait()
        self.worker = None

    def stop(self) -> None:
        self.stop_worker()
        self.server.stop()

    def kill(self, target: str) -> float:
        """kill -9 the target and restart what it needs; the seconds that took."""
        with self.lock:
            began = time.monotonic()
            if target == "serve":
                assert self.server.process is not None
                self.server.process.send_signal(signal.SIGKILL)
                self.server.process.wait()
                self.server.process = None
                self.server.start()  # stops the orphaned Redis first (its pidfile)
                self.stop_worker()  # its Redis socket went with the old Redis
                self.start_worker()
            elif target == "worker":
                assert self.worker is not None
                self.worker.send_signal(signal.SIGKILL)
                self.worker.wait()
                self.start_worker()
            else:  # the server's watcher starts it again on the same socket
                pid, _ = redis_socket(self.data_dir)
                os.kill(pid, signal.SIGKILL)
                deadline = time.monotonic() + ANSWER_BOUND
                while time.monotonic() < deadline:
                    with contextlib.suppress(OSError, ValueError, KeyError):
                        if redis_socket(self.data_dir)[0] != pid:
                            break
                    time.sleep(0.05)
            return time.monotonic() - began

    @property
    def server_pid(self) -> int:
        assert self.server.process is not None
        return self.server.process.pid


class Client:
    """One thread's HTTP client: writes sent until answered, reads counted."""

    def __init__(self, url: str, tally: Tally, rng: random.Random) -> None:
        self.http = httpx.Client(base_url=url, timeout=60)
        self.tally, self.rng = tally, rng

    def write(self, write: Write) -> Write:
        write.key = str(uuid.UUID(int=self.rng.getrandbits(128), version=4))
        headers = {"idempotency-key": write.key}
        if write.auth:  # creating a campaign takes no key on the embedded default
            headers["authorization"] = f"Bearer {write.auth}"
        deadline = time.monotonic() + ANSWER_BOUND
        pause = 0.05
        while True:
            write.attempts += 1
            try:
                answer = self.http.request(
                    write.method, write.path, json=write.body, headers=headers
                )
            except httpx.HTTPError:
                write.dropped += 1
            else:
                if answer.status_code == 429:  # not expected: the limits are set high
                    time.sleep(float(answer.headers.get("retry-after", "1")))
                elif answer.status_code < 500:
                    write.status = answer.status_code
                    write.answer = compact(answer.json())
                    write.body = None  # a long run keeps ~10^5 writes: only what the checks read
                    self.tally.writes.append(write)
                    return write
                else:
                    write.server_errors += 1
            if self.tally.abort.is_set():  # the run is failing or interrupted: no more tries
                raise Unanswered(f"{write.method} {write.path}: the run was stopped")
            if time.monotonic() > deadline:
                self.tally.unanswered.append(f"{write.method} {write.path} {write.key}")
                raise Unanswered(f"{write.method} {write.path}: no answer in {ANSWER_BOUND:.0f} s")
            time.sleep(pause)
            pause = min(pause * 2, 1.0)

    def read(self, path: str, auth: str) -> Any:
        try:
            answer = self.http.get(path, headers={"authorization": f"Bearer {auth}"})
        except httpx.HTTPError:
            self.tally.reads["no answer"] += 1
            time.sleep(0.1)  # the server is down: no spinning until it is back
            return None
        self.tally.reads[str(answer.status_code)] += 1
        return answer.json() if answer.status_code == 200 else None


@dataclass
class Campaign:
    id: str
    gm: str
    player: str
    attacker: str
    defender: str
    encounter: str = ""
    encounters: list[str] = field(default_factory=list)
    webhook_secret: str = ""
    webhook_after: int = 0  # the event log's position when the webhook was registered


def setup(client: Client, receiver_url: str, number: int) -> Campaign:
    body = {"name": f"Soak {number}", "ruleset": "stamina-body"}
    creation = Write("create", "POST", "/campaigns", body, "", "")
    created = client.write(creation).answer
    cid, gm = created["id"], created["gm_key"]
    creation.campaign = cid

    def write(kind: str, path: str, body: Any) -> Any:
        return client.write(Write(kind, "POST", f"/campaigns/{cid}{path}", body, gm, cid)).answer

    attacker = write("enrol", "/characters", {"name": f"Attacker {number}", "sheet": SHEET})["id"]
    defender = write("enrol", "/characters", {"name": f"Defender {number}", "sheet": SHEET})["id"]
    label = f"Defender {number}"
    player = write("key", "/keys", {"role": "player", "characters": [defender], "label": label})
    campaign = Campaign(cid, gm, player["key"], attacker, defender)
    # Deliveries begin after the store's position at registration; the campaign writes
    # nothing between its log's end, read here once caught up, and the registration.
    wait_for(caught_up(client, [campaign]), CATCH_UP_BOUND, "the views at set-up")
    campaign.webhook_after = max(e["position"] for e in event_log(client, campaign))
    hook = write("webhook", "/webhooks", {"url": receiver_url, "role": "gm"})
    campaign.webhook_secret = hook["secret"]
    start_encounter(client, campaign)
    return campaign


def start_encounter(client: Client, campaign: Campaign) -> None:
    sides = [
        {"character_id": campaign.attacker, "side": "foes", "rank": 1},
        {"character_id": campaign.defender, "side": "party", "rank": 1},
    ]
    body = {"name": f"Fight {len(campaign.encounters) + 1}", "combatants": sides}
    path = f"/campaigns/{campaign.id}/encounters"
    answer = client.write(Write("start", "POST", path, body, campaign.gm, campaign.id)).answer
    campaign.encounter = answer["id"]
    campaign.encounters.append(answer["id"])


def d6(rng: random.Random, count: int, top: int = 6) -> list[int]:
    return [rng.randint(1, top) for _ in range(count)]


def play_round(client: Client, c: Campaign) -> None:
    """The GM's attack, the defender's answer, a take_hit, the defender's recover, the
    next round. Damage dice stop at 5 and recovery dice at 3 (always a success of 3 or
    more), so the defender neither dies nor runs out of Body over a long run."""
    rng = client.rng
    base = f"/campaigns/{c.id}/encounters/{c.encounter}"

    def send(kind: str, path: str, body: Any, auth: str) -> Write:
        return client.write(Write(kind, "POST", base + path, body, auth, c.id, c.encounter))

    attack = {
        "kind": "attack",
        "actor": c.attacker,
        "params": {"target": c.defender, "weapon": "club"},
        "dice": {"hit": d6(rng, 3), "damage": d6(rng, 1, 5)},
    }
    sent = send("attack", "/actions", attack, c.gm)
    if sent.status == 202:
        sent.kind = "attack_pending"
        choice = rng.choice(["parry", "dodge", "none"])
        declaration: dict[str, Any] = {"choice": choice}
        if choice != "none":
            declaration["dice"] = {"defense": d6(rng, 3)}
        number = sent.answer["exchange"]["number"]
        send("declare", f"/exchanges/{number}/declare", declaration, c.player)
    elif sent.status == 201:
        sent.kind = "attack_resolved"
    hit = {
        "kind": "take_hit",
        "params": {"target": c.defender, "damage_type": "impact", "damage_class": 1},
        "dice": {"damage": d6(rng, 1, 5)},
    }
    send("take_hit", "/actions", hit, c.gm)
    recover = {"kind": "recover", "actor": c.defender, "dice": {"recovery": d6(rng, 3, 3)}}
    send("recover", "/actions", recover, c.player)
    send("round", "/round", None, c.gm)


def next_day(client: Client, c: Campaign) -> None:
    """End the encounter (a day cannot pass during one), advance the day, start anew."""
    end = f"/campaigns/{c.id}/encounters/{c.encounter}/end"
    client.write(Write("end", "POST", end, None, c.gm, c.id, c.encounter))
    days = f"/campaigns/{c.id}/days"
    client.write(Write("days", "POST", days, {"days": 1}, c.gm, c.id))
    start_encounter(client, c)


def table(client: Client, c: Campaign, stop: threading.Event, tally: Tally) -> None:
    next_day_at = time.monotonic() + DAY_SECONDS
    try:
        while not stop.is_set():
            if time.monotonic() >= next_day_at:
                next_day(client, c)
                next_day_at += DAY_SECONDS
            play_round(client, c)
    except Exception as error:  # reported and counted as a failure of the run
        tally.errors.append(f"table {c.id}: {type(error).__name__}: {error}")
        stop.set()


def reader(client: Client, campaigns: list[Campaign], stop: threading.Event) -> None:
    while not stop.is_set():
        for c in campaigns:
            base = f"/campaigns/{c.id}"
            client.read(f"{base}/vitals", c.gm)
            client.read(f"{base}/encounters/{c.encounter}/board", c.player)
            client.read(f"{base}/audit?limit=50", c.gm)
            client.read(f"{base}/encounters/{c.encounter}/audit?limit=20", c.player)
            client.read(f"{base}/events?after=0&limit=50", c.gm)
        time.sleep(0.02)


def follow_feed(url: str, c: Campaign, stop: threading.Event, tally: Tally) -> None:
    """The campaign's SSE feed from its first event, reconnecting with Last-Event-ID."""
    ids = tally.feed_ids.setdefault(c.id, [])
    headers = {"authorization": f"Bearer {c.gm}", "accept": "text/event-stream"}
    timeout = httpx.Timeout(10, read=20)  # the server pings every 15 s
    with httpx.Client(base_url=url, timeout=timeout) as http:
        while not stop.is_set():
            params = {} if ids else {"after": 0}
            if ids:
                headers["last-event-id"] = str(ids[-1])
            try:
                with http.stream(
                    "GET", f"/campaigns/{c.id}/feed", params=params, headers=headers
                ) as answer:
                    if answer.status_code != 200:
                        tally.feed_events[f"answered {answer.status_code}"] += 1
                        time.sleep(0.2)
                        continue
                    tally.feed_events["connections"] += 1
                    kind, entry_id = "", ""
                    for line in answer.iter_lines():
                        if line.startswith("event:"):
                            kind = line[6:].strip()
                        elif line.startswith("id:"):
                            entry_id = line[3:].strip()
                        elif not line:  # an event ends
                            if kind == "entry":
                                ids.append(int(entry_id))
                            if kind:
                                tally.feed_events[kind] += 1
                            kind, entry_id = "", ""
                        if stop.is_set():
                            return
            except httpx.HTTPError:
                tally.feed_events["cut"] += 1
                time.sleep(0.2)


def killer(
    processes: Processes,
    rng: random.Random,
    every: float,
    until: float,
    stop: threading.Event,
    tally: Tally,
    began: float,
) -> None:
    """kill -9 at seeded random moments (exponential gaps of mean ``every`` s); the
    targets go round in a seeded order, so each is hit about as often."""
    order: list[str] = []
    while not stop.is_set():
        at = time.monotonic() + rng.expovariate(1 / every)
        if at > until or stop.wait(max(0.0, at - time.monotonic())):
            return
        if not order:
            order = rng.sample(KILL_TARGETS, len(KILL_TARGETS))
        target = order.pop()
        try:
            took = processes.kill(target)
            if target == "serve":  # its start, to hold against its end if it is the last
                tally.last_server_start = rss_and_files(processes.server_pid)
                tally.last_server_since = time.monotonic() - began
        except Exception as error:
            tally.errors.append(f"kill {target}: {type(error).__name__}: {error}")
            stop.set()
            return
        tally.kills.append((time.monotonic() - began, target, took))
        print(
            f"  {time.monotonic() - began:7.1f} s: kill -9 {target}, back in {took:.1f} s",
            flush=True,
        )


def wait_for(condition: Callable[[], bool], bound: float, what: str) -> float:
    began = time.monotonic()
    while not condition():
        if time.monotonic() - began > bound:
            raise RuntimeError(f"{what}: not within {bound:.0f} s")
        time.sleep(0.25)
    return time.monotonic() - began


def paged(client: Client, path: str, auth: str, items: str, limit: int = 500) -> list[Any]:
    """Every item of an offset-paged view (the audit pages)."""
    found: list[Any] = []
    while True:
        page = client.read(f"{path}?offset={len(found)}&limit={limit}", auth)
        if page is None:
            raise RuntimeError(f"{path}: no page at offset {len(found)}")
        found += page[items]
        if len(page[items]) < limit:
            return found


def event_log(client: Client, c: Campaign) -> list[Any]:
    found: list[Any] = []
    while True:
        after = found[-1]["position"] if found else 0
        page = client.read(f"/campaigns/{c.id}/events?after={after}&limit=500", c.gm)
        if page is None:
            raise RuntimeError(f"the event log of {c.id}: no page after {after}")
        found += page["events"]
        if len(page["events"]) < 500:
            return found


def without_projection(view: Any) -> Any:
    """A view without its `projection` block (the generation and positions of the
    views that answered, which a rebuild changes by design)."""
    return {k: v for k, v in view.items() if k != "projection"}


def digest(value: Any) -> str:
    """A view's content as a SHA-256: the run holds two of every view (live, rebuilt),
    and a campaign's audit after 30 minutes is tens of thousands of entries."""
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=repr).encode()).hexdigest()


def views(client: Client, campaigns: list[Campaign]) -> dict[str, str]:
    """What a client reads of the views, each as its digest: each character's vitals,
    each encounter's board, the campaign's and each encounter's audit, the event log."""
    found: dict[str, str] = {}
    for c in campaigns:
        vitals = client.read(f"/campaigns/{c.id}/vitals", c.gm)
        found[f"{c.id} vitals"] = digest(without_projection(vitals))
        for character in vitals["characters"]:
            found[f"{c.id} character {character['id']}"] = digest(character)
        audit = paged(client, f"/campaigns/{c.id}/audit", c.gm, "entries")
        found[f"{c.id} audit"] = digest(audit)
        found[f"{c.id} log"] = digest(event_log(client, c))
        for e in c.encounters:
            board = client.read(f"/campaigns/{c.id}/encounters/{e}/board", c.gm)
            found[f"{e} board"] = digest(without_projection(board))
            path = f"/campaigns/{c.id}/encounters/{e}/audit"
            found[f"{e} audit"] = digest(paged(client, path, c.gm, "entries"))
    return found


def redis_views(data_dir: Path) -> dict[str, str]:
    """Every key of the current generation of views, by its name below the root, as
    the digest of its whole content: tests/integration/projection_support.py's
    `snapshot` a key at a time (it holds every key's content at once)."""
    _, socket = redis_socket(data_dir)
    client = redis.Redis(unix_socket_path=socket)
    try:
        generations = Generations("skald")
        generation = generations.current(client)
        assert generation is not None, "no generation of views"
        root = generations.root(generation)
        found: dict[str, str] = {}
        for raw in client.scan_iter(match=f"{root}:*", count=1000):
            key = raw.decode()
            suffix = key[len(root) + 1 :]
            if suffix == "epoch":
                continue  # bumped by a campaign rebuild: a signal to runners, not a view
            kind = client.type(key)
            content: Any
            if kind == b"string":
                content = client.get(key)
            elif kind == b"hash":
                content = sorted(client.hgetall(key).items())
            elif kind == b"list":
                content = client.lrange(key, 0, -1)
            elif kind == b"stream":
                content = client.xrange(key)
            elif kind == b"zset":
                content = client.zrange(key, 0, -1, withscores=True)
            else:
                raise RuntimeError(f"unexpected {kind!r} at {key}")
            found[suffix] = hashlib.sha256(repr(content).encode()).hexdigest()
        return found
    finally:
        client.close()


def settled_views(
    client: Client, campaigns: list[Campaign], data_dir: Path
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The views over HTTP and in Redis, read while the store did not move: the
    healing worker may still be applying the last day when the load stops."""
    for _ in range(20):
        events = client.http.get("/health").json()["event_store"]["events"]
        wait_for(caught_up(client, campaigns), CATCH_UP_BOUND, "the views")
        found, keys = views(client, campaigns), redis_views(data_dir)
        if client.http.get("/health").json()["event_store"]["events"] == events:
            return found, keys
    raise RuntimeError("the store kept moving after the load stopped")


def caught_up(client: Client, campaigns: list[Campaign]) -> Callable[[], bool]:
    def check() -> bool:
        for c in campaigns:
            vitals = client.read(f"/campaigns/{c.id}/vitals", c.gm)
            if vitals is None or vitals["projection"]["behind"] != 0:
                return False
        return True

    return check


@dataclass
class StoreCheck:
    events: int = 0
    lost: list[str] = field(default_factory=list)
    doubled: list[str] = field(default_factory=list)
    refused_but_stored: list[str] = field(default_factory=list)
    positions: dict[str, list[int]] = field(default_factory=dict)  # campaign -> positions


def check_store(data_dir: Path, writes: list[Write], campaigns: list[Campaign]) -> StoreCheck:
    """Read the whole store (the server stopped) and hold every answered write to it."""
    from skald_campaign.database import open_application
    from skald_campaign.settings import Settings

    found = StoreCheck()
    records: dict[str, Any] = {}  # Idempotency-Key -> its record's event
    stored: set[tuple[str, int]] = set()
    counts: Counter[tuple[str, str]] = Counter()
    owner = {c.id: c.id for c in campaigns} | {e: c.id for c in campaigns for e in c.encounters}
    application = open_application(Settings(data_dir=data_dir), create_tables=False)
    try:
        start = 1
        while True:
            page = application.recorder.select_notifications(start=start, limit=5000)
            for n in page:
                found.events += 1
                aggregate = str(n.originator_id)
                stored.add((aggregate, n.originator_version))
                kind = n.topic.rpartition(":")[2]
                if kind in COUNTED:
                    counts[(aggregate, kind)] += 1
                if aggregate in owner:
                    found.positions.setdefault(owner[aggregate], []).append(n.id)
                if kind == RECORDED:
                    record: Any = application.mapper.to_domain_event(n)
                    key = record.scope.rpartition(" ")[2]  # "<holder> <method> <path> <key>"
                    if key in records:
                        found.doubled.append(f"two records of Idempotency-Key {key}")
                    records[key] = record
            if len(page) < 5000:
                break
            start = page[-1].id + 1
    finally:
        application.close()
    expected: Counter[tuple[str, str]] = Counter()
    numbers: dict[tuple[str, int], str] = {}
    for w in writes:
        record = records.get(w.key)
        if w.status >= 300:
            if record is not None:
                found.refused_but_stored.append(f"{w.status} to {w.method} {w.path} {w.key}")
            continue
        if record is None:
            found.lost.append(f"{w.status} to {w.method} {w.path} {w.key}: no record")
        else:
            subject = (str(record.subject_id), record.subject_version)
            if subject not in stored:
                found.lost.append(f"{w.method} {w.path} {w.key}: no event {subject}")
        for where, name in ADDS[w.kind]:
            if where == "campaign":
                aggregate = w.campaign
            else:  # the encounter the write names, or the one it started
                aggregate = w.answer["id"] if w.kind == "start" else str(w.encounter)
            expected[(aggregate, name)] += 1
        action = (w.answer or {}).get("action")
        if isinstance(action, dict) and "number" in action and w.encounter:
            seen = numbers.setdefault((w.encounter, action["number"]), w.key)
            if seen != w.key:
                found.doubled.append(f"action {action['number']} of {w.encounter} answered twice")
    for aggregate, name in sorted(set(expected) | set(counts)):
        have, want = counts[(aggregate, name)], expected[(aggregate, name)]
        if aggregate not in owner:
            continue  # not this run's campaigns (none: the data dir is new)
        if have > want:
            found.doubled.append(f"{aggregate}: {have} {name} stored, {want} answered")
        elif have < want:
            found.lost.append(f"{aggregate}: {have} {name} stored, {want} answered")
    return found


def compare(live: dict[str, Any], rebuilt: dict[str, Any]) -> list[str]:
    missing = sorted(set(live) - set(rebuilt))
    extra = sorted(set(rebuilt) - set(live))
    differing = sorted(k for k in set(live) & set(rebuilt) if live[k] != rebuilt[k])
    return (
        [f"missing {k}" for k in missing]
        + [f"extra {k}" for k in extra]
        + [f"differs {k}" for k in differing]
    )


def rebuild(data_dir: Path, env: dict[str, str]) -> str:
    skald = str(Path(sys.executable).parent / "skald")
    done = subprocess.run(
        [skald, "projections", "rebuild", "--data-dir", str(data_dir)],
        env=env,
        capture_output=True,
        text=True,
        timeout=ANSWER_BOUND,
        check=True,
    )
    return done.stdout.strip().splitlines()[-1]


def mib(kib: int) -> str:
    return f"{kib / 1024:.1f} MiB"


@contextlib.contextmanager
def threads_stopped(
    stops: list[threading.Event], threads: list[threading.Thread], abort: threading.Event
) -> Iterator[None]:
    """On the way out, stop and join the threads; on an error or Ctrl-C, a write being
    retried gives up at once rather than waiting for its bound."""
    try:
        yield
    except BaseException:
        abort.set()
        raise
    finally:
        for stop in stops:
            stop.set()
        for thread in threads:
            thread.join(ANSWER_BOUND + 60)


def run(args: argparse.Namespace, data_dir: Path, run_id: str) -> int:
    rng = random.Random(args.seed)
    tally = Tally()
    env = {
        **os.environ,
        "SKALD_WEBHOOKS_WORKER": "false",  # the standalone worker delivers, and is killed
        "SKALD_WEBHOOKS_ALLOW_PRIVATE": "true",  # the receiver is on loopback
        "SKALD_WEBHOOKS_BACKOFF_INITIAL": "0.05",
        "SKALD_WEBHOOKS_BACKOFF_MAX": "1",
        "SKALD_WEBHOOKS_FAILURE_LIMIT": "1000000",  # a receiver down never disables it
        # The soak's clients share one address and a few keys: its rate is the server's.
        "SKALD_RATE_LIMIT_PER_KEY": "1000000/minute",
        "SKALD_RATE_LIMIT_PER_ADDRESS": "1000000/minute",
    }
    for name in [n for n in env if n.startswith("SKALD_") and n not in ALLOWED_SETTINGS]:
        del env[name]  # the embedded default, whatever the caller's shell configured
    processes = Processes(data_dir, env)
    stop = threading.Event()  # the load's end (or a failure): writes, reads and kills stop
    feed_stop = threading.Event()  # the feeds follow on until they have every event
    with Receiver() as receiver:
        try:
            processes.start()
            url = processes.server.url
            setup_client = Client(url, tally, random.Random(rng.getrandbits(64)))
            campaigns = [setup(setup_client, receiver.url, n) for n in range(args.tables)]
            verifiers = [standardwebhooks.Webhook(c.webhook_secret) for c in campaigns]
            deliveries = Deliveries(receiver, verifiers)
            began = time.monotonic()
            end = began + args.minutes * 60
            quiet_tail = max(60.0, 0.2 * args.minutes * 60)
            before = rss_and_files(processes.server_pid)
            redis_before = rss_and_files(redis_socket(data_dir)[0])
            tally.last_server_start = now = before
            tally.own_memory = [own_memory()[0]]
            clients = [Client(url, tally, random.Random(rng.getrandbits(64))) for _ in campaigns]
            threads = [
                threading.Thread(target=table, args=(clients[n], c, stop, tally), name=f"table-{n}")
                for n, c in enumerate(campaigns)
            ]
            threads += [
                threading.Thread(target=follow_feed, args=(url, c, feed_stop, tally), name="feed")
                for c in campaigns
            ]
            threads.append(threading.Thread(target=deliveries.follow, args=(feed_stop,)))
            read_client = Client(url, tally, random.Random(rng.getrandbits(64)))
            threads.append(threading.Thread(target=reader, args=(read_client, campaigns, stop)))
            kill_rng = random.Random(rng.getrandbits(64))
            threads.append(
                threading.Thread(
                    target=killer,
                    args=(
                        processes,
                        kill_rng,
                        args.kill_every,
                        end - quiet_tail,
                        stop,
                        tally,
                        began,
                    ),
                    name="killer",
                )
            )
            print(
                f"soak: {args.minutes} min, seed {args.seed}, {args.tables} tables, a kill every "
                f"~{args.kill_every:.0f} s until {args.minutes * 60 - quiet_tail:.0f} s; "
                f"data in {data_dir}; run {run_id}",
                flush=True,
            )
            with threads_stopped([stop, feed_stop], threads, tally.abort):
                for thread in threads:
                    thread.start()
                while time.monotonic() < end and not stop.is_set():
                    stop.wait(min(30.0, max(0.0, end - time.monotonic())))
                    done = len(tally.writes)
                    refused = sum(1 for w in tally.writes if w.status >= 400)
                    with contextlib.suppress(OSError, AssertionError):  # mid-restart
                        now = rss_and_files(processes.server_pid)
                    print(
                        f"  {time.monotonic() - began:7.1f} s: {done} writes answered "
                        f"({refused} refused), {sum(tally.reads.values())} reads, "
                        f"{len(tally.kills)} kills; server RSS {mib(now[0])}, "
                        f"{now[1]} open files; soak.py's own RSS {mib(own_memory()[0])}; "
                        f"load average {os.getloadavg()[0]:.1f}",
                        flush=True,
                    )
                stop.set()
                threads[-1].join()  # the killer: no kill from here on
                for thread in threads[: args.tables]:
                    thread.join(ANSWER_BOUND + 60)
                load_seconds = time.monotonic() - began
                tally.own_memory.append(own_memory()[0])
                after = rss_and_files(processes.server_pid)
                redis_after = rss_and_files(redis_socket(data_dir)[0])
                check = Client(url, tally, random.Random(0))
                catch_up = wait_for(caught_up(check, campaigns), CATCH_UP_BOUND, "the views")
                logs = {c.id: [e["position"] for e in event_log(check, c)] for c in campaigns}

                def delivered() -> bool:
                    return all(
                        f"msg_{p}" in deliveries.ids
                        for c in campaigns
                        for p in logs[c.id]
                        if p > c.webhook_after
                    )

                webhooks_wait = wait_for(delivered, CATCH_UP_BOUND, "the webhook deliveries")

                def fed() -> bool:
                    return all(
                        set(tally.feed_ids.get(c.id, ())) >= set(logs[c.id]) for c in campaigns
                    )

                feed_wait = wait_for(fed, CATCH_UP_BOUND, "the feed")
                feed_stop.set()
            live, live_keys = settled_views(check, campaigns, data_dir)
            processes.stop()
            store = check_store(data_dir, tally.writes, campaigns)
            rebuilt_line = rebuild(data_dir, env)
            processes.server.start()
            check = Client(processes.server.url, tally, random.Random(0))
            wait_for(caught_up(check, campaigns), CATCH_UP_BOUND, "the rebuilt views")
            rebuilt = views(check, campaigns)
            rebuilt_keys = redis_views(data_dir)
            processes.stop()
        finally:
            stop.set()
            feed_stop.set()
            processes.stop()
    view_differences = compare(live, rebuilt)
    key_differences = compare(live_keys, rebuilt_keys)
    return report(
        args,
        tally,
        campaigns,
        store,
        logs,
        deliveries,
        view_differences,
        key_differences,
        live,
        live_keys,
        load_seconds,
        catch_up,
        webhooks_wait,
        feed_wait,
        rebuilt_line,
        (before, after, redis_before, redis_after),
    )


ALLOWED_SETTINGS = {
    "SKALD_WEBHOOKS_WORKER",
    "SKALD_WEBHOOKS_ALLOW_PRIVATE",
    "SKALD_WEBHOOKS_BACKOFF_INITIAL",
    "SKALD_WEBHOOKS_BACKOFF_MAX",
    "SKALD_WEBHOOKS_FAILURE_LIMIT",
    "SKALD_RATE_LIMIT_PER_KEY",
    "SKALD_RATE_LIMIT_PER_ADDRESS",
}


def report(
    args: argparse.Namespace,
    tally: Tally,
    campaigns: list[Campaign],
    store: StoreCheck,
    logs: dict[str, list[int]],
    deliveries: Deliveries,
    view_differences: list[str],
    key_differences: list[str],
    live: dict[str, Any],
    live_keys: dict[str, Any],
    load_seconds: float,
    catch_up: float,
    webhooks_wait: float,
    feed_wait: float,
    rebuilt_line: str,
    memory: tuple[tuple[int, int], tuple[int, int], tuple[int, int], tuple[int, int]],
) -> int:
    writes = tally.writes
    by_kind = Counter(w.kind for w in writes)
    statuses = Counter(w.status for w in writes)
    retried = [w for w in writes if w.attempts > 1]
    dropped = sum(w.dropped for w in writes)
    server_errors = sum(w.server_errors for w in writes)
    kills = Counter(target for _, target, _ in tally.kills)
    restart = sorted(took for _, target, took in tally.kills if target == "serve")
    load = os.getloadavg()
    print()
    print(
        f"load: {load_seconds / 60:.1f} min, {len(writes):,} writes answered "
        f"({len(writes) / load_seconds:.1f}/s), {sum(tally.reads.values()):,} reads"
    )
    print(f"  writes by kind: {dict(sorted(by_kind.items()))}")
    print(f"  answers: {dict(sorted(statuses.items()))}")
    print(
        f"  sent again after a kill: {len(retried):,} writes ({dropped:,} attempts unanswered, "
        f"{server_errors:,} answered 5xx)"
    )
    print(f"  reads: {dict(sorted(tally.reads.items()))}")
    print(
        f"kills: {len(tally.kills)} ({dict(sorted(kills.items()))}); `skald serve` back in "
        + (f"{restart[0]:.1f}-{restart[-1]:.1f} s" if restart else "-")
    )
    print(f"  at (s): {', '.join(f'{at:.0f} {target}' for at, target, _ in tally.kills)}")
    before, after, redis_before, redis_after = memory
    print(
        f"server: RSS {mib(before[0])} -> {mib(after[0])}, open files {before[1]} -> {after[1]} "
        f"(the first server at the load's start, the last at its end)"
    )
    start = tally.last_server_start
    print(
        f"the last server, started {tally.last_server_since:.0f} s into the load: RSS "
        f"{mib(start[0])} -> {mib(after[0])}, open files {start[1]} -> {after[1]} "
        f"(just after its start, then at the load's end)"
    )
    print(
        f"embedded Redis: RSS {mib(redis_before[0])} -> {mib(redis_after[0])}, "
        f"open files {redis_before[1]} -> {redis_after[1]}"
    )
    own_start, own_end = tally.own_memory
    print(
        f"soak.py itself: RSS {mib(own_start)} at the load's start, {mib(own_end)} at its "
        f"end, peak {mib(own_memory()[1])} (the checks included)"
    )
    print(f"the store: {store.events:,} events; caught up {catch_up:.1f} s after the load")
    lost = store.lost + tally.unanswered
    print(f"lost: {len(lost)}")
    for line in lost[:20]:
        print(f"  {line}")
    print(f"doubled: {len(store.doubled)}")
    for line in store.doubled[:20]:
        print(f"  {line}")
    print(f"refused (4xx) yet stored: {len(store.refused_but_stored)}")
    for line in store.refused_but_stored[:20]:
        print(f"  {line}")
    log_differs = [c.id for c in campaigns if logs[c.id] != store.positions.get(c.id, [])]
    print(
        f"event log view = store: {'yes' if not log_differs else 'no, ' + str(log_differs)} "
        f"({sum(len(v) for v in logs.values()):,} positions)"
    )
    print(
        f"views = rebuild: {'yes' if not view_differences else 'no'} ({len(live):,} views "
        f"compared: {len(campaigns)} vitals, "
        f"{sum(1 for k in live if ' character ' in k)} characters, "
        f"{sum(len(c.encounters) for c in campaigns)} boards and encounter audits, "
        f"{len(campaigns)} campaign audits and event logs); {rebuilt_line}"
    )
    for line in view_differences[:20]:
        print(f"  {line}")
    print(
        f"Redis keys, live = rebuilt: {'yes' if not key_differences else 'no'} "
        f"({len(live_keys):,} keys)"
    )
    for line in key_differences[:20]:
        print(f"  {line}")
    expected = {f"msg_{p}" for c in campaigns for p in logs[c.id] if p > c.webhook_after}
    ids, bad = deliveries.ids, deliveries.bad
    print(
        f"webhooks: {len(expected):,} events, {sum(ids.values()):,} deliveries "
        f"({len(set(ids) & expected):,} distinct of them, "
        f"{sum(n - 1 for n in ids.values()):,} again after a kill), "
        f"{len(expected - set(ids))} missing, {bad} bad signatures; "
        f"all in {webhooks_wait:.1f} s after the views"
    )
    feed_missing = sum(len(set(logs[c.id]) - set(tally.feed_ids.get(c.id, ()))) for c in campaigns)
    feed_repeats = sum(len(v) - len(set(v)) for v in tally.feed_ids.values())
    feed_order = all(v == sorted(v) for v in tally.feed_ids.values())
    print(
        f"feed: {sum(len(v) for v in tally.feed_ids.values()):,} entries, {feed_missing} "
        f"missing, {feed_repeats} repeated, in order: {feed_order}; "
        f"{dict(sorted(tally.feed_events.items()))}"
    )
    print(
        f"machine: {os.cpu_count()} cores, load average now {load[0]:.1f} {load[1]:.1f} "
        f"{load[2]:.1f}, niceness {os.nice(0)}"
    )
    for line in tally.errors:
        print(f"error: {line}")
    failed = (
        lost
        or store.doubled
        or store.refused_but_stored
        or view_differences
        or key_differences
        or log_differs
        or expected - set(ids)
        or bad
        or feed_missing
        or tally.errors
    )
    print("FAILED" if failed else "OK: 0 lost, 0 doubled, views = rebuild")
    return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tables", type=int, default=3, help="campaigns played at once")
    parser.add_argument("--kill-every", type=float, default=90.0, help="mean seconds between kills")
    parser.add_argument("--keep", action="store_true", help="keep the data directory")
    args = parser.parse_args()
    # Ctrl-C ends the run through its clean-up even when started as a background job,
    # which a shell starts with SIGINT ignored (and Python then never raises it).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    work = Path(tempfile.mkdtemp(prefix="skald-soak-"))
    try:
        with everything_stopped() as run_id:
            return run(args, work / "data", run_id)
    finally:
        if args.keep:
            print(f"data kept in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # everything it started is stopped by now
        print("soak: interrupted", file=sys.stderr)
        sys.exit(130)
