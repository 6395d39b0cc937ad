"""The example ruleset examples/hitpoints, installed as a third party installs it
(issue 38): pip builds it from a copy (nothing is written into the work tree) into a
folder of its own, never into the test environment; it passes Skald's contract kit
there, and `skald serve` with that folder on its path finds it through its entry point
and plays a fight by it through the API."""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.e2e.server import Server
from tests.patience import HANG_SECONDS

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "hitpoints"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The example's source copy and the folder pip installed it into."""
    root = tmp_path_factory.mktemp("hitpoints")
    source, site = root / "source", root / "site"
    shutil.copytree(
        EXAMPLE, source, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build")
    )
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--target",
            str(site),
            str(source),
        ],
        check=True,
        capture_output=True,
    )
    return source, site


def test_the_install_registers_the_ruleset_entry_point(installed: tuple[Path, Path]) -> None:
    _, site = installed
    (distribution,) = importlib.metadata.distributions(path=[str(site)])
    assert distribution.metadata["Name"] == "skald-hitpoints"
    assert distribution.requires == ["skald-campaign", 'skald-campaign[test]; extra == "test"']
    points = [(p.group, p.name, p.value) for p in distribution.entry_points]
    assert points == [("skald.rulesets", "hitpoints", "skald_hitpoints:HitPoints")]


def test_the_installed_example_passes_the_contract_kit(
    installed: tuple[Path, Path], tmp_path: Path
) -> None:
    source, site = installed
    # Its tests alone, beside no source: the rules they import are the installed ones.
    tests = shutil.copytree(source / "tests", tmp_path / "tests")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tests)],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(site)},
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.splitlines()[-1].startswith("25 passed in "), run.stdout


def test_skald_serve_finds_the_installed_example_and_plays_a_fight(
    installed: tuple[Path, Path], tmp_path: Path
) -> None:
    _, site = installed
    server = Server(tmp_path / "data", env={"PYTHONPATH": str(site)}).start()
    try:
        http = httpx.Client(base_url=server.url, timeout=HANG_SECONDS)
        listed = http.get("/rulesets").json()
        assert [r["id"] for r in listed] == ["d20", "margin", "stamina-body", "hitpoints"]
        # The OpenAPI offers it: a campaign's ruleset, its documentation's route, and
        # its options (its own and the table's) for a campaign of it.
        schema = http.get("/openapi.json").json()
        components = schema["components"]["schemas"]
        body = components["CreateCampaignBody"]
        assert body["properties"]["ruleset"]["enum"] == [
            "d20", "hitpoints", "margin", "stamina-body",
        ]  # fmt: skip
        (parameter,) = schema["paths"]["/rulesets/{ruleset_id}"]["get"]["parameters"]
        assert parameter["schema"]["enum"] == ["d20", "hitpoints", "margin", "stamina-body"]
        rules = {
            rule["if"]["properties"]["ruleset"]["const"]: rule["then"]["properties"]["options"]
            for rule in body["allOf"]
        }
        assert sorted(rules) == ["d20", "hitpoints", "margin", "stamina-body"]
        options = components[rules["hitpoints"]["$ref"].rsplit("/", 1)[1]]
        assert "natural_max_hits" in options["properties"]
        assert "initiative" in options["properties"]
        created = http.post("/campaigns", json={"name": "Road", "ruleset": "hitpoints"})
        assert created.status_code == 201, created.text
        campaign = created.json()
        http.headers["authorization"] = f"Bearer {campaign['gm_key']}"
        base = f"/campaigns/{campaign['id']}"

        def enrol(name: str, sheet: dict[str, object]) -> str:
            answer = http.post(f"{base}/characters", json={"name": name, "sheet": sheet})
            assert answer.status_code == 201, answer.text
            return str(answer.json()["id"])

        fighter = enrol("Fighter", {"hp": 12, "defense": 14, "attack_bonus": 3, "damage": "1d8+1"})
        goblin = enrol("Goblin", {"hp": 7, "defense": 12, "damage": "1d6"})
        combatants = [
            {"character_id": fighter, "side": "heroes", "rank": 1},
            {"character_id": goblin, "side": "foes", "rank": 1},
        ]
        started = http.post(f"{base}/encounters", json={"name": "Ambush", "combatants": combatants})
        assert started.status_code == 201, started.text
        action = {
            "kind": "attack",
            "actor": fighter,
            "params": {"target": goblin},
            "dice": {"attack": [11], "damage": [5]},
        }
        acted = http.post(f"{base}/encounters/{started.json()['id']}/actions", json=action)
        assert acted.status_code == 201, acted.text
        answer = acted.json()
        assert (
            answer["action"]["summary"]
            == "Fighter hits Goblin for 6 (14 vs 12); Goblin gains: bloodied"
        )
        (target,) = (c for c in answer["encounter"]["combatants"] if c["id"] == goblin)
        assert (target["tracks"], target["conditions"]) == ({"hp": 1}, ["bloodied"])
    finally:
        server.stop()
