"""Kill -9 the standalone webhook worker (`skald worker webhooks`) five times in the
middle of a fight on a real `skald serve`: the local receiver gets every event at least
once, each signed, and deduped by `webhook-id` exactly once, in position order."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import standardwebhooks

from tests.e2e.server import Server
from tests.integration.projection_support import wait_until
from tests.patience import HANG_SECONDS
from tests.receiver import Receiver

SHEET = {"st": 12, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 30, "body_max": 20}
KILLS = 5


class Worker:
    """`skald worker webhooks` on the server's store and Redis; killed or stopped."""

    def __init__(self, data_dir: Path, env: dict[str, str]) -> None:
        self.data_dir, self.env = data_dir, env
        self.process: subprocess.Popen[bytes] | None = None
        self.log = data_dir.parent / "worker.log"

    def start(self) -> None:
        skald = str(Path(sys.executable).parent / "skald")
        self.process = subprocess.Popen(
            [skald, "worker", "webhooks", "--data-dir", str(self.data_dir)],
            env=self.env, stdout=self.log.open("ab"), stderr=subprocess.STDOUT,
        )  # fmt: skip

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(HANG_SECONDS)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(HANG_SECONDS)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def more_than(receiver: Receiver, count: int) -> Callable[[], bool]:
    return lambda: len(receiver.bodies()) > count


@pytest.fixture
def table(tmp_path: Path, redis_url: str) -> Iterator[tuple[Server, Worker]]:
    env = {
        **os.environ,
        "SKALD_REDIS_URL": redis_url,
        "SKALD_REDIS_PREFIX": f"crash-{uuid.uuid4().hex[:8]}",
        "SKALD_WEBHOOKS_WORKER": "false",  # the standalone worker delivers, nobody else
        "SKALD_WEBHOOKS_ALLOW_PRIVATE": "true",
        "SKALD_WEBHOOKS_BACKOFF_INITIAL": "0.05",
        "SKALD_WEBHOOKS_BACKOFF_MAX": "0.2",
    }
    server = Server(tmp_path / "data", env)
    worker = Worker(tmp_path / "data", env)
    try:
        server.start()
        yield server, worker
    finally:
        worker.stop()
        server.stop()


def test_five_kill_9s_mid_fight_lose_nothing_and_dedupe_to_exactly_once(
    table: tuple[Server, Worker],
) -> None:
    server, worker = table
    http = httpx.Client(base_url=server.url, timeout=HANG_SECONDS)
    created = http.post("/campaigns", json={"name": "Crash", "ruleset": "stamina-body"}).json()
    cid = created["id"]
    http.headers["authorization"] = f"Bearer {created['gm_key']}"

    def post(path: str, body: Any = None, status: int = 200) -> Any:
        answer = http.post(f"/campaigns/{cid}{path}", json=body)
        assert answer.status_code == status, answer.text
        return answer.json()

    with Receiver(stall=0.02) as receiver:
        hook = post("/webhooks", {"url": receiver.url, "role": "gm"}, 201)
        heroes = [post("/characters", {"name": n, "sheet": SHEET}, 201)["id"] for n in "ABC"]
        sides = [{"character_id": hero, "side": "a"} for hero in heroes]
        eid = post("/encounters", {"name": "Long fight", "combatants": sides}, 201)["id"]
        worker.start()
        kills = 0
        for round_ in range(KILLS * 2 + 2):
            for face, hero in enumerate(heroes, start=1):
                action = {"kind": "recover", "actor": hero, "dice": {"recovery": [face] * 3}}
                post(f"/encounters/{eid}/actions", action, 201)
            post(f"/encounters/{eid}/round")
            if kills < KILLS and round_ % 2 == 1:
                more = more_than(receiver, len(receiver.bodies()))
                wait_until(more, HANG_SECONDS, "a delivery since the last start")
                worker.kill()
                kills += 1
                worker.start()
        post(f"/encounters/{eid}/end")

        def caught_up() -> bool:
            answer = http.get(f"/campaigns/{cid}/events?limit=1").json()
            return bool(answer["projection"]["behind"] == 0)

        wait_until(caught_up, HANG_SECONDS, "the views to catch up")
        log = http.get(f"/campaigns/{cid}/events", params={"after": 0, "limit": 500}).json()
        expected = [f"msg_{e['position']}" for e in log["events"][1:]]  # after the creation

        def all_arrived() -> bool:
            return {r.headers["webhook-id"] for r in receiver.bodies()} >= set(expected)

        wait_until(all_arrived, HANG_SECONDS, "every event to arrive")
        received = receiver.bodies()
    assert kills == KILLS
    verifier = standardwebhooks.Webhook(hook["secret"])
    for sent in received:
        verifier.verify(sent.body.decode(), sent.headers)
    first_arrivals: list[str] = []
    for sent in received:
        if sent.headers["webhook-id"] not in first_arrivals:
            first_arrivals.append(sent.headers["webhook-id"])
    assert first_arrivals == expected  # exactly once each after dedupe, in position order
    print(f"{len(received)} deliveries of {len(expected)} events across {KILLS} kills")
