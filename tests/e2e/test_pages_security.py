"""The pages keep keys out of URLs, carry a strict policy, and the docs work offline.

Debian's Chromium through Playwright on a real `skald serve`; every request the
browser makes is logged and checked: no key in any URL or Referer. The docs are
loaded with everything off this host aborted, as at a table with no internet."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from playwright.sync_api import Request, Route, expect, sync_playwright

from tests.e2e.browser import CHROMIUM, FLAGS, require_browser
from tests.e2e.pictures import take
from tests.e2e.server import Server
from tests.patience import HANG_MS, HANG_SECONDS

SHEET = {"st": 13, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10}


@pytest.fixture
def server(tmp_path: Path) -> Any:
    running = Server(tmp_path / "data").start()
    try:
        yield running
    finally:
        running.stop()


def test_every_response_carries_the_policy_and_no_referrer(server: Server) -> None:
    http = httpx.Client(base_url=server.url, timeout=HANG_SECONDS)
    cid = http.post("/campaigns", json={"name": "P", "ruleset": "stamina-body"}).json()["id"]
    for path in (f"/campaigns/{cid}/dashboard", "/static/skald.js", "/health", "/rulesets"):
        response = http.get(path)
        assert response.status_code == 200, path
        policy = response.headers["content-security-policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy, path
        assert response.headers["referrer-policy"] == "no-referrer", path
    docs = http.get("/docs")
    assert "script-src 'self';" in docs.headers["content-security-policy"]
    assert "<script>" not in docs.text  # no inline script, only files of this server
    assert "cdn" not in docs.text.lower() and "cdn" not in http.get("/redoc").text.lower()


def test_a_key_never_travels_in_a_url_or_a_referer(server: Server) -> None:
    require_browser()
    http = httpx.Client(base_url=server.url, timeout=HANG_SECONDS)
    created = http.post("/campaigns", json={"name": "Keys", "ruleset": "stamina-body"}).json()
    cid, key = created["id"], created["gm_key"]
    http.headers["authorization"] = f"Bearer {key}"
    hero = http.post(f"/campaigns/{cid}/characters", json={"name": "Hero", "sheet": SHEET})
    http.post(
        f"/campaigns/{cid}/encounters",
        json={"name": "F", "combatants": [{"character_id": hero.json()["id"], "side": "party"}]},
    )
    seen: list[Request] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            page = browser.new_page()
            page.on("request", lambda request: seen.append(request))
            page.goto(f"{server.url}/campaigns/{cid}/dashboard#key={key}")
            expect(page.locator("#connection")).to_have_attribute("data-state", "live")
            expect(page.locator("#sides .card")).to_have_count(1)
            assert key not in page.url  # the fragment was moved to sessionStorage
            page.reload()  # the tab keeps the session without the fragment
            expect(page.locator("#connection")).to_have_attribute("data-state", "live")
        finally:
            browser.close()
    assert len(seen) >= 8
    for request in seen:
        assert key not in request.url, request.url
        assert key not in (request.headers.get("referer") or ""), request.url
    with_key = [r for r in seen if "/vitals" in r.url or "/feed" in r.url]
    assert with_key and all(r.headers["authorization"] == f"Bearer {key}" for r in with_key)


def offline(server: Server) -> Any:
    host = urlsplit(server.url).netloc
    aborted: list[str] = []

    def route(route: Route) -> None:
        if urlsplit(route.request.url).netloc == host:
            route.continue_()
        else:
            aborted.append(route.request.url)
            route.abort()

    return route, aborted


def test_the_docs_render_offline_and_authorize_sends_the_key(
    server: Server, screenshots: Path
) -> None:
    require_browser()
    http = httpx.Client(base_url=server.url, timeout=HANG_SECONDS)
    created = http.post("/campaigns", json={"name": "Docs", "ruleset": "margin"}).json()
    cid, key = created["id"], created["gm_key"]
    sent: list[Request] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            page = browser.new_page(viewport={"width": 1300, "height": 900})
            route, aborted = offline(server)
            page.route("**/*", route)
            page.on("request", lambda request: sent.append(request))
            page.goto(f"{server.url}/redoc")
            expect(page.locator("h1").first).to_contain_text("Skald", timeout=HANG_MS)
            page.goto(f"{server.url}/docs")
            expect(page.locator(".swagger-ui .title").first).to_contain_text("Skald")
            page.locator("button.authorize").first.click()
            # Two bearer schemes: the campaign key, and the operator key of POST /campaigns.
            scheme = page.locator(".modal-ux .auth-container", has_text="campaign key")
            scheme.locator("input").fill(key)
            scheme.locator("button.authorize").click()
            page.locator(".modal-ux button.btn-done").first.click()
            operation = page.locator("[id^=operations-campaigns-read_campaign]")
            operation.locator(".opblock-summary").click()
            operation.locator("button.try-out__btn").click()
            operation.locator("input[placeholder='campaign_id']").fill(cid)
            operation.locator("button.execute").click()
            expect(
                operation.locator(".live-responses-table tbody .response-col_status").first
            ).to_contain_text("200")
            take(page, screenshots, "docs.png")
        finally:
            browser.close()
    assert aborted == []  # nothing tried to leave this host
    reads = [r for r in sent if urlsplit(r.url).path == f"/campaigns/{cid}"]
    assert reads and reads[-1].headers.get("authorization") == f"Bearer {key}"
