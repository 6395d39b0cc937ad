"""Whether a recorder is PostgreSQL's, without importing PostgreSQL's parts.

psycopg and eventsourcing.postgres take ~0.05 s of CPU to import: paid by every `skald`
command on a SQLite store for nothing while they were imported at module level (a
rebuild above all, whose start-up is part of its measure: bench/README.md "rebuild19
lane"). A recorder of the library's PostgreSQL classes exists only once
eventsourcing.postgres has been imported (the library imports it to make one), so
whether a recorder is one is asked of that module only if it is loaded; what is done
with one is in application/postgres_store.py, imported then.
"""

from __future__ import annotations

import sys

LIBRARY = "eventsourcing.postgres"


def is_postgres(recorder: object) -> bool:
    """A recorder of the library's PostgreSQL store (an application recorder is one)."""
    module = sys.modules.get(LIBRARY)
    return module is not None and isinstance(recorder, module.PostgresAggregateRecorder)
