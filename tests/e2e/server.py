"""Run the real ``skald serve`` as a subprocess on a free port (bench/server.py's,
shared with the bench, which imports nothing from tests/)."""

from __future__ import annotations

from bench.server import Server, free_port

__all__ = ["Server", "free_port"]
