"""A webhook's test event, pressed on the GM screen (issue 36): a retry of the request
with the same Idempotency-Key (a double-click, an answer lost) queues no second test
event; a request with a new key is a new test. Read from the queue itself: the client
here runs no delivery worker, so what was queued stays there."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from skald_campaign.api.app import create_app
from skald_campaign.services import build_services
from skald_campaign.settings import Settings
from tests.helpers import new_campaign, ok


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    """The API without its workers (nothing takes a test off the queue), webhooks allowed
    to name this machine (nothing is sent)."""
    allowed = settings.model_copy(update={"webhooks_allow_private": True})
    with TestClient(create_app(lambda: build_services(allowed))) as test_client:
        yield test_client


def queued_tests(client: TestClient) -> list[bytes]:
    deliveries = client.app.state.backend.deliveries  # type: ignore[attr-defined]
    found: list[bytes] = deliveries.client.lrange(f"{deliveries.root}:tests", 0, -1)
    return found


def test_a_retried_test_request_queues_one_test_event(client: TestClient) -> None:
    cid = new_campaign(client, "stamina-body", name="Hooks")
    hook = ok(client.post(f"/campaigns/{cid}/webhooks", json={"url": "http://127.0.0.1:9/in"}), 201)
    test = f"/campaigns/{cid}/webhooks/{hook['id']}/test"
    pressed = {"Idempotency-Key": "test-press-1"}
    assert ok(client.post(test, headers=pressed), 202) == {"queued": hook["id"]}
    assert ok(client.post(test, headers=pressed), 202) == {"queued": hook["id"]}
    assert queued_tests(client) == [hook["id"].encode()]
    assert ok(client.post(test, headers={"Idempotency-Key": "test-press-2"}), 202)
    assert ok(client.post(test), 202)  # no key: each request is its own
    assert queued_tests(client) == [hook["id"].encode()] * 3
