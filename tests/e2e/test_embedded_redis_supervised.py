"""A real `skald serve` whose embedded Redis is killed outright starts it again: the
views come back by themselves and follow the writes made after the restart."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import httpx

from skald_campaign.embedded_redis import PIDFILE, running
from tests.e2e.server import Server
from tests.e2e.test_operations import campaign_with_a_fight
from tests.patience import HANG_SECONDS

CAP = 120.0  # seconds: a cap on waiting for a loaded machine, never a budget


def redis_pid(data_dir: Path) -> int:
    return int(json.loads((data_dir / PIDFILE).read_text())["pid"])


def audit(http: httpx.Client, path: str) -> httpx.Response:
    """The audit view; while Redis is away it answers the views' clean JSON 503."""
    answer = http.get(path)
    if answer.status_code == 503:
        assert answer.json()["error"] == "views_unavailable", answer.text
    else:
        assert answer.status_code == 200, answer.text
    return answer


def test_a_killed_embedded_redis_is_started_again_and_the_views_catch_up(
    tmp_path: Path,
) -> None:
    data_dir = tmp_path / "data"
    server = Server(data_dir).start()
    try:
        with httpx.Client(base_url=server.url, timeout=HANG_SECONDS) as http:
            ids = campaign_with_a_fight(http)
            trail = f"/campaigns/{ids['cid']}/encounters/{ids['eid']}/audit"
            deadline = time.monotonic() + CAP
            while not audit(http, trail).json()["entries"]:
                assert time.monotonic() < deadline, "the views did not follow the start"
                time.sleep(0.05)
            killed = redis_pid(data_dir)
            os.kill(killed, signal.SIGKILL)
            deadline = time.monotonic() + CAP
            while running(killed) or redis_pid(data_dir) == killed:
                assert time.monotonic() < deadline, "the embedded Redis was not started again"
                time.sleep(0.05)
            restarted = redis_pid(data_dir)
            assert running(restarted)
            while audit(http, trail).status_code != 200:
                assert time.monotonic() < deadline, "the views did not come back"
                time.sleep(0.05)

            hit = http.post(
                f"/campaigns/{ids['cid']}/encounters/{ids['eid']}/actions",
                json={"kind": "recover", "actor": ids["hero"]},
            )
            assert hit.status_code == 201, hit.text
            while len(entries := audit(http, trail).json()["entries"]) < 2:
                assert time.monotonic() < deadline, "the views did not follow the new action"
                time.sleep(0.05)
            assert [e["event"] for e in entries] == ["Started", "ActionResolved"]
            assert http.get("/health").json()["redis"]["ok"] is True
    finally:
        server.stop()
    assert not running(restarted)  # and the one it started stops with it
    assert not (data_dir / PIDFILE).exists()
