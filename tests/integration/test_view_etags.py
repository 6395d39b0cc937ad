"""The views carry an ETag of the bytes sent, and a poller that has them gets 304; the
campaign and encounter reads carry their version's tag instead (If-Match, issue 40)."""

from __future__ import annotations

import hashlib

from fastapi.testclient import TestClient

from tests.helpers import act, enrol, new_campaign, ok, start
from tests.integration.test_projections import SHEET, caught_up


def test_each_view_answers_304_to_its_own_etag_and_200_once_it_changed(
    live_client: TestClient,
) -> None:
    client = live_client
    cid = new_campaign(client, "stamina-body")
    bran = enrol(client, cid, "Bran", SHEET)
    eid = start(client, cid, [{"character_id": bran, "side": "party"}])
    caught_up(client, cid)
    paths = [
        f"/campaigns/{cid}/vitals",
        f"/campaigns/{cid}/encounters/{eid}/board",
        f"/campaigns/{cid}/audit?limit=5",
    ]
    tags = {}
    for path in paths:
        first = client.get(path)
        assert first.status_code == 200
        etag = first.headers["etag"]
        # Strong, and a digest of the very bytes sent.
        assert etag == '"' + hashlib.blake2b(first.content, digest_size=16).hexdigest() + '"'
        unchanged = client.get(path, headers={"if-none-match": etag})
        assert unchanged.status_code == 304, path
        assert unchanged.content == b""
        assert unchanged.headers["etag"] == etag
        assert "content-type" not in unchanged.headers
        # In a list, weak, or '*': the same; another tag: the answer.
        for header in (f'"x", {etag}', f"W/{etag}", "*"):
            assert client.get(path, headers={"if-none-match": header}).status_code == 304
        assert client.get(path, headers={"if-none-match": '"x"'}).content == first.content
        tags[path] = etag

    act(client, cid, eid, "take_hit", dice={"damage": [1]}, target=bran,
        damage_type="impact", damage_class=1)  # fmt: skip
    caught_up(client, cid)
    for path in paths:
        changed = client.get(path, headers={"if-none-match": tags[path]})
        assert changed.status_code == 200, path
        assert changed.headers["etag"] != tags[path]
        assert ok(changed)["projection"]["behind"] == 0


def test_a_refusal_carries_no_etag(client: TestClient) -> None:
    cid = new_campaign(client, "stamina-body")
    answer = client.get(f"/campaigns/{cid}/vitals", headers={"authorization": "Bearer nope"})
    assert answer.status_code == 401
    assert "etag" not in answer.headers
    # Not a view: the campaign's version tag (api/preconditions.py), for If-Match on a
    # write; If-None-Match is not answered with 304 there.
    other = client.get(f"/campaigns/{cid}")
    assert other.status_code == 200 and other.headers["etag"] == '"v1"'
    again = client.get(f"/campaigns/{cid}", headers={"if-none-match": '"v1"'})
    assert again.status_code == 200 and again.content == other.content


def test_a_views_etag_is_never_a_writes_precondition(client: TestClient) -> None:
    cid = new_campaign(client, "stamina-body")
    tag = client.get(f"/campaigns/{cid}/vitals").headers["etag"]
    refused = client.post(f"/campaigns/{cid}/days", json={"days": 1}, headers={"if-match": tag})
    assert refused.status_code == 412
    assert refused.json()["current_version"] == 1
