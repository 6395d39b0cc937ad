"""10^5 seeded resolutions through the real resolver agree with the computed odds.

Per ruleset, one action is resolved 100,000 times in-process with a seeded roller
(the same pure resolver the server calls), each outcome read as the odds read it
(the result with the harm to the target), and a chi-square test at significance
0.001 compares the counts with the exact distribution. Seeded, so deterministic.

The resolver is a pure function of the dice, so a throw already resolved is not
resolved again: the sampler remembers, along each path of faces, which roll the
resolver asked for next, draws those faces from the roller exactly as the tray
would (die by die, in the same order, from the same stream) and reuses the
outcome at the end of a known path. The first 2,000 samples are also resolved
afresh and must match what was remembered.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Mapping
from fractions import Fraction
from math import sqrt
from typing import Any

from skald_campaign.domain.odds.readers import Features, reader
from skald_campaign.domain.play.dice import DiceTray, Roll, Roller
from skald_campaign.domain.play.resolution import resolve
from skald_campaign.domain.rulesets.base import EncounterView, Ruleset
from tests.unit.test_odds_support import (
    SWORD,
    d20_sheet,
    distribution,
    encounter,
    margin_sheet,
    sb_sheet,
)

SAMPLES = 100_000
Z_999 = 3.090232  # the standard normal's 0.999 quantile


def critical_value(freedom: int) -> float:
    """Chi-square's 0.999 quantile (Wilson-Hilferty; within 1% from 3 degrees of freedom)."""
    k = freedom
    return float(k * (1 - 2 / (9 * k) + Z_999 * sqrt(2 / (9 * k))) ** 3)


def chi_square(expected: Mapping[Hashable, Fraction], seen: Counter[Hashable]) -> tuple[float, int]:
    """The statistic and its degrees of freedom; cells expecting under 5 are pooled."""
    cells: list[tuple[float, int]] = []
    pooled_p, pooled_n = 0.0, 0
    for label, p in expected.items():
        if p * SAMPLES < 5:
            pooled_p, pooled_n = pooled_p + float(p), pooled_n + seen[label]
        else:
            cells.append((float(p) * SAMPLES, seen[label]))
    if pooled_p:
        cells.append((pooled_p * SAMPLES, pooled_n))
    assert set(seen) <= set(expected), (
        f"outcomes the odds call impossible: {set(seen) - set(expected)}"
    )
    statistic = sum((n - e) ** 2 / e for e, n in cells)
    return statistic, len(cells) - 1


Faces = tuple[int, ...]


class _PathTray(DiceTray):
    """Replays a known path of faces by position, then rolls with the roller as usual."""

    def __init__(self, roller: Roller, path: tuple[Faces, ...]) -> None:
        super().__init__(roller)
        self._path = path

    def roll(self, name: str, count: int, sides: int, modifier: int = 0) -> Roll:
        made = len(self.rolls)
        if made < len(self._path):
            self._supplied[name] = list(self._path[made])
        return super().roll(name, count, sides, modifier)


class Sampler:
    def __init__(self, resolve_with: Any, read: Any) -> None:
        self._resolve = resolve_with
        self._read = read
        self._next: dict[tuple[Faces, ...], tuple[int, int] | Features] = {}

    def sample(self, roller: random.Random) -> Features:
        path: tuple[Faces, ...] = ()
        while path in self._next:
            step = self._next[path]
            if isinstance(step, Features):
                return step
            count, sides = step
            path = (*path, tuple(roller.randint(1, sides) for _ in range(count)))
        tray = _PathTray(roller, path)
        found = self.fresh(tray)
        rolls = tray.rolls
        for i, roll in enumerate(rolls):
            self._next[tuple(r.faces for r in rolls[:i])] = (len(roll.faces), roll.expression.sides)
        self._next[tuple(r.faces for r in rolls)] = found
        return found

    def fresh(self, tray: DiceTray) -> Features:
        features: Features = self._read(self._resolve(tray))
        return features


def agree(rules: Ruleset, view: EncounterView, kind: str, actor: str, **params: Any) -> None:
    target = params["target"]

    def harm(f: Features) -> tuple[str, int]:
        return f.result, sum(loss for cid, _, loss in f.losses if cid == target)

    exact: dict[Hashable, Fraction] = {}
    for features, p in distribution(rules, view, kind, actor, params).items():
        exact[harm(features)] = exact.get(harm(features), Fraction(0)) + p
    sampler = Sampler(
        lambda tray: resolve(rules, view, kind, actor, params, tray, strict_dice=False),
        reader(rules, view, kind),
    )
    roller, check = random.Random(17), random.Random(17)
    seen: Counter[Hashable] = Counter()
    for n in range(SAMPLES):
        features = sampler.sample(roller)
        if n < 2_000:
            assert sampler.fresh(DiceTray(check)) == features
        seen[harm(features)] += 1
    statistic, freedom = chi_square(exact, seen)
    assert freedom >= 3
    assert statistic < critical_value(freedom), (statistic, freedom, exact, seen)


def test_stamina_body_attack_with_a_parry() -> None:
    sword = {"name": "sword", "damage_class": 1, "damage_type": "piercing", "skill": 13}
    rules, view = encounter(
        "stamina-body",
        {
            "a": ("x", 1, sb_sheet(weapons=[sword])),
            "b": ("y", 1, sb_sheet(parry=12, armour_resilience=1, shield_resilience=2)),
        },
    )
    agree(rules, view, "attack", "a", target="b", weapon="sword", defense="parry")


def test_margin_attack_on_a_lucky_defender() -> None:
    rules, view = encounter(
        "margin",
        {
            "a": ("x", 1, margin_sheet(might=1, melee=1, weapons=[SWORD])),
            "b": (
                "y",
                1,
                margin_sheet(grace=1, vigor=1, luck=1, armor=[{"name": "mail", "rating": 2}]),
            ),
        },
    )
    agree(rules, view, "attack", "a", target="b", weapon="sword")


def test_d20_attack_through_armor() -> None:
    rules, view = encounter(
        "d20",
        {
            "a": ("x", 1, d20_sheet(hr_skill_slots=2, weapons=[{"name": "axe", "damage": "2d6"}])),
            "b": ("y", 1, d20_sheet(armor="leather")),
        },
    )
    agree(rules, view, "attack", "a", target="b", weapon="axe")
