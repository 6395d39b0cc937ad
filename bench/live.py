"""The figures of bench/http.py that need a client of their own beside wrk (asyncio +
httpx): live lag as a client sees it (f), latency at a fixed rate on one hot
encounter (b), and command latency over a store of 10^6 events."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import orjson


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def ms(values: list[float]) -> str:
    p50, p99 = (1000 * percentile(values, q) for q in (50, 99))
    return f"p50 {p50:>6.1f} ms  p99 {p99:>6.1f} ms"


@dataclass
class Probe:
    """What the probe client saw; times are time.perf_counter() in this process."""

    answered: dict[int, float] = field(default_factory=dict)  # encounter version -> 2xx
    on_feed: dict[int, float] = field(default_factory=dict)  # version -> its SSE entry
    on_vitals: dict[int, float] = field(default_factory=dict)  # version -> vitals show it
    refused: int = 0
    polls: int = 0

    def lags(self, seen: dict[int, float]) -> tuple[list[float], int]:
        """From each 2xx to the moment it was seen (0 when seen before the 2xx), and how
        many were seen before their 2xx."""
        both = [(seen[v], t) for v, t in self.answered.items() if v in seen]
        return [max(0.0, s - t) for s, t in both], sum(1 for s, t in both if s < t)


async def follow_feed(
    client: httpx.AsyncClient, campaign: str, encounter: str, probe: Probe, ready: asyncio.Event
) -> None:
    """Read the campaign's live feed as a dashboard does (the key in the header)."""
    headers = {"accept": "text/event-stream"}
    async with client.stream("GET", f"/campaigns/{campaign}/feed", headers=headers) as answer:
        answer.raise_for_status()
        ready.set()
        event, data = "", ""
        async for line in answer.aiter_lines():
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:"):
                data = line[5:].strip()
            elif not line:
                if event == "entry" and encounter in data:  # the other encounters' entries too
                    entry = orjson.loads(data)
                    if entry.get("encounter_id") == encounter:
                        probe.on_feed.setdefault(entry["version"], time.perf_counter())
                event, data = "", ""


async def watch_vitals(
    client: httpx.AsyncClient,
    campaign: str,
    character: str,
    changes: int,
    version: int,
    probe: Probe,
) -> None:
    """Poll the vitals back to back until the character shows ``changes`` changes."""
    deadline = time.perf_counter() + 10
    while time.perf_counter() < deadline:
        answer = await client.get(f"/campaigns/{campaign}/vitals")
        probe.polls += 1
        for c in answer.json()["characters"]:
            if c["id"] == character and c["changes"] >= changes:
                probe.on_vitals[version] = time.perf_counter()
                return


async def live_probe(
    url: str, key: str, path: str, body: str, rate: float, seconds: float
) -> Probe:
    """(f): commands at ``rate`` on the probe's own encounter; each one's 2xx, its entry
    on the feed (a separate client) and the vitals showing it (a third)."""
    campaign, encounter = path.split("/")[2], path.split("/")[4]
    character = orjson.loads(body)["params"]["target"]
    auth = {"authorization": f"Bearer {key}"}
    clients = [
        httpx.AsyncClient(base_url=url, headers=auth, timeout=30) for _ in ("cmd", "feed", "view")
    ]
    commands, feed, views = clients
    probe = Probe()
    try:
        version = (await commands.get(f"{path[: -len('/actions')]}?limit=1")).json()["version"]
        changes = await settled_changes(views, campaign, character)
        ready = asyncio.Event()
        reader = asyncio.create_task(follow_feed(feed, campaign, encounter, probe, ready))
        await asyncio.wait_for(ready.wait(), 10)
        watchers: list[asyncio.Task[None]] = []

        async def command() -> None:
            answer = await commands.post(path, content=body, headers=JSON)
            now = time.perf_counter()
            if answer.status_code >= 300:
                probe.refused += 1
                return
            done = answer.json()["action"]["version"]
            probe.answered[done] = now
            # Every take_hit names the character's tracks: one more change per version.
            expected = changes + done - version
            watchers.append(
                asyncio.create_task(watch_vitals(views, campaign, character, expected, done, probe))
            )

        sent = await at_rate(rate, seconds, command)
        await asyncio.gather(*sent, return_exceptions=True)
        await asyncio.gather(*watchers, return_exceptions=True)
        await asyncio.sleep(0.5)  # the last entries' way through the feed
        reader.cancel()
    finally:
        for client in clients:
            await client.aclose()
    return probe


JSON = {"content-type": "application/json"}


async def settled_changes(views: httpx.AsyncClient, campaign: str, character: str) -> int:
    """The character's change count once the views have caught up with the store."""
    for _ in range(300):
        vitals = (await views.get(f"/campaigns/{campaign}/vitals")).json()
        found = [c for c in vitals["characters"] if c["id"] == character]
        if found and vitals["projection"]["behind"] == 0:
            return int(found[0]["changes"])
        await asyncio.sleep(0.1)
    raise RuntimeError("the views did not catch up")


async def at_rate(rate: float, seconds: float, send: Callable[[], Any]) -> list[asyncio.Task[Any]]:
    """Start ``send()`` every 1/rate s on a fixed schedule (open loop: a slow answer
    does not delay the next request)."""
    tasks = []
    start = time.perf_counter() + 0.05
    for n in range(int(rate * seconds)):
        await asyncio.sleep(max(0.0, start + n / rate - time.perf_counter()))
        tasks.append(asyncio.create_task(send()))
    return tasks


async def fixed_rate(
    url: str, key: str, path: str, body: str, rate: float, writers: int, seconds: float
) -> dict[str, Any]:
    """(b): ``rate`` commands/s on one encounter over ``writers`` connections; each
    latency counts from its scheduled start, so a queue at the client counts too."""
    headers = {"authorization": f"Bearer {key}", **JSON}
    limits = httpx.Limits(max_connections=writers, max_keepalive_connections=writers)
    latencies: list[float] = []
    outcome = {"refused": 0, "errors": 0}
    async with httpx.AsyncClient(base_url=url, headers=headers, limits=limits, timeout=30) as c:
        writer = asyncio.Semaphore(writers)

        async def send() -> None:
            scheduled = time.perf_counter()
            async with writer:
                try:
                    answer = await c.post(path, content=body)
                except httpx.HTTPError:
                    outcome["errors"] += 1
                    return
            latencies.append(time.perf_counter() - scheduled)
            if answer.status_code == 409:
                outcome["refused"] += 1
            elif answer.status_code >= 300:
                outcome["errors"] += 1

        await asyncio.gather(*await at_rate(rate, seconds, send))
    return {"latencies": latencies, **outcome}
