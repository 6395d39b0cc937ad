"""The operator's data commands: `skald export`, `skald import`, `skald campaigns`.

Export and the listing need only the event store (no Redis), so they run beside a
live server. Import writes the store, then rebuilds the views in Redis.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated
from uuid import UUID

import redis
import typer
from eventsourcing.persistence import PersistenceError

from skald_campaign.cli_support import existing_store, fails_cleanly, load_settings, progress_bar
from skald_campaign.database import open_application
from skald_campaign.embedded_redis import EmbeddedRedisError
from skald_campaign.exchange import ExchangeError, export_events, import_events
from skald_campaign.listing import list_campaigns
from skald_campaign.projections.rebuild import Rebuilder, RebuildError
from skald_campaign.services import build_services, server_secret
from skald_campaign.settings import Settings
from skald_campaign.store import SettingsError, persistence_env

# What may stop the views' rebuild after an import stored its events (the same
# failures every command reports in one line, skald_campaign/cli_support.py).
VIEWS_NOT_REBUILT = (
    SettingsError,
    EmbeddedRedisError,
    redis.RedisError,
    RebuildError,
    PersistenceError,
    OSError,
)
DataDir = Annotated[Path | None, typer.Option(help="Data directory [./skald-data]")]
Database = Annotated[str | None, typer.Option(help="postgresql:// URL [SQLite in the data dir]")]
RedisUrl = Annotated[str | None, typer.Option(help="redis:// URL [the embedded Redis]")]


def export(
    file: Annotated[Path, typer.Argument(help="the file to write (JSON Lines)", dir_okay=False)],
    campaign: Annotated[
        UUID | None,
        typer.Option(help="only this campaign: its events, its encounters', its request records"),
    ] = None,
    data_dir: DataDir = None,
    database: Database = None,
) -> None:
    """Write the stored events (all, or one campaign's) to a portable file.

    Safe while the server runs: it reads the store up to the last event recorded when
    it began. Every line carries its SHA-256, so `skald import` (into SQLite or
    PostgreSQL) refuses a copy damaged since, naming the line.
    """
    with fails_cleanly(), existing_store(data_dir, database) as application:
        if campaign is not None:
            application.campaign(campaign)  # refuse an unknown id before writing
        with progress_bar() as bar:
            task = bar.add_task(f"exporting to {file.name}", total=None)
            report = export_events(
                application.recorder,
                application.mapper,
                file,
                campaign,
                lambda done, total: bar.update(task, completed=done, total=total),
            )
    typer.echo(
        f"exported {report.events} events of {report.aggregates} aggregates to {file} "
        f"in {report.seconds:.2f} s"
    )


def import_(
    file: Annotated[Path, typer.Argument(help="a file written by `skald export`")],
    data_dir: DataDir = None,
    database: Database = None,
    redis_url: RedisUrl = None,
) -> None:
    """Add the events of an exported file to this store, then rebuild the views.

    All or nothing: every line's digest is checked, every event decoded with its
    fields' declared types and every aggregate replayed before anything is written
    (a damaged file is refused, naming its first bad line), then one transaction;
    refused if the store already holds any of the file's aggregates. Events keep
    their ids, versions and timestamps. Exit status 0 once the events are stored,
    even if the views could not be rebuilt (a warning on stderr says so).
    """
    with fails_cleanly():
        if not file.is_file():
            raise ExchangeError(f"no file {file} to import")
        settings = load_settings(data_dir=data_dir, database=database, redis_url=redis_url)
        persistence_env(settings)
        server_secret(settings)  # the views' rebuild needs it: refuse before writing anything
        application = open_application(settings)
        try:
            with progress_bar() as bar:
                task = bar.add_task(f"reading {file.name}", total=None)
                report = import_events(
                    application.recorder,
                    application.mapper,
                    file,
                    lambda done, total: bar.update(task, completed=done, total=total),
                    warn,
                )
        finally:
            application.close()
    typer.echo(
        f"imported {report.events} events of {report.aggregates} aggregates "
        f"in {report.seconds:.2f} s"
    )
    # The events are stored: whatever befalls the views now, the import is done and
    # its status says so (0); only a refusal, which stored nothing, fails it.
    try:
        rebuild_views(settings)
    except VIEWS_NOT_REBUILT as error:
        # The embedded Redis of a running server, say: its projection worker follows
        # the store, and takes the imported events in as it would any new ones.
        warn(
            f"imported, but the views were not rebuilt: {' '.join(str(error).split())}; "
            "a running projection worker takes the new events in as it follows the store, "
            "or run `skald projections rebuild`"
        )


def warn(message: str) -> None:
    typer.echo(f"skald: warning: {message}", err=True)


def rebuild_views(settings: Settings) -> None:
    with build_services(settings) as services, progress_bar() as bar:
        task = bar.add_task("rebuilding the views", total=None)
        rebuilder = Rebuilder(
            services.redis,
            services.application.recorder,
            services.application.mapper,
            services.application.name,
            services.redis_prefix,
        )
        report = rebuilder.rebuild_all(
            lambda done, total: bar.update(task, completed=done, total=total)
        )
    typer.echo(f"rebuilt the views from {report.events} events")


def campaigns(data_dir: DataDir = None, database: Database = None) -> None:
    """List the campaigns in the store: id, name, ruleset, day, last change."""
    with fails_cleanly(), existing_store(data_dir, database) as application:
        lines = list(list_campaigns(application))
    typer.echo(f"{'id':<36}  {'ruleset':<12}  {'day':>5}  {'last change (UTC)':<19}  name")
    for line in lines:
        changed = line.last_change.strftime("%Y-%m-%d %H:%M:%S")
        typer.echo(f"{line.id}  {line.ruleset:<12}  {line.day:>5}  {changed:<19}  {line.name}")
