"""`skald import` beside a running `skald serve` on its embedded Redis (issue 37 item 6):
the events are stored, so the import succeeded (status 0); the views it could not
rebuild (the server owns that Redis) are a warning on stderr, and the server's own
projection worker takes the events in."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
from fastapi.testclient import TestClient

from skald_campaign.settings import Settings
from tests.e2e.server import Server
from tests.helpers import enrol, new_campaign
from tests.integration.test_export_import import BARE, export, skald
from tests.patience import HANG_SECONDS


def test_an_import_beside_a_running_embedded_server_stores_the_events_and_exits_0(
    client: TestClient, settings: Settings, tmp_path: Path
) -> None:
    cid = new_campaign(client, "stamina-body", name="Moved in")
    gm = {"authorization": client.headers["authorization"]}
    bran = enrol(client, cid, "Bran", BARE)
    backup = tmp_path / "moved.jsonl"
    lines = export(settings.data_dir, backup)
    # The same secret, so the campaign's GM key opens it on the running server too.
    secret = (settings.data_dir / "secret.key").read_text().strip()
    home = tmp_path / "home" / "data"
    home.parent.mkdir()
    server = Server(home, env={"SKALD_SECRET_KEY": secret}).start()
    try:
        imported = skald(
            "import",
            str(backup),
            env={"SKALD_DATA_DIR": str(home), "SKALD_SECRET_KEY": secret},
        )
        assert imported.returncode == 0, imported.stderr
        assert f"imported {len(lines) - 2} events" in imported.stdout
        assert imported.stderr.splitlines()[-1].startswith(
            "skald: warning: imported, but the views were not rebuilt: another skald process "
            f"is using the embedded Redis of {home}"
        ), imported.stderr

        with httpx.Client(base_url=server.url, headers=gm, timeout=HANG_SECONDS) as http:
            campaign = http.get(f"/campaigns/{cid}")
            assert (campaign.status_code, campaign.json()["name"]) == (200, "Moved in")
            deadline = time.monotonic() + HANG_SECONDS
            while True:  # the server's projection worker follows the store
                vitals = http.get(f"/campaigns/{cid}/vitals")
                if vitals.status_code == 200 and bran in vitals.text:
                    break
                assert time.monotonic() < deadline, vitals.text
                time.sleep(0.05)
    finally:
        server.stop()
