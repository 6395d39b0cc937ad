"""axe-core (the copy axe-playwright-python bundles: offline) on every page, mid-fight,
at 1280 and 360 px wide, in dark and light: no serious or critical violation, and no
page scrolls sideways on a phone. Debian's Chromium on a real `skald serve`."""

from __future__ import annotations

import httpx
import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from tests.e2e.server import Server
from tests.e2e.test_gm_screen import KNIGHT, campaign
from tests.patience import HANG_SECONDS

WIDTHS = {"1280": {"width": 1280, "height": 800}, "360": {"width": 360, "height": 740}}
BLOCKING = {"serious", "critical"}


@pytest.fixture(scope="module")
def pages(server: Server) -> dict[str, str]:
    """A fight under way (a wound, a stunned combatant, an attack waiting), and each
    page's address with its key after '#'."""
    setup = campaign(server, "stamina-body", {"Bran": KNIGHT, "Ulf": KNIGHT})
    bran, ulf = setup["ids"]["Bran"], setup["ids"]["Ulf"]
    http = httpx.Client(base_url=f"{server.url}/campaigns/{setup['cid']}", timeout=HANG_SECONDS)
    http.headers["authorization"] = f"Bearer {setup['gm']}"
    viewer = http.post("/keys", json={"role": "viewer"}).json()["key"]
    fight = http.post(
        "/encounters",
        json={"name": "Ford", "combatants": [
            {"character_id": bran, "side": "party"}, {"character_id": ulf, "side": "foes"}]},
    ).json()["id"]  # fmt: skip
    hurt = http.post(
        f"/encounters/{fight}/actions",
        json={"kind": "take_hit", "actor": bran, "dice": {"damage": [2, 4, 6]},
              "params": {"target": bran, "damage_type": "piercing", "damage_class": 3}},
    )  # fmt: skip
    assert hurt.status_code == 201, hurt.text
    waiting = http.post(
        f"/encounters/{fight}/actions",
        json={"kind": "attack", "actor": ulf, "dice": {"hit": [2, 2, 2]},
              "params": {"target": bran, "weapon": "longsword"}},
    )  # fmt: skip
    assert waiting.status_code == 202, waiting.text  # it waits for Bran's answer
    cid = setup["cid"]
    return {
        "gm": f"/gm#campaign={cid}&key={setup['gm']}",
        "play": f"/play#campaign={cid}&key={setup['player']}",
        "overlay": f"/overlay#campaign={cid}&key={viewer}",
        "dashboard": f"/campaigns/{cid}/dashboard#key={setup['gm']}",
    }


def blocking(page: Page) -> list[str]:
    found = Axe().run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:5]}"
        for v in found
        if v["impact"] in BLOCKING
    ]


@pytest.mark.parametrize("scheme", ["dark", "light"])
@pytest.mark.parametrize("width", list(WIDTHS))
@pytest.mark.parametrize("name", ["gm", "play", "overlay", "dashboard"])
def test_no_serious_violation_and_no_sideways_scroll(
    server: Server, pages: dict[str, str], browser: Browser, name: str, width: str, scheme: str
) -> None:
    phone = width == "360"
    with browser.new_context(
        viewport=WIDTHS[width], is_mobile=phone, has_touch=phone, color_scheme=scheme
    ) as context:
        page = context.new_page()
        page.goto(server.url + pages[name])
        expect(page.locator("#connection")).to_have_attribute("data-state", "live")
        expect(page.locator('.bar[data-track="stamina"]').first).to_be_visible()
        if name == "gm":  # the panel open, as mid-fight
            page.locator("#sides .card").first.click()
            page.locator("#action-buttons button").first.click()
            expect(page.locator("#action-form")).to_be_visible()
        assert blocking(page) == [], name
        assert page.evaluate("document.documentElement.scrollWidth") <= WIDTHS[width]["width"]
