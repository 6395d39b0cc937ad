"""compose.yaml is a valid Compose file that describes the scale-out deployment."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest
import yaml

from tests.patience import HANG_SECONDS

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


# -- the proxy in front of the replicas: each campaign's requests to one replica ----------

HAPROXY_CFG = ROOT / "deploy" / "haproxy.cfg"


def sections(text: str) -> dict[str, list[str]]:
    """HAProxy's configuration as {'backend api': [its lines], ...}, comments dropped."""
    found: dict[str, list[str]] = {}
    current: list[str] = []
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        if not raw[0].isspace():
            current = found.setdefault(" ".join(line.split()), [])
        else:
            current.append(" ".join(line.split()))
    return found


def test_the_proxy_hashes_each_request_on_its_campaign_id_consistently() -> None:
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    proxy, api = compose["services"]["proxy"], compose["services"]["api"]
    assert proxy["image"].startswith("haproxy:")
    assert "./deploy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro" in proxy["volumes"]
    assert proxy["ports"] == ["8000:8000"] and "ports" not in api  # clients reach the proxy only

    config = sections(HAPROXY_CFG.read_text())
    assert "default_backend api" in config["frontend skald"]
    backend = config["backend api"]
    # The hash is "/campaigns/{cid}": the path's first two levels, without the query.
    assert "balance uri depth 2" in backend
    assert "hash-type consistent" in backend
    replicas = api["deploy"]["replicas"]
    assert f"server-template api {replicas} api:8000 resolvers docker init-addr none" in backend


def haproxy() -> str:
    """Like the browser tests: skipped on a machine without the proxy unless
    SKALD_TEST_PROXY is set (CI sets it), and then a missing HAProxy is a failure."""
    found = shutil.which("haproxy") or (
        "/usr/sbin/haproxy" if Path("/usr/sbin/haproxy").exists() else None
    )
    if found is None and not os.environ.get("SKALD_TEST_PROXY"):
        pytest.skip("proxy test: set SKALD_TEST_PROXY=1 (and apt-get install haproxy)")
    assert found, "SKALD_TEST_PROXY is set but there is no haproxy (apt-get install haproxy)"
    return found


def test_haproxy_reads_the_configuration() -> None:
    result = subprocess.run(
        [haproxy(), "-c", "-f", str(HAPROXY_CFG)],
        capture_output=True,
        text=True,
        timeout=HANG_SECONDS,
    )
    assert result.returncode == 0, result.stdout + result.stderr


class Replica(ThreadingHTTPServer):
    """A stand-in API replica on loopback: answers every GET with its own name."""

    def __init__(self, name: str) -> None:
        self.name = name

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                body = name.encode()
                self.send_response(200)
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: object) -> None:
                pass

        super().__init__(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.shutdown()
        self.server_close()
        self.thread.join(HANG_SECONDS)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def rendered(port: int, replicas: list[Replica]) -> str:
    """deploy/haproxy.cfg with its listener on a loopback port and the replicas Docker's
    DNS would name written out as servers, as the template expands them."""
    lines = []
    for line in HAPROXY_CFG.read_text().splitlines():
        words = line.split()
        if words[:1] == ["bind"]:
            line = f"    bind 127.0.0.1:{port}"
        elif words[:1] == ["server-template"]:
            line = "\n".join(
                f"    server api{n} 127.0.0.1:{r.server_address[1]}"
                for n, r in enumerate(replicas, 1)
            )
        elif words[:1] == ["nameserver"]:
            continue
        lines.append(line)
    text = "\n".join(lines) + "\n"
    return text.replace("resolvers docker\n    hold valid 5s\n", "")


def test_one_campaign_goes_to_one_replica_and_a_lost_replica_moves_only_its_own(
    tmp_path: Path,
) -> None:
    replicas = [Replica("a"), Replica("b")]
    port = free_port()
    config = tmp_path / "haproxy.cfg"
    config.write_text(rendered(port, replicas))
    proxy = subprocess.Popen(
        [haproxy(), "-db", "-f", str(config)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        http = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=HANG_SECONDS)
        deadline = time.monotonic() + HANG_SECONDS
        while True:  # the proxy is listening and has found both replicas up
            try:
                if http.get("/health").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "HAProxy did not start"
            time.sleep(0.1)
        campaigns = [str(uuid.uuid4()) for _ in range(40)]
        # An assistant's MCP endpoint (docs/assistant.md) is under the campaign's path too.
        paths = ["", "/vitals", "/encounters/e1/board", "/history?offset=5", "/feed", "/mcp"]

        def replica_of(cid: str) -> str:
            answers = {http.get(f"/campaigns/{cid}{path}").text for path in paths}
            assert len(answers) == 1, (cid, answers)  # every request of it: one replica
            return answers.pop()

        before = {cid: replica_of(cid) for cid in campaigns}
        assert set(before.values()) == {"a", "b"}  # the campaigns are spread over both
        assert before == {cid: replica_of(cid) for cid in campaigns}  # and stay put

        replicas[1].stop()  # replica b is lost
        after = {cid: replica_of(cid) for cid in campaigns}
        assert set(after.values()) == {"a"}
        # Only b's campaigns moved: a's stayed where they were (consistent hashing).
        assert {c for c in campaigns if after[c] != before[c]} == {
            c for c in campaigns if before[c] == "b"
        }
    finally:
        proxy.terminate()
        try:
            proxy.wait(HANG_SECONDS)
        except subprocess.TimeoutExpired:
            proxy.kill()
            proxy.wait()
        for replica in replicas:
            if replica.thread.is_alive():
                replica.stop()
