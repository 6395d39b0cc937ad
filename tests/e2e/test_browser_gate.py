"""The browser tests follow the PostgreSQL pattern: skipped with a visible reason unless
SKALD_TEST_BROWSER is set, and then a missing Chromium fails them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e import browser
from tests.patience import HANG_SECONDS

ROOT = Path(__file__).resolve().parents[2]


def test_without_the_setting_the_browser_test_is_skipped_and_says_why() -> None:
    env = {k: v for k, v in os.environ.items() if k != "SKALD_TEST_BROWSER"}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "tests/e2e/test_dashboard.py"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=HANG_SECONDS,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 skipped" in run.stdout
    assert "browser test: set SKALD_TEST_BROWSER=1" in run.stdout


def test_with_the_setting_a_missing_chromium_is_a_failure(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("SKALD_TEST_BROWSER", "1")
    monkeypatch.setattr(browser, "CHROMIUM", str(tmp_path / "no-chromium"))
    with pytest.raises(pytest.fail.Exception, match=r"no Chromium at .*no-chromium"):
        browser.require_browser()
