"""A worker failing again and again logs one traceback, then one line per retry."""

from __future__ import annotations

import logging
import threading

import pytest

from skald_campaign.workers.projections import Supervisor


class Unreachable:
    """A worker whose every run fails, as with Redis down; the fourth run stops."""

    def __init__(self, stop: threading.Event, runs: list[int]) -> None:
        self.stop, self.runs = stop, runs

    def run(self, stop: threading.Event) -> None:
        self.runs.append(1)
        if len(self.runs) == 4:
            stop.set()
            return
        raise ConnectionError("Error 111 connecting to 127.0.0.1:1. Connection refused.")


def test_a_run_of_failures_logs_one_traceback_then_one_line_each(
    caplog: pytest.LogCaptureFixture,
) -> None:
    stop, runs = threading.Event(), list[int]()
    supervisor = Supervisor(
        "projection runner",
        lambda: Unreachable(stop, runs),  # type: ignore[arg-type, return-value]
        first_pause=0.0,
    )
    with caplog.at_level(logging.WARNING, logger="skald.workers.projections"):
        supervisor.run(stop)
    records = [r for r in caplog.records if r.name == "skald.workers.projections"]
    assert [r.exc_info is not None for r in records] == [True, False, False]
    assert records[0].getMessage() == "projection runner failed; retrying in 0.0 s"
    assert [r.getMessage() for r in records[1:]] == [
        "projection runner failed again (ConnectionError: Error 111 connecting to "
        "127.0.0.1:1. Connection refused.); retrying in 0.0 s"
    ] * 2
