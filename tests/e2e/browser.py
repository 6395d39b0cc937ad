"""Debian's Chromium for the browser tests, never a downloaded browser.

Like PostgreSQL: unset SKALD_TEST_BROWSER, the browser tests are skipped with a
visible reason (a fresh machine has no Chromium); set, as CI sets it, a missing
browser is a failure."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.patience import HANG_MS

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# An assertion on a page waits until it holds or the page is hung: Playwright's default of
# 5 s made a slow page on a loaded machine look like a broken one.
expect.set_options(timeout=HANG_MS)


def require_browser() -> None:
    if not os.environ.get("SKALD_TEST_BROWSER"):
        pytest.skip("browser test: set SKALD_TEST_BROWSER=1 (and apt-get install chromium)")
    if not Path(CHROMIUM).exists():
        pytest.fail(f"SKALD_TEST_BROWSER is set but there is no Chromium at {CHROMIUM}")
