"""Operations on the real server under faults: Redis going away, oversized chunked bodies."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import orjson

from tests.e2e.server import Server
from tests.patience import HANG_SECONDS
from tests.services import ThrowawayRedis

SHEET = {"st": 10, "con": 12, "stamina_max": 12, "body_max": 10}


def campaign_with_a_fight(http: httpx.Client) -> dict[str, str]:
    created = http.post("/campaigns", json={"name": "Storm", "ruleset": "stamina-body"})
    assert created.status_code == 201, created.text
    http.headers["authorization"] = f"Bearer {created.json()['gm_key']}"
    cid = created.json()["id"]
    hero = http.post(f"/campaigns/{cid}/characters", json={"name": "Hero", "sheet": SHEET}).json()
    fight = http.post(
        f"/campaigns/{cid}/encounters",
        json={"name": "Fight", "combatants": [{"character_id": hero["id"], "side": "a"}]},
    ).json()
    return {"cid": cid, "hero": hero["id"], "eid": fight["id"]}


def sse_lines(response: httpx.Response) -> Iterator[str]:
    yield from response.iter_lines()


def test_with_redis_down_every_view_answers_a_json_503_and_writes_go_on(tmp_path: Path) -> None:
    with ThrowawayRedis() as redis_server:
        server = Server(
            tmp_path / "data",
            env={"SKALD_REDIS_URL": redis_server.url, "SKALD_REDIS_PREFIX": "down"},
        ).start()
        try:
            with httpx.Client(base_url=server.url, timeout=HANG_SECONDS) as http:
                ids = campaign_with_a_fight(http)
                cid, eid = ids["cid"], ids["eid"]
                views = [
                    f"/campaigns/{cid}/vitals",
                    f"/campaigns/{cid}/encounters/{eid}/board",
                    f"/campaigns/{cid}/audit",
                ]
                assert [http.get(path).status_code for path in views] == [200, 200, 200]
                with http.stream("GET", f"/campaigns/{cid}/feed?after=0") as feed:
                    assert feed.status_code == 200
                    lines = sse_lines(feed)
                    assert next(line for line in lines if line.startswith("event:")) == (
                        "event: entry"
                    )
                    redis_server.stop()
                    # The stream must end by itself, not hang or break; the client's read
                    # timeout (HANG_SECONDS) is the hang guard, never a speed check.
                    rest = list(lines)
                assert "event: unavailable" in rest
                data = next(line for line in rest if line.startswith("data:") and "views_" in line)
                assert '"error":"views_unavailable"' in data

                for path in [*views, f"/campaigns/{cid}/feed"]:
                    answer = http.get(path)
                    assert answer.status_code == 503, (path, answer.text)
                    assert answer.headers["content-type"] == "application/json"
                    assert answer.headers["retry-after"] == "5"
                    assert answer.json()["error"] == "views_unavailable"
                    assert "writes still go on" in answer.json()["message"]
                hit = http.post(
                    f"/campaigns/{cid}/encounters/{eid}/actions",
                    json={"kind": "recover", "actor": ids["hero"]},
                )
                assert hit.status_code == 201, hit.text
                assert http.get(f"/campaigns/{cid}/encounters/{eid}").json()["version"] == 2
                assert http.get("/health").status_code == 503
        finally:
            server.stop()


def test_a_chunked_body_over_the_limit_is_refused_with_413(tmp_path: Path) -> None:
    server = Server(tmp_path / "data").start()
    try:
        with httpx.Client(base_url=server.url, timeout=HANG_SECONDS) as http:
            ids = campaign_with_a_fight(http)
            before = http.get("/health").json()["event_store"]["events"]
            sheet = b'{"name": "Big", "sheet": {"st": 10, "x": "' + b"y" * 300_000 + b'"}}'

            def chunks() -> Iterator[bytes]:  # no length known up front: Transfer-Encoding
                for start in range(0, len(sheet), 16 * 1024):
                    yield sheet[start : start + 16 * 1024]

            big = http.post(
                f"/campaigns/{ids['cid']}/characters",
                content=chunks(),
                headers={"content-type": "application/json"},
            )
            assert big.request.headers["transfer-encoding"] == "chunked"
            assert "content-length" not in big.request.headers
            assert big.status_code == 413, big.text
            assert big.json() == {
                "error": "body_too_large",
                "message": "the request body is over the limit of 262144 bytes",
            }
            small = orjson.dumps({"name": "Small", "sheet": SHEET})
            fine = http.post(
                f"/campaigns/{ids['cid']}/characters",
                content=iter([small[:20], small[20:]]),
                headers={"content-type": "application/json"},
            )
            assert fine.status_code == 201, fine.text
            assert http.get("/health").json()["event_store"]["events"] == before + 1
    finally:
        server.stop()
