"""A pending attack's answers with their exact odds (issue 24: what the player's page
shows beside Parry, Dodge and No defence): the hit stands as it fell."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.helpers import ok
from tests.integration.test_hidden_rolls_api import Table


def results(answer: dict[str, object]) -> dict[str, str]:
    listed = answer["results"]
    assert isinstance(listed, list)
    return {r["result"]: r["probability"] for r in listed}


def timeless(found: dict[str, Any]) -> dict[str, Any]:
    """The answer without each odds' elapsed_ms (a measurement, not a result)."""
    answers = {
        c: {k: v for k, v in o.items() if k != "elapsed_ms"} for c, o in found["answers"].items()
    }
    return {**found, "answers": answers}


def test_each_answer_with_its_exact_odds_given_the_hit(client: TestClient) -> None:
    t = Table(client)
    body = {"kind": "attack", "actor": t.ogre, "dice": {"hit": [4, 4, 4]},
            "params": {"target": t.bran, "weapon": "maul"}}  # fmt: skip
    waiting = ok(client.post(f"{t.fight}/actions", json=body), 202)["exchange"]
    assert waiting["shown"]["hit_score"] == 5  # 12 against the maul's 17
    path = f"{t.fight}/exchanges/1/odds"
    gm = ok(client.get(path))
    assert timeless(ok(client.get(path, headers=t.player))) == timeless(gm)  # Bran's player
    assert (gm["exchange"], gm["param"], gm["shown"]["hit_score"]) == (1, "defense", 5)
    # Parry 11 stops it when 3d6 <= 11 - 5 = 6 (20 of 216 throws); dodge 10 at <= 5 (10).
    assert results(gm["answers"]["parry"]) == {"parried": "5/54", "hit": "49/54"}
    assert results(gm["answers"]["dodge"]) == {"dodged": "5/108", "hit": "103/108"}
    assert results(gm["answers"]["none"]) == {"hit": "1"}
    assert client.get(path, headers=t.viewer).status_code == 403


def test_a_hidden_attacks_odds_are_the_gms(client: TestClient) -> None:
    t = Table(client)
    ok(t.maul({"hit": [4, 4, 4]}), 202)
    path = f"{t.fight}/exchanges/1/odds"
    refused = client.get(path, headers=t.player)
    assert refused.status_code == 403
    assert (
        refused.json()["message"] == "the GM rolled this attack hidden: its odds would tell its hit"
    )
    assert ok(client.get(path))["shown"]["hit_score"] == 5
