"""What `skald projections rebuild` imports on a SQLite store (issue 39).

A rebuild's start-up is part of what it costs (bench/projections.py counts the command
from spawn to exit): it imported psycopg and eventsourcing.postgres (through the
application's writer, its snapshots and the projection runner's subscriptions, at
module level) and the webhooks' delivery stack (httpx, which brings click and pygments
in, tenacity, standardwebhooks: through services.py), ~0.07 s of CPU of the command's
~0.6 s of imports, none of it used (bench/README.md "rebuild19 lane"). Now a SQLite
store's commands import neither, and the processes that use them still do: a
PostgreSQL store's (tests/integration/test_projections_postgres.py) and the webhooks'
worker (tests/integration/test_webhook_discovery.py)."""

from __future__ import annotations

from pathlib import Path

from tests.integration.projection_support import play, rebuild_in_a_process
from tests.integration.test_projections_subprocess import open_store

# Each of them was loaded at the end of a rebuild before (the webhooks' stack and the
# PostgreSQL driver), and none is used by one.
NOT_FOR_A_SQLITE_REBUILD = (
    "psycopg",
    "psycopg_pool",
    "eventsourcing.postgres",
    "httpx",
    "tenacity",
    "standardwebhooks",
    "pygments",
    "skald_campaign.workers.webhooks",
)


def test_a_rebuild_of_a_sqlite_store_imports_no_postgresql_nor_webhook_delivery(
    tmp_path: Path,
) -> None:
    """The command's whole run, in a process of its own: the modules it leaves loaded,
    and that it rebuilt (its report)."""
    data_dir = tmp_path / "data"
    app = open_store(data_dir)
    try:
        play(app, campaigns=1, encounters=1, actions=4)
        events = app.recorder.max_notification_id()
    finally:
        app.close()
    report, loaded = rebuild_in_a_process(data_dir, NOT_FOR_A_SQLITE_REBUILD)[-2:]
    assert report.startswith(f"rebuilt all views from {events} events in ")
    assert loaded == "[]"
