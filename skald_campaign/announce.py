"""What `skald serve` says when it starts: what it runs on, and where to point a browser."""

from __future__ import annotations

import logging
import socket
import sys
from importlib.metadata import version

import uvicorn

from skald_campaign import DISTRIBUTION
from skald_campaign.cli_support import masked_url
from skald_campaign.lan import network_address, public_url, terminal_qr
from skald_campaign.services import Services
from skald_campaign.settings import Settings
from skald_campaign.store import SQLITE_FILE

log = logging.getLogger("uvicorn.error")
WILDCARDS = ("0.0.0.0", "::", "")


def describe_services(settings: Settings, services: Services) -> list[str]:
    data_dir = settings.data_dir.resolve()
    if settings.database is None:
        store = f"SQLite {data_dir / SQLITE_FILE}"
    else:
        store = f"PostgreSQL {masked_url(settings.database)}"
    if settings.redis_url is None:
        cache = f"embedded (data in {data_dir}, socket {services.redis_url})"
    else:
        cache = masked_url(settings.redis_url)
    workers = "in this process" if settings.workers else "separate (skald worker ...)"
    return [
        f"Skald {version(DISTRIBUTION)}",
        f"data directory: {data_dir}",
        f"event store: {store}",
        f"Redis: {cache} (key prefix '{settings.redis_prefix}')",
        f"workers: {workers}",
    ]


def table_address(settings: Settings) -> str | None:
    """What phones at the table are told to reach: --advertise, else with --lan this
    machine's address on its network; None: served to this machine only, or (said so)
    a --lan machine with no network address."""
    if settings.advertise is not None:
        return settings.advertise
    if not settings.lan:
        return None
    found = network_address()
    if found is None:
        log.warning(
            "--lan: this machine has no network address but loopback, so phones cannot "
            "reach it; connect it to the network, or name the address with --advertise"
        )
    return found


class AnnouncingServer(uvicorn.Server):
    """uvicorn's server, which also prints the pages' URLs once it listens (on the port
    it really bound: --port 0 picks a free one). A table on the network (`advertise`)
    is told its address, which the services then hand the pages (GET /server), and the
    GM screen's address as a QR code for the GM's tablet."""

    def __init__(
        self, config: uvicorn.Config, advertise: str | None = None, services: Services | None = None
    ) -> None:
        super().__init__(config)
        self.advertise = advertise
        self.services = services

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if not self.started or not self.servers:
            return
        bound: object = self.servers[0].sockets[0].getsockname()  # (host, port, ...)
        port = bound[1] if isinstance(bound, tuple) else self.config.port
        host = self.config.host
        if host in WILDCARDS:
            host = "localhost"
        elif ":" in host:
            host = f"[{host}]"
        base = f"http://{host}:{port}"
        if self.advertise is None:
            log.info("GM screen: %s/gm", base)
            log.info("API docs: %s/docs", base)
            return
        table = public_url(self.advertise, port)
        if self.services is not None:  # before any request is served: no await since bound
            self.services.public_url = table
        log.info("GM screen: %s/gm (on this machine: %s/gm)", table, base)
        log.info("API docs: %s/docs", table)
        log.info(
            "Phones at the table reach this server at %s: the keys' links and QR codes "
            "carry it. Campaigns are created on this machine (%s/gm) unless "
            "SKALD_OPERATOR_KEY is set. Plain http: keys cross the network unencrypted "
            "(README: a TLS proxy in front).",
            table,
            base,
        )
        # On the log's stream, after its lines: the GM screen's address (never a key).
        print(terminal_qr(f"{table}/gm"), file=sys.stderr, flush=True)
