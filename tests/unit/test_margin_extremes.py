"""Attacks with extreme accepted values through the application: every one computes, and a
refusal is a domain refusal, never a crash (M18)."""

from __future__ import annotations

import random
from contextlib import suppress
from typing import Any

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from skald_campaign.domain.errors import DomainError
from tests.unit.margin_extremes import extreme_options, extreme_sheets
from tests.unit.test_margin_table import Table


@settings(max_examples=120, deadline=None)
@given(
    extreme_options,
    extreme_sheets(),
    extreme_sheets(race="elf"),
    extreme_sheets(race="dwarf"),
    st.integers(min_value=0, max_value=2**32),
    st.lists(st.tuples(st.sampled_from(["one", "two", "fists"]), st.integers(0, 10)), max_size=4),
)
def test_extreme_accepted_values_always_compute(
    options: dict[str, Any],
    attacker: dict[str, Any],
    elf: dict[str, Any],
    dwarf: dict[str, Any],
    seed: int,
    blows: list[tuple[str, int]],
) -> None:
    table = Table(options, roller=random.Random(seed))
    for name, character in (("attacker", attacker), ("elf", elf), ("dwarf", dwarf)):
        table.enrol(name, character)
    table.start(("attacker", "a", 1), ("elf", "b", 1), ("dwarf", "b", 1))
    for actor, kind in (("dwarf", "ward"), ("elf", "riposte")):
        with suppress(DomainError):  # a posture may be refused; it never crashes
            table.act(kind, actor, effort=0)
    for weapon, effort in blows:
        try:
            record = table.act("attack", "attacker", target="elf", weapon=weapon, effort=effort)
        except DomainError:
            pass  # too far, out of shots, effort over the cap, down: refused, not crashed
        else:
            assert len(orjson.dumps(record)) < 200_000
        table.next_round()
