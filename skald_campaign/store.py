"""The eventsourcing environment for the configured event store."""

from __future__ import annotations

from urllib.parse import unquote, urlsplit

from skald_campaign.settings import Settings

TRANSCODER = "skald_campaign.transcoder:OrjsonTranscoder"
MAPPER = "skald_campaign.transcoder:JsonPayloadMapper"
# The library's PostgreSQL recorder, its commit in one round trip (skald_campaign/recorder.py).
RECORDER = "skald_campaign.recorder:OneTripRecorder"
SQLITE_FILE = "events.sqlite3"


class SettingsError(ValueError):
    """A setting that cannot work; the CLI prints it and exits."""


def persistence_env(settings: Settings) -> dict[str, str]:
    env = {"TRANSCODER_TOPIC": TRANSCODER, "MAPPER_TOPIC": MAPPER}
    if settings.database is None:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        env["PERSISTENCE_MODULE"] = "eventsourcing.sqlite"
        env["SQLITE_DBNAME"] = str(settings.data_dir.resolve() / SQLITE_FILE)
        env["SQLITE_LOCK_TIMEOUT"] = "10"
        return env
    url = urlsplit(settings.database)
    if url.scheme not in ("postgresql", "postgres"):
        raise SettingsError(
            f"SKALD_DATABASE must be a postgresql:// URL, not '{settings.database}'"
        )
    dbname = url.path.lstrip("/")
    if not dbname:
        raise SettingsError("SKALD_DATABASE names no database (postgresql://host/dbname)")
    env.update(
        PERSISTENCE_MODULE="eventsourcing.postgres",
        APPLICATION_RECORDER_TOPIC=RECORDER,
        POSTGRES_DBNAME=dbname,
        POSTGRES_HOST=url.hostname or "127.0.0.1",
        POSTGRES_PORT=str(url.port or 5432),
        POSTGRES_USER=unquote(url.username or "postgres"),
        POSTGRES_PASSWORD=unquote(url.password or ""),
    )
    return env


def store_kind(settings: Settings) -> str:
    return "sqlite" if settings.database is None else "postgresql"
