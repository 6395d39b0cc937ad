"""A request body with a Content-Encoding is refused with 415 naming the coding, and
nothing is written: Skald reads bodies unencoded (the body limit and the JSON checks
count the bytes as they come), and a plain body labelled gzip was once carried out as
if the label were not there."""

from __future__ import annotations

import gzip

import orjson
import pytest
from fastapi.testclient import TestClient

from tests.helpers import GM, event_count, new_campaign

SHEET = {"st": 12, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10}
CAMPAIGN = orjson.dumps({"name": "Coded", "ruleset": "stamina-body"})


@pytest.mark.parametrize(
    ("coding", "body"),
    [
        ("gzip", CAMPAIGN),  # labelled gzip, sent plain
        ("gzip", gzip.compress(CAMPAIGN)),
        ("deflate", CAMPAIGN),
        ("br", CAMPAIGN),
        ("GZip, identity", CAMPAIGN),
    ],
)
def test_a_coded_body_is_refused_with_415_naming_the_coding(
    client: TestClient, coding: str, body: bytes
) -> None:
    before = event_count(client)
    headers = {"content-type": "application/json", "content-encoding": coding}
    refused = client.post("/campaigns", content=body, headers=headers)
    assert refused.status_code == 415, refused.text
    assert refused.json() == {
        "error": "unsupported_content_encoding",
        "message": f"the request body's Content-Encoding '{coding}' is not supported: "
        "send the body unencoded, without Content-Encoding",
    }
    assert refused.headers["accept-encoding"] == "identity"
    assert event_count(client) == before


def test_routes_and_the_action_fast_path_refuse_it_alike_and_identity_is_no_coding(
    client: TestClient,
) -> None:
    cid = new_campaign(client, "stamina-body")
    before = event_count(client)
    enrolment = orjson.dumps({"name": "Hero", "sheet": SHEET})
    path = f"/campaigns/{cid}/characters"
    headers = {**GM, "content-type": "application/json", "content-encoding": "gzip"}
    assert client.post(path, content=enrolment, headers=headers).status_code == 415
    action = f"/campaigns/{cid}/encounters/{cid}/actions"  # refused before it is looked up
    assert client.post(action, content=b"{}", headers=headers).status_code == 415
    assert event_count(client) == before
    identity = {**headers, "content-encoding": "identity"}
    assert client.post(path, content=enrolment, headers=identity).status_code == 201
    assert event_count(client) == before + 1
