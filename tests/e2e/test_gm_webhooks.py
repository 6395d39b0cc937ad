"""The GM screen's webhooks, in Debian's Chromium on a real `skald serve` with a real
local receiver: add one (its secret shown once), send a test event that arrives signed,
read the delivery log, disable and enable it, delete it; desktop and phone."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import httpx
import pytest
import standardwebhooks
from playwright.sync_api import expect, sync_playwright

from tests.e2e.browser import CHROMIUM, FLAGS, require_browser
from tests.e2e.server import Server
from tests.e2e.test_gm_screen import PHONE, shoot
from tests.integration.projection_support import wait_until
from tests.patience import HANG_SECONDS
from tests.receiver import Receiver


@pytest.fixture
def server(tmp_path: Path) -> Any:
    env = {**os.environ, "SKALD_WEBHOOKS_ALLOW_PRIVATE": "true"}
    running = Server(tmp_path / "data", env).start()
    try:
        yield running
    finally:
        running.stop()


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_the_gm_adds_tests_disables_and_deletes_a_webhook(
    server: Server, screenshots: Path, viewport: str
) -> None:
    require_browser()
    created = httpx.post(
        f"{server.url}/campaigns", json={"name": "Hooks", "ruleset": "stamina-body"},
        timeout=HANG_SECONDS,
    ).json()  # fmt: skip
    size = PHONE if viewport == "phone" else {"width": 1400, "height": 1000}
    with Receiver() as receiver, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            page = browser.new_context(viewport=size).new_page()
            page.goto(f"{server.url}/gm#campaign={created['id']}&key={created['gm_key']}")
            page.locator("#webhooks-box summary").click()
            page.locator("#webhook-url").fill(receiver.url)
            page.locator("#webhook-format").select_option("discord")
            page.locator("#webhook-add").click()
            secret = page.locator("#webhook-secret code")
            expect(secret).to_contain_text("whsec_")
            whsec = secret.inner_text()
            hook = page.locator("#webhook-list li")
            expect(hook).to_have_count(1)
            expect(hook).to_have_attribute("data-enabled", "true")
            # Its view: a viewer's, the first offered and the API's default (redacted).
            expect(hook.locator(".caption")).to_contain_text("discord · viewer")

            hook.locator("[data-webhook-action=test]").click()
            wait_until(lambda: len(receiver.bodies()) == 1, HANG_SECONDS, "the test event")
            sent = receiver.bodies()[0]
            message = standardwebhooks.Webhook(whsec).verify(sent.body.decode(), sent.headers)
            assert message["embeds"][0]["title"] == "test"
            hook.locator("[data-webhook-action=log]").click()
            expect(hook.locator(".deliveries tbody tr[data-outcome=delivered]")).to_have_count(1)
            shoot(page, screenshots, f"gm-webhooks-{viewport}.png")

            hook.locator("[data-webhook-action=disable]").click()
            expect(page.locator("#webhook-list li")).to_have_attribute("data-enabled", "false")
            page.locator("#webhook-list li [data-webhook-action=enable]").click()
            expect(page.locator("#webhook-list li")).to_have_attribute("data-enabled", "true")
            page.locator("#webhook-list li [data-webhook-action=delete]").click()
            expect(page.locator("#webhook-list li")).to_have_count(0)
        finally:
            browser.close()
    listed = httpx.get(
        f"{server.url}/campaigns/{created['id']}/webhooks",
        headers={"authorization": f"Bearer {created['gm_key']}"}, timeout=HANG_SECONDS,
    )  # fmt: skip
    assert listed.json() == []
