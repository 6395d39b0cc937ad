"""The shortcuts of the odds are claims about the rules; each is checked against brute force.

A face model says how coarsely the rules read a roll, a memo key says what of a
path the rest of a resolution depends on. Here every claim is compared with the
enumeration of every ordered throw, resolved in full, on actions small enough to
brute-force: if a rules change starts to read the dice differently, this fails.
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction

import pytest

from skald_campaign.domain.odds.faces import EVERY_ORDER, FaceModel, by_total, ordered
from skald_campaign.domain.odds.models import face_model
from skald_campaign.domain.rulesets.margin.pools import read_faces
from skald_campaign.domain.rulesets.stamina_body.odds import STAMINA_DAMAGE, stamina_damage_model
from tests.unit.test_odds_support import (
    SWORD,
    distribution,
    encounter,
    margin_sheet,
    sb_sheet,
)


def grouped(model: FaceModel, count: int, sides: int, read: object) -> dict[Hashable, Fraction]:
    out: dict[Hashable, Fraction] = {}
    for faces, p in model.classes(count, sides):
        label = read(faces)  # type: ignore[operator]
        out[label] = out.get(label, Fraction(0)) + p
    return out


@pytest.mark.parametrize("success_on", [2, 4, 5, 6])
@pytest.mark.parametrize("count", [1, 2, 3, 4])
def test_a_margin_pool_is_read_only_through_its_total(success_on: int, count: int) -> None:
    model = face_model("margin", {"success_on": success_on}, "defense.x.guard")

    def read(faces: tuple[int, ...]) -> int:
        return read_faces(faces, success_on).total

    assert grouped(model, count, 6, read) == grouped(EVERY_ORDER, count, 6, read)
    assert len(model.classes(count, 6)) == len(grouped(EVERY_ORDER, count, 6, read))


def test_one_die_is_below_nothing_one_time_in_six_and_two_one_in_36() -> None:
    model = face_model("margin", {"success_on": 5}, "attack")
    assert dict((read_faces(f).total, p) for f, p in model.classes(1, 6)) == {
        -1: Fraction(1, 6),
        0: Fraction(1, 2),
        1: Fraction(1, 3),
    }
    two = {read_faces(f).total: p for f, p in model.classes(2, 6)}
    assert two[-1] == Fraction(1, 36)
    three = {read_faces(f).total: p for f, p in model.classes(3, 6)}
    assert three[-1] == Fraction(1, 216)  # RULINGS M1


@pytest.mark.parametrize("count", [1, 2, 3])
def test_stamina_damage_dice_are_read_die_by_die_on_either_table(count: int) -> None:
    from skald_campaign.domain.rulesets.stamina_body.rules import read_damage

    for table in ("impact", "piercing"):

        def read(faces: tuple[int, ...], table: str = table) -> tuple[int, int]:
            reading = read_damage(faces, table)
            return reading.stamina, reading.body

        assert grouped(STAMINA_DAMAGE, count, 6, read) == grouped(EVERY_ORDER, count, 6, read)
        own = stamina_damage_model(table)
        assert grouped(own, count, 6, read) == grouped(EVERY_ORDER, count, 6, read)


@pytest.mark.parametrize(("count", "sides"), [(1, 20), (3, 6), (2, 8), (4, 2)])
def test_totals_add_up_as_every_ordered_throw_does(count: int, sides: int) -> None:
    assert grouped(FaceModel("t", total=True), count, sides, sum) == grouped(
        FaceModel("o", every_order=True), count, sides, sum
    )
    assert sum(p for _, p in by_total(count, sides)) == 1
    assert len(ordered(count, sides)) == sides**count


# -- whole actions: the memo keys against plain enumeration ---------------------------


def test_margin_memo_with_luck_and_passive_defenses_agrees_with_brute_force() -> None:
    rules, view = encounter(
        "margin",
        {
            "a": ("x", 1, margin_sheet(might=1, luck=1, weapons=[SWORD])),
            "b": ("y", 1, margin_sheet(grace=1, vigor=1, luck=1)),
        },
    )
    params = {"target": "b", "weapon": "sword"}
    exact = distribution(rules, view, "attack", "a", params)
    assert exact == distribution(rules, view, "attack", "a", params, model=EVERY_ORDER, memo=False)
    assert sum(exact.values()) == 1


def test_margin_memo_with_a_ward_agrees_with_brute_force() -> None:
    rules, view = encounter(
        "margin",
        {
            "a": ("x", 1, margin_sheet(might=2, luck=1, weapons=[SWORD])),
            "b": ("y", 1, margin_sheet(grace=1, vigor=1, luck=1)),
            "d": ("y", 1, margin_sheet(race="dwarf", grace=1, vigor=1, luck=1)),
        },
        states={"d": {"posture": {"kind": "ward", "effort": 0, "round": 1}}},
    )
    params = {"target": "b", "weapon": "sword"}
    exact = distribution(rules, view, "attack", "a", params)
    assert exact == distribution(rules, view, "attack", "a", params, memo=False)
    assert {f.result for f in exact} >= {"stopped_by_ward", "intercepted", "miss"}


def test_margin_memo_with_a_riposte_agrees_with_brute_force() -> None:
    rules, view = encounter(
        "margin",
        {
            "a": ("x", 1, margin_sheet(might=2, melee=1, weapons=[SWORD])),
            "e": ("y", 1, margin_sheet(race="elf", grace=1, evasion=1, vigor=1, luck=2)),
        },
        states={"e": {"posture": {"kind": "riposte", "effort": 1, "round": 1}}},
    )
    params = {"target": "e", "weapon": "sword"}
    exact = distribution(rules, view, "attack", "a", params)
    assert exact == distribution(rules, view, "attack", "a", params, memo=False)
    assert "countered" in {f.result for f in exact}


@pytest.mark.parametrize("defense", ["parry", "dodge", "none"])
def test_stamina_body_memo_agrees_with_brute_force(defense: str) -> None:
    club = {"name": "club", "damage_class": 1, "damage_type": "impact", "skill": 12}
    rules, view = encounter(
        "stamina-body",
        {
            "a": ("x", 1, sb_sheet(weapons=[club])),
            "b": ("y", 1, sb_sheet(parry=11, dodge=9, armour_resilience=1, shield_resilience=2)),
        },
    )
    params = {"target": "b", "weapon": "club", "defense": defense}
    exact = distribution(rules, view, "attack", "a", params)
    assert exact == distribution(rules, view, "attack", "a", params, memo=False)
