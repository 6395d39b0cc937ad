"""compose.yaml is a valid Compose file that describes the scale-out deployment."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def test_compose_file_validates_against_the_compose_specification() -> None:
    checker = Path(sys.executable).parent / "check-jsonschema"
    result = subprocess.run(
        [str(checker), "--builtin-schema", "vendor.compose-spec", str(ROOT / "compose.yaml")],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_compose_points_every_skald_service_at_postgres_and_redis() -> None:
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    services = compose["services"]
    assert {"postgres", "redis", "api", "healing", "projections"} <= set(services)
    assert services["healing"]["command"] == ["skald", "worker", "healing"]
    assert services["projections"]["command"] == ["skald", "worker", "projections"]
    assert services["api"]["environment"]["SKALD_WORKERS"] == "false"
    skald_services = [s for s in services.values() if s.get("build") == "."]
    assert skald_services
    for service in skald_services:
        assert service["environment"]["SKALD_DATABASE"].startswith("postgresql://")
        assert service["environment"]["SKALD_REDIS_URL"].startswith("redis://redis:")
        assert service["environment"]["SKALD_SECRET_KEY"].startswith("${SKALD_SECRET_KEY:?")
    assert services["api"]["deploy"]["replicas"] >= 2


def test_compose_gives_the_api_an_operator_key_so_campaigns_can_be_created() -> None:
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    api = compose["services"]["api"]["environment"]
    assert api["SKALD_OPERATOR_KEY"].startswith("${SKALD_OPERATOR_KEY:?")


def test_the_readme_says_which_compose_reads_the_file() -> None:
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    assert compose["name"] == "skald"  # a top-level name: docker-compose 1.x refuses it
    readme = " ".join((ROOT / "README.md").read_text().split())
    assert "It needs Docker Compose v2 (the `docker compose` plugin;" in readme
    assert "`docker-compose` 1.x refuses its top-level `name:`" in readme
