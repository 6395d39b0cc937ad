"""A JSON body that is not plain JSON is a 422 naming what is wrong, on the routes and
on the action fast path alike (api/json_body.py), and nothing is written."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.helpers import act, enrol, event_count, new_campaign, start

SHEET = {"st": 10, "con": 12, "stamina_max": 12, "body_max": 10}
JSON = {"content-type": "application/json"}


@pytest.fixture
def table(client: TestClient) -> dict[str, str]:
    cid = new_campaign(client, "stamina-body")
    hero = enrol(client, cid, "Hero", SHEET)
    eid = start(client, cid, [{"character_id": hero, "side": "party"}])
    act(client, cid, eid, "recover", actor=hero, dice={"recovery": [1, 1, 1]})
    return {"cid": cid, "eid": eid, "hero": hero}


def nested(depth: int) -> bytes:
    return (
        b'{"name": "x", "ruleset": "stamina-body", "options": ' + b"[" * depth + b"]" * depth + b"}"
    )


CAMPAIGN = "/campaigns"
ACTIONS = "/campaigns/{cid}/encounters/{eid}/actions"
BAD_BODIES: list[tuple[str, str, bytes, str]] = [
    (
        "nested 1,000 deep",
        CAMPAIGN,
        nested(1000),
        "the request body nests objects and arrays more than 32 levels deep",
    ),
    (
        "nested 1,000 deep, inside a string's brackets too",
        ACTIONS,
        b'{"kind": "recover", "actor": "{hero}", "params": {"note": "[[[["}, "dice": '
        + b"[" * 1000
        + b"]" * 1000
        + b"}",
        "the request body nests objects and arrays more than 32 levels deep",
    ),
    (
        "an integer of 4,301 digits",
        ACTIONS,
        b'{"kind": "recover", "actor": "{hero}", "dice": {"recovery": [' + b"9" * 4301 + b"]}}",
        "the request body has an integer of more than 4300 digits",
    ),
    (
        "not UTF-8",
        CAMPAIGN,
        b'{"name": "Caf\xe9", "ruleset": "stamina-body"}',
        "the request body is not UTF-8: byte 0xe9 at offset 13",
    ),
    (
        "not UTF-8, on the fast path",
        ACTIONS,
        b'{"params": {"x": "\xff"}, "kind": "recover", "actor": "{hero}"}',
        "the request body is not UTF-8: byte 0xff at offset 18",
    ),
    (
        "a key twice",
        CAMPAIGN,
        b'{"name": "First", "ruleset": "stamina-body", "name": "Second"}',
        "the request body has the key 'name' twice in one object",
    ),
    (
        "a key twice, on the fast path",
        ACTIONS,
        b'{"kind": "take_hit", "actor": "{hero}", "kind": "recover"}',
        "the request body has the key 'kind' twice in one object",
    ),
    (
        "a key twice, deep inside",
        ACTIONS,
        b'{"kind": "recover", "actor": "{hero}", "dice": {"recovery": [1, 1, 1], "recovery": [6]}}',
        "the request body has the key 'recovery' twice in one object",
    ),
    (
        "NaN",
        ACTIONS,
        b'{"kind": "recover", "actor": "{hero}", "params": {"x": NaN}}',
        "the request body is not valid JSON: NaN is not a JSON value",
    ),
    ("truncated", CAMPAIGN, b'{"name": "x",', "the request body is not valid JSON: Expecting"),
]


@pytest.mark.parametrize(
    ("path", "body", "message"),
    [case[1:] for case in BAD_BODIES],
    ids=[case[0] for case in BAD_BODIES],
)
def test_a_body_that_is_not_plain_json_is_a_422_that_says_why(
    client: TestClient, table: dict[str, str], path: str, body: bytes, message: str
) -> None:
    before = event_count(client)
    answer = client.post(
        path.format(**table), content=body.replace(b"{hero}", table["hero"].encode()), headers=JSON
    )
    assert answer.status_code == 422, answer.text
    assert answer.headers["content-type"] == "application/json"
    assert answer.json()["error"] == "malformed_json"
    assert answer.json()["message"].startswith(message), answer.json()
    assert event_count(client) == before


def test_a_body_without_a_content_type_is_checked_too(
    client: TestClient, table: dict[str, str]
) -> None:
    """FastAPI reads a body with no Content-Type as JSON: so is it checked."""
    answer = client.post(CAMPAIGN, content=b'{"name": "a", "name": "b", "ruleset": "d20"}')
    assert answer.status_code == 422, answer.text
    assert answer.json()["message"] == "the request body has the key 'name' twice in one object"


def test_32_levels_are_read_as_ever(client: TestClient, table: dict[str, str]) -> None:
    answer = client.post(CAMPAIGN, content=nested(31), headers=JSON)
    assert answer.status_code == 422, answer.text  # refused by the route: options is an object
    assert answer.json()["error"] == "invalid_input"


STRICT: list[tuple[str, str, dict[str, Any], str]] = [
    ("rewind to 1.0", "{e}/rewind", {"to_version": 1.0, "reason": "r"}, "to_version"),
    ("rewind to '1'", "{e}/rewind", {"to_version": "1", "reason": "r"}, "to_version"),
    ("preview to 1.0", "{e}/rewind/preview", {"to_version": 1.0}, "to_version"),
    ("move to rank 2.0", "{e}/combatants/{hero}/move", {"rank": 2.0, "reason": "r"}, "rank"),
    ("advance 1.0 day", "/campaigns/{cid}/days", {"days": 1.0}, "days"),
    (
        "a wound present 'yes'",
        "/campaigns/{cid}/characters/{hero}/wounds",
        {"wound": "piercing_wound", "present": "yes", "reason": "r"},
        "present",
    ),
]


@pytest.mark.parametrize(
    ("path", "body", "field"), [case[1:] for case in STRICT], ids=[case[0] for case in STRICT]
)
def test_numbers_and_flags_are_strictly_typed(
    client: TestClient, table: dict[str, str], path: str, body: dict[str, Any], field: str
) -> None:
    before = event_count(client)
    encounter = f"/campaigns/{table['cid']}/encounters/{table['eid']}"
    answer = client.post(path.format(e=encounter, **table), json=body)
    assert answer.status_code == 422, answer.text
    assert [p["field"] for p in answer.json()["problems"]] == [field]
    assert event_count(client) == before
