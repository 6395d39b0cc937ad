"""The README's walkthrough, run as written: its shell blocks, in order, in one shell,
against a real `skald serve` (only the port differs from localhost:8000).

`set -u` makes a variable a block forgets to set an error, as `$BRAN` once was;
`xdg-open` is a stand-in that records the address it was given."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from tests.e2e.server import Server, free_port
from tests.patience import HANG_SECONDS

ROOT = Path(__file__).resolve().parents[2]
MARK = "=== README block {} ==="


def walkthrough_blocks() -> list[str]:
    readme = (ROOT / "README.md").read_text()
    start = readme.index("## Walkthrough")
    end = readme.index("\n## ", readme.index("## The dashboard, the live feed and the views"))
    return re.findall(r"```sh\n(.*?)```", readme[start:end], flags=re.DOTALL)


def json_replies(printed: str) -> tuple[list[Any], str]:
    """The JSON replies curl printed back to back (no newline between them), and the rest."""
    decoder, replies, at = json.JSONDecoder(), [], 0
    while at < len(printed) and printed[at] == "{":
        reply, at = decoder.raw_decode(printed, at)
        replies.append(reply)
    return replies, printed[at:]


def test_the_walkthrough_blocks_run_in_order_as_written(tmp_path: Path) -> None:
    blocks = walkthrough_blocks()
    assert len(blocks) == 14
    shims = tmp_path / "bin"
    shims.mkdir()
    opened = tmp_path / "opened"
    xdg_open = shims / "xdg-open"
    xdg_open.write_text(f'#!/bin/sh\nprintf "%s\\n" "$1" >> {opened}\n')
    xdg_open.chmod(0o755)
    server = Server(tmp_path / "data").start()
    try:
        script = "set -u\n" + "".join(
            f"echo '{MARK.format(n)}'\n{block}" for n, block in enumerate(blocks)
        )
        run = subprocess.run(
            ["bash", "-c", script.replace("localhost:8000", f"localhost:{server.port}")],
            cwd=tmp_path,
            env={**os.environ, "PATH": f"{shims}:{os.environ['PATH']}"},
            capture_output=True,
            text=True,
            timeout=HANG_SECONDS,
        )
        assert run.stderr == ""
        out = dict(
            enumerate(re.split(r"=== README block \d+ ===\n", run.stdout)[1:])
        )  # block number -> what it printed
        assert len(out) == len(blocks)
        # The walkthrough starts with the GM screen.
        assert out[0] == ""
        gm_screen, dashboard = opened.read_text().splitlines()
        assert gm_screen == f"http://localhost:{server.port}/gm"
        assert "<title>Skald · GM screen</title>" in httpx.get(gm_screen, timeout=HANG_SECONDS).text
        (campaign,), _ = json_replies(out[1].strip())
        assert campaign["name"] == "The Sunken Crown"
        assert campaign["gm_key"].startswith("skald_")
        assert out[2] == ""
        (bran,), _ = json_replies(out[3].strip())
        assert (bran["name"], bran["tracks"]) == ("Bran", {"stamina": 12, "body": 10})
        (ogre,), _ = json_replies(out[4].strip())
        assert ogre["name"] == "Ogre"
        (fight,), _ = json_replies(out[5].strip())
        assert fight["name"] == "Ambush at the ford"
        assert [c["id"] for c in fight["combatants"]] == [bran["id"], ogre["id"]]
        (hit,), _ = json_replies(out[6].strip())
        assert hit["action"]["summary"] == (
            "Bran takes 5 Stamina and 1 Body (7/3 raw); Bran gains: piercing wound"
        )
        assert hit["action"]["narrative"][4] == (
            "Raw damage: 1 + 2 + 4 = 7 Stamina and 0 + 1 + 2 = 3 Body"
        )
        (odds,), _ = json_replies(out[7].strip())
        assert odds["results"] == [{"result": "hit", "probability": "1", "decimal": 1.0}]
        body = next(d for d in odds["damage"] if d["track"] == "body")
        assert body["distribution"][0] == {"value": 0, "probability": "2/3", "decimal": 0.666667}
        (now, before), _ = json_replies(out[8].strip())
        assert (now["version"], now["combatants"][0]["tracks"]) == (
            2,
            {"stamina": 7, "body": 9},
        )
        assert (before["version"], before["actions"]) == (1, [])
        (ordered,), _ = json_replies(out[9].strip())
        assert ordered["turn"]["current_name"] == "Ogre"
        (shown, waiting), _ = json_replies(out[10].strip())
        assert [r["name"] for r in shown["rolls"]] == ["Ogre's hit"]
        assert [r["name"] for r in shown["may_follow"]] == [
            "Bran's parry",
            "Ogre's damage",
            "Bran's dodge",
        ]
        assert waiting["status"] == "pending"
        assert waiting["exchange"]["awaiting"] == "Bran's declaration (parry / dodge / none)"
        (declared,), _ = json_replies(out[11].strip())
        assert (
            declared["action"]["summary"] == "Ogre hits: Bran takes 1 Stamina and 0 Body (5/0 raw)"
        )
        assert declared["action"]["by"] == "player:Bran"
        assert declared["encounter"]["combatants"][0]["tracks"] == {"stamina": 6, "body": 9}
        url = dashboard
        assert re.fullmatch(
            rf"http://localhost:{server.port}/campaigns/[0-9a-f-]{{36}}/dashboard#key=skald_\w+",
            url,
        )
        page = httpx.get(url.split("#")[0], timeout=HANG_SECONDS)
        assert page.status_code == 200
        assert "<title>Skald · GM dashboard</title>" in page.text

        (vitals, board, audit), feed = json_replies(out[13])
        assert vitals["name"] == "The Sunken Crown"
        assert board["id"] == fight["id"]
        assert audit["campaign_id"] == campaign["id"]
        assert "event: entry" in feed
        assert "Bran takes 5 Stamina and 1 Body (7/3 raw)" in feed
        assert "Bran declares defense parry" in feed
    finally:
        server.stop()


def set_up_section() -> str:
    readme = (ROOT / "README.md").read_text()
    start = readme.index("## Set-up")
    return readme[start : readme.index("\n## ", start + 1)]


def test_the_tests_install_beside_the_servers_venv_not_over_it() -> None:
    """Reinstalling the .venv a running server uses breaks that server: the README's
    test command uses a directory of its own, and .ci/run runs it verbatim."""
    commands = re.findall(r"```sh\n(.*?)```", set_up_section(), flags=re.DOTALL)
    serve = next(c for c in commands if "skald serve" in c and "pip install ." in c)
    tests = next(c for c in commands if "pytest" in c)
    assert re.findall(r"python3 -m venv (\S+)", serve) == [".venv"]
    assert re.findall(r"python3 -m venv (\S+)", tests) == [".venv-test"]
    assert tests.strip() in (ROOT / ".ci" / "run").read_text().splitlines()


def test_the_set_up_says_how_long_the_suite_takes_and_how_to_run_a_quick_part() -> None:
    section = " ".join(set_up_section().split())
    assert "The whole suite takes about 16 minutes on 2 cores with nothing configured" in section
    assert "`.venv-test/bin/pytest tests/unit`" in section
    assert (ROOT / "tests" / "unit").is_dir()


def test_the_set_ups_port_command_serves_on_that_port(tmp_path: Path) -> None:
    """The command the set-up gives to change the port, run as written (only the
    port number differs: a free one)."""
    commands = re.findall(r"```sh\n(.*?)```", set_up_section(), flags=re.DOTALL)
    [command] = [c.strip() for c in commands if "--port" in c]
    assert command == ".venv/bin/skald serve --port 8080"
    port = free_port()
    skald = str(Path(sys.executable).parent / "skald")
    argv = command.replace(".venv/bin/skald", skald).replace("8080", str(port)).split()
    log = tmp_path / "serve.log"
    process = subprocess.Popen(
        argv,
        cwd=tmp_path,
        env={k: v for k, v in os.environ.items() if not k.startswith("SKALD_")},
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 300  # a cap for a loaded machine, never a budget
        while True:
            assert process.poll() is None, log.read_text()
            try:
                if httpx.get(f"http://127.0.0.1:{port}/health", timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(HANG_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
