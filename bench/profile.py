"""Where a server's time goes under the load of bench/http.py (a): py-spy, with and
without --gil, and the top frames by own time and by inclusive time.

    .venv/bin/python bench/profile.py [--seconds 15] [--top 15]

Needs `wrk` and `py-spy` (pip install py-spy), and the right to trace (root).
"""

# ruff: noqa: E402
from __future__ import annotations

import sys
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse
import importlib.util
import shutil
import subprocess
import tempfile
import threading
from collections import Counter

from bench.server import Server

# bench/http.py, loaded by path: its name would shadow the `http` standard module.
_spec = importlib.util.spec_from_file_location("bench_http", Path(__file__).with_name("http.py"))
assert _spec is not None and _spec.loader is not None
bench_http = importlib.util.module_from_spec(_spec)
sys.modules["bench_http"] = bench_http  # the library imports an aggregate's module by name
_spec.loader.exec_module(bench_http)
post_script, skald_setup, wrk = bench_http.post_script, bench_http.skald_setup, bench_http.wrk


def frames(raw: Path) -> tuple[Counter[str], Counter[str], int]:
    """Own and inclusive sample counts per frame, from py-spy's collapsed stacks."""
    own: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    total = 0
    for line in raw.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        n = int(count)
        total += n
        parts = [p for p in stack.split(";") if not p.startswith(("process ", "thread "))]
        if parts:
            own[parts[-1]] += n
        for part in set(parts):
            inclusive[part] += n
    return own, inclusive, total


def profile(pid: int, seconds: int, gil: bool, out: Path) -> None:
    command = [
        "py-spy",
        "record",
        "--pid",
        str(pid),
        "--duration",
        str(seconds),
        "--format",
        "raw",
        "--output",
        str(out),
        "--rate",
        "200",
        "--nonblocking",
    ]
    if gil:
        command.append("--gil")
    subprocess.run(command, check=True, capture_output=True)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=15)
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--raw", type=Path, help="keep py-spy's collapsed stacks in this folder")
    args = parser.parse_args()
    if shutil.which("py-spy") is None and not (Path(sys.executable).parent / "py-spy").exists():
        sys.exit("bench/profile.py needs py-spy: pip install py-spy")
    data = Path(tempfile.mkdtemp(prefix="skald-profile-"))
    server = Server(data / "data", env=bench_http.UNLIMITED).start()
    assert server.process is not None
    try:
        key, paths, bodies = skald_setup(server.url, 16)
        for gil in (False, True):
            out = data / f"profile-{'gil' if gil else 'all'}.txt"
            load = threading.Thread(
                target=wrk,
                args=(server.url, post_script(paths, bodies, key), args.seconds + 4, 16),
            )
            load.start()
            profile(server.process.pid, args.seconds, gil, out)
            load.join()
            if args.raw is not None:
                args.raw.mkdir(parents=True, exist_ok=True)
                shutil.copy(out, args.raw / out.name)
            own, inclusive, total = frames(out)
            title = "--gil (samples holding the GIL)" if gil else "all threads, idle included"
            print(f"\n## {title}: {total} samples\n\nown time:")
            for name, n in own.most_common(args.top):
                print(f"  {100 * n / total:5.1f}%  {name}")
            print("inclusive:")
            for name, n in inclusive.most_common(args.top):
                print(f"  {100 * n / total:5.1f}%  {name}")
    finally:
        server.stop()
        shutil.rmtree(data, ignore_errors=True)  # its store and py-spy's output


if __name__ == "__main__":
    from bench.processes import everything_stopped

    with everything_stopped():  # every process it started stopped, its temporary files gone
        main()
