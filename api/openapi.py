"""The OpenAPI description, completed in one place for every route, present and future.

FastAPI documents each operation's success and its request validation. This adds
what a client generator needs beyond that: an operation id from the route's own
name; every error the operation can answer, derived from what the route depends on
(a campaign key, the operator gate, the views in Redis, a request body),
all with the body the error handlers really send; an example per request body;
and the built-in ruleset ids as an enum.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

import fastapi.routing
from fastapi import FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from pydantic import ValidationError

from skald_campaign.api.deps import if_match, operator_gate, reader, view_reader
from skald_campaign.domain.errors import DomainError
from skald_campaign.domain.rulesets import RULESETS

ERROR_SCHEMA: dict[str, Any] = {
    "title": "Error",
    "type": "object",
    "description": "Every error: a stable code and a message that says what is wrong.",
    "required": ["error", "message"],
    "properties": {
        "error": {
            "type": "string",
            "description": "a stable code, e.g. invalid_input, not_found, rate_limited",
        },
        "message": {"type": "string", "description": "what is wrong, for people"},
        "problems": {
            "type": "array",
            "description": "invalid_input: one entry per offending field",
            "items": {
                "type": "object",
                "required": ["field", "problem"],
                "properties": {"field": {"type": "string"}, "problem": {"type": "string"}},
            },
        },
        "current_version": {
            "type": "integer",
            "description": "concurrent_write: the aggregate's version now",
        },
    },
}
ERROR_REF = {"$ref": "#/components/schemas/Error"}
VERSION_PROBLEM_SCHEMA: dict[str, Any] = {
    "title": "VersionProblem",
    "type": "object",
    "description": "412: the If-Match named a version the write's subject is not at; nothing "
    "was written (RFC 9457 problem details, with Skald's error and message)",
    "required": [
        "type",
        "title",
        "status",
        "detail",
        "instance",
        "error",
        "message",
        "aggregate",
        "aggregate_id",
        "current_version",
        "if_match",
    ],
    "properties": {
        "type": {"type": "string", "enum": ["urn:skald:problem:version-mismatch"]},
        "title": {"type": "string"},
        "status": {"type": "integer", "enum": [412]},
        "detail": {"type": "string"},
        "instance": {"type": "string", "description": "the path written to"},
        "error": {"type": "string", "enum": ["version_mismatch"]},
        "message": {"type": "string"},
        "aggregate": {
            "type": "string",
            "enum": ["encounter", "campaign"],
            "description": "the write's subject, whose version the If-Match is checked against",
        },
        "aggregate_id": {"type": "string", "format": "uuid"},
        "current_version": {"type": "integer", "description": "the subject's version now"},
        "if_match": {"type": "string", "description": "the If-Match as sent (80 characters)"},
    },
}
VERSION_ETAG = {
    "ETag": {
        "description": 'the version read, for If-Match on a write decided on it: "v7" for the '
        'GM, "v7-player" / "v7-viewer" for a redacted answer (an encounter\'s also names the '
        'campaign\'s version its redaction followed: "v7-player-c12")',
        "schema": {"type": "string"},
    }
}
RETRY_AFTER = {
    "Retry-After": {
        "description": "seconds to wait before asking again",
        "schema": {"type": "integer"},
    }
}
ERRORS: dict[int, tuple[str, dict[str, Any]]] = {
    401: (
        "no key, or one this campaign (or this server's operator) does not know",
        {"WWW-Authenticate": {"description": "Bearer", "schema": {"type": "string"}}},
    ),
    403: ("a key whose role does not allow this", {}),
    404: ("an id that names nothing", {}),
    409: ("the current state forbids it, or a write kept losing a race", {}),
    413: ("a request body over 256 KiB", {}),
    415: ("a request body with a Content-Encoding (gzip...): send it unencoded", {}),
    412: (
        "If-Match names a version the write's subject (the encounter or the campaign) is "
        "not at now: nothing was written; read it again and decide again. Checked after "
        "the key, its permission, the subject's existence and the body's schema, and before "
        "the write is decided: a stale If-Match gets this, not the write's own refusal",
        {},
    ),
    422: ("invalid input: malformed JSON, a bad field, parameter or dice", {}),
    429: ("too many requests from this key or address", RETRY_AFTER),
    503: ("the views are unavailable (Redis does not answer); writes go on", RETRY_AFTER),
}

# The reads whose answer carries a version ETag (api/preconditions.py).
VERSIONED_READS = ("read_campaign", "read_encounter")

# One example per request body, by schema name. A body not listed gets its model's
# own example, else one made from its schema; tests/integration/test_openapi.py
# checks every body has one that its schema accepts.
CHARACTER_ID = "5f0c8a52-3b1e-4f4e-9d62-0b8f2a6c1d37"
EXAMPLES: dict[str, dict[str, Any]] = {
    "EnrolCharacterBody": {
        "name": "Bran",
        "sheet": {
            "st": 13,
            "con": 12,
            "parry": 11,
            "dodge": 10,
            "stamina_max": 12,
            "body_max": 10,
            "armour_resilience": 4,
        },
    },
    "StartEncounterBody": {
        "name": "Ambush at the ford",
        "combatants": [{"character_id": CHARACTER_ID, "side": "party", "rank": 1}],
    },
    "ActionBody": {
        "kind": "take_hit",
        "params": {"target": CHARACTER_ID, "damage_type": "piercing", "damage_class": 3},
        "dice": {"damage": [2, 4, 6]},
    },
    "VoidBody": {"reason": "the hit was rolled against the wrong target"},
    "RerollBody": {"reason": "a die fell off the table", "dice": {"damage": [3, 5, 1]}},
    "RewindBody": {"reason": "we played the wrong round", "to_version": 3},
    "AdvanceDaysBody": {"days": 1},
    "WoundBody": {"wound": "broken_bones", "present": True, "reason": "fell from the wall"},
    "IssueKeyBody": {"role": "player", "characters": [CHARACTER_ID], "label": "Ana"},
    "AmendSheetBody": {"changes": {"parry": 12}, "reason": "trained with the master-at-arms"},
    "AdjustTracksBody": {"adjust": {"stamina": -2}, "reason": "a fall the table forgot"},
    "AddCombatantBody": {
        "character_id": CHARACTER_ID,
        "side": "foes",
        "rank": 2,
        "reason": "reinforcements",
    },
    "LeaveBody": {"reason": "fled across the ford"},
    "MoveBody": {"rank": 2, "reason": "stepped back behind the shield wall"},
    "HouseRulesBody": {"options": {"stunned_may_defend": True}},
}


def install(app: FastAPI) -> None:
    """Serve the completed description (built once, on first request)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = complete(app, FastAPI.openapi(app))
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def complete(app: FastAPI, schema: dict[str, Any]) -> dict[str, Any]:
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    components["Error"] = ERROR_SCHEMA
    components["VersionProblem"] = VERSION_PROBLEM_SCHEMA
    for route in api_routes(app):
        for method in route.methods:
            operation = schema["paths"][route.path_format][method.lower()]
            operation["operationId"] = route.name
            for status in sorted(statuses(route, method, operation)):
                add_error(operation, status)
            add_example(operation, components)
            if route.name in VERSIONED_READS:
                operation["responses"]["200"]["headers"] = VERSION_ETAG
            ruleset_enum(operation.get("parameters", []))
    for name in ("HTTPValidationError", "ValidationError"):  # replaced by Error
        components.pop(name, None)
    for body in (s for n, s in components.items() if n.endswith("Body")):
        if "ruleset" in body.get("properties", {}):
            body["properties"]["ruleset"]["enum"] = sorted(RULESETS)
    ruleset_options(components["CreateCampaignBody"], components)
    return schema


def ruleset_options(body: dict[str, Any], components: dict[str, Any]) -> None:
    """Publish each ruleset's options: a component per ruleset (its options model's own
    schema), ``options`` one of them, and ``if ruleset is X then options is X's``, so a
    validator holds a body to exactly the schema the server holds it to."""
    choices, rules = [], []
    for ruleset_id in sorted(RULESETS):
        model = RULESETS[ruleset_id].campaign_options_model
        component = model.model_json_schema(ref_template="#/components/schemas/{model}")
        component["title"] = f"{ruleset_id} options"
        # Nested models (the initiative option's) are components of their own.
        nested: dict[str, Any] = component.pop("$defs", {})
        named = {**nested, model.__name__: component}
        renamed = {
            name: unique_name(name, ruleset_id, schema, components)
            for name, schema in named.items()
        }
        for name, schema in named.items():
            components[renamed[name]] = with_refs_renamed(schema, renamed)
        ref = {"$ref": f"#/components/schemas/{renamed[model.__name__]}"}
        choices.append(ref)
        rules.append(
            {
                "if": {"properties": {"ruleset": {"const": ruleset_id}}, "required": ["ruleset"]},
                "then": {"properties": {"options": ref}},
            }
        )
    options = body["properties"]["options"]
    options.pop("additionalProperties", None)
    options.pop("type", None)
    options["anyOf"] = choices
    options["description"] = (
        "overrides of the ruleset's option defaults: the options of the campaign's ruleset "
        "(each ruleset's schema below; an unknown option or value is refused with 422)"
    )
    body["allOf"] = rules


def unique_name(name: str, ruleset_id: str, schema: Any, components: dict[str, Any]) -> str:
    """A ruleset's options model's component name: its class's own, unless another
    component (another ruleset's, a plugin's that named its class alike) already holds a
    different schema under it; then the name with the ruleset's id, so neither is lost."""
    taken = components.get(name)
    return name if taken is None or taken == schema else f"{name}.{ruleset_id}"


def with_refs_renamed(schema: Any, renamed: dict[str, str]) -> Any:
    """The schema with each ``$ref`` to a renamed component pointing at its new name."""
    prefix = "#/components/schemas/"
    if isinstance(schema, dict):
        found = {key: with_refs_renamed(value, renamed) for key, value in schema.items()}
        ref = found.get("$ref")
        if isinstance(ref, str) and ref.startswith(prefix):
            found["$ref"] = prefix + renamed.get(ref[len(prefix) :], ref[len(prefix) :])
        return found
    if isinstance(schema, list):
        return [with_refs_renamed(item, renamed) for item in schema]
    return schema


def api_routes(app: FastAPI) -> Iterator[Any]:
    """Every documented route, including those of included routers (which newer FastAPI
    keeps behind route contexts that read like the route)."""
    contexts = getattr(fastapi.routing, "iter_route_contexts", None)
    routes: Iterable[Any] = contexts(app.routes) if contexts is not None else app.routes
    for route in routes:
        original = getattr(route, "original_route", route)
        if isinstance(original, APIRoute) and route.include_in_schema:
            yield route


def statuses(route: Any, method: str, operation: dict[str, Any]) -> set[int]:
    """The errors this operation can answer, from what it depends on."""
    calls = set(dependency_calls(route.dependant))
    found = {429}  # every route is rate-limited
    if operation.get("parameters") or "requestBody" in operation:
        found.add(422)
    if "requestBody" in operation:
        found |= {413, 415}
    if reader in calls:
        # A campaign's routes: its key, its ids, its roles; and its state, which may
        # refuse even a read (the odds of a fight that has ended).
        found |= {401, 403, 404, 409}
    if operator_gate in calls:
        found |= {401, 403}
    if method != "GET":
        found.add(409)
    if view_reader in calls:
        found.add(503)
    if if_match in calls:
        found.add(412)
    return found


def dependency_calls(dependant: Dependant) -> Iterator[Callable[..., Any]]:
    for dependency in dependant.dependencies:
        if dependency.call is not None:
            yield dependency.call
        yield from dependency_calls(dependency)


def add_error(operation: dict[str, Any], status: int) -> None:
    description, headers = ERRORS[status]
    response = operation["responses"].setdefault(str(status), {})
    response["description"] = response.get("description") or description
    if status == 412:
        problem = {"schema": {"$ref": "#/components/schemas/VersionProblem"}}
        response["content"] = {"application/problem+json": problem}
    elif str(status) == "422" or "content" not in response:
        response["content"] = {"application/json": {"schema": ERROR_REF}}
    if headers:
        response["headers"] = headers


def example_ruleset() -> str:
    """The ruleset the examples play (the campaign's, its sheet's, its action's): the
    first installed one whose sheets take the enrolment example's sheet and whose
    actions take the action example, read from the registry."""
    sheet, action = EXAMPLES["EnrolCharacterBody"]["sheet"], EXAMPLES["ActionBody"]
    for ruleset_id in sorted(RULESETS):
        rules = RULESETS[ruleset_id]
        try:
            rules.sheet_model.model_validate(sheet)
            rules.validate_params(action["kind"], action["params"])
        except (DomainError, ValidationError):
            continue
        return ruleset_id
    return min(RULESETS, default="")


def add_example(operation: dict[str, Any], components: dict[str, Any]) -> None:
    content = operation.get("requestBody", {}).get("content", {}).get("application/json")
    if content is None:
        return
    name = content["schema"].get("$ref", "").rsplit("/", 1)[-1]
    if name == "CreateCampaignBody":
        content["example"] = {"name": "The Sunken Crown", "ruleset": example_ruleset()}
    elif name in EXAMPLES:
        content["example"] = EXAMPLES[name]
    else:  # the model's own example, else one made from its schema: required fields only
        content["example"] = sample(content["schema"], components)


def sample(schema: dict[str, Any], components: dict[str, Any]) -> Any:
    """A value the schema accepts, from its examples, defaults, enums and bounds."""
    if "$ref" in schema:
        return sample(components[schema["$ref"].rsplit("/", 1)[-1]], components)
    if schema.get("examples"):
        return schema["examples"][0]
    if "default" in schema:
        return schema["default"]
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        return schema["enum"][0]
    for key in ("anyOf", "oneOf", "allOf"):
        options = [o for o in schema.get(key, []) if o.get("type") != "null"]
        if options:
            return sample(options[0], components)
    kind = schema.get("type")
    if kind == "object":
        properties = schema.get("properties", {})
        return {
            name: sample(properties.get(name, {}), components)
            for name in schema.get("required", [])
        }
    if kind == "array":
        return [sample(schema.get("items", {}), components)] * schema.get("minItems", 0)
    if kind == "string":
        text = "example".ljust(schema.get("minLength", 0), "x")
        return text[: schema.get("maxLength", len(text))]
    if kind in ("integer", "number"):
        low = schema.get("minimum", schema.get("exclusiveMinimum", 0) + 1)
        value = min(low, schema.get("maximum", low))
        # FastAPI's OpenAPI model keeps every bound as a float; 1.0 is no integer to a
        # strictly typed body.
        return int(value) if kind == "integer" else value
    if kind == "boolean":
        return True
    return {}


def ruleset_enum(parameters: list[dict[str, Any]]) -> None:
    for parameter in parameters:
        if parameter["name"] == "ruleset_id":
            parameter["schema"]["enum"] = sorted(RULESETS)
