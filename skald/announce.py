"""What `skald serve` says when it starts: what it runs on, and where to point a browser."""

from __future__ import annotations

import logging
import socket
from importlib.metadata import version

import uvicorn

from skald.cli_support import masked_url
from skald.services import Services
from skald.settings import Settings
from skald.store import SQLITE_FILE

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
        f"Skald {version('skald')}",
        f"data directory: {data_dir}",
        f"event store: {store}",
        f"Redis: {cache} (key prefix '{settings.redis_prefix}')",
        f"workers: {workers}",
    ]


class AnnouncingServer(uvicorn.Server):
    """uvicorn's server, which also prints the pages' URLs once it listens (on the port
    it really bound: --port 0 picks a free one)."""

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
        log.info("GM screen: %s/gm", base)
        log.info("API docs: %s/docs", base)
