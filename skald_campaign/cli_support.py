"""What every `skald` command shares: settings, one-line refusals, a progress bar."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

import pydantic
import redis
import typer
from eventsourcing.persistence import PersistenceError
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from skald_campaign.domain.errors import DomainError
from skald_campaign.embedded_redis import EmbeddedRedisError
from skald_campaign.exchange import ExchangeError
from skald_campaign.projections.rebuild import RebuildError
from skald_campaign.settings import Settings
from skald_campaign.store import SettingsError

if TYPE_CHECKING:
    from skald_campaign.application.application import SkaldApplication

SETTINGS_REFUSED = 2  # exit status: the configuration cannot work
FAILED = 1  # exit status: the command could not do its work


def load_settings(**overrides: Any) -> Settings:
    try:
        return Settings(**{k: v for k, v in overrides.items() if v is not None})
    except pydantic.ValidationError as error:
        problems = "; ".join(
            f"SKALD_{'_'.join(str(p) for p in e['loc']).upper()}: {e['msg']}"
            for e in error.errors()
        )
        raise SettingsError(problems) from None


@contextmanager
def existing_store(data_dir: Path | None, database: str | None) -> Iterator[SkaldApplication]:
    """The event store a command that reads it opens (export, campaigns, rulesets check):
    the settings, refused as every command refuses them; a SQLite store that must exist
    already (none is made); no tables created; closed when the command is done."""
    from skald_campaign.database import open_application, require_sqlite_store
    from skald_campaign.services import configured_secret

    settings = load_settings(data_dir=data_dir, database=database)
    require_sqlite_store(settings)
    configured_secret(settings)  # a setting that cannot work: refused by every command
    application = open_application(settings, create_tables=False)
    try:
        yield application
    finally:
        application.close()


def refuse(message: str, status: int) -> typer.Exit:
    typer.echo(f"skald: {message}", err=True)
    return typer.Exit(status)


@contextmanager
def fails_cleanly() -> Iterator[None]:
    """Known failures end the command with one line on stderr and a non-zero status,
    never a traceback: the same for every command."""
    try:
        yield
    except Exception as error:
        known = known_failure(error)
        if known is None:
            raise
        raise refuse(*known) from None


def known_failure(error: BaseException) -> tuple[str, int] | None:
    """The one line (without "skald: ") and the exit status of a failure every command
    reports alike; None for any other (a bug: its traceback is wanted)."""
    if isinstance(error, SettingsError):
        return str(error), SETTINGS_REFUSED
    if isinstance(error, EmbeddedRedisError | ExchangeError | RebuildError | DomainError):
        return str(error), FAILED
    if isinstance(error, redis.RedisError):
        return f"Redis: {error}", FAILED
    if isinstance(error, PersistenceError):
        return f"event store: {' '.join(str(error).split())}", FAILED
    if isinstance(error, OSError):
        return str(error), FAILED
    return None


def masked_url(url: str) -> str:
    """A database or Redis URL fit to print: its password replaced by stars."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    return urlunsplit(parts._replace(netloc=f"{user}:**********@{host}"))


def progress_bar() -> Progress:
    """On stderr, so that stdout stays for what the command prints."""
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
    )
