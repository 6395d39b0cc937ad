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

from skald import cli


def test_serve_freezes_what_start_up_built_before_it_serves(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    frozen_when_serving: list[int] = []

    class Server:
        started = True

        def __init__(self, config: Any) -> None:
            pass

        def run(self) -> None:
            frozen_when_serving.append(gc.get_freeze_count())

    monkeypatch.setattr(cli, "AnnouncingServer", Server)
    monkeypatch.setattr(cli, "build_services", lambda settings, workers: nullcontext(object()))
    monkeypatch.setattr(cli, "describe_services", lambda settings, services: [])
    monkeypatch.setattr(cli, "install_redaction", lambda: None)
    gc.unfreeze()
    try:
        result = CliRunner().invoke(cli.app, ["serve", "--data-dir", str(tmp_path)])
    finally:
        gc.unfreeze()  # the rest of the test session collects as usual
    assert result.exit_code == 0, result.output
    assert len(frozen_when_serving) == 1 and frozen_when_serving[0] > 1000
