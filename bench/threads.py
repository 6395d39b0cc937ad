"""Where a server's CPU goes under the load of bench/http.py (a), thread by thread: each
thread's CPU (user and system, from /proc) per command, and the embedded Redis's; and how
often each went to sleep per command (its voluntary context switches). `--connections 1`
is a GM's pace: each command sent when the last was answered.

    .venv/bin/python bench/threads.py [--checkout DIR] [--seconds 8] [--pace-ms N]
        [--connections N]

The threads are named by a `py-spy dump` taken halfway through the load (pip install
py-spy; needs the right to trace, root), else listed by their ids. One run: on a machine
shared with other work, compare two checkouts' runs side by side rather than with an
earlier run's.
"""

# ruff: noqa: E402
from __future__ import annotations

import sys
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse
import importlib.util
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time

# bench/ab.py, loaded by path (it loads bench/http.py, whose name shadows a module).
_spec = importlib.util.spec_from_file_location("bench_ab", Path(__file__).with_name("ab.py"))
assert _spec is not None and _spec.loader is not None
bench_ab = importlib.util.module_from_spec(_spec)
sys.modules["bench_ab"] = bench_ab
_spec.loader.exec_module(bench_ab)
bench_http = bench_ab.bench_http
TICKS = os.sysconf("SC_CLK_TCK")


def thread_times(pid: int) -> dict[int, tuple[float, float, int]]:
    """Each thread's (user, system) CPU seconds so far, and how often it went to sleep
    (its voluntary context switches: a wait for work, the GIL, a lock, a disk sync or a
    socket, each a wake-up later)."""
    found: dict[int, tuple[float, float, int]] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        fields = bench_http._stat_fields(f"{pid}/task/{task.name}")
        try:
            status = (task / "status").read_text()
        except OSError:
            continue  # it ended meanwhile
        slept = re.search(r"^voluntary_ctxt_switches:\s+(\d+)", status, re.M)
        if fields is not None and slept is not None:
            user, system = int(fields[11]) / TICKS, int(fields[12]) / TICKS
            found[int(task.name)] = (user, system, int(slept.group(1)))
    return found


def children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def thread_names(pid: int) -> dict[int, str]:
    """Python's names of the threads, from py-spy (empty without it)."""
    if shutil.which("py-spy") is None:
        return {}
    dump = subprocess.run(["py-spy", "dump", "--pid", str(pid)], capture_output=True, text=True)
    return {
        int(m.group(1)): m.group(2)
        for m in re.finditer(r'Thread (\d+) \([^)]*\): "([^"]*)"', dump.stdout)
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--checkout", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--seconds", type=int, default=8)
    parser.add_argument("--pace-ms", type=int)
    # 1: a GM's pace, each command sent when the last was answered (bench/all.py's row)
    parser.add_argument("--connections", type=int, default=16)
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("bench/threads.py needs wrk: apt-get install wrk")
    folder = Path(tempfile.mkdtemp(prefix="skald-threads-"))
    server = bench_ab.CheckoutServer(args.checkout.resolve(), folder / "data", bench_http.UNLIMITED)
    server.start()
    try:
        assert server.process is not None
        pid = server.process.pid
        key, paths, bodies = bench_http.skald_setup(server.url, 16)
        script = bench_ab.paced(bench_http.post_script(paths, bodies, key), args.pace_ms)
        bench_http.wrk(server.url, script, 3, 16)  # warm-up
        names: dict[int, str] = {}

        def name_them() -> None:
            time.sleep(args.seconds / 2)
            names.update(thread_names(pid))

        naming = threading.Thread(target=name_them)
        before = thread_times(pid)
        redis_before = {c: thread_times(c) for c in children(pid)}
        naming.start()
        run = bench_http.wrk(server.url, script, args.seconds, args.connections, pid)
        naming.join()
        after = thread_times(pid)
        redis_after = {c: thread_times(c) for c in children(pid)}
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    commands = run["requests"]
    print(
        f"{bench_ab.describe(args.checkout.resolve())}: {run['rate']:.0f} commands/s, "
        f"{run['cpu_ms']:.3f} ms CPU per command (the process tree)"
    )
    rows = []
    for tid, (user, system, slept) in after.items():
        user0, system0, slept0 = before.get(tid, (0.0, 0.0, 0))
        name = names.get(tid, f"thread {tid}")
        rows.append((name, user - user0, system - system0, slept - slept0))
    for child, threads in redis_after.items():
        for tid, (user, system, slept) in threads.items():
            user0, system0, slept0 = redis_before.get(child, {}).get(tid, (0.0, 0.0, 0))
            name = f"child {child} (embedded Redis)"
            rows.append((name, user - user0, system - system0, slept - slept0))
    for name, user, system, slept in sorted(rows, key=lambda r: -(r[1] + r[2])):
        if user + system > 0.02:
            print(
                f"  {name:34s} {1000 * (user + system) / commands:.3f} ms "
                f"(user {1000 * user / commands:.3f}, system {1000 * system / commands:.3f}), "
                f"{slept / commands:.2f} sleeps"
            )


if __name__ == "__main__":
    from bench.processes import everything_stopped

    with everything_stopped():  # every process it started stopped, its temporary files gone
        main()
