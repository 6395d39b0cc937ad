"""Opening the event store: a quick, one-line refusal when PostgreSQL cannot be used,
and table creation guarded so that processes starting together all come up.

Without a check first, an unreachable server or a missing database surfaced as the
connection pool's 30 s wait and a long traceback naming neither. And several
processes creating the tables of an empty database at once race inside PostgreSQL
(``CREATE TABLE IF NOT EXISTS`` is not safe against a concurrent twin: the loser
fails on ``pg_type_typname_nsp_index``); a session advisory lock held while the
application creates its tables lets one process create them and the others find
them made.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from uuid import UUID

import redis
from eventsourcing.persistence import (
    ApplicationRecorder,
    InterfaceError,
    Mapper,
    OperationalError,
    PersistenceError,
)

from skald_campaign.application.application import SkaldApplication
from skald_campaign.projections.partitioned import own_client
from skald_campaign.settings import Settings
from skald_campaign.store import SQLITE_FILE, SettingsError, persistence_env

CONNECT_TIMEOUT = 5  # seconds: a server that has not answered by then is not coming
SCHEMA_LOCK = 0x736B616C64  # the advisory lock every Skald process takes to create tables


class StoreUnavailable(SettingsError):
    """The configured event store cannot be opened; the message says which and why."""


def where(env: dict[str, str]) -> str:
    return f"PostgreSQL at {env['POSTGRES_HOST']}:{env['POSTGRES_PORT']}"


def explain(error: Exception, env: dict[str, str]) -> str:
    """One line naming the server, the database and what to do."""
    reason = " ".join(str(error).split())
    database, user = env["POSTGRES_DBNAME"], env["POSTGRES_USER"]
    if f'database "{database}" does not exist' in reason:
        return (
            f"{where(env)} has no database '{database}': create it first "
            f"(createdb -h {env['POSTGRES_HOST']} -p {env['POSTGRES_PORT']} -U {user} {database})"
        )
    if "authentication failed" in reason or "no password supplied" in reason:
        return (
            f"{where(env)} refused user '{user}' for database '{database}': "
            "check the user and password in SKALD_DATABASE"
        )
    if "timeout expired" in reason:
        return (
            f"{where(env)} (database '{database}') did not answer within {CONNECT_TIMEOUT} s: "
            "is the host right and the server running?"
        )
    return (
        f"cannot reach {where(env)} (database '{database}'): {reason} "
        "(is the server running, and is SKALD_DATABASE right?)"
    )


@contextmanager
def schema_guard(env: dict[str, str]) -> Iterator[None]:
    """Connect once, quickly, to check the database can be used, and hold the schema
    lock while the caller opens the application (which creates any missing tables)."""
    import psycopg  # here alone: a SQLite store needs none of it (application/postgres.py)

    try:
        connection = psycopg.connect(
            host=env["POSTGRES_HOST"],
            port=env["POSTGRES_PORT"],
            dbname=env["POSTGRES_DBNAME"],
            user=env["POSTGRES_USER"],
            password=env["POSTGRES_PASSWORD"] or None,
            connect_timeout=CONNECT_TIMEOUT,
            autocommit=True,
        )
    except psycopg.Error as error:
        raise StoreUnavailable(explain(error, env)) from None
    with connection:
        # Session level: released when this connection closes, even if the caller fails.
        connection.execute("SELECT pg_advisory_lock(%s)", (SCHEMA_LOCK,))
        yield


def open_application(
    settings: Settings, env: dict[str, str] | None = None, *, create_tables: bool = True
) -> SkaldApplication:
    """The application on the configured store, tables created if missing; or, for a
    command that only reads (`skald export`, `skald campaigns`), never created: one
    pointed at the wrong database must not leave an empty store's tables there."""
    env = persistence_env(settings) if env is None else env
    if not create_tables:
        application = _open(settings, {**env, "CREATE_TABLE": "false"})
        try:
            application.recorder.max_notification_id()
        except PersistenceError:
            application.close()
            raise StoreUnavailable(no_store_there(settings, env)) from None
        return application
    return _open(settings, env)


def no_store_there(settings: Settings, env: dict[str, str]) -> str:
    if settings.database is None:
        return f"no event store in {settings.data_dir.resolve()}: is --data-dir right?"
    return (
        f"{where(env)} (database '{env['POSTGRES_DBNAME']}') holds no Skald event store "
        "(no tables): is SKALD_DATABASE right? `skald serve` or `skald import` creates one"
    )


def _open(settings: Settings, env: dict[str, str]) -> SkaldApplication:
    roller = random.Random(settings.dice_seed)
    try:
        if settings.database is None:
            return SkaldApplication(
                env=env, roller=roller, snapshot_interval=settings.snapshot_interval
            )
        with schema_guard(env):
            return SkaldApplication(
                env=env, roller=roller, snapshot_interval=settings.snapshot_interval
            )
    except PersistenceError as error:
        if settings.database is None:
            raise StoreUnavailable(f"cannot open the SQLite store: {error}") from None
        if isinstance(error, OperationalError | InterfaceError):
            raise StoreUnavailable(explain(error, env)) from None
        reason = " ".join(str(error).split())
        raise StoreUnavailable(
            f"{where(env)} (database '{env['POSTGRES_DBNAME']}') refused to set up "
            f"the event store's tables: {reason}"
        ) from None


def require_sqlite_store(settings: Settings) -> None:
    """Reading commands refuse a data directory with no store rather than create one."""
    if settings.database is not None:
        return
    path = settings.data_dir.resolve() / SQLITE_FILE
    if not path.exists():
        raise StoreUnavailable(
            f"no event store in {settings.data_dir.resolve()} (no {path.name}): "
            "is --data-dir (SKALD_DATA_DIR) right?"
        )


@contextmanager
def open_for_rebuild(
    settings: Settings, client: redis.Redis
) -> Iterator[tuple[ApplicationRecorder, Mapper[UUID], redis.Redis]]:
    """A rebuild process's own store and Redis connections (projections/partitioned.py:
    a forked process must not use its parent's), closed when it is done."""
    application = open_application(settings, create_tables=False)
    own = own_client(client)
    try:
        yield application.recorder, application.mapper, own
    finally:
        own.close()
        application.close()
