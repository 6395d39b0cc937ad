"""Fixtures the page tests share: one `skald serve` and one Chromium for a whole module
(each test makes its own campaign and browser context), both stopped on every path. A
module that needs a server of its own per test defines its own `server`, which wins."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

from tests.e2e.browser import CHROMIUM, FLAGS, require_browser
from tests.e2e.server import Server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    require_browser()
    running = Server(Path(tmp_path_factory.mktemp("pages")) / "data").start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    require_browser()
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture(scope="session")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The run's folder for the browser tests' screenshots (tests/e2e/pictures.py)."""
    return Path(tmp_path_factory.mktemp("screenshots", numbered=False))
