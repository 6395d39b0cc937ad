"""The `skald` command line explains itself and refuses bad settings clearly."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.patience import HANG_SECONDS
from tests.services import require_postgres

SKALD = str(Path(sys.executable).parent / "skald")


def run(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [SKALD, *args],
        capture_output=True,
        text=True,
        timeout=HANG_SECONDS,
        env={**os.environ, "COLUMNS": "200", **env},
    )


def test_help_lists_every_command() -> None:
    top = run("--help")
    assert top.returncode == 0
    for command in ("serve", "settings", "worker", "projections", "rulesets", "mcp"):
        assert command in top.stdout
    workers = run("worker", "--help")
    assert "healing" in workers.stdout and "projections" in workers.stdout
    assert "webhooks" in workers.stdout
    assert "rebuild" in run("projections", "--help").stdout
    assert "check" in run("rulesets", "--help").stdout


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


def test_version() -> None:
    shown = run("--version")
    assert (shown.returncode, shown.stdout) == (0, "skald 0.1.0\n")


def test_settings_masks_the_database_password() -> None:
    shown = run(
        "settings",
        SKALD_DATABASE="postgresql://skald:hunter2-s3cret@db.example:5432/campaigns",
        SKALD_REDIS_URL="redis://:redis-pass@cache:6379/0",
    )
    assert shown.returncode == 0
    assert "database = postgresql://skald:**********@db.example:5432/campaigns" in shown.stdout
    assert "redis_url = redis://:**********@cache:6379/0" in shown.stdout
    assert "hunter2" not in shown.stdout and "redis-pass" not in shown.stdout


EXPORT_FILE = '{"format":"skald-events","version":1}\n{"end":true,"events":0}\n'
COMMANDS = {
    "serve": ["serve"],
    "healing worker": ["worker", "healing"],
    "projections worker": ["worker", "projections"],
    "webhooks worker": ["worker", "webhooks"],
    "rebuild": ["projections", "rebuild"],
    "export": ["export", "{tmp}/out.jsonl"],
    "import": ["import", "{tmp}/in.jsonl"],
    "campaigns": ["campaigns"],
    "rulesets check": ["rulesets", "check"],  # issue 38
}
SECRET_USERS = tuple(COMMANDS)  # every command refuses a secret that cannot work
READ_ONLY = ("export", "campaigns", "rulesets check")


def one_line_refusal(
    tmp_path: Path, command: str, env: dict[str, str]
) -> tuple[str, subprocess.CompletedProcess[str]]:
    (tmp_path / "in.jsonl").write_text(EXPORT_FILE)
    args = [a.replace("{tmp}", str(tmp_path)) for a in COMMANDS[command]]
    done = run(*args, SKALD_DATA_DIR=str(tmp_path / "data"), **env)
    assert done.returncode != 0, (command, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr + done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, (command, done.stderr)
    return lines[0], done


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_missing_database_is_one_clear_line_for_every_command(
    tmp_path: Path, command: str
) -> None:
    url = require_postgres()
    missing = url.rsplit("/", 1)[0] + "/skald_no_such_db"
    line, _ = one_line_refusal(
        tmp_path, command, {"SKALD_DATABASE": missing, "SKALD_SECRET_KEY": "k" * 32}
    )
    host = url.split("@")[-1].split("/")[0]
    assert line.startswith(f"skald: PostgreSQL at {host} has no database 'skald_no_such_db'")
    assert "create it first" in line


@pytest.mark.parametrize("command", list(COMMANDS))
def test_an_unreachable_postgresql_is_one_clear_line_quickly(tmp_path: Path, command: str) -> None:
    unreachable = "postgresql://skald:pw@127.0.0.1:1/campaigns"
    line, _ = one_line_refusal(
        tmp_path, command, {"SKALD_DATABASE": unreachable, "SKALD_SECRET_KEY": "k" * 32}
    )
    assert line.startswith("skald: cannot reach PostgreSQL at 127.0.0.1:1 (database 'campaigns')")
    assert "pw" not in line.replace("password", "")


@pytest.mark.parametrize("command", SECRET_USERS)
@pytest.mark.parametrize(
    ("secret", "message"),
    [
        (None, "skald: SKALD_SECRET_KEY is required with SKALD_DATABASE: at least 16 bytes"),
        ("short", "skald: SKALD_SECRET_KEY is 5 bytes long; it must be at least 16"),
    ],
)
def test_a_missing_or_short_secret_is_one_clear_line(
    tmp_path: Path, command: str, secret: str | None, message: str
) -> None:
    env = {"SKALD_DATABASE": "postgresql://skald@127.0.0.1:1/campaigns"}
    if secret is not None:
        env["SKALD_SECRET_KEY"] = secret
    line, done = one_line_refusal(tmp_path, command, env)
    assert line.startswith(message)
    assert done.returncode == 2


def test_serve_says_what_it_runs_on_and_where_to_look(tmp_path: Path) -> None:
    data = tmp_path / "data"
    server = subprocess.Popen(
        [SKALD, "serve", "--data-dir", str(data), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={k: v for k, v in os.environ.items() if not k.startswith("SKALD_")},
    )
    lines: list[str] = []
    try:
        assert server.stdout is not None
        for line in server.stdout:
            lines.append(line.rstrip())
            if "API docs:" in line:
                break
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(HANG_SECONDS)
    log = "\n".join(lines)
    assert "INFO:     Skald 0.1.0" in log
    assert f"INFO:     data directory: {data.resolve()}" in log
    assert f"INFO:     event store: SQLite {data.resolve() / 'events.sqlite3'}" in log
    assert f"INFO:     Redis: embedded (data in {data.resolve()}" in log
    port = re.search(r"GM screen: http://127\.0\.0\.1:(\d+)/gm", log)
    assert port is not None, log
    assert f"INFO:     API docs: http://127.0.0.1:{port.group(1)}/docs" in log


def test_a_setting_of_the_wrong_type_is_one_line() -> None:
    refused = run("serve", SKALD_PORT="eighty")
    assert refused.returncode == 2
    assert refused.stderr == (
        "skald: SKALD_PORT: Input should be a valid integer, unable to parse string as an integer\n"
    )


@pytest.mark.parametrize("command", READ_ONLY)
def test_a_command_that_only_reads_creates_no_tables_in_an_empty_database(
    tmp_path: Path, command: str
) -> None:
    """Pointed at the wrong (empty) database, it says so and leaves it as it was."""
    import uuid

    import psycopg

    url = require_postgres()
    schema = f"cli_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {schema}")
    try:
        line, done = one_line_refusal(
            tmp_path,
            command,
            {"SKALD_DATABASE": url, "SKALD_SECRET_KEY": "k" * 32, "POSTGRES_SCHEMA": schema},
        )
        host = url.split("@")[-1].split("/")[0]
        database = url.rsplit("/", 1)[-1]
        assert line == (
            f"skald: PostgreSQL at {host} (database '{database}') holds no Skald event store "
            "(no tables): is SKALD_DATABASE right? `skald serve` or `skald import` creates one"
        )
        assert done.returncode == 2
        with psycopg.connect(url) as connection:
            tables = connection.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = %s",
                (schema,),
            ).fetchall()
        assert tables == []
    finally:
        with psycopg.connect(url, autocommit=True) as connection:
            connection.execute(f"DROP SCHEMA {schema} CASCADE")
