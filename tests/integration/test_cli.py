"""The `skald` command line explains itself and refuses bad settings clearly."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SKALD = str(Path(sys.executable).parent / "skald")


def run(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [SKALD, *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "COLUMNS": "200", **env},
    )


def test_help_lists_every_command() -> None:
    top = run("--help")
    assert top.returncode == 0
    for command in ("serve", "settings", "worker", "projections"):
        assert command in top.stdout
    workers = run("worker", "--help")
    assert "healing" in workers.stdout and "projections" in workers.stdout
    assert "rebuild" in run("projections", "--help").stdout


def test_settings_prints_the_effective_values(tmp_path: Path) -> None:
    shown = run(
        "settings",
        SKALD_DATA_DIR=str(tmp_path),
        SKALD_PORT="9123",
        SKALD_SECRET_KEY="do-not-print-me-0123456789",
    )
    assert shown.returncode == 0
    assert f"data_dir = {tmp_path}" in shown.stdout
    assert "port = 9123" in shown.stdout
    assert "secret_key = **********" in shown.stdout
    assert "do-not-print-me" not in shown.stdout


def test_a_database_that_is_not_postgresql_is_refused(tmp_path: Path) -> None:
    refused = run("serve", "--data-dir", str(tmp_path), "--database", "mysql://db/skald")
    assert refused.returncode == 2
    assert "SKALD_DATABASE must be a postgresql:// URL" in refused.stderr
