"""Strict input types for the stamina-body ruleset over HTTP: "12" is not a number, 1 is
not true, a die face is an integer; each refusal names the field and the expected type
and writes nothing. The published sheet schema says exactly what is accepted. Extreme
accepted values never give a 5xx."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import GM, act, act_response, enrol, event_count, new_campaign, ok, start

SWORD = {"name": "longsword", "damage_class": 3, "damage_type": "piercing", "skill": 15}
SHEET = {"st": 10, "con": 12, "parry": 11, "stamina_max": 12, "body_max": 10, "weapons": [SWORD]}
INTEGER = "Input should be a valid integer"
BOOLEAN = "Input should be a valid boolean"


def refused(response: Any, client: TestClient, before: int, field: str, expected: str) -> None:
    assert response.status_code == 422, response.text
    problems = response.json()["problems"]
    assert {"field": field, "problem": expected} in problems, problems
    assert f"{field}: {expected}" in response.json()["message"]
    assert event_count(client) == before


@pytest.mark.parametrize(
    ("change", "field", "expected"),
    [
        ({"st": True}, "sheet.st", INTEGER),
        ({"con": "12"}, "sheet.con", INTEGER),
        ({"con": 12.0}, "sheet.con", INTEGER),
        ({"stamina_max": False}, "sheet.stamina_max", INTEGER),
        ({"armour_resilience": "2"}, "sheet.armour_resilience", INTEGER),
        ({"weapons": [{**SWORD, "damage_class": "3"}]}, "sheet.weapons.0.damage_class", INTEGER),
        ({"weapons": [{**SWORD, "skill": True}]}, "sheet.weapons.0.skill", INTEGER),
        (
            {"weapons": [{**SWORD, "name": 7}]},
            "sheet.weapons.0.name",
            "Input should be a valid string",
        ),
    ],
)
def test_sheet_values_of_the_wrong_type_are_refused(
    client: TestClient, change: dict[str, Any], field: str, expected: str
) -> None:
    cid = new_campaign(client, "stamina-body")
    before = event_count(client)
    body = {"name": "Hero", "sheet": {**SHEET, **change}}
    response = client.post(f"/campaigns/{cid}/characters", json=body, headers=GM)
    refused(response, client, before, field, expected)


@pytest.mark.parametrize(
    ("options", "field", "expected"),
    [
        ({"extra_dice_per_option": "2"}, "options.extra_dice_per_option", INTEGER),
        ({"extra_dice_per_option": True}, "options.extra_dice_per_option", INTEGER),
        ({"bleed_per_round": "1"}, "options.bleed_per_round", INTEGER),
        ({"stunned_may_defend": 1}, "options.stunned_may_defend", BOOLEAN),
        ({"stunned_may_defend": "yes"}, "options.stunned_may_defend", BOOLEAN),
    ],
)
def test_options_of_the_wrong_type_are_refused(
    client: TestClient, options: dict[str, Any], field: str, expected: str
) -> None:
    before = event_count(client)
    body = {"name": "T", "ruleset": "stamina-body", "options": options}
    refused(client.post("/campaigns", json=body), client, before, field, expected)


def fight(client: TestClient) -> tuple[str, str, dict[str, str]]:
    cid = new_campaign(client, "stamina-body")
    ids = {name: enrol(client, cid, name.title(), SHEET) for name in ("ann", "bob")}
    eid = start(
        client,
        cid,
        [{"character_id": c, "side": f"s{n}"} for n, c in enumerate(ids.values())],
    )
    return cid, eid, ids


@pytest.mark.parametrize(
    ("kind", "params", "field", "expected"),
    [
        ("attack", {"charge": "yes"}, "attack.charge", BOOLEAN),
        ("attack", {"set_weapon": 1}, "attack.set_weapon", BOOLEAN),
        ("attack", {"ignore_armour": "true"}, "attack.ignore_armour", BOOLEAN),
        ("take_hit", {"damage_class": "2"}, "take_hit.damage_class", INTEGER),
        ("take_hit", {"parried": 1, "hit_score": 3}, "take_hit.parried", BOOLEAN),
        ("take_hit", {"hit_score": "3"}, "take_hit.hit_score", INTEGER),
        ("mark_wound", {"wound": "broken_bones", "present": 0}, "mark_wound.present", BOOLEAN),
    ],
)
def test_action_parameters_of_the_wrong_type_are_refused(
    client: TestClient, kind: str, params: dict[str, Any], field: str, expected: str
) -> None:
    cid, eid, ids = fight(client)
    base: dict[str, Any] = {"target": ids["bob"]}
    if kind == "take_hit":
        base |= {"damage_type": "impact", "damage_class": 1}
    actor = ids["ann"] if kind == "attack" else None
    before = event_count(client)
    response = act_response(client, cid, eid, kind, actor, None, **{**base, **params})
    refused(response, client, before, field, expected)


@pytest.mark.parametrize("face", [True, "3", 3.0])
def test_a_die_face_must_be_an_integer(client: TestClient, face: Any) -> None:
    cid, eid, ids = fight(client)
    before = event_count(client)
    dice = {"hit": [face, 1, 1]}
    response = act_response(client, cid, eid, "attack", ids["ann"], dice, target=ids["bob"])
    refused(response, client, before, "dice.hit.0", INTEGER)


def test_a_day_plan_healer_of_1_is_refused(client: TestClient) -> None:
    cid = new_campaign(client, "stamina-body")
    enrol(client, cid, "Hero", SHEET)
    before = event_count(client)
    body = {"days": 1, "default": {"healer": 1}}
    response = client.post(f"/campaigns/{cid}/days", json=body, headers=GM)
    refused(response, client, before, "default.healer", BOOLEAN)


# -- the published sheet schema ---------------------------------------------------------


@pytest.fixture
def sheet_schema(client: TestClient) -> dict[str, Any]:
    return dict(ok(client.get("/rulesets/stamina-body"))["sheet_schema"])


@pytest.mark.parametrize(
    "change",
    [
        {"st": True},
        {"con": "12"},
        {"con": 0},
        {"con": 41},
        {"parry": 31},
        {"weapons": [{**SWORD, "name": "unarmed"}]},
        {"weapons": [{**SWORD, "name": "Unarmed"}]},
        {"weapons": [{**SWORD, "damage_type": "fire"}]},
        {"strength": 16},
    ],
)
def test_the_schema_and_the_server_refuse_the_same_sheets(
    client: TestClient, sheet_schema: dict[str, Any], change: dict[str, Any]
) -> None:
    sheet = {**SHEET, **change}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(sheet, sheet_schema)
    cid = new_campaign(client, "stamina-body")
    response = client.post(f"/campaigns/{cid}/characters", json={"name": "X", "sheet": sheet})
    assert response.status_code == 422


def test_the_schema_accepts_what_the_server_accepts(
    client: TestClient, sheet_schema: dict[str, Any]
) -> None:
    jsonschema.validate(SHEET, sheet_schema)
    assert sheet_schema["properties"]["con"]["type"] == "integer"
    assert sheet_schema["additionalProperties"] is False


# -- extreme accepted values: no 5xx ----------------------------------------------------


def extreme(low: int, high: int) -> st.SearchStrategy[int]:
    return st.sampled_from([low, high]) | st.integers(low, high)


sheets = st.fixed_dictionaries(
    {
        "st": extreme(1, 40),
        "con": extreme(1, 40),
        "parry": extreme(0, 30),
        "dodge": extreme(0, 30),
        "unarmed_skill": extreme(0, 30),
        "stamina_max": extreme(1, 200),
        "body_max": extreme(1, 200),
        "armour_resilience": extreme(0, 50),
        "shield_resilience": extreme(0, 50),
        "weapons": st.just(
            [{"name": "big", "damage_class": 20, "damage_type": "piercing", "skill": 30}]
        ),
    }
)


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    attacker=sheets,
    defender=sheets,
    extra=extreme(1, 3),
    bleed=extreme(0, 20),
    defense=st.sampled_from(["parry", "dodge", "none"]),
    weapon=st.sampled_from(["big", "unarmed"]),
)
def test_extreme_accepted_values_never_give_a_server_error(
    client: TestClient,
    attacker: dict[str, Any],
    defender: dict[str, Any],
    extra: int,
    bleed: int,
    defense: str,
    weapon: str,
) -> None:
    options = {"extra_dice_per_option": extra, "bleed_per_round": bleed}
    cid = new_campaign(client, "stamina-body", options)
    a = enrol(client, cid, "A", attacker)
    d = enrol(client, cid, "D", defender)
    eid = start(client, cid, [{"character_id": a, "side": "x"}, {"character_id": d, "side": "y"}])
    all_in = {"set_weapon": True, "charge": True, "extra_strength": True}
    for _ in range(3):
        response = act_response(
            client, cid, eid, "attack", a, {"hit": [1, 1, 1]}, target=d, weapon=weapon,
            defense=defense, **all_in,
        )  # fmt: skip
        assert response.status_code in (201, 409), response.text
        hit = act(
            client, cid, eid, "take_hit", None, None, target=d, damage_type="piercing",
            damage_class=20, **all_in,
        )  # fmt: skip
        assert hit["action"]["kind"] == "take_hit"
        ok(client.post(f"/campaigns/{cid}/encounters/{eid}/round", headers=GM))
    for kind, actor in (("recover", a), ("recover", d), ("stabilise", a)):
        response = act_response(client, cid, eid, kind, actor, None)
        assert response.status_code < 500, response.text
    ok(client.post(f"/campaigns/{cid}/encounters/{eid}/end", headers=GM))
    days = {"days": 3, "default": {"rest": "light", "care": False, "healer": True}}
    ok(client.post(f"/campaigns/{cid}/days", json=days, headers=GM), 201)
