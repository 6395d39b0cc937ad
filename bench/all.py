"""Every figure of issue 15 in one run: bench/http.py ((a)-(d), (f), the 10^6-event store,
each beside its anchor measured in the same run), then bench/projections.py ((e), the
rebuild spawn to exit against raw read+decode of the same store).

    .venv/bin/python bench/all.py [--seconds 8] [--postgres URL] [--store DIR]

--store keeps the 100,000-event store of (e) for the next run (building it takes about
100 s); --postgres adds (d) (it creates a database of its own and drops it after).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", default="8")
    parser.add_argument("--postgres", default=os.environ.get("SKALD_TEST_POSTGRES"))
    parser.add_argument("--store", default=None, help="keep (e)'s store here between runs")
    args = parser.parse_args()
    http = [sys.executable, str(HERE / "http.py"), "--seconds", args.seconds]
    if args.postgres:
        http += ["--postgres", args.postgres]
    projections = [sys.executable, str(HERE / "projections.py")]
    if args.store:
        projections += ["--store", args.store]
    missed = []
    for command in (http, projections):
        print(f"$ {' '.join(command[1:])}", flush=True)
        # A script that measured a goal missed says so and exits 1: the run goes on.
        if subprocess.run(command, check=False).returncode != 0:
            missed.append(Path(command[1]).name)
        print(flush=True)
    if missed:
        sys.exit(f"a goal missed or a run failed in: {', '.join(missed)} (see above)")


if __name__ == "__main__":
    main()
