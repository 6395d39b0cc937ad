"""Each ruleset's campaign options are published in the OpenAPI (issue 26 item 11): the
schema a client validates against holds a body to what the server holds it to."""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any

import jsonschema
import pytest
from fastapi.testclient import TestClient

from skald_campaign.api.app import create_app
from skald_campaign.domain.rulesets import RULESETS

SCHEMA = create_app(nullcontext).openapi()
COMPONENTS = SCHEMA["components"]["schemas"]
BODY = {"$ref": "#/components/schemas/CreateCampaignBody", "components": SCHEMA["components"]}


def schema_accepts(body: dict[str, Any]) -> bool:
    try:
        jsonschema.Draft202012Validator(BODY).validate(body)
    except jsonschema.ValidationError:
        return False
    return True


def server_accepts(client: TestClient, body: dict[str, Any]) -> bool:
    answer = client.post("/campaigns", json=body)
    assert answer.status_code in (201, 422), answer.text
    return answer.status_code == 201


def test_each_ruleset_has_its_options_component_with_every_option() -> None:
    for ruleset_id, ruleset in RULESETS.items():
        # The engine's table options and the ruleset's own, as one component (issue 38).
        model = ruleset.campaign_options_model
        component = COMPONENTS[model.__name__]
        assert component["title"] == f"{ruleset_id} options"
        assert component["additionalProperties"] is False
        assert set(component["properties"]) == set(model.model_fields)
        assert set(component["properties"]) == {
            "actions_per_round",
            "initiative",
            "skip_unable",
            "show_npc_numbers",
            *ruleset.options_model.model_fields,
        }
    options = COMPONENTS["CreateCampaignBody"]["properties"]["options"]
    assert options["anyOf"] == [
        {"$ref": "#/components/schemas/D20Options"},
        {"$ref": "#/components/schemas/MarginOptions"},
        {"$ref": "#/components/schemas/StaminaBodyOptions"},
    ]
    assert COMPONENTS["StaminaBodyOptions"]["properties"]["bleed_per_round"] == {
        "default": 1,
        "description": "S10: Body an unconscious, unstabilised combatant loses as each new "
        "round starts (0 turns bleeding off)",
        "maximum": 20,
        "minimum": 0,
        "title": "Bleed Per Round",
        "type": "integer",
    }


@pytest.mark.parametrize("ruleset_id", sorted(RULESETS))
def test_every_default_option_is_accepted_by_the_schema_and_the_server(
    client: TestClient, ruleset_id: str
) -> None:
    defaults = RULESETS[ruleset_id].campaign_options_model().model_dump(mode="json")
    body = {"name": "All defaults", "ruleset": ruleset_id, "options": defaults}
    assert schema_accepts(body)
    assert server_accepts(client, body)


@pytest.mark.parametrize(
    ("ruleset_id", "options"),
    [
        ("d20", {"success_on": 5}),  # margin's option, not d20's
        ("stamina-body", {"success_on": 5}),
        ("margin", {"bleed_per_round": 1}),  # stamina-body's, not margin's
        ("margin", {"success_on": 7}),  # above its maximum of 6
        ("stamina-body", {"bleed_per_round": -1}),
        ("stamina-body", {"stunned_may_defend": "yes"}),
        ("d20", {"no_such_option": True}),
        # Issue 23 (T1): the initiative option, each ruleset's own sheet fields.
        ("margin", {"initiative": {"mode": "roll", "add": "dodge"}}),  # stamina-body's
        ("d20", {"initiative": {"mode": "roll", "add": "grace"}}),  # margin's
        ("stamina-body", {"initiative": {"mode": "roll", "dice": "0d20"}}),
        ("stamina-body", {"initiative": {"mode": "roll", "dice": "1d101"}}),
        ("margin", {"initiative": {"mode": "roll", "dice": "11d6"}}),
        ("d20", {"initiative": {"mode": "roll", "each_round": 1}}),
        ("d20", {"initiative": {"mode": "sometimes"}}),
        ("margin", {"initiative": {"mode": "manual", "dice": "1d20"}}),
        ("stamina-body", {"skip_unable": "yes"}),
    ],
)
def test_what_the_schema_refuses_the_server_refuses(
    client: TestClient, ruleset_id: str, options: dict[str, Any]
) -> None:
    body = {"name": "Wrong options", "ruleset": ruleset_id, "options": options}
    assert not schema_accepts(body)
    assert not server_accepts(client, body)


@pytest.mark.parametrize(
    ("ruleset_id", "field"),
    [("margin", "grace"), ("stamina-body", "dodge"), ("d20", "dexterity")],
)
def test_rolled_initiative_adding_a_field_of_the_rulesets_own_sheet_is_accepted(
    client: TestClient, ruleset_id: str, field: str
) -> None:
    rolled = {"mode": "roll", "dice": "10d100", "add": field, "each_round": True}
    body = {"name": "Rolled", "ruleset": ruleset_id, "options": {"initiative": rolled}}
    assert schema_accepts(body)
    assert server_accepts(client, body)


def test_an_option_of_the_campaigns_own_ruleset_is_accepted(client: TestClient) -> None:
    body = {"name": "Harsh", "ruleset": "margin", "options": {"success_on": 6}}
    assert schema_accepts(body)
    assert server_accepts(client, body)
