"""A key's link drawn as a QR code by the server (issue 23): the GM screen sends the
link in the body (never an address), gets an SVG back, and nothing is stored."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import segno
from fastapi.testclient import TestClient

from tests.helpers import event_count, new_campaign, ok

SVG = "{http://www.w3.org/2000/svg}svg"


def test_the_gm_gets_the_link_as_an_svg_qr_code(client: TestClient) -> None:
    cid = new_campaign(client, "stamina-body")
    link = f"http://table.local:8000/play#campaign={cid}&key=skald_abc_def"
    before = event_count(client)
    drawn = client.post(f"/campaigns/{cid}/keys/qr", json={"link": link})
    assert drawn.status_code == 200, drawn.text
    assert drawn.headers["content-type"] == "image/svg+xml"
    assert drawn.headers["cache-control"] == "no-store"
    root = ET.fromstring(drawn.text)
    assert root.tag == SVG
    # The same code segno draws for the link: the link, not something else, is encoded.
    size = segno.make(link, error="m").symbol_size(border=2)
    assert root.attrib["viewBox"] == f"0 0 {size[0]} {size[1]}"
    assert event_count(client) == before


def test_only_the_gm_may_draw_one_and_a_link_too_long_is_refused(client: TestClient) -> None:
    cid = new_campaign(client, "stamina-body")
    viewer = ok(client.post(f"/campaigns/{cid}/keys", json={"role": "viewer"}), 201)["key"]
    refused = client.post(
        f"/campaigns/{cid}/keys/qr",
        json={"link": "http://x/overlay"},
        headers={"authorization": f"Bearer {viewer}"},
    )
    assert refused.status_code == 403, refused.text
    too_long = client.post(f"/campaigns/{cid}/keys/qr", json={"link": "ж" * 2000})
    assert too_long.status_code == 422, too_long.text
    assert "too long for a QR code" in too_long.json()["message"]
    assert client.post(f"/campaigns/{cid}/keys/qr", json={"link": ""}).status_code == 422
