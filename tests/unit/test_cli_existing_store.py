"""The commands that read the event store (export, campaigns, rulesets check) open it
through one helper, cli_support.existing_store (issue 38): the settings refused as every
command refuses them, a SQLite store that must exist already, closed on every path."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from skald_campaign.cli_support import existing_store
from skald_campaign.database import StoreUnavailable, open_application
from skald_campaign.settings import Settings

WATCHED = ("open_application", "configured_secret", "require_sqlite_store")
PACKAGE = Path(__file__).resolve().parents[2] / "skald_campaign"


def calls(path: Path) -> list[tuple[str, str]]:
    """(function, what it calls) for each call of open_application, configured_secret
    and require_sqlite_store in the file."""
    found = []
    tree = ast.parse(path.read_text())
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef):
            continue
        for node in ast.walk(function):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in WATCHED
            ):
                found.append((function.name, node.func.id))
    return found


def test_the_reading_commands_open_the_store_through_one_helper() -> None:
    opened = {p.name: calls(p) for p in sorted(PACKAGE.glob("cli*.py")) if calls(p)}
    assert opened == {
        # `skald import` makes the store (its tables) and needs the server's secret.
        "cli_data.py": [("import_", "open_application")],
        "cli_support.py": [
            ("existing_store", "require_sqlite_store"),
            ("existing_store", "configured_secret"),
            ("existing_store", "open_application"),
        ],
    }


def test_no_store_is_refused_and_none_is_made(tmp_path: Path) -> None:
    with (
        pytest.raises(StoreUnavailable, match="no event store in"),
        existing_store(tmp_path / "data", None),
    ):
        pytest.fail("opened a store that is not there")
    assert not (tmp_path / "data").exists() or not any((tmp_path / "data").iterdir())


def test_the_store_is_closed_when_the_command_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    open_application(Settings(data_dir=tmp_path)).close()  # a store with its tables
    closed = []
    with pytest.raises(RuntimeError), existing_store(tmp_path, None) as application:
        close = application.close
        monkeypatch.setattr(application, "close", lambda: (closed.append(True), close()))
        raise RuntimeError("the command failed")
    assert closed == [True]
