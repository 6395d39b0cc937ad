"""A stamina-body record whose breakdown or parameters are not JSON objects narrates as
the plain lines (domain/reading/narrators.py), whichever part the narrator meets them in."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from skald_campaign.domain.reading.narrators import narrate
from skald_campaign.domain.records import JSON


@dataclass(frozen=True)
class Member:
    name: str
    sheet: dict[str, JSON]


ROSTER = {"c1": Member("Bran", {"st": 10}), "c2": Member("Ulf", {"st": 12})}
ROLL = {"name": "damage", "dice": "1d6", "faces": [4], "total": 4, "supplied": True}


@pytest.mark.parametrize("kind", ["take_hit", "attack", "recover"])
@pytest.mark.parametrize(
    ("breakdown", "params"),
    # (a breakdown that is neither an object nor null fails every narrative alike)
    [(None, {"target": "c2"}), ({"damage_dice": {}}, "c2"), (None, None), ({}, [])],
)
def test_a_part_that_is_no_object_narrates_plainly(
    kind: str, breakdown: JSON, params: JSON
) -> None:
    record: dict[str, JSON] = {
        "kind": kind,
        "actor": "c1",
        "params": params,
        "rolls": [ROLL],
        "summary": "c1 hits c2",
        "breakdown": breakdown,
        "conditions": {"c2": {"before": [], "after": ["stunned"]}},
    }
    plain = narrate("no such ruleset", record, ROSTER)  # the plain lines' narrator
    assert plain == ["damage: 1d6 rolled 4 = 4", "Bran hits Ulf", "Ulf gains: stunned"]
    assert narrate("stamina-body", record, ROSTER) == plain
