"""Which reading of the faces each ruleset's rolls depend on, from the rules' own functions.

A model here is a claim about the rules ("a margin pool counts only through its
total"); ``tests/unit/test_odds_models.py`` checks every claim against the
unreduced enumeration of every ordered throw, so a rules change that starts to
read the faces differently fails there instead of skewing the odds.
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import lru_cache

from skald_campaign.domain.odds.faces import MULTISET, TOTAL, FaceKey, FaceModel, Faces
from skald_campaign.domain.rulesets.base import JsonMapping
from skald_campaign.domain.rulesets.margin.options import read_options
from skald_campaign.domain.rulesets.margin.pools import read_faces
from skald_campaign.domain.rulesets.stamina_body.rules import DAMAGE_TABLES, read_damage


@lru_cache(maxsize=8)
def _pool_total(success_on: int) -> FaceKey:
    """M1 and M8: a margin pool is read as its total (successes, or -1 below nothing)."""

    def key(faces: Faces) -> Hashable:
        return read_faces(faces, success_on).total

    return key


def _damage_reading(faces: Faces) -> Hashable:
    """S4: the dice are read one by one on the weapon's table; the sums are what land."""
    readings = (read_damage(faces, table) for table in sorted(DAMAGE_TABLES))
    return tuple((reading.stamina, reading.body) for reading in readings)


STAMINA_DAMAGE = FaceModel("damage table readings", key=_damage_reading)


@lru_cache(maxsize=8)
def _one_table(table: str) -> FaceModel:
    def key(faces: Faces) -> Hashable:
        reading = read_damage(faces, table)
        return (reading.stamina, reading.body)

    return FaceModel(f"damage read on the {table} table", key=key)


def stamina_damage_model(damage_type: str | None) -> FaceModel:
    """S4: read on the weapon's own table when the action names it, on both otherwise."""
    return _one_table(damage_type) if damage_type in DAMAGE_TABLES else STAMINA_DAMAGE


def face_model(
    ruleset_id: str, options: JsonMapping, roll_name: str, damage_type: str | None = None
) -> FaceModel:
    if ruleset_id == "margin":
        success_on = read_options(options).success_on
        return FaceModel(f"pool total (success on {success_on}+)", key=_pool_total(success_on))
    if ruleset_id == "stamina-body":
        return stamina_damage_model(damage_type) if roll_name == "damage" else TOTAL
    if ruleset_id == "d20":
        return TOTAL
    return MULTISET
