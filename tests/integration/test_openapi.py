"""The OpenAPI description: operation ids, every error with the body really sent, an
example per request body, the ruleset ids as an enum; and a route added later gets it all."""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path
from typing import Any
from uuid import UUID

import jsonschema
from fastapi.testclient import TestClient
from pydantic import Field

import skald_campaign.api.schemas
from skald_campaign.api.app import create_app
from skald_campaign.api.deps import Reader
from skald_campaign.api.openapi import sample
from skald_campaign.api.schemas import Body, VoidBody
from skald_campaign.domain.rulesets import RULESETS
from skald_campaign.ruleset_kit import registered
from tests.helpers import GM, new_campaign

SCHEMA = create_app(nullcontext).openapi()


class NoteBody(Body):  # a body added later, with no example listed anywhere
    text: str = Field(min_length=1, max_length=200)
    pinned: bool = False


OPERATIONS = {
    f"{method.upper()} {path}": operation
    for path, item in SCHEMA["paths"].items()
    for method, operation in item.items()
}


def resolved(schema: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    return SCHEMA["components"]["schemas"][ref.rsplit("/", 1)[-1]] if ref else schema


def error_schema(operation: str, status: int) -> dict[str, Any]:
    response = OPERATIONS[operation]["responses"][str(status)]
    return resolved(response["content"]["application/json"]["schema"])


def test_operation_ids_are_the_route_names_and_unique() -> None:
    ids = [op["operationId"] for op in OPERATIONS.values()]
    assert len(ids) == len(set(ids))
    assert all(i.isidentifier() for i in ids)
    assert OPERATIONS["POST /campaigns"]["operationId"] == "create_campaign"
    assert OPERATIONS["GET /campaigns/{campaign_id}/vitals"]["operationId"] == "read_vitals"


def test_each_operation_documents_the_errors_it_can_answer() -> None:
    def documented(operation: str) -> list[int]:
        return sorted(int(s) for s in OPERATIONS[operation]["responses"] if s[0] in "45")

    assert documented("POST /campaigns") == [401, 403, 409, 413, 415, 422, 429]
    assert documented("GET /campaigns/{campaign_id}") == [401, 403, 404, 409, 422, 429]
    assert documented("GET /campaigns/{campaign_id}/keys") == [401, 403, 404, 409, 422, 429]
    assert documented("POST /campaigns/{campaign_id}/encounters/{encounter_id}/actions") == [
        401, 403, 404, 409, 412, 413, 415, 422, 429,
    ]  # fmt: skip
    views = [401, 403, 404, 409, 422, 429, 503]
    assert documented("GET /campaigns/{campaign_id}/vitals") == views
    assert documented("GET /campaigns/{campaign_id}/feed") == views
    assert documented("GET /rulesets") == [429]
    assert documented("GET /health") == [429, 503]
    for operation in OPERATIONS.values():
        assert "429" in operation["responses"]
        assert "Retry-After" in operation["responses"]["429"]["headers"]
        if "401" in operation["responses"]:
            assert "WWW-Authenticate" in operation["responses"]["401"]["headers"]
    assert "HTTPValidationError" not in SCHEMA["components"]["schemas"]


def test_the_documented_error_body_is_the_one_sent(client: TestClient) -> None:
    invalid = client.post("/campaigns", json={"name": "", "ruleset": "d20"})
    assert invalid.status_code == 422
    schema = error_schema("POST /campaigns", 422)
    assert schema["required"] == ["error", "message"]
    jsonschema.validate(invalid.json(), schema)
    assert invalid.json()["problems"][0]["field"] == "name"
    cid = new_campaign(client, "stamina-body")
    missing = client.get(f"/campaigns/{cid}/characters/nobody", headers=GM)
    assert missing.status_code == 404
    jsonschema.validate(missing.json(), error_schema("GET /campaigns/{campaign_id}", 404))
    anonymous = client.get(f"/campaigns/{cid}", headers={"authorization": ""})
    assert anonymous.status_code == 401
    jsonschema.validate(anonymous.json(), error_schema("GET /campaigns/{campaign_id}", 401))


def test_412_is_documented_exactly_on_the_writes_that_take_if_match(
    client: TestClient,
) -> None:
    """Every operation with an If-Match parameter documents 412 with the problem body, and
    no other does; the body sent is the one documented."""
    taking = {
        name
        for name, operation in OPERATIONS.items()
        if any(p["name"] == "If-Match" for p in operation.get("parameters", []))
    }
    assert taking == {
        name for name, operation in OPERATIONS.items() if "412" in operation["responses"]
    }
    assert len(taking) == 29
    assert not [name for name in taking if name.startswith("GET ")]
    problem = SCHEMA["components"]["schemas"]["VersionProblem"]
    cid = new_campaign(client, "stamina-body")
    days = client.post(f"/campaigns/{cid}/days", json={"days": 1}, headers={"if-match": '"v9"'})
    assert days.status_code == 412
    jsonschema.validate(days.json(), problem)
    assert (days.json()["aggregate"], days.json()["current_version"]) == ("campaign", 1)


def test_every_request_body_has_an_example_its_schema_accepts() -> None:
    bodies = 0
    for label, operation in OPERATIONS.items():
        content = operation.get("requestBody", {}).get("content", {}).get("application/json")
        if content is None:
            continue
        bodies += 1
        assert "example" in content, f"{label} has no request body example"
        documented = {**content["schema"], "components": SCHEMA["components"]}
        jsonschema.validate(content["example"], documented)
    assert bodies >= 10
    create = OPERATIONS["POST /campaigns"]["requestBody"]["content"]["application/json"]
    assert create["example"] == {"name": "The Sunken Crown", "ruleset": "stamina-body"}
    model = skald_campaign.api.schemas.CreateCampaignBody.model_validate(create["example"])
    assert model.ruleset == "stamina-body"


def test_a_body_without_a_listed_example_gets_one_from_its_schema() -> None:
    components = SCHEMA["components"]["schemas"]
    made = sample({"$ref": "#/components/schemas/RewindBody"}, components)
    assert made == {"reason": "example", "to_version": 1}
    skald_campaign.api.schemas.RewindBody.model_validate(made)
    assert sample({"type": "string", "minLength": 9, "maxLength": 10}, {}) == "examplexx"
    assert sample({"type": "integer", "minimum": 3, "maximum": 5}, {}) == 3
    assert sample({"anyOf": [{"type": "null"}, {"type": "boolean"}]}, {}) is True


def test_ruleset_is_an_enum_of_the_built_in_ids() -> None:
    body = SCHEMA["components"]["schemas"]["CreateCampaignBody"]
    assert body["properties"]["ruleset"]["enum"] == ["d20", "margin", "stamina-body"]
    assert sorted(RULESETS) == ["d20", "margin", "stamina-body"]
    (parameter,) = OPERATIONS["GET /rulesets/{ruleset_id}"]["parameters"]
    assert parameter["schema"]["enum"] == ["d20", "margin", "stamina-body"]


def test_a_plugins_options_named_like_a_built_ins_keep_both() -> None:
    """A plugin whose ruleset class is named like a built-in's (``D20``) gets an options
    model of the same name (``D20Options``); each ruleset's schema stays published, the
    second under its id, and each ruleset's body refers to its own (the first one's was
    overwritten before)."""
    house_class = type("D20", (type(RULESETS["stamina-body"]),), {"id": "house-d20"})
    house = house_class()
    d20_options = RULESETS["d20"].campaign_options_model.model_json_schema()
    with registered(house):
        app = create_app(nullcontext)
        components = app.openapi()["components"]["schemas"]
    assert components["D20Options"]["title"] == "d20 options"
    assert components["D20Options"]["properties"].keys() == d20_options["properties"].keys()
    assert components["D20Options.house-d20"]["title"] == "house-d20 options"
    assert "health" not in components["D20Options"]["properties"]
    rules = {
        rule["if"]["properties"]["ruleset"]["const"]: rule["then"]["properties"]["options"]
        for rule in components["CreateCampaignBody"]["allOf"]
    }
    assert rules["d20"] == {"$ref": "#/components/schemas/D20Options"}
    assert rules["house-d20"] == {"$ref": "#/components/schemas/D20Options.house-d20"}
    # Its initiative roll (other fields to add) is its own too, and referred to as such.
    roll = components["D20Options.house-d20"]["properties"]["initiative"]
    assert "#/components/schemas/D20InitiativeRoll.house-d20" in str(roll)
    assert "D20InitiativeRoll.house-d20" in components
    accepted = jsonschema.Draft202012Validator(
        {**components["CreateCampaignBody"], "components": {"schemas": components}}
    )
    assert accepted.is_valid({"name": "Hall", "ruleset": "house-d20", "options": {}})
    assert not accepted.is_valid(
        {"name": "Hall", "ruleset": "house-d20", "options": {"initiative": {"mode": "roll",
         "dice": "1d20", "add": "dexterity"}}}
    )  # fmt: skip


def test_a_route_added_later_is_documented_the_same_way() -> None:
    app = create_app(nullcontext)

    @app.post("/campaigns/{campaign_id}/notes", status_code=201)
    def add_note(campaign_id: UUID, access: Reader, body: VoidBody) -> dict[str, str]:
        return {}

    operation = app.openapi()["paths"]["/campaigns/{campaign_id}/notes"]["post"]
    assert operation["operationId"] == "add_note"
    assert sorted(s for s in operation["responses"] if s != "201") == [
        "401", "403", "404", "409", "413", "415", "422", "429",
    ]  # fmt: skip
    example = operation["requestBody"]["content"]["application/json"]["example"]
    assert example == {"reason": "the hit was rolled against the wrong target"}

    @app.post("/campaigns/{campaign_id}/pins")
    def pin(campaign_id: UUID, access: Reader, body: NoteBody) -> dict[str, str]:
        return {}

    app.openapi_schema = None
    operation = app.openapi()["paths"]["/campaigns/{campaign_id}/pins"]["post"]
    assert operation["requestBody"]["content"]["application/json"]["example"] == {"text": "example"}


def test_the_action_post_documents_its_202_for_a_pending_attack() -> None:
    responses = OPERATIONS["POST /campaigns/{campaign_id}/encounters/{encounter_id}/actions"][
        "responses"
    ]
    assert "201" in responses and "202" in responses
    assert "defender's declaration" in responses["202"]["description"]
    schema = responses["202"]["content"]["application/json"]["schema"]
    assert schema == {"$ref": "#/components/schemas/ActionOut"}


def test_docs_access_says_viewers_get_403_on_the_odds() -> None:
    access = (Path(__file__).resolve().parents[2] / "docs" / "access.md").read_text()
    assert (
        "| the odds of an action or of a combatant's attacks (`.../odds`) "
        "| yes | its own characters' | no (403) |"
    ) in access
