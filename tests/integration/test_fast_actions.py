"""The action POST's fast path (api/fast_actions.py) answers exactly as the FastAPI
route does: the same script of requests to two servers, one with the fast path and one
without, gets the same statuses, headers and bodies (ids aside); the fast path answered
the ordinary ones itself and handed the rest to the route."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

import skald_campaign.api.fast_actions as fast_actions
from skald_campaign.api.app import create_app
from skald_campaign.application import application as application_module
from skald_campaign.services import build_services
from skald_campaign.settings import Settings

STAMINA_SHEET = {"st": 12, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 20, "body_max": 12}
UUID_TEXT = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
KEY_TEXT = re.compile(r"skald_[0-9a-f]{16}_[0-9a-f]+")
WHEN_TEXT = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(\+00:00|Z)?")


def script(client: TestClient) -> list[tuple[int, dict[str, str], str]]:
    """Every answer to a fixed script of actions: status, headers, body."""
    created = client.post("/campaigns", json={"name": "Parity", "ruleset": "stamina-body"})
    cid, gm_key = created.json()["id"], created.json()["gm_key"]
    gm = {"authorization": f"Bearer {gm_key}"}

    def enrol(name: str) -> str:
        body = {"name": name, "sheet": STAMINA_SHEET}
        return str(client.post(f"/campaigns/{cid}/characters", json=body, headers=gm).json()["id"])

    hero, foe, bystander = enrol("Hero"), enrol("Foe"), enrol("Bystander")
    keys = client.post(
        f"/campaigns/{cid}/keys", json={"role": "player", "characters": [hero]}, headers=gm
    ).json()["key"]
    player = {"authorization": f"Bearer {keys}"}
    fight = client.post(
        f"/campaigns/{cid}/encounters",
        json={
            "name": "Fight",
            "combatants": [
                {"character_id": hero, "side": "party"},
                {"character_id": foe, "side": "foes"},
                {"character_id": bystander, "side": "party"},
            ],
        },
        headers=gm,
    ).json()["id"]
    path = f"/campaigns/{cid}/encounters/{fight}/actions"
    hit = {"target": hero, "damage_type": "impact", "damage_class": 1}
    foe_attacks = {
        "kind": "attack",
        "actor": foe,
        "params": {"target": hero},
        "dice": {"hit": [3, 3, 3]},
    }
    requests: list[tuple[Any, dict[str, str]]] = [
        ({"kind": "take_hit", "params": hit, "dice": {"damage": [3]}}, gm),  # 201
        ({"kind": "take_hit", "params": hit}, gm),  # the server rolls: 201
        ({"kind": "take_hit", "params": hit, "dice": {"damage": [7]}}, gm),  # 422: no d6 face
        (foe_attacks, gm),  # 202: it waits for Hero's declaration
        (foe_attacks, gm),  # 409: Foe has acted this round (the domain's refusal, mapped)
        ({"kind": "attack", "actor": bystander, "params": {"target": foe}}, player),  # 403
        ({"kind": "take_hit", "params": {"target": hero}}, gm),  # 422: the body
        ({"kind": "take_hit", "params": hit}, {}),  # 401: no key
        ({"kind": "take_hit", "params": hit}, {**gm, "idempotency-key": "once"}),
        ({"kind": "take_hit", "params": hit}, {**gm, "idempotency-key": "once"}),  # replayed
    ]
    answers = []
    for body, headers in requests:
        response = client.post(path, json=body, headers=headers)
        shown = {k: v for k, v in response.headers.items() if k not in ("date", "server")}
        answers.append((response.status_code, shown, response.text))
    return answers


def normalised(answers: list[tuple[int, dict[str, str], str]]) -> list[Any]:
    """Ids, keys and instants in order of appearance, so two servers' answers compare."""
    seen: dict[str, str] = {}

    def stand_in(found: re.Match[str]) -> str:
        return seen.setdefault(found.group(0), f"<{len(seen)}>")

    out = []
    for status, headers, text in answers:
        for pattern in (KEY_TEXT, UUID_TEXT, WHEN_TEXT):
            text = pattern.sub(stand_in, text)
        headers = {**headers, "content-length": "<length>"}  # stand-ins change lengths
        out.append((status, headers, text))
    return out


@pytest.fixture
def answered_by_fast_path(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    counted: list[int] = []
    original = fast_actions.answer_bytes

    def counting(encounter: Any) -> Any:
        answer = original(encounter)
        counted.append(answer[0])
        return answer

    monkeypatch.setattr(fast_actions, "answer_bytes", counting)
    yield counted


def test_the_fast_path_answers_as_the_route_does(
    settings: Settings,
    tmp_path: Any,
    answered_by_fast_path: list[int],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # How fresh the access check is does not depend on the clock here. (The first action
    # follows the encounter's start, which saved the campaign: the fast path reads it
    # again itself, as the route's dependency would, and answers it.)
    monkeypatch.setattr(application_module, "ACCESS_RECHECK_SECONDS", 600)
    answers = {}
    for fast in (False, True):
        own = settings.model_copy(update={"data_dir": tmp_path / f"data-{fast}"})
        app = create_app(lambda own=own: build_services(own), fast_actions=fast)
        with TestClient(app) as client:
            answers[fast] = script(client)
    statuses = [status for status, _, _ in answers[True]]
    assert statuses == [201, 201, 422, 202, 409, 403, 422, 401, 201, 201]
    assert normalised(answers[True]) == normalised(answers[False])
    # Both 201s, the 202 (and the two refusals); the rest, the route.
    assert answered_by_fast_path == [201, 201, 202]


def fight(client: TestClient, cid: str, gm: dict[str, str]) -> tuple[str, dict[str, Any]]:
    """A campaign's one-combatant fight, in two of the GM's requests: (its actions' path,
    a take_hit body)."""
    body = {"name": "Hero", "sheet": STAMINA_SHEET}
    hero = client.post(f"/campaigns/{cid}/characters", json=body, headers=gm).json()["id"]
    start = {"name": "Fight", "combatants": [{"character_id": hero, "side": "party"}]}
    encounter = client.post(f"/campaigns/{cid}/encounters", json=start, headers=gm).json()["id"]
    hit = {"target": hero, "damage_type": "impact", "damage_class": 1}
    return f"/campaigns/{cid}/encounters/{encounter}/actions", {"kind": "take_hit", "params": hit}


def test_a_gms_ordinary_action_is_answered_before_the_middleware_stack(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """api/action_path.py: the GM's ordinary action passes no middleware, and its answer
    still carries the security headers; the rest goes through the stack."""
    from skald_campaign.api.security import SecurityHeaders

    through_stack: list[str] = []
    original = SecurityHeaders.__call__

    async def counted(self: SecurityHeaders, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["method"] == "POST":
            through_stack.append(scope["path"])
        await original(self, scope, receive, send)

    monkeypatch.setattr(SecurityHeaders, "__call__", counted)
    with TestClient(create_app(lambda: build_services(settings))) as client:
        created = client.post("/campaigns", json={"name": "Path", "ruleset": "stamina-body"})
        gm = {"authorization": f"Bearer {created.json()['gm_key']}"}
        path, body = fight(client, created.json()["id"], gm)
        through_stack.clear()
        answered = client.post(path, json=body, headers=gm)
        assert answered.status_code == 201
        assert answered.headers["x-frame-options"] == "DENY"
        assert "content-security-policy" in answered.headers
        assert through_stack == []
        replayable = client.post(path, json=body, headers={**gm, "idempotency-key": "k"})
        assert replayable.status_code == 201
        assert client.post(path, json={"params": {}}, headers=gm).status_code == 422
        assert through_stack == [path, path]


def test_the_rate_limit_counts_a_gms_action_once_before_the_stack(settings: Settings) -> None:
    """The rate limit's decision made before the stack holds (a 429, nothing written), and
    a request handed on to the stack after it is not counted twice."""
    limited = settings.model_copy(update={"rate_limit_per_key": "4/minute"})
    with TestClient(create_app(lambda: build_services(limited))) as client:
        created = client.post("/campaigns", json={"name": "Rate", "ruleset": "stamina-body"})
        gm = {"authorization": f"Bearer {created.json()['gm_key']}"}
        path, body = fight(client, created.json()["id"], gm)  # the key's first two requests
        assert client.post(path, json=body, headers=gm).status_code == 201  # the third
        # Read before the stack and handed on to it (the route's 422): the fourth.
        assert client.post(path, json={"params": {}}, headers=gm).status_code == 422
        refused = client.post(path, json=body, headers=gm)
        assert refused.status_code == 429
        assert refused.json()["error"] == "rate_limited"
        assert 1 <= int(refused.headers["retry-after"]) <= 60
        assert refused.headers["x-frame-options"] == "DENY"
