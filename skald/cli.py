"""The ``skald`` command line."""

from __future__ import annotations

import logging
import signal
import threading
from pathlib import Path
from typing import Annotated, Any

import typer
import uvicorn

from api.app import create_app
from skald.logs import install_redaction
from skald.services import build_services
from skald.settings import Settings
from skald.store import SettingsError, persistence_env

app = typer.Typer(
    help="Skald: an event-sourced campaign state server for game masters.",
    no_args_is_help=True,
    add_completion=False,
)


def load_settings(**overrides: Any) -> Settings:
    return Settings(**{k: v for k, v in overrides.items() if v is not None})


@app.command()
def serve(
    data_dir: Annotated[
        Path | None,
        typer.Option(help="Data directory (SQLite store, embedded Redis) [./skald-data]"),
    ] = None,
    host: Annotated[str | None, typer.Option(help="Interface to listen on [127.0.0.1]")] = None,
    port: Annotated[int | None, typer.Option(help="Port to listen on [8000]")] = None,
    database: Annotated[
        str | None, typer.Option(help="postgresql:// URL; default: SQLite in the data directory")
    ] = None,
    redis_url: Annotated[
        str | None, typer.Option(help="redis:// URL; default: an embedded Redis")
    ] = None,
) -> None:
    """Run the HTTP API (OpenAPI docs at /docs) on the configured store.

    With no configuration: a SQLite event store and an embedded Redis server in
    the data directory. Settings may also come from SKALD_* environment variables.
    """
    settings = load_settings(
        data_dir=data_dir, host=host, port=port, database=database, redis_url=redis_url
    )
    try:
        persistence_env(settings)
    except SettingsError as error:
        typer.echo(f"skald: {error}", err=True)
        raise typer.Exit(2) from None
    api = create_app(lambda: build_services(settings, workers=True))
    config = uvicorn.Config(api, host=settings.host, port=settings.port, log_level="info")
    server = uvicorn.Server(config)
    install_redaction()  # after uvicorn configured its loggers, before any request
    server.run()


worker_app = typer.Typer(help="Run one background worker on its own (scale-out).")
app.add_typer(worker_app, name="worker")


@worker_app.command("healing")
def healing_worker(
    data_dir: Annotated[Path | None, typer.Option(help="Data directory [./skald-data]")] = None,
    database: Annotated[str | None, typer.Option(help="postgresql:// URL")] = None,
    redis_url: Annotated[str | None, typer.Option(help="redis:// URL")] = None,
) -> None:
    """Apply the daily rules for every day the calendar advances, exactly once.

    Runs until interrupted. The embedded `skald serve` already runs this worker on a
    thread; run it separately when the API is scaled out on PostgreSQL.
    """
    settings = load_settings(data_dir=data_dir, database=database, redis_url=redis_url)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    with build_services(settings) as services:
        services.healing_worker().run(stop)


@app.command()
def settings() -> None:
    """Print the effective settings (from SKALD_* variables and defaults)."""
    for key, value in load_settings().model_dump().items():
        typer.echo(f"{key} = {value}")


if __name__ == "__main__":  # pragma: no cover
    app()
