"""api/limits.py's MovingWindows decides as the `limits` library's moving window does
(MovingWindowRateLimiter over MemoryStorage, which it replaced): the same hits let in,
the same refused, the same reset times, on a clock the test moves; and windows nobody
hits are swept."""

from __future__ import annotations

import random
import time

import pytest
from limits import parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from skald_campaign.api.limits import MovingWindows


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def test_the_same_hits_are_let_in_and_refused_as_by_the_library(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = Clock()
    monkeypatch.setattr(time, "time", clock)
    limits = parse_many("3/second;5/10 seconds") + parse_many("2/minute")
    ours, theirs = MovingWindows(), MovingWindowRateLimiter(MemoryStorage())
    draw = random.Random(22)
    decisions = []
    for _ in range(3000):
        clock.now += draw.choice([0.0, 0.001, 0.05, 0.2, 0.5, 1.0, 3.0, 20.0])
        limit = draw.choice(limits)
        who, bucket = draw.choice([("key", "a"), ("key", "b"), ("address", "a")])
        let_in = theirs.hit(limit, who, bucket)
        assert ours.hit(limit, who, bucket) == let_in
        if not let_in:
            reset = theirs.get_window_stats(limit, who, bucket).reset_time
            assert ours.reset_time(limit, who, bucket) == pytest.approx(reset, abs=1e-6)
        decisions.append(let_in)
    assert 300 < decisions.count(False) < 2700  # both outcomes, many times over


def test_windows_nobody_hits_are_swept(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()
    monkeypatch.setattr(time, "time", clock)
    windows = MovingWindows()
    per_second, per_minute = parse_many("5/second")[0], parse_many("5/minute")[0]
    for n in range(100):
        assert windows.hit(per_second, "address", f"client {n}")
    assert windows.hit(per_minute, "key", "kept")
    assert len(windows._windows) == 101
    clock.now += MovingWindows.SWEEP_SECONDS
    assert windows.hit(per_second, "address", "client 0")  # a hit sweeps
    assert set(windows._windows) == {
        (per_second, "address", "client 0"),
        (per_minute, "key", "kept"),
    }
    for _ in range(4):
        assert windows.hit(per_minute, "key", "kept")
    assert not windows.hit(per_minute, "key", "kept")  # its hits were kept through it
