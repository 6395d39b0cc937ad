"""The ``skald`` command line."""

from __future__ import annotations

import gc
import logging
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, nullcontext
from functools import partial
from importlib.metadata import version as installed_version
from pathlib import Path
from typing import Annotated, Protocol
from uuid import UUID

import redis
import typer

from skald_campaign import DISTRIBUTION, cli_data
from skald_campaign.application.snapshotting import freeze_snapshotted
from skald_campaign.cli_rulesets import rulesets_app
from skald_campaign.cli_support import (
    fails_cleanly,
    known_failure,
    load_settings,
    masked_url,
    progress_bar,
    refuse,
)
from skald_campaign.database import open_for_rebuild

# The server stack (FastAPI, uvicorn, the pages) is imported by `serve` alone: the other
# commands, a rebuild above all, would spend about half a second importing it for nothing.
from skald_campaign.projections.heap import keep_freed_memory
from skald_campaign.projections.keys import Generations
from skald_campaign.projections.partitioned import rebuild_partitioned
from skald_campaign.projections.rebuild import Rebuilder, RebuildReport
from skald_campaign.services import Services, build_services


class Worker(Protocol):
    def run(self, stop: threading.Event) -> None: ...


app = typer.Typer(
    help="Skald: an event-sourced campaign state server for game masters.",
    no_args_is_help=True,
    add_completion=False,
)

app.command("export")(cli_data.export)
app.command("import")(cli_data.import_)
app.command("campaigns")(cli_data.campaigns)
app.add_typer(rulesets_app, name="rulesets")


def show_version(value: bool) -> None:
    if value:
        typer.echo(f"skald {installed_version(DISTRIBUTION)}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=show_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Skald: an event-sourced campaign state server for game masters."""


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
    lan: Annotated[
        bool | None,
        typer.Option(
            "--lan",
            help="A table on the home network: listen on every interface, put this "
            "machine's address in every link and QR code, create campaigns from this "
            "machine only (unless SKALD_OPERATOR_KEY is set)",
            show_default=False,
        ),
    ] = None,
    advertise: Annotated[
        str | None,
        typer.Option(
            metavar="ADDRESS",
            help="The address phones reach this server at (IP address, host name, or the "
            "https:// URL of a proxy in front) [with --lan: the default route's interface]",
        ),
    ] = None,
) -> None:
    """Run the HTTP API (OpenAPI docs at /docs) on the configured store.

    With no configuration: a SQLite event store and an embedded Redis server in
    the data directory. Settings may also come from SKALD_* environment variables.
    """
    # uvicorn re-raises a SIGTERM it caught once it has stopped serving; under the default
    # handler that killed the process on the spot, before the services below were torn
    # down, and the embedded Redis was left running. Raised as an exception instead, it
    # unwinds them; the process then ends by the signal, as a service manager expects.
    signal.signal(signal.SIGTERM, _terminated)
    # Ctrl-C ends the server with 130, as an interrupted command does. A parent that
    # started us with SIGINT ignored (a non-interactive shell's background job, CI)
    # passes that on; uvicorn still stops on SIGINT but restores "ignored" and re-raises
    # into it, and the process then ended 0 as if it had been asked nothing.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        _serve(data_dir, host, port, database, redis_url, lan, advertise)
    except Terminated:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.raise_signal(signal.SIGTERM)


class Terminated(BaseException):
    """SIGTERM arrived: stop everything this process started, then end by that signal."""


def _terminated(signum: int, frame: object) -> None:
    raise Terminated


def _serve(
    data_dir: Path | None,
    host: str | None,
    port: int | None,
    database: str | None,
    redis_url: str | None,
    lan: bool | None = None,
    advertise: str | None = None,
) -> None:
    import uvicorn

    from skald_campaign.announce import AnnouncingServer, describe_services, table_address
    from skald_campaign.api.app import create_app
    from skald_campaign.http_protocol import http_protocol
    from skald_campaign.logs import install_redaction

    with fails_cleanly(), ExitStack() as stack:
        settings = load_settings(
            data_dir=data_dir,
            host=host,
            port=port,
            database=database,
            redis_url=redis_url,
            lan=lan,
            advertise=advertise,
        )
        # Built before uvicorn starts, so that a refused setting or an unreachable store
        # ends the command with one line rather than a failed lifespan's traceback.
        services = stack.enter_context(build_services(settings, workers=settings.workers))
        api = create_app(lambda: nullcontext(services))
        # uvicorn's "auto" picks httptools and uvloop (dependencies): the event loop thread
        # was the bound under load, and h11's pure-Python parsing its largest share.
        # Our subclass of that httptools protocol bounds a request's head and the time
        # to receive it (skald_campaign/http_protocol.py); uvicorn closes idle kept-alive
        # connections after its timeout_keep_alive (5 s).
        config = uvicorn.Config(
            api,
            host=settings.listen_host,
            port=settings.port,
            log_level="info",
            http=http_protocol(settings.max_header_bytes, settings.request_timeout),
        )
        server = AnnouncingServer(config, table_address(settings), services)
        install_redaction()  # after uvicorn configured its loggers, before any request
        for line in describe_services(settings, services):
            logging.getLogger("uvicorn.error").info(line)
        keep_out_of_collections()
        server.run()
        if not server.started:
            raise typer.Exit(1)


SERVING_GC_THRESHOLDS = (20_000, 50, 20)


def keep_out_of_collections() -> None:
    """What start-up built (modules, the app with its routes and models, the services:
    about 125,000 objects) lives as long as the process. Frozen out of the cyclic
    collector's sight, it is no longer walked by every full collection under load:
    those stop the whole process and made the tail of every latency (under the load
    of bench/http.py (a): gen-2 pauses of 110-130 ms, 64-72 ms frozen; commands' p99
    123-135 -> 74-86 ms; the vitals' live lag p99 121 -> 68 ms)."""
    gc.collect()
    gc.freeze()
    # And what lives once each snapshot is stored (an encounter's records, from then on
    # as long-lived as start-up's): application/snapshotting.py.
    freeze_snapshotted(True)
    # Then collect less often: by default a young collection comes every 700 net
    # allocations and a full one (walking every encounter's action records) every
    # 70,000; now every 20,000 and every 20 million. A/B under (a), rounds alternating:
    # server CPU per command 1.31-1.33 -> 1.12-1.16 ms, commands' p99 158-259 -> 94-102
    # ms, resident memory the same (153-159 MB).
    gc.set_threshold(*SERVING_GC_THRESHOLDS)


@app.command("mcp")
def mcp_stdio(
    url: Annotated[
        str,
        typer.Option(
            envvar="SKALD_URL", help="The running Skald's address [http://127.0.0.1:8000]"
        ),
    ] = "http://127.0.0.1:8000",
    campaign: Annotated[
        UUID | None, typer.Option(envvar="SKALD_CAMPAIGN", help="The campaign's id")
    ] = None,
) -> None:
    """An MCP server over stdio for a desktop assistant (docs/assistant.md).

    It talks HTTP to a running Skald with the key in SKALD_KEY (never on the command
    line) and offers the tools that key's role may use; it never opens the store."""
    import os

    from skald_campaign.assistant.stdio import CannotStart, run

    key = os.environ.get("SKALD_KEY", "").strip()
    if not key or campaign is None:
        typer.echo(
            "skald mcp needs the campaign's key in SKALD_KEY and its id in --campaign "
            "(or SKALD_CAMPAIGN)",
            err=True,
        )
        raise typer.Exit(2)
    try:
        run(url, key, str(campaign))
    except CannotStart as error:
        typer.echo(str(error), err=True)
        raise typer.Exit(1) from None


worker_app = typer.Typer(help="Run one background worker on its own (scale-out).")


def run_worker(
    data_dir: Path | None,
    database: str | None,
    redis_url: str | None,
    worker: Callable[[Services], Worker],
) -> None:
    """Run one worker until SIGTERM or SIGINT, on the configured store and Redis."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    with fails_cleanly():
        settings = load_settings(data_dir=data_dir, database=database, redis_url=redis_url)
        with build_services(settings) as services:
            worker(services).run(stop)


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
    run_worker(data_dir, database, redis_url, lambda services: services.healing_worker())


@worker_app.command("projections")
def projections_worker(
    data_dir: Annotated[Path | None, typer.Option(help="Data directory [./skald-data]")] = None,
    database: Annotated[str | None, typer.Option(help="postgresql:// URL")] = None,
    redis_url: Annotated[str | None, typer.Option(help="redis:// URL")] = None,
    batch_size: Annotated[
        int, typer.Option(min=1, max=10_000, help="most events committed to Redis at once")
    ] = 1000,
) -> None:
    """Keep the views in Redis (vitals, boards, audit log, live feed) up with the store.

    Runs until interrupted, restarting its runner if a connection dies. The embedded
    `skald serve` already runs it on a thread; run it separately when scaled out.
    """
    run_worker(
        data_dir, database, redis_url, lambda services: services.projection_supervisor(batch_size)
    )


@worker_app.command("webhooks")
def webhooks_worker(
    data_dir: Annotated[Path | None, typer.Option(help="Data directory [./skald-data]")] = None,
    database: Annotated[str | None, typer.Option(help="postgresql:// URL")] = None,
    redis_url: Annotated[str | None, typer.Option(help="redis:// URL")] = None,
) -> None:
    """Deliver the campaigns' webhooks (docs/integrations.md), at least once, in order.

    Runs until interrupted. The embedded `skald serve` already delivers them on a thread
    (unless SKALD_WEBHOOKS_WORKER=false); run this beside the API when scaled out.
    """
    run_worker(data_dir, database, redis_url, lambda services: services.webhook_worker())


projections_app = typer.Typer(help="The views in Redis, built from the event store.")
app.add_typer(projections_app, name="projections")


@projections_app.command("rebuild")
def rebuild_projections(
    campaign: Annotated[
        UUID | None, typer.Option(help="rebuild only this campaign's views [all of them]")
    ] = None,
    data_dir: Annotated[Path | None, typer.Option(help="Data directory [./skald-data]")] = None,
    database: Annotated[str | None, typer.Option(help="postgresql:// URL")] = None,
    redis_url: Annotated[str | None, typer.Option(help="redis:// URL")] = None,
    batch_size: Annotated[int, typer.Option(min=1, max=10_000)] = 2000,
    processes: Annotated[
        int | None,
        typer.Option(min=1, max=64, help="processes sharing a full rebuild, by campaign [1]"),
    ] = None,
) -> None:
    """Drop and rebuild the views from the event store, then switch over to them.

    Readers keep the old views until the new ones are complete. With the embedded
    Redis, stop `skald serve` first (it owns that Redis); with --redis-url the
    server may keep running. --processes shares a full rebuild by campaign over
    processes: each reads the whole log, so it pays only with idle cores.
    """
    # This process rebuilds and exits: each batch's memory is kept for the next rather
    # than faulted in again (projections/heap.py; its parts, forked, inherit it).
    keep_freed_memory()
    # SIGTERM (a service manager, `kill`) unwinds the rebuild as Ctrl-C does: the
    # unfinished generation is deleted and the embedded Redis stopped, then the process
    # ends by the signal. Under the default handler it died on the spot and left both.
    signal.signal(signal.SIGTERM, _terminated)
    try:
        report, what = _rebuild(campaign, data_dir, database, redis_url, batch_size, processes)
    except Terminated:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.raise_signal(signal.SIGTERM)
        raise  # pragma: no cover (the signal ended the process)
    for swept in report.swept:
        typer.echo(f"swept the views {swept.line()}, left by a rebuild that was killed")
    typer.echo(
        f"rebuilt {what} from {report.events} events in {report.seconds:.2f} s "
        f"({report.rate:,.0f} events/s); now serving generation {report.generation}"
    )
    # The work is done and saved: what the process holds now is its modules and its
    # rebuild's leftovers, which the interpreter's collections at exit would walk for
    # nothing (0.35-0.5 s of a 6 s rebuild of 100,000 events, measured); frozen, they
    # are freed without being walked.
    gc.freeze()


INTERRUPTED = 130  # exit status: stopped by Ctrl-C, as a shell reports it


def _rebuild(
    campaign: UUID | None,
    data_dir: Path | None,
    database: str | None,
    redis_url: str | None,
    batch_size: int,
    processes: int | None,
) -> tuple[RebuildReport, str]:
    with fails_cleanly():
        settings = load_settings(data_dir=data_dir, database=database, redis_url=redis_url)
        with (
            build_services(settings, replacing_views=campaign is None) as services,
            views_left_as_they_were(services),  # with Redis up, once the bar has stopped
            progress_bar() as bar,
        ):
            what = f"campaign {campaign}" if campaign else "all views"
            task = bar.add_task(f"rebuilding {what}", total=None)
            rebuilder = Rebuilder(
                services.redis,
                services.application.recorder,
                services.application.mapper,
                services.application.name,
                services.redis_prefix,
                batch=batch_size,
            )

            def advance(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

            if campaign is None:
                # One process unless asked: on this project's loaded 2-core machines
                # two were 1.06x, 0.74x and 0.80x as fast (bench/README.md, issue 28).
                opener = partial(open_for_rebuild, settings, services.redis)
                report = rebuild_partitioned(rebuilder, opener, processes or 1, advance)
                if services.embedded is not None:  # switched to: now the ones to save
                    services.embedded.keep_views()
            else:
                report = rebuilder.rebuild_campaign(campaign, advance)
    return report, what


@contextmanager
def views_left_as_they_were(services: Services) -> Iterator[None]:
    """A rebuild that fails or is stopped has deleted what it built (projections/
    leases.py) before its error gets here: the message says the views are as they were,
    and which generation is current."""
    try:
        yield
    except KeyboardInterrupt:
        raise refuse(f"interrupted: the views were {_left(services)}", INTERRUPTED) from None
    except Terminated:
        typer.echo(f"skald: terminated: the views were {_left(services)}", err=True)
        raise
    except Exception as error:  # a refusal, Redis or the store gone: still one line
        known = known_failure(error)
        if known is None:
            raise
        reason, status = known
        reason = reason.removeprefix(NOT_REBUILT)
        left = _left(services)
        raise refuse(f"the views were not rebuilt, and were {left}: {reason}", status) from None


NOT_REBUILT = "the views were not rebuilt: "


def _left(services: Services) -> str:
    try:
        current = Generations(services.redis_prefix).current(services.redis)
    except (redis.RedisError, OSError):
        return "left as they were"
    if current is None:
        return "left as they were (there were none)"
    return f"left as they were (generation {current} still current)"


@app.command()
def settings() -> None:
    """Print the effective settings (from SKALD_* variables and defaults); secrets masked."""
    with fails_cleanly():
        values = load_settings().model_dump()
    for key, value in values.items():
        if key in ("database", "redis_url") and value is not None:
            value = masked_url(value)
        typer.echo(f"{key} = {value}")


if __name__ == "__main__":  # pragma: no cover
    app()
