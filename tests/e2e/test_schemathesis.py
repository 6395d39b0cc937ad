"""schemathesis against our OpenAPI schema, on the real server: no 5xx, no schema violation,
no status the operation does not document, on every operation (the feed included).

A pinned number of examples per operation and a derandomized run, so CI sees the
same cases every time. Path ids point at a real campaign, character and
encounter, so the generated bodies reach the rules instead of stopping at 404.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from skald_campaign.api.app import create_app
from tests.e2e.server import Server
from tests.patience import HANG_SECONDS

EXAMPLES_PER_OPERATION = 15


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    data = Path(tmp_path_factory.mktemp("schemathesis")) / "data"
    server = Server(data).start()
    try:
        with httpx.Client(base_url=server.url, timeout=HANG_SECONDS) as http:
            created = http.post("/campaigns", json={"name": "Fuzz", "ruleset": "stamina-body"})
            body = created.json()
            http.headers["authorization"] = f"Bearer {body['gm_key']}"
            hero = http.post(
                f"/campaigns/{body['id']}/characters",
                json={
                    "name": "Hero",
                    "sheet": {"st": 10, "con": 12, "stamina_max": 12, "body_max": 10},
                },
            ).json()
            fight = http.post(
                f"/campaigns/{body['id']}/encounters",
                json={"name": "Fight", "combatants": [{"character_id": hero["id"], "side": "a"}]},
            ).json()
        yield {
            "url": server.url,
            "key": body["gm_key"],
            "campaign_id": body["id"],
            "character_id": hero["id"],
            "encounter_id": fight["id"],
        }
    finally:
        server.stop()


# The schema comes from the app itself at collection time; the cases run on the live server.
RAW = create_app(nullcontext).openapi()
SCHEMA = schemathesis.openapi.from_dict(RAW)
OPERATIONS = [result.ok() for result in SCHEMA.get_all_operations()]
# An event stream never ends: schemathesis reads it for this long, then judges what it got.
STREAM_SECONDS = 1.0


def is_stream(operation: Any) -> bool:
    return "text/event-stream" in str(operation.definition.raw.get("responses", {}))


def test_every_operation_is_checked_including_the_feed() -> None:
    labels = {op.label for op in OPERATIONS}
    assert "GET /campaigns/{campaign_id}/feed" in labels
    assert len(labels) == sum(len(item) for item in RAW["paths"].values())


@pytest.mark.parametrize("operation", OPERATIONS, ids=[op.label for op in OPERATIONS])
def test_no_server_errors_and_no_schema_violations(operation: Any, live: dict[str, str]) -> None:
    @given(case=operation.as_strategy())
    @settings(
        max_examples=EXAMPLES_PER_OPERATION,
        derandomize=True,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        database=None,
    )
    def check(case: schemathesis.Case) -> None:
        for name in ("campaign_id", "character_id", "encounter_id"):
            if case.path_parameters and name in case.path_parameters:
                case.path_parameters[name] = live[name]
        response = case.call(
            base_url=live["url"],
            headers={"authorization": f"Bearer {live['key']}"},
            timeout=STREAM_SECONDS if is_stream(operation) else HANG_SECONDS,
        )
        case.validate_response(
            response,
            checks=(
                not_a_server_error,
                response_schema_conformance,
                content_type_conformance,
                status_code_conformance,
            ),
        )

    check()
