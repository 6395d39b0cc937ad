"""Small HTTP helpers the API tests share; each asserts the status it expects."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

GM: dict[str, str] = {}  # requests carry the GM key the client got from new_campaign


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json()


def event_count(client: TestClient) -> int:
    return int(ok(client.get("/health"))["event_store"]["events"])


def new_campaign(
    client: TestClient, ruleset: str, options: dict[str, Any] | None = None, name: str = "Test"
) -> str:
    """Create a campaign and make its GM key the client's from now on."""
    body = {"name": name, "ruleset": ruleset, "options": options or {}}
    created = ok(client.post("/campaigns", json=body), 201)
    client.headers["authorization"] = f"Bearer {created['gm_key']}"
    return str(created["id"])


def enrol(client: TestClient, campaign_id: str, name: str, sheet: dict[str, Any]) -> str:
    body = {"name": name, "sheet": sheet}
    path = f"/campaigns/{campaign_id}/characters"
    return str(ok(client.post(path, json=body, headers=GM), 201)["id"])


def start(
    client: TestClient, campaign_id: str, combatants: list[dict[str, Any]], name: str = "Fight"
) -> str:
    body = {"name": name, "combatants": combatants}
    path = f"/campaigns/{campaign_id}/encounters"
    return str(ok(client.post(path, json=body, headers=GM), 201)["id"])


def act_response(
    client: TestClient,
    campaign_id: str,
    encounter_id: str,
    kind: str,
    actor: str | None = None,
    dice: dict[str, list[int]] | None = None,
    **params: Any,
) -> Any:
    body: dict[str, Any] = {"kind": kind, "actor": actor, "params": params, "dice": dice}
    path = f"/campaigns/{campaign_id}/encounters/{encounter_id}/actions"
    return client.post(path, json=body, headers=GM)


def act(
    client: TestClient,
    campaign_id: str,
    encounter_id: str,
    kind: str,
    actor: str | None = None,
    dice: dict[str, list[int]] | None = None,
    **params: Any,
) -> Any:
    """Post an action that must succeed; returns {"action": ..., "encounter": ...}."""
    return ok(act_response(client, campaign_id, encounter_id, kind, actor, dice, **params), 201)


def next_round(client: TestClient, campaign_id: str, encounter_id: str) -> Any:
    path = f"/campaigns/{campaign_id}/encounters/{encounter_id}/round"
    return ok(client.post(path, headers=GM))


def encounter(
    client: TestClient, campaign_id: str, encounter_id: str, version: int | None = None
) -> Any:
    query = f"?version={version}" if version is not None else ""
    return ok(client.get(f"/campaigns/{campaign_id}/encounters/{encounter_id}{query}"))
