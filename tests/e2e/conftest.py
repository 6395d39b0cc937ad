"""Fixtures the page tests share: one `skald serve` and one Chromium for a whole module
(each test makes its own campaign and browser context), both stopped on every path. A
module that needs a server of its own per test defines its own `server`, which wins."""

from __future__ import annotations

import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Request, sync_playwright

from tests.e2e.browser import CHROMIUM, FLAGS, require_browser
from tests.e2e.contract import Contract
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


# -- every request the pages make, checked against the API's contract (contract.py) -----
# Hooked into every browser context any test opens (the shared `browser` above or a
# browser a test launches itself), so no page's request goes unchecked.

_contract = Contract()
_hooked: weakref.WeakSet[BrowserContext] = weakref.WeakSet()
_new_context = Browser.new_context
_new_page = Browser.new_page


def _check(request: Request) -> None:
    try:
        _contract.check(request)
    except Exception as error:  # a check that cannot run is a failure too, said so
        _contract.violations.append(f"{request.method} {request.url}: not checked: {error!r}")


def _hook(context: BrowserContext) -> None:
    if context not in _hooked:
        _hooked.add(context)
        context.on("request", _check)


def _checked_context(self: Browser, *args: Any, **kwargs: Any) -> BrowserContext:
    context = _new_context(self, *args, **kwargs)
    _hook(context)
    return context


def _checked_page(self: Browser, *args: Any, **kwargs: Any) -> Page:
    page = _new_page(self, *args, **kwargs)
    _hook(page.context)
    return page


Browser.new_context = _checked_context  # type: ignore[method-assign]
Browser.new_page = _checked_page  # type: ignore[method-assign]


@pytest.fixture(autouse=True)
def pages_keep_the_contract() -> Iterator[None]:
    """A test whose pages sent a request the API does not take fails, naming them."""
    _contract.violations.clear()
    yield
    if _contract.violations:
        found = sorted(set(_contract.violations))
        _contract.violations.clear()
        pytest.fail("the pages sent what the API does not take:\n" + "\n".join(found))
