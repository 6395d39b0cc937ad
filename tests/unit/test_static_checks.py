"""ruff and mypy --strict are part of the test suite, so CI holds the line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True)


def test_ruff_finds_nothing() -> None:
    result = run(str(BIN / "ruff"), "check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_finds_nothing() -> None:
    result = run(str(BIN / "mypy"))
    assert result.returncode == 0, result.stdout + result.stderr


def test_property_tests_run_without_hypothesis_deadline() -> None:
    """Hypothesis's default 200 ms per example is a wall-clock budget; conftest lifts it."""
    from hypothesis import settings

    assert settings.default.deadline is None
