"""Every page on a desktop and on a phone, the GM's changes from the GM screen, and the
overlay's viewer-only rule, in Debian's Chromium on a real `skald serve`. Screenshots
of each page at both sizes go to the run's screenshots folder (tests/e2e/pictures.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect, sync_playwright

from tests.e2e.browser import CHROMIUM, FLAGS, require_browser
from tests.e2e.pictures import take
from tests.e2e.server import Server
from tests.e2e.test_gm_screen import KNIGHT, PHONE, campaign, set_up_encounter, stamina
from tests.patience import HANG_SECONDS

DESKTOP = {"width": 1400, "height": 1000}


@pytest.fixture
def server(tmp_path: Path) -> Any:
    running = Server(tmp_path / "data").start()
    try:
        yield running
    finally:
        running.stop()


def test_the_gm_changes_tracks_and_the_cast_from_the_screen(server: Server) -> None:
    require_browser()
    setup = campaign(server, "stamina-body", {"Bran": KNIGHT, "Ulf": KNIGHT, "Sigrid": KNIGHT})
    bran, ulf, sigrid = (setup["ids"][n] for n in ("Bran", "Ulf", "Sigrid"))
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            gm = browser.new_page(viewport=DESKTOP)
            gm.goto(f"{server.url}/gm#campaign={setup['cid']}&key={setup['gm']}")
            set_up_encounter(gm, {bran: "party", ulf: "foes"})
            # A trap takes 4 Stamina, with its reason.
            gm.locator(f'#sides [data-combatant-id="{bran}"]').click()
            gm.locator("#gm-tools summary").click()
            gm.locator("#gm-adjust [name=amount]").fill("-4")
            gm.locator("#gm-adjust [data-reason]").fill("a spiked pit")
            gm.locator("#gm-adjust button").click()
            expect(stamina(gm, bran)).to_have_attribute("data-current", "8")
            # Reinforcements: Sigrid joins from the roster.
            gm.locator(f'#roster [data-character-id="{sigrid}"]').click()
            gm.locator("#gm-tools summary").click()
            gm.locator("#gm-join [name=side]").fill("party")
            gm.locator("#gm-join [data-reason]").fill("she heard the horn")
            gm.locator("#gm-join button").click()
            expect(gm.locator(f'#sides [data-combatant-id="{sigrid}"]')).to_have_count(1)
            # A refused change says why and writes nothing.
            gm.locator(f'#sides [data-combatant-id="{ulf}"]').click()
            gm.locator("#gm-tools summary").click()
            gm.locator("#gm-amend [data-sheet=con]").fill("41")  # Con is at most 40
            gm.locator("#gm-amend [data-reason]").fill("a typo")
            gm.locator("#gm-amend button[type=submit]").click()
            expect(gm.locator("#result .error")).to_contain_text("422")
        finally:
            browser.close()
    http = httpx.Client(base_url=server.url, timeout=HANG_SECONDS)
    http.headers["authorization"] = f"Bearer {setup['gm']}"
    history = http.get(f"/campaigns/{setup['cid']}/audit?limit=200").json()["entries"]
    assert any("a spiked pit" in str(entry) for entry in history)
    assert not any("a typo" in str(entry) for entry in history)


def test_every_page_on_a_desktop_and_a_phone(server: Server, screenshots: Path) -> None:
    require_browser()
    setup = campaign(server, "stamina-body", {"Bran": KNIGHT, "Ulf": KNIGHT})
    http = httpx.Client(base_url=server.url, timeout=HANG_SECONDS)
    http.headers["authorization"] = f"Bearer {setup['gm']}"
    viewer = http.post(f"/campaigns/{setup['cid']}/keys", json={"role": "viewer"}).json()["key"]
    fight = http.post(
        f"/campaigns/{setup['cid']}/encounters",
        json={"name": "Ford", "combatants": [
            {"character_id": setup["ids"]["Bran"], "side": "party"},
            {"character_id": setup["ids"]["Ulf"], "side": "foes"}]},
    ).json()  # fmt: skip
    hit = http.post(
        f"/campaigns/{setup['cid']}/encounters/{fight['id']}/actions",
        json={"kind": "take_hit", "params": {"target": setup["ids"]["Bran"],
              "damage_type": "piercing", "damage_class": 3}, "dice": {"damage": [2, 4, 6]}},
    )  # fmt: skip
    assert hit.status_code == 201, hit.text
    cid = setup["cid"]
    pages = {
        "gm": f"/gm#campaign={cid}&key={setup['gm']}",
        "play": f"/play#campaign={cid}&key={setup['player']}",
        "overlay": f"/overlay#campaign={cid}&key={viewer}",
        "dashboard": f"/campaigns/{cid}/dashboard#key={setup['gm']}",
    }
    seen: list[Any] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
                context = browser.new_context(viewport=viewport, is_mobile=size == "phone")
                for name, path in pages.items():
                    page = context.new_page()
                    page.on("request", lambda request: seen.append(request))
                    page.goto(server.url + path)
                    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
                    # 2, 4, 6 through armour 2 alone (no parry, no shield): 6 and 2 net.
                    expect(stamina(page, setup["ids"]["Bran"])).to_have_attribute(
                        "data-current", "6"
                    )
                    # Nothing wider than the screen: no sideways scrolling on a phone.
                    assert page.evaluate(
                        "document.documentElement.scrollWidth <= window.innerWidth + 1"
                    ), (name, size)
                    take(page, screenshots, f"page-{name}-{size}.png", full_page=True)
                    page.close()
                context.close()
            # The overlay is for a stream: it takes a viewer key and nothing stronger.
            page = browser.new_page(viewport=DESKTOP)
            page.goto(f"{server.url}/overlay#campaign={cid}&key={setup['gm']}")
            expect(page.locator("#vitals .error")).to_contain_text("viewer key")
        finally:
            browser.close()
    # Every request every page made: no key in a URL or a Referer, ever.
    keys = [setup["gm"], setup["player"], viewer]
    assert len(seen) > 40
    for request in seen:
        for key in keys:
            assert key not in request.url, request.url
            assert key not in (request.headers.get("referer") or ""), request.url
