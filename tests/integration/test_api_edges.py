"""Edges of the HTTP surface: the Allow header of a 405 and ReDoc without a CDN."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.helpers import new_campaign


def test_a_405_allows_every_method_the_path_takes(client: TestClient) -> None:
    cid = new_campaign(client, "stamina-body")
    keys = client.options(f"/campaigns/{cid}/keys")
    assert keys.status_code == 405
    assert keys.headers["allow"] == "GET, POST"
    assert keys.json()["error"] == "http_error"
    one = client.put(f"/campaigns/{cid}/keys/k1")
    assert (one.status_code, one.headers["allow"]) == (405, "DELETE")


def test_redoc_is_served_with_no_address_beyond_this_server(client: TestClient) -> None:
    page = client.get("/redoc")
    assert '<script src="/redoc/redoc.js"></script>' in page.text
    script = client.get("/redoc/redoc.js")
    assert script.status_code == 200
    assert script.headers["content-type"].startswith("text/javascript")
    assert "cdn.redoc.ly" not in script.text and "redocly logo" not in script.text
    assert "Redoc" in script.text  # still the viewer
