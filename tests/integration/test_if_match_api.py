"""Expected-version writes over HTTP (issue 40): a GET of an encounter or a campaign
answers an ETag naming its version; a write whose If-Match names another version of its
subject is refused with 412 and writes nothing; the current one, `*` or no header write."""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any

from fastapi.testclient import TestClient

from skald_campaign.api.app import create_app
from tests.helpers import GM, enrol, new_campaign, ok, start
from tests.integration.test_table_api import SB


def position(client: TestClient) -> int:
    """The store's last notification id, asked of the store."""
    application: Any = client.app.state.backend.application  # type: ignore[attr-defined]
    return int(application.recorder.max_notification_id() or 0)


class Table:
    """A stamina-body campaign, Ash and Bran in a fight."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.cid = new_campaign(client, "stamina-body")
        self.ash = enrol(client, self.cid, "Ash", SB)
        self.bran = enrol(client, self.cid, "Bran", SB)
        both = [{"character_id": c, "side": "party"} for c in (self.ash, self.bran)]
        self.eid = start(client, self.cid, both)
        self.campaign = f"/campaigns/{self.cid}"
        self.encounter = f"{self.campaign}/encounters/{self.eid}"

    def etag(self, path: str, key: dict[str, str] = GM) -> str:
        answer = self.client.get(path, headers=key)
        assert answer.status_code == 200, answer.text
        return str(answer.headers["etag"])

    def hit(self, if_match: str | None = None, status: int = 201, **headers: str) -> Any:
        body = {
            "kind": "take_hit",
            "params": {"target": self.bran, "damage_type": "impact", "damage_class": 1},
            "dice": {"damage": [1]},
        }
        if if_match is not None:
            headers["if-match"] = if_match
        return ok(self.client.post(f"{self.encounter}/actions", json=body, headers=headers), status)

    def refused(self, path: str, body: Any, if_match: str, method: str = "POST") -> Any:
        """The write, refused with 412, and nothing written."""
        before = position(self.client)
        answer = self.client.request(method, path, json=body, headers={"if-match": if_match})
        assert answer.status_code == 412, answer.text
        assert answer.headers["content-type"] == "application/problem+json"
        assert position(self.client) == before
        return answer.json()


def test_the_reads_answer_a_version_etag_by_role(client: TestClient) -> None:
    t = Table(client)
    # enrol Ash, enrol Bran, open the fight: the campaign at 4; the encounter new, at 1.
    assert t.etag(t.campaign) == '"v4"'
    assert t.etag(t.encounter) == '"v1"'
    t.hit()
    assert t.etag(t.encounter) == '"v2"'
    assert t.etag(f"{t.encounter}?version=1") == '"v1"'
    issued = ok(
        client.post(f"{t.campaign}/keys", json={"role": "player", "characters": [t.ash]}), 201
    )
    viewer = ok(client.post(f"{t.campaign}/keys", json={"role": "viewer"}), 201)
    player_key = {"authorization": f"Bearer {issued['key']}"}
    viewer_key = {"authorization": f"Bearer {viewer['key']}"}
    # Two keys issued: the campaign at 6. A redacted encounter names the campaign's
    # version its redaction followed.
    assert t.etag(t.campaign, player_key) == '"v6-player"'
    assert t.etag(t.campaign, viewer_key) == '"v6-viewer"'
    assert t.etag(t.encounter, player_key) == '"v2-player-c6"'
    assert t.etag(t.encounter, viewer_key) == '"v2-viewer-c6"'
    assert t.etag(t.campaign) == '"v6"'
    # A refusal carries none.
    assert "etag" not in client.get(t.encounter, headers={"authorization": "Bearer x"}).headers


def test_a_stale_if_match_on_an_action_is_412_and_writes_nothing(client: TestClient) -> None:
    t = Table(client)
    stale = t.etag(t.encounter)
    t.hit()
    body = {
        "kind": "take_hit",
        "params": {"target": t.bran, "damage_type": "impact", "damage_class": 1},
        "dice": {"damage": [1]},
    }
    problem = t.refused(f"{t.encounter}/actions", body, stale)
    assert problem == {
        "type": "urn:skald:problem:version-mismatch",
        "title": "the version this write was decided on is not the current one",
        "status": 412,
        "detail": problem["message"],
        "instance": f"{t.encounter}/actions",
        "error": "version_mismatch",
        "message": 'this write was decided on encounter version "v1", but the encounter is '
        "at version 2 now: read it again, decide again, and send the version read (If-Match)",
        "aggregate": "encounter",
        "aggregate_id": t.eid,
        "current_version": 2,
        "if_match": '"v1"',
    }
    # The current one writes; so do '*', no header, a list that names it, and a role's tag.
    assert t.hit(t.etag(t.encounter))["encounter"]["version"] == 3
    assert t.hit("*")["encounter"]["version"] == 4
    assert t.hit()["encounter"]["version"] == 5
    assert t.hit('"v1", "v5"')["encounter"]["version"] == 6
    assert t.hit('"v6-player-c4"')["encounter"]["version"] == 7
    # The version as an answer's `version` field says it, quoted.
    assert t.hit('"7"')["encounter"]["version"] == 8
    # A weak tag, a view's digest, and a malformed tag name no version: refused.
    for tag in ('W/"v8"', '"0f1e2d3c4b5a69788796a5b4c3d2e1f0"', "v8", "8", '"v08"'):
        assert t.refused(f"{t.encounter}/actions", body, tag)["current_version"] == 8


def test_a_retry_of_a_write_that_succeeded_gets_its_first_answer_not_a_412(
    client: TestClient,
) -> None:
    t = Table(client)
    tag = t.etag(t.encounter)
    first = t.hit(tag, **{"idempotency-key": "once"})
    before = position(client)
    again = t.hit(tag, **{"idempotency-key": "once"})  # the tag is stale now
    assert again == first
    assert position(client) == before
    # A new key with the stale tag is a new write: refused.
    assert t.hit(tag, 412, **{"idempotency-key": "twice"})["current_version"] == 2


def test_a_stale_if_match_on_a_marker_and_on_turns_is_412(client: TestClient) -> None:
    t = Table(client)
    stale = t.etag(t.encounter)
    marker = {"target": t.ash, "name": "prone"}
    placed = ok(
        client.post(f"{t.encounter}/markers", json=marker, headers={"if-match": stale}), 201
    )
    assert placed["version"] == 2
    assert t.refused(f"{t.encounter}/markers", marker, stale)["current_version"] == 2
    assert t.refused(f"{t.encounter}/markers/1", None, stale, "DELETE")["current_version"] == 2
    order = {"order": [t.ash, t.bran]}
    assert t.refused(f"{t.encounter}/order", order, stale, "PUT")["current_version"] == 2
    current = t.etag(t.encounter)
    ordered = client.put(f"{t.encounter}/order", json=order, headers={"if-match": current})
    assert ok(ordered)["version"] == 3
    assert t.refused(f"{t.encounter}/turn", None, current)["current_version"] == 3
    removed = client.delete(f"{t.encounter}/markers/1", headers={"if-match": '"v3"'})
    assert ok(removed)["markers"] == []


def test_a_track_change_is_checked_against_the_fight_in_one_and_the_campaign_out_of_one(
    client: TestClient,
) -> None:
    t = Table(client)
    tracks = {"set": {"stamina": 5}, "reason": "a fall"}
    in_fight = f"{t.campaign}/characters/{t.bran}/tracks"
    # In the fight: the encounter's version, not the campaign's.
    campaign_tag = t.etag(t.campaign)
    problem = t.refused(in_fight, tracks, campaign_tag)  # "v4": the encounter is at 1
    assert (problem["aggregate"], problem["aggregate_id"], problem["current_version"]) == (
        "encounter",
        t.eid,
        1,
    )
    changed = ok(client.post(in_fight, json=tracks, headers={"if-match": t.etag(t.encounter)}))
    assert changed["encounter"]["version"] == 2
    ok(client.post(f"{t.encounter}/end", headers={"if-match": '"v2"'}))
    # Out of a fight: the campaign's (ending the fight carried the tracks over: 5).
    assert t.etag(t.campaign) == '"v5"'
    problem = t.refused(in_fight, tracks, '"v4"')
    assert (problem["aggregate"], problem["aggregate_id"], problem["current_version"]) == (
        "campaign",
        t.cid,
        5,
    )
    after = ok(client.post(in_fight, json=tracks, headers={"if-match": '"v5"'}))
    assert after["encounter"] is None
    assert t.etag(t.campaign) == '"v6"'
    # Advancing days: the campaign's.
    days = {"days": 1}
    assert t.refused(f"{t.campaign}/days", days, '"v5"')["current_version"] == 6
    advanced = client.post(f"{t.campaign}/days", json=days, headers={"if-match": '"v6"'})
    assert advanced.status_code == 201, advanced.text


def test_a_stale_if_match_on_a_correction_in_and_after_a_fight_is_412(client: TestClient) -> None:
    t = Table(client)
    t.hit()
    t.hit()
    void = {"reason": "wrong target"}
    # In the open fight: the encounter's version.
    assert t.refused(f"{t.encounter}/actions/1/void", void, '"v2"')["current_version"] == 3
    voided = client.post(f"{t.encounter}/actions/1/void", json=void, headers={"if-match": '"v3"'})
    assert ok(voided)["encounter"]["version"] == 4
    ok(client.post(f"{t.encounter}/end", headers={"if-match": '"v4"'}))
    # The fight ended: a correction of it is still checked against the encounter's version
    # (the write's subject), whatever the campaign's is.
    assert t.etag(t.encounter) == '"v5"'
    problem = t.refused(f"{t.encounter}/actions/2/void", void, '"v4"')
    assert (problem["aggregate"], problem["current_version"]) == ("encounter", 5)
    ok(client.post(f"{t.campaign}/days", json={"days": 1}), 201)
    assert t.etag(t.campaign) == '"v6"'
    problem = t.refused(f"{t.encounter}/actions/2/void", void, '"v6"')
    assert (problem["aggregate"], problem["current_version"]) == ("encounter", 5)
    done = client.post(f"{t.encounter}/actions/2/void", json=void, headers={"if-match": '"v5"'})
    assert ok(done)["encounter"]["version"] == 6


def test_the_openapi_lists_412_and_if_match_on_the_writes_that_take_it() -> None:
    schema = create_app(nullcontext).openapi()
    paths = schema["paths"]
    takes = [
        ("post", "/campaigns/{campaign_id}/encounters/{encounter_id}/actions"),
        ("post", "/campaigns/{campaign_id}/encounters/{encounter_id}/markers"),
        ("delete", "/campaigns/{campaign_id}/encounters/{encounter_id}/markers/{number}"),
        ("post", "/campaigns/{campaign_id}/characters/{character_id}/tracks"),
        ("post", "/campaigns/{campaign_id}/encounters/{encounter_id}/actions/{number}/void"),
        ("post", "/campaigns/{campaign_id}/encounters/{encounter_id}/rewind"),
        ("post", "/campaigns/{campaign_id}/days"),
        ("post", "/campaigns/{campaign_id}/encounters/{encounter_id}/turn"),
        ("post", "/campaigns/{campaign_id}/keys"),
        ("delete", "/campaigns/{campaign_id}/keys/{key_id}"),
    ]
    for method, path in takes:
        operation = paths[path][method]
        assert operation["responses"]["412"]["content"] == {
            "application/problem+json": {"schema": {"$ref": "#/components/schemas/VersionProblem"}}
        }, path
        headers = [p["name"] for p in operation["parameters"] if p["in"] == "header"]
        assert "If-Match" in headers, path
    # A write that creates its subject, and a read, take none.
    for method, path in [
        ("post", "/campaigns"),
        ("post", "/campaigns/{campaign_id}/encounters"),
        ("get", "/campaigns/{campaign_id}/encounters/{encounter_id}"),
        (
            "post",
            "/campaigns/{campaign_id}/encounters/{encounter_id}/actions/{number}/void/preview",
        ),
    ]:
        assert "412" not in paths[path][method]["responses"], path
    for path in ("/campaigns/{campaign_id}", "/campaigns/{campaign_id}/encounters/{encounter_id}"):
        assert "ETag" in paths[path]["get"]["responses"]["200"]["headers"]
    assert schema["components"]["schemas"]["VersionProblem"]["properties"]["status"] == {
        "type": "integer",
        "enum": [412],
    }
