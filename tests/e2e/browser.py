"""Debian's Chromium for the browser tests, never a downloaded browser.

Like PostgreSQL: unset SKALD_TEST_BROWSER, the browser tests are skipped with a
visible reason (a fresh machine has no Chromium); set, as CI sets it, a missing
browser is a failure."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def require_browser() -> None:
    if not os.environ.get("SKALD_TEST_BROWSER"):
        pytest.skip("browser test: set SKALD_TEST_BROWSER=1 (and apt-get install chromium)")
    if not Path(CHROMIUM).exists():
        pytest.fail(f"SKALD_TEST_BROWSER is set but there is no Chromium at {CHROMIUM}")
