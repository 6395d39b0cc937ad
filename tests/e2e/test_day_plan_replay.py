"""A day's plan corrected before the healing worker applied the day, then retried with
the same Idempotency-Key after it did (issue 37 item 3): the retry answers the first
answer's bytes (docs/access.md: "a retry with the same key and body gets the same
response"), though the worker has healed the day with the new plan since.

The real server runs with its workers off and the real healing worker beside it as
its own process (`skald worker healing`, as on a scaled-out deployment), started once
the first answer is in: so that answer is computed, every time, before the day is
healed, with nothing stubbed."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import httpx

from tests.e2e.server import Server
from tests.integration.test_export_import import SKALD
from tests.patience import HANG_SECONDS
from tests.services import ThrowawayRedis

SHEET = {"st": 10, "con": 10, "stamina_max": 20, "body_max": 10}


def a_day_advanced_after_a_fight(http: httpx.Client) -> tuple[str, str]:
    created = http.post("/campaigns", json={"name": "March", "ruleset": "stamina-body"})
    assert created.status_code == 201, created.text
    http.headers["authorization"] = f"Bearer {created.json()['gm_key']}"
    cid = created.json()["id"]
    bran = http.post(f"/campaigns/{cid}/characters", json={"name": "Bran", "sheet": SHEET})
    assert bran.status_code == 201, bran.text
    bid = bran.json()["id"]
    fight = http.post(
        f"/campaigns/{cid}/encounters",
        json={"name": "Fight", "combatants": [{"character_id": bid, "side": "party"}]},
    )
    assert fight.status_code == 201, fight.text
    base = f"/campaigns/{cid}/encounters/{fight.json()['id']}"
    hit = http.post(
        f"{base}/actions",
        json={
            "kind": "take_hit",
            "params": {"target": bid, "damage_type": "impact", "damage_class": 2},
            "dice": {"damage": [6, 6]},
        },
    )
    assert hit.status_code == 201, hit.text  # 10 stamina, 8 body left
    assert http.post(f"{base}/end").status_code == 200
    assert http.post(f"/campaigns/{cid}/days", json={"days": 1}).status_code == 201
    return cid, bid


def test_a_day_plan_correction_retried_after_the_worker_healed_the_day_answers_the_same(
    tmp_path: Path,
) -> None:
    with ThrowawayRedis() as redis_server:
        env = {
            "SKALD_REDIS_URL": redis_server.url,
            "SKALD_REDIS_PREFIX": "plans",
            "SKALD_WORKERS": "false",
        }
        server = Server(tmp_path / "data", env=env).start()
        worker: subprocess.Popen[bytes] | None = None
        try:
            with httpx.Client(base_url=server.url, timeout=HANG_SECONDS) as http:
                cid, bran = a_day_advanced_after_a_fight(http)
                character = f"/campaigns/{cid}/characters/{bran}"
                assert http.get(character).json()["tracks"] == {"stamina": 10, "body": 8}
                path = f"/campaigns/{cid}/days/1/plans/{bran}"
                body = {"plan": {"rest": "light"}, "reason": "they marched"}
                retry = {"Idempotency-Key": "they-marched"}
                first = http.post(path, json=body, headers=retry)
                assert first.status_code == 200, first.text
                # Day 1 not healed yet: the plan is corrected and nothing moves now.
                assert first.json()["preview"]["changes_nothing"] is True
                assert first.json()["preview"]["steps"] == []

                worker = subprocess.Popen(
                    [SKALD, "worker", "healing", "--data-dir", str(tmp_path / "data"),
                     "--redis-url", redis_server.url],
                    env={**os.environ, **env},
                    stdout=(tmp_path / "healing.log").open("ab"),
                    stderr=subprocess.STDOUT,
                )  # fmt: skip
                deadline = time.monotonic() + HANG_SECONDS
                # Healed with the corrected plan: light activity, 10 lost // 2 = 5 back.
                while http.get(character).json()["tracks"] != {"stamina": 15, "body": 10}:
                    assert worker.poll() is None, (tmp_path / "healing.log").read_text()
                    assert time.monotonic() < deadline, "the worker did not heal day 1"
                    time.sleep(0.05)

                again = http.post(path, json=body, headers=retry)
                assert (again.status_code, again.content) == (200, first.content)
        finally:
            if worker is not None and worker.poll() is None:
                worker.send_signal(signal.SIGINT)
                try:
                    worker.wait(timeout=HANG_SECONDS)
                except subprocess.TimeoutExpired:
                    worker.kill()
                    worker.wait()
            server.stop()
