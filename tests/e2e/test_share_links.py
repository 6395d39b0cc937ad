"""The GM shares the table display and the stream overlay (issue 24): a viewer key issued
on the GM screen is shown once as two links, /table and /overlay with the overlay's flags
after '#', each copyable and with a QR code this server draws; the links open the pages
with that key. Debian's Chromium on a real `skald serve`; axe-core finds no serious or
critical violation on the GM screen's card nor on either page."""

from __future__ import annotations

import re
from typing import Any

import httpx
from playwright.sync_api import Browser, Request, expect

from tests.e2e.server import Server
from tests.e2e.test_accessibility import blocking
from tests.patience import HANG_SECONDS

DESKTOP = {"width": 1280, "height": 800}
TV = {"width": 1920, "height": 1080}
NARROW = {"width": 360, "height": 740}
PC = {"st": 13, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10}
OGRE = {**PC, "stamina_max": 30, "body_max": 24}
KEY = re.compile(r"key=(skald_[0-9a-f]{16}_[0-9a-f]{40})")


def fight(server: Server) -> dict[str, Any]:
    """Bran (a PC) against the Ogre (an NPC), Bran's blow on the Ogre resolved."""
    http = httpx.Client(base_url=server.url, timeout=HANG_SECONDS)
    created = http.post("/campaigns", json={"name": "Links", "ruleset": "stamina-body"}).json()
    base = f"/campaigns/{created['id']}"
    http.headers["authorization"] = f"Bearer {created['gm_key']}"

    def post(path: str, body: dict[str, Any]) -> Any:
        answer = http.post(base + path, json=body)
        assert answer.status_code == 201, answer.text
        return answer.json()

    bran = post("/characters", {"name": "Bran", "sheet": PC})["id"]
    ogre = post("/characters", {"name": "Ogre", "sheet": OGRE, "npc": True})["id"]
    sides = [{"character_id": bran, "side": "party"}, {"character_id": ogre, "side": "foes"}]
    eid = post("/encounters", {"name": "Ford", "combatants": sides})["id"]
    blow = {"kind": "attack", "actor": bran, "params": {"target": ogre, "defense": "none"},
            "dice": {"hit": [1, 1, 1], "damage": [6, 6, 6]}}  # fmt: skip
    post(f"/encounters/{eid}/actions", blow)
    return {"cid": created["id"], "gm": created["gm_key"], "bran": bran, "ogre": ogre,
            "http": http, "base": base}  # fmt: skip


def test_a_viewer_keys_table_and_overlay_links_and_qr_codes(
    server: Server, browser: Browser
) -> None:
    table = fight(server)
    cid = table["cid"]
    drawn: list[Request] = []
    with browser.new_context(viewport=DESKTOP) as context:
        context.grant_permissions(["clipboard-read", "clipboard-write"])
        gm = context.new_page()
        gm.on("request", lambda r: drawn.append(r) if r.url.endswith("/keys/qr") else None)
        gm.goto(f"{server.url}/gm#campaign={cid}&key={table['gm']}")
        expect(gm.locator("#connection")).to_have_attribute("data-state", "live")
        gm.locator("#keys-box summary").click()
        gm.locator("#issue-viewer").click()
        card = gm.locator("#key-once")
        expect(card.locator("h3")).to_have_text("A viewer key for the table and the stream")
        table_link = card.locator("[data-once=key-table]").inner_text()
        found = KEY.search(table_link)
        assert found is not None, table_link
        key = found.group(1)
        [viewer] = [k for k in table["http"].get(f"{table['base']}/keys").json()
                    if k["role"] == "viewer"]  # fmt: skip
        assert key.startswith(f"skald_{viewer['id']}_")
        assert table_link == f"{server.url}/table#campaign={cid}&key={key}"
        overlay = card.locator("[data-once=key-overlay]")
        everything = f"{server.url}/overlay#campaign={cid}&key={key}&transparent=1"
        expect(overlay).to_have_text(f"{everything}&layout=turn,party,foes,log")
        # Both QR codes drawn, by this server, from the links in POST bodies (never a query).
        expect(card.locator("img.qr")).to_have_count(2)
        for n in range(2):
            assert card.locator("img.qr").nth(n).evaluate("i => i.complete && i.naturalWidth > 0")
        assert card.locator("img.qr").nth(0).get_attribute("alt") == (
            "QR code of the table display's link"
        )
        assert sorted(r.post_data_json["link"] for r in drawn) == sorted(
            [table_link, f"{everything}&layout=turn,party,foes,log"]
        )
        assert all(key not in r.url for r in drawn)
        # The overlay's flags: the log and the foes left out; the link and its code follow.
        card.locator("[data-overlay-part=log]").uncheck()
        overlay_link = f"{everything}&layout=turn,party"
        with gm.expect_request(
            lambda r: r.url.endswith("/keys/qr") and r.post_data_json == {"link": overlay_link}
        ):
            card.locator("[data-overlay-part=foes]").uncheck()
        expect(overlay).to_have_text(overlay_link)
        expect(card.locator("img.qr")).to_have_count(2)
        # Copy each: what was on the card this moment.
        card.locator("#key-overlay-copy").click()
        expect(card.locator("#key-overlay-copy")).to_have_text("Copied")
        assert gm.evaluate("navigator.clipboard.readText()") == overlay_link
        card.locator("#key-table-copy").click()
        assert gm.evaluate("navigator.clipboard.readText()") == table_link
        assert blocking(gm) == []
        gm.set_viewport_size(NARROW)  # the card on a phone: no sideways scroll
        assert gm.evaluate("document.documentElement.scrollWidth") <= NARROW["width"]
        assert blocking(gm) == []
        # Shown once: a new screen has the key's row, never the key.
        gm.reload()
        expect(gm.locator("#connection")).to_have_attribute("data-state", "live")
        gm.locator("#keys-box summary").click()
        expect(gm.locator(f'#key-list [data-key-id="{viewer["id"]}"]')).to_have_text(
            re.compile(r"^viewer")
        )
        assert key not in gm.content()
        expect(gm.locator("#key-once")).to_have_count(0)

    with browser.new_context(viewport=TV) as tv:
        page = tv.new_page()
        page.goto(table_link)
        expect(page.locator("#connection")).to_have_attribute("data-state", "live")
        expect(page.locator("#whose-turn")).to_contain_text("Ford · Round 1")
        ogre = page.locator(f'#foes [data-character-id="{table["ogre"]}"]')
        expect(ogre.locator(".descriptor")).to_have_text("hurt")
        expect(page.locator(f'#party [data-character-id="{table["bran"]}"] .bar')).to_have_count(2)
        assert page.url == f"{server.url}/table"  # the key left the address bar
        assert blocking(page) == []

    with browser.new_context(viewport={"width": 1280, "height": 720}) as stream:
        page = stream.new_page()
        page.goto(overlay_link)
        expect(page.locator("#connection")).to_have_attribute("data-state", "live")
        expect(page.locator("body")).to_have_class("overlay transparent")
        expect(page.locator("body")).to_have_attribute("data-layout", "turn party")
        expect(page.locator("#overlay-foes")).to_be_hidden()
        expect(page.locator("#log-entries")).to_be_hidden()
        expect(page.locator(f'#vitals [data-character-id="{table["bran"]}"] .bar')).to_have_count(2)
        expect(page.locator("#overlay-turn .whose-turn")).to_contain_text("Round 1")
        assert page.url == f"{server.url}/overlay"
        assert blocking(page) == []
