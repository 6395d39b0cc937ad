"""/rulesets publishes each ruleset's page presentation (issue 38): what the pages show of
it (its buttons' words, the panel's order, starter sheets, the initiative fields), as the
ruleset's own package says it, in the shape the OpenAPI description documents."""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any

import jsonschema
import pytest
from fastapi.testclient import TestClient

from skald_campaign.api.app import create_app
from skald_campaign.domain.rulesets import RULESETS
from skald_campaign.domain.rulesets.base import RulesetOf

SPEC = create_app(nullcontext).openapi()
BUILT_IN = ["stamina-body", "margin", "d20"]
# The fields that are lists; the others are objects.
LISTS = {"panel", "server_recorded", "self_targeted", "initiative_add", "ratings"}
FIELDS = {
    "labels",
    "panel_titles",
    "param_titles",
    "panel",
    "server_recorded",
    "self_targeted",
    "initiative_add",
    "templates",
    "ratings",
    "shortcuts",
}


def validator(component: str) -> jsonschema.Draft202012Validator:
    """A validator of the OpenAPI description's schema (OpenAPI 3.1: JSON Schema 2020-12)."""
    schema = {"$ref": f"#/components/schemas/{component}", "components": SPEC["components"]}
    return jsonschema.Draft202012Validator(schema)


def test_the_openapi_description_documents_the_presentation() -> None:
    schemas = SPEC["components"]["schemas"]
    field = schemas["RulesetOut"]["properties"]["presentation"]
    assert field["$ref"] == "#/components/schemas/RulesetPresentation"
    assert field["description"].startswith("how the pages show the ruleset")
    presentation = schemas["RulesetPresentation"]
    assert set(presentation["properties"]) == FIELDS
    assert presentation["additionalProperties"] is False
    assert all(p["description"] for p in presentation["properties"].values())
    assert "required" not in presentation  # a ruleset may leave any of it out


@pytest.mark.parametrize("ruleset", BUILT_IN)
def test_each_rulesets_presentation_validates_against_its_schema(
    client: TestClient, ruleset: str
) -> None:
    listed = {r["id"]: r for r in client.get("/rulesets").json()}
    one = client.get(f"/rulesets/{ruleset}").json()
    assert listed[ruleset] == one
    validator("RulesetOut").validate(one)
    validator("RulesetPresentation").validate(one["presentation"])
    shown: dict[str, Any] = one["presentation"]
    assert set(shown) == FIELDS
    # What the ruleset's own package publishes, every field it leaves out empty.
    own = dict(RULESETS[ruleset].presentation())
    assert shown == {**{f: [] if f in LISTS else {} for f in FIELDS}, **own}
    assert shown["templates"] and shown["initiative_add"] and shown["labels"]


def test_the_published_presentation_is_the_seeds_own(client: TestClient) -> None:
    shown = {r["id"]: r["presentation"] for r in client.get("/rulesets").json()}
    seed_001 = shown["stamina-body"]
    assert seed_001["labels"]["attack"] == "Hit"
    assert seed_001["labels"]["take_hit"] == "Damage"
    assert seed_001["panel_titles"] == {"take_hit": "Take-hit"}
    assert seed_001["panel"] == [
        "attack", "declare:parry", "declare:dodge", "take_hit", "recover", "stabilise",
        "treat_wound", "mark_wound",
    ]  # fmt: skip
    assert seed_001["server_recorded"] == ["bleed"]
    assert seed_001["shortcuts"] == {"h": "attack", "d": "take_hit"}
    assert shown["margin"]["shortcuts"] == shown["d20"]["shortcuts"] == {"h": "attack"}
    assert seed_001["self_targeted"] == ["take_hit", "treat_wound", "mark_wound"]
    assert list(seed_001["templates"]) == ["Goblin (template)", "Soldier (template)"]
    assert seed_001["templates"]["Goblin (template)"]["weapons"] == [
        {"name": "club", "damage_class": 2, "damage_type": "impact", "skill": 11}
    ]
    assert shown["margin"]["panel"] == [] and shown["margin"]["labels"]["ward"] == "Ward"
    assert list(shown["margin"]["templates"]) == ["Orc (template)"]
    assert shown["d20"]["initiative_add"] == [
        "dexterity", "strength", "constitution", "wisdom", "level",
    ]  # fmt: skip
    assert shown["d20"]["labels"]["stand_up"] == "Stand up"


def test_a_ruleset_without_a_presentation_is_published_with_a_neutral_one(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = type(RULESETS["d20"])
    monkeypatch.setattr(plain, "presentation", RulesetOf.presentation)
    one = client.get("/rulesets/d20").json()
    validator("RulesetPresentation").validate(one["presentation"])
    assert one["presentation"] == {
        "labels": {},
        "panel_titles": {},
        "param_titles": {},
        "panel": [],
        "server_recorded": [],
        "self_targeted": [],
        "initiative_add": ["strength", "dexterity", "constitution", "wisdom", "level"],
        "templates": {},
        "ratings": [],
        "shortcuts": {},
    }
    assert one["presentation"]["initiative_add"] == list(RULESETS["d20"].initiative_adds)


def test_the_schema_refuses_a_presentation_it_does_not_know() -> None:
    check = validator("RulesetPresentation")
    check.validate({})
    with pytest.raises(jsonschema.ValidationError):
        check.validate({"labels": {"attack": 3}})
    with pytest.raises(jsonschema.ValidationError):
        check.validate({"panel": ["declare parry"]})
    with pytest.raises(jsonschema.ValidationError):  # a path into `derived`: lower case
        check.validate({"ratings": [{"rating": "AC", "label": "AC"}]})
    with pytest.raises(jsonschema.ValidationError):
        check.validate({"lables": {}})
    with pytest.raises(jsonschema.ValidationError):
        check.validate({"shortcuts": {"hit": "attack"}})
    with pytest.raises(jsonschema.ValidationError):
        check.validate({"shortcuts": {"u": "attack"}})
    check.validate({"shortcuts": {"h": "attack"}})
