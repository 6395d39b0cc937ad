"""`skald serve` hands uvicorn a heap whose start-up objects the cyclic collector no
longer walks: full collections under load stop the whole process, and walking
~125,000 objects that live as long as it does made every latency's tail
(bench/README.md, "Live lag")."""

from __future__ import annotations

import gc
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from skald_campaign import announce, cli, logs
from skald_campaign.application.snapshotting import freeze_snapshotted, freezes_snapshotted


def test_serve_freezes_what_start_up_built_before_it_serves(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    frozen_when_serving: list[int] = []
    snapshots_frozen_when_serving: list[bool] = []
    thresholds_when_serving: list[tuple[int, int, int]] = []
    before = gc.get_threshold()

    class Server:
        started = True

        def __init__(self, config: Any, *announced: Any) -> None:
            pass  # announced: where a table on the network is reached (none here)

        def run(self) -> None:
            frozen_when_serving.append(gc.get_freeze_count())
            snapshots_frozen_when_serving.append(freezes_snapshotted())
            thresholds_when_serving.append(gc.get_threshold())

    # serve imports the server stack itself (a rebuild does not need it): patched there.
    monkeypatch.setattr(announce, "AnnouncingServer", Server)
    monkeypatch.setattr(cli, "build_services", lambda settings, workers: nullcontext(object()))
    monkeypatch.setattr(announce, "describe_services", lambda settings, services: [])
    monkeypatch.setattr(logs, "install_redaction", lambda: None)
    gc.unfreeze()
    try:
        result = CliRunner().invoke(cli.app, ["serve", "--data-dir", str(tmp_path)])
    finally:
        gc.unfreeze()  # the rest of the test session collects as usual
        freeze_snapshotted(False)
        gc.set_threshold(*before)
    assert result.exit_code == 0, result.output
    assert len(frozen_when_serving) == 1 and frozen_when_serving[0] > 1000
    assert thresholds_when_serving == [(20_000, 50, 20)]
    # And each stored snapshot's aggregate with it (application/snapshotting.py).
    assert snapshots_frozen_when_serving == [True]
