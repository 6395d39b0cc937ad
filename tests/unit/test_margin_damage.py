"""Margin damage (M9-M12) as pure functions: weapon, nature, armor, one rounding, no floats."""

from __future__ import annotations

import ast
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skald_campaign.domain.rulesets.margin.exact import round_half_up
from skald_campaign.domain.rulesets.margin.options import MarginOptions
from skald_campaign.domain.rulesets.margin.rules import (
    Damage,
    damage_for_margin,
    margin,
    weapon_damage,
)
from skald_campaign.domain.rulesets.margin.sheet import MarginSheet, Weapon

DEFAULTS = MarginOptions()
PHYSICAL = ["blunt", "slash", "pierce"]
OTHER = [
    "fire",
    "cold",
    "lightning",
    "acid",
    "poison",
    "necrotic",
    "radiant",
    "psychic",
    "force",
    "arcane",
]
MARGIN_PACKAGE = Path(__file__).resolve().parents[2] / "domain" / "rulesets" / "margin"


def hit(
    base: int,
    per_margin: Fraction | int,
    damage_type: str,
    margin_: int,
    *,
    nature: str | None = None,
    armor: int = 0,
    options: MarginOptions = DEFAULTS,
) -> Damage | None:
    return damage_for_margin(
        base=base,
        per_margin=Fraction(per_margin),
        damage_type=damage_type,
        margin=margin_,
        nature=nature,
        armor_rating=armor,
        options=options,
    )


def final(damage: Damage | None) -> int:
    assert damage is not None
    return damage.final


# -- the rulings' worked examples -----------------------------------------------------


def test_seven_slash_into_armor_five_is_four() -> None:
    damage = hit(7, 0, "slash", 1, armor=5)
    assert damage is not None
    assert damage.armor_multiplier == Fraction(59049, 100000)
    assert damage.exact == Fraction(413343, 100000)  # 4.13343
    assert damage.final == 4
    assert damage.breakdown()["armor"]["multiplier"] == "59049/100000"


def test_one_blunt_into_armor_seven_comes_to_nothing() -> None:
    damage = hit(1, 0, "blunt", 1, armor=7)
    assert damage is not None
    assert damage.exact == Fraction(4782969, 10000000)  # 0.478...
    assert damage.final == 0


def test_the_breakdown_shows_each_step_as_exact_fractions() -> None:
    damage = hit(2, Fraction(3, 2), "pierce", 3, nature="weak", armor=2)
    assert damage is not None
    assert damage.breakdown() == {
        "margin": 3,
        "weapon": {"base": 2, "per_margin": "3/2", "damage": "13/2", "formula": "2 + 3/2 x 3"},
        "nature": {"damage_type": "pierce", "nature": "weak", "multiplier": "2", "damage": "13"},
        "armor": {"rating": 2, "physical": True, "multiplier": "81/100", "damage": "1053/100"},
        "exact": "1053/100",
        "rounded": 11,
        "real_threat": {"threshold": 3, "is_real_threat": True, "raised_to_1": False},
        "final": 11,
        "rounding": "half up, once, at the end",
    }


# -- margin ---------------------------------------------------------------------------


def test_margin_is_the_attack_less_every_defense_and_below_nothing_adds() -> None:
    assert margin(4, [1, 2]) == 1
    assert margin(1, [-1, 0]) == 2  # a catastrophic flinch helps the blow along
    assert margin(0, [-1, -1, -1]) == 3
    assert margin(2, [2]) == 0


@pytest.mark.parametrize("value", [0, -1, -7])
def test_a_margin_of_zero_or_less_deals_nothing_of_any_kind(value: int) -> None:
    # Not even a weapon's base damage, not even to a creature weak to it.
    assert hit(10, 3, "fire", value, nature="weak") is None


def test_a_weapon_turns_margin_into_damage_in_one_step() -> None:
    assert final(hit(2, 1, "slash", 3)) == 5
    # Two weapons of like base damage part ways in skilled hands: the steel decides.
    assert final(hit(1, 3, "slash", 4)) == 13
    assert final(hit(2, Fraction(1, 2), "slash", 4)) == 4


# -- nature, then armor ------------------------------------------------------------


def test_weakness_doubles_and_resistance_halves_by_default() -> None:
    assert final(hit(3, 1, "fire", 1, nature="weak")) == 8
    assert final(hit(3, 1, "fire", 1, nature="resistant")) == 2
    assert final(hit(3, 1, "fire", 1, nature=None)) == 4


def test_immunity_deals_exactly_zero_however_large_the_margin() -> None:
    damage = hit(50, 10, "necrotic", 30, nature="immune")
    assert damage is not None
    assert damage.exact == 0 and damage.final == 0
    assert damage.breakdown()["nature"]["multiplier"] == "0"


def test_the_nature_multipliers_are_options() -> None:
    options = MarginOptions(weakness_multiplier=Fraction(3), resistance_multiplier=Fraction(1, 4))
    assert final(hit(4, 0, "cold", 1, nature="weak", options=options)) == 12
    assert final(hit(4, 0, "cold", 1, nature="resistant", options=options)) == 1


def test_nature_comes_first_then_armor_and_the_rounding_happens_once() -> None:
    # 3 x 1/2 x 9/10 = 27/20 = 1.35 -> 1. Rounding after nature (1.5 -> 2) would give 2.
    damage = hit(3, 0, "slash", 1, nature="resistant", armor=1)
    assert damage is not None
    assert damage.after_nature == Fraction(3, 2)
    assert damage.exact == Fraction(27, 20)
    assert damage.final == 1


def test_rounding_is_half_up() -> None:
    assert final(hit(5, 0, "fire", 1, nature="resistant")) == 3  # 5/2 -> 3, not 2
    assert [round_half_up(Fraction(n, 2)) for n in range(6)] == [0, 1, 1, 2, 2, 3]
    assert round_half_up(Fraction(49, 100)) == 0
    assert round_half_up(Fraction(1, 2)) == 1


def test_plate_does_nothing_against_fire() -> None:
    for damage_type in OTHER:
        plated = hit(4, 2, damage_type, 3, armor=30)
        assert plated is not None
        assert plated.armor_multiplier == 1
        assert plated.final == final(hit(4, 2, damage_type, 3, armor=0)) == 10


def test_armor_blunts_every_physical_type() -> None:
    for damage_type in PHYSICAL:
        assert final(hit(10, 0, damage_type, 1, armor=3)) == 7  # 10 x 729/1000 = 7.29


def test_each_piece_works_on_what_the_last_one_left() -> None:
    layered = MarginSheet.model_validate(
        {
            "might": 1,
            "grace": 1,
            "vigor": 1,
            "aether": 1,
            "armor": [
                {"name": "gambeson", "rating": 1},
                {"name": "mail", "rating": 3},
                {"name": "helm", "rating": 1},
            ],
        }
    )
    assert layered.armor_rating == 5
    blade = Weapon(
        name="blade",
        attribute="might",
        skill="melee",
        category="melee",
        base_damage=7,
        per_margin=Fraction(0),
        damage_type="slash",
    )
    damage = weapon_damage(blade, 1, layered, DEFAULTS)
    assert damage is not None
    assert damage.armor_multiplier == Fraction(9, 10) ** 5
    assert damage.final == 4


def test_a_shield_counts_as_armor_exactly_like_a_breastplate() -> None:
    base = {"might": 1, "grace": 1, "vigor": 1, "aether": 1}
    shielded = MarginSheet.model_validate(
        {**base, "armor": [{"name": "tower shield", "rating": 3, "shield": True}]}
    )
    breastplate = MarginSheet.model_validate(
        {**base, "armor": [{"name": "breastplate", "rating": 3}]}
    )
    blade = Weapon(
        name="blade",
        attribute="might",
        skill="melee",
        category="melee",
        base_damage=4,
        per_margin=Fraction(1),
        damage_type="slash",
    )
    with_shield = weapon_damage(blade, 4, shielded, DEFAULTS)
    with_plate = weapon_damage(blade, 4, breastplate, DEFAULTS)
    assert with_shield is not None and with_plate is not None
    assert with_shield.exact == with_plate.exact == 8 * Fraction(729, 1000)
    assert with_shield.final == 6


def test_armor_blunting_is_an_option() -> None:
    options = MarginOptions(armor_blunting=Fraction(1, 5))
    assert final(hit(10, 0, "slash", 1, armor=2, options=options)) == 6  # 10 x 16/25 = 6.4


def test_against_a_real_threat_armor_never_becomes_proof() -> None:
    damage = hit(1000, 0, "slash", 1, armor=50)
    assert damage is not None and damage.final == 5  # 1000 x 0.9^50 = 5.15...


# -- properties --------------------------------------------------------------------

bases = st.integers(min_value=0, max_value=30)
rates = st.fractions(min_value=0, max_value=5, max_denominator=12)
margins = st.integers(min_value=1, max_value=30)
armors = st.integers(min_value=0, max_value=40)
natures = st.sampled_from([None, "weak", "resistant", "immune"])


@given(
    bases,
    rates,
    st.sampled_from(PHYSICAL),
    margins,
    natures,
    armors,
    st.integers(min_value=1, max_value=10),
)
def test_more_armor_never_increases_physical_damage(
    base: int,
    rate: Fraction,
    damage_type: str,
    value: int,
    nature: str | None,
    armor: int,
    more: int,
) -> None:
    lighter = hit(base, rate, damage_type, value, nature=nature, armor=armor)
    heavier = hit(base, rate, damage_type, value, nature=nature, armor=armor + more)
    assert lighter is not None and heavier is not None
    assert heavier.exact <= lighter.exact
    assert 0 <= heavier.final <= lighter.final


@given(bases, rates, st.sampled_from(OTHER), margins, natures, armors, armors)
def test_armor_never_changes_non_physical_damage(
    base: int,
    rate: Fraction,
    damage_type: str,
    value: int,
    nature: str | None,
    one: int,
    other: int,
) -> None:
    a = hit(base, rate, damage_type, value, nature=nature, armor=one)
    b = hit(base, rate, damage_type, value, nature=nature, armor=other)
    assert a is not None and b is not None
    assert a.exact == b.exact and a.final == b.final


@given(
    bases,
    rates,
    st.sampled_from(PHYSICAL + OTHER),
    margins,
    natures,
    armors,
    st.integers(min_value=0, max_value=10),
)
def test_a_larger_margin_never_deals_less(
    base: int,
    rate: Fraction,
    damage_type: str,
    value: int,
    nature: str | None,
    armor: int,
    more: int,
) -> None:
    smaller = hit(base, rate, damage_type, value, nature=nature, armor=armor)
    larger = hit(base, rate, damage_type, value + more, nature=nature, armor=armor)
    assert smaller is not None and larger is not None
    assert larger.final >= smaller.final


@given(bases, rates, st.sampled_from(PHYSICAL + OTHER), st.integers(max_value=0), natures, armors)
def test_a_margin_of_zero_or_less_never_deals_damage(
    base: int,
    rate: Fraction,
    damage_type: str,
    value: int,
    nature: str | None,
    armor: int,
) -> None:
    assert hit(base, rate, damage_type, value, nature=nature, armor=armor) is None


@given(bases, rates, st.sampled_from(PHYSICAL + OTHER), margins, natures, armors)
def test_every_step_is_an_exact_fraction_and_the_end_an_integer(
    base: int,
    rate: Fraction,
    damage_type: str,
    value: int,
    nature: str | None,
    armor: int,
) -> None:
    damage = hit(base, rate, damage_type, value, nature=nature, armor=armor)
    assert damage is not None
    for step in (damage.from_weapon, damage.after_nature, damage.armor_multiplier, damage.exact):
        assert isinstance(step, Fraction)
    assert type(damage.final) is int
    assert damage.rounded == round_half_up(damage.exact)
    assert abs(damage.rounded - damage.exact) <= Fraction(1, 2)
    # M16: armor may only bring a real threat down to 1, never to nothing.
    real = damage_type in PHYSICAL and damage.after_nature >= 3
    assert damage.final == (max(1, damage.rounded) if real else damage.rounded)


# -- no floats in the damage path --------------------------------------------------

DAMAGE_PATH = [
    "rules.py",
    "pools.py",
    "strike.py",
    "defense.py",
    "riposte.py",
    "ledger.py",
    "state.py",
]


@pytest.mark.parametrize("module", DAMAGE_PATH)
def test_the_damage_path_has_no_float_literal_division_or_rounding(module: str) -> None:
    source = (MARGIN_PACKAGE / module).read_text()
    if "mutmut" in source:
        pytest.skip("this copy was rewritten by mutmut; the source test reads the original")
    tree = ast.parse(source)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, float):
            found.append(f"float literal {node.value} on line {node.lineno}")
        elif isinstance(node, ast.Name) and node.id == "float":
            found.append(f"float on line {node.lineno}")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "round"
        ):
            found.append(f"round() on line {node.lineno}: only round_half_up may round")
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            found.append(f"true division on line {node.lineno}")
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
            if "math" in names:
                found.append(f"math imported on line {node.lineno}")
    assert found == []
