"""The time budgets that used to be asserted by tests, measured here instead.

A test asserts behaviour, never speed: on a loaded machine a budget fails for
reasons that are not defects. What the tests once timed is measured here, each
figure beside an anchor measured in the same run and the old budget:

- the CPU time of the exact odds of every seed example (the budget was 200 ms);
- the time to refuse an odds request too large to compute (the budget was 1 s);
- the time of a one-line CLI refusal of an unreachable PostgreSQL (the budget was 10 s).

The anchor is a fixed pure-Python loop (CPU) and the start-up of ``python -c pass``
(wall clock), so the ratios compare across machines. Run: python bench/budgets.py
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from skald_campaign.domain.odds import TooLarge, action_odds
from tests.unit.test_odds_seeds import EXAMPLES
from tests.unit.test_odds_support import d20_sheet, encounter, odds


def cpu_of(work: Callable[[], object], repeats: int = 3) -> float:
    """The best of ``repeats`` CPU times of ``work``, in seconds."""
    best = float("inf")
    for _ in range(repeats):
        used = time.process_time()
        work()
        best = min(best, time.process_time() - used)
    return best


def anchor_loop() -> None:
    total = 0
    for i in range(1_000_000):
        total += i * i % 7


def refuse(make: Callable[[], None]) -> None:
    try:
        make()
    except TooLarge:
        return
    raise AssertionError("the request was not refused")


def main() -> None:
    anchor = cpu_of(anchor_loop)
    print(f"anchor: a 10^6-step Python loop, {anchor * 1000:.1f} ms of CPU")
    print(f"{'figure':<60} {'ms':>8} {'/anchor':>8} {'old budget':>11}")

    def row(name: str, seconds: float, budget_ms: int) -> None:
        flag = "" if seconds * 1000 <= budget_ms else "  over"
        print(f"{name:<60} {seconds * 1000:>8.1f} {seconds / anchor:>8.2f} {budget_ms:>8} ms{flag}")

    for example, (ruleset, lineup, states, kind, actor, params) in EXAMPLES.items():
        rules, view = encounter(ruleset, lineup, states=states)

        def seed_example(
            rules: object = rules,
            view: object = view,
            kind: str = kind,
            actor: str = actor,
            params: object = params,
        ) -> object:
            return action_odds(rules, view, kind, actor, params)  # type: ignore[arg-type]

        row(f"odds cpu: {example}"[:60], cpu_of(seed_example), 200)

    wall = encounter(
        "d20",
        {"a": ("x", 1, d20_sheet(fr_skill_slots=20)), "b": ("y", 1, d20_sheet(size="large"))},
    )
    row(
        "refusal cpu: d20 shove into a wall, FR +20",
        cpu_of(lambda: refuse(lambda: odds(*wall, "shove", "a", target="b", wall_at_feet=0))),
        1000,
    )
    doom = encounter(
        "d20",
        {
            "a": ("x", 1, d20_sheet(weapons=[{"name": "doom", "damage": "30d100"}])),
            "b": ("y", 1, d20_sheet()),
        },
    )
    row(
        "refusal cpu: d20 30d100 weapon",
        cpu_of(lambda: refuse(lambda: odds(*doom, "attack", "a", target="b", weapon="doom"))),
        1000,
    )

    def wall_clock(*command: str, **env: str) -> float:
        started = time.monotonic()
        subprocess.run(command, capture_output=True, env={**os.environ, **env}, timeout=120)
        return time.monotonic() - started

    python_start = wall_clock(sys.executable, "-c", "pass")
    skald = str(Path(sys.executable).parent / "skald")
    refusal = wall_clock(
        skald,
        "campaigns",
        SKALD_DATABASE="postgresql://skald:pw@127.0.0.1:1/campaigns",
        SKALD_SECRET_KEY="k" * 32,
    )
    print(f"anchor: python -c pass, {python_start * 1000:.1f} ms wall clock")
    print(
        f"{'cli refusal wall: unreachable PostgreSQL (skald campaigns)':<60} "
        f"{refusal * 1000:>8.1f} {refusal / python_start:>8.2f} {10000:>8} ms"
    )


if __name__ == "__main__":
    main()
