"""M16 (a real threat), M18 (numbers stay numbers: bounded values, health, wounded and
the light day as options) and strict types, for the margin ruleset."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import orjson
import pytest

from skald_campaign.domain.errors import InvalidInput
from skald_campaign.domain.rulesets.margin import Margin
from skald_campaign.domain.rulesets.margin.options import MarginOptions
from skald_campaign.domain.rulesets.margin.rules import damage_for_margin
from tests.unit.test_margin_table import SWORD, Table, sheet, weapon

RULES = Margin()


def refusal(validate: Any, data: dict[str, Any]) -> str:
    with pytest.raises(InvalidInput) as raised:
        validate(data)
    return raised.value.message


def blade(per_margin: Any, base: int = 2) -> dict[str, Any]:
    return weapon("blade", "might", "melee", "melee", base, per_margin, "slash")


# -- M18: every accepted value computes --------------------------------------------


@pytest.mark.parametrize(
    ("written", "why"),
    [
        ("1e30", "'1e30' is not an exact number"),
        ("1e5000", "'1e5000' is not an exact number"),
        ("1e-5000", "'1e-5000' is not an exact number"),
        (1e30, "at most 1000; got far more"),
        ("1001", "at most 1000; got 1001"),
        ("0.0001", "'0.0001' is not an exact number"),
        (0.0001, "finer than 1/1000"),
        ("1/1001", "finer than 1/1000"),
        ("-1", "cannot be negative"),
        (float("inf"), "a finite number"),
        ("1/0", "divides by zero"),
        ("9" * 5000, "is not an exact number"),
    ],
)
def test_damage_per_margin_is_bounded_so_every_blow_computes(written: Any, why: str) -> None:
    message = refusal(RULES.validate_sheet, sheet(weapons=[blade(written)]))
    assert message.startswith("invalid sheet: sheet.weapons.0.per_margin: ")
    assert why in message
    assert len(message) < 300  # a 5000-digit input is not echoed back


@pytest.mark.parametrize("written", ["0.00001", "1/1001", 0.00001])
def test_armor_blunting_finer_than_a_thousandth_is_refused(written: Any) -> None:
    message = refusal(RULES.validate_options, {"armor_blunting": written})
    assert message.startswith("invalid options: options.armor_blunting: ")


def test_the_finest_numbers_at_their_extremes_still_compute_and_serialise() -> None:
    # The worst an accepted campaign can do: Armor 1000 blunted by 1/997 a point, a weapon
    # at 997/999 per margin, a resistance of 7/991: about 3,000 digits, all printable.
    options = {"armor_blunting": "1/997", "resistance_multiplier": "7/991"}
    table = Table(options)
    plate = [{"name": f"plate {n}", "rating": 50} for n in range(20)]
    knight = sheet(might=20, melee=20, weapons=[blade("997/999", base=1000)])
    table.enrol("knight", knight)
    table.enrol("fortress", sheet(vigor=0, grace=0, armor=plate, nature={"slash": "resistant"}))
    table.start(("knight", "a", 1), ("fortress", "b", 1))
    record = table.act(
        "attack",
        "knight",
        target="fortress",
        weapon="blade",
        dice={"attack": [6] * 40},
        effort=0,
    )
    damage = record["breakdown"]["damage"]
    assert damage["armor"]["rating"] == 1000
    assert damage["margin"] == 40
    numerator, denominator = damage["exact"].split("/")
    assert len(numerator) == len(denominator) == 3004  # printable: under 4,300 digits
    assert damage["final"] == 3  # (1000 + 40 x 997/999) x 7/991 x (996/997)^1000 = 2.69
    # The record as it always was; and what its command recorded of its texts (issue 38,
    # domain/reading/told_form.py), which state its numbers again, under the same bound.
    told = record.pop("told")
    assert len(orjson.dumps(record)) < 40_000
    assert len(orjson.dumps(told)) < 40_000


def test_armor_1000_under_the_default_blunting_leaves_a_real_threat_at_1() -> None:
    # M16 against M12's formula: 100 slash into Armor 1000 is 100 x 0.9^1000, about 1e-44.
    damage = damage_for_margin(
        base=100,
        per_margin=Fraction(0),
        damage_type="slash",
        margin=1,
        nature=None,
        armor_rating=1000,
        options=MarginOptions(),
    )
    assert damage is not None and damage.rounded == 0 and damage.final == 1


def test_options_that_would_give_health_over_1000_are_refused() -> None:
    message = refusal(RULES.validate_options, {"base_health": 981, "health_per_vigor": 1})
    assert "base_health + 20 x health_per_vigor is 1001" in message
    assert RULES.validate_options({"base_health": 980, "health_per_vigor": 1})["base_health"] == 980


# -- M16: a real threat -------------------------------------------------------------


def hit(base: int, damage_type: str, armor: int, **options: Any) -> Any:
    damage = damage_for_margin(
        base=base,
        per_margin=Fraction(0),
        damage_type=damage_type,
        margin=1,
        nature=options.pop("nature", None),
        armor_rating=armor,
        options=MarginOptions(**options),
    )
    assert damage is not None
    return damage


def test_m12_examples_stand_beside_m16() -> None:
    assert hit(7, "slash", 5).final == 4
    assert hit(1, "blunt", 7).final == 0  # below a real threat it may come to nothing


@pytest.mark.parametrize(
    ("base", "nature", "final"),
    [
        (3, None, 1),  # exactly the threshold: a real threat
        (2, None, 0),  # just below: it came to nothing
        (6, "resistant", 1),  # 6 x 1/2 = 3 after nature
        (5, "resistant", 0),  # 5/2 after nature: below 3
        (2, "weak", 1),  # 2 x 2 = 4 after nature
    ],
)
def test_the_threshold_is_read_after_nature_and_before_armor(
    base: int, nature: str | None, final: int
) -> None:
    damage = hit(base, "pierce", 60, nature=nature)
    assert damage.rounded == 0
    assert damage.final == final
    assert damage.breakdown()["real_threat"] == {
        "threshold": 3,
        "is_real_threat": final == 1,
        "raised_to_1": final == 1,
    }


def test_real_threat_is_an_option() -> None:
    assert hit(7, "slash", 40).final == 1
    assert hit(7, "slash", 40, real_threat=8).final == 0
    assert hit(8, "slash", 40, real_threat=8).final == 1


def test_a_real_threat_that_armor_leaves_above_1_is_not_touched() -> None:
    damage = hit(7, "slash", 5)
    assert damage.is_real_threat and damage.final == damage.rounded == 4
    assert damage.breakdown()["real_threat"]["raised_to_1"] is False


def test_only_physical_harm_meets_armor_so_only_it_is_raised() -> None:
    fire = hit(5, "fire", 1000, nature="resistant")  # 5/2: armor does nothing to fire
    assert fire.is_real_threat is False and fire.final == 3
    immune = hit(100, "slash", 1000, nature="immune")  # exactly 0 after nature
    assert immune.is_real_threat is False and immune.final == 0


# -- M18: health, wounded and the light day are options -----------------------------


def test_the_health_default_follows_the_campaign_options() -> None:
    under = RULES.under(RULES.validate_options({"base_health": 20, "health_per_vigor": 5}))
    assert under.validate_sheet(sheet(vigor=3))["health"] == 35
    assert under.validate_sheet(sheet(vigor=3, health=12))["health"] == 12
    assert RULES.validate_sheet(sheet(vigor=3))["health"] == 16


def test_a_campaign_enrols_with_its_own_health_default() -> None:
    table = Table({"base_health": 4, "health_per_vigor": 1})
    table.enrol("brenna", sheet(vigor=3, weapons=[SWORD]))
    table.enrol("orc", sheet())
    table.start(("brenna", "a", 1), ("orc", "b", 1))
    assert table.health("brenna") == 7


@pytest.mark.parametrize(
    ("health", "conditions"),
    [(6, ()), (5, ("wounded",)), (1, ("wounded",)), (0, ("wounded", "down"))],
)
def test_the_wounded_threshold_is_an_option(health: int, conditions: tuple[str, ...]) -> None:
    under = RULES.under(RULES.validate_options({"wounded_at": "1/4"}))
    stored = RULES.validate_sheet(sheet(health=20))
    assert under.conditions(stored, {"health": health}, {}) == conditions


def test_wounded_at_zero_leaves_only_down_and_at_one_wounds_at_full_health() -> None:
    stored = RULES.validate_sheet(sheet(health=20))
    never = RULES.under(RULES.validate_options({"wounded_at": 0}))
    assert never.conditions(stored, {"health": 1}, {}) == ()
    always = RULES.under(RULES.validate_options({"wounded_at": 1}))
    assert always.conditions(stored, {"health": 20}, {}) == ("wounded",)


def test_a_wounded_threshold_option_changes_the_dice_in_a_fight() -> None:
    table = Table({"wounded_at": "3/4", "wounded_penalty": 2})
    table.enrol("brenna", sheet(might=3, melee=2, health=20, weapons=[SWORD]))
    table.enrol("orc", sheet(might=5))
    table.start(("brenna", "a", 1), ("orc", "b", 1))
    quiet = {"defense.brenna.evasion": [2, 2], "defense.brenna.guard": [2, 2]}
    table.act("attack", "orc", target="brenna", dice={"attack": [6] * 5, **quiet})
    assert table.health("brenna") == 15  # fists: 0 + 1 x 5
    assert table.conditions("brenna") == ("wounded",)  # 15 <= 3/4 x 20
    table.next_round()
    record = table.act(
        "attack",
        "brenna",
        target="orc",
        weapon="sword",
        dice={"attack": [2, 2, 2], "defense.orc.evasion": [2, 2], "defense.orc.guard": [2, 2]},
    )
    assert record["breakdown"]["attack"]["pool"]["dice"] == 3  # 3 + 2 - 2 wounded


def test_the_light_day_divisor_is_an_option() -> None:
    plan = Margin.day_plan_model
    assert plan is not None
    state = {**RULES.start_state(RULES.validate_sheet(sheet())), "fatigue": 7}
    stored = RULES.validate_sheet(sheet())
    light = plan.model_validate({"rest": "light"})
    assert RULES.daily(stored, {"health": 14}, state, light).state["fatigue"] == 3
    thirds = RULES.under(RULES.validate_options({"light_day_fatigue_divisor": 3}))
    assert thirds.daily(stored, {"health": 14}, state, light).state["fatigue"] == 2
    keeps = RULES.under(RULES.validate_options({"light_day_fatigue_divisor": 1}))
    assert keeps.daily(stored, {"health": 14}, state, light).state["fatigue"] == 7


def test_a_ruleset_under_the_same_options_is_the_same_object() -> None:
    options = RULES.validate_options({"wounded_at": "1/3"})
    assert RULES.under(options) is RULES.under(dict(options))
    assert RULES.under(options).campaign_options.wounded_at == Fraction(1, 3)


# -- strict types --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "field", "expected"),
    [
        ({"might": "16"}, "sheet.might", "a valid integer"),
        ({"vigor": True}, "sheet.vigor", "a valid integer"),
        ({"might": 2.0}, "sheet.might", "a valid integer"),
        ({"luck": "1"}, "sheet.luck", "a valid integer"),
        ({"health": "20"}, "sheet.health", "a valid integer"),
        (
            {"armor": [{"name": "shield", "rating": 2, "shield": 1}]},
            "sheet.armor.0.shield",
            "a valid boolean",
        ),
        (
            {"armor": [{"name": "shield", "rating": 2, "shield": "yes"}]},
            "sheet.armor.0.shield",
            "a valid boolean",
        ),
        ({"armor": [{"name": "mail", "rating": "2"}]}, "sheet.armor.0.rating", "a valid integer"),
        (
            {"weapons": [{**SWORD, "base_damage": "2"}]},
            "sheet.weapons.0.base_damage",
            "a valid integer",
        ),
        (
            {"weapons": [{**SWORD, "per_margin": True}]},
            "sheet.weapons.0.per_margin",
            "not true/false",
        ),
        ({"race": 3}, "sheet.race", "a valid string"),
    ],
)
def test_sheet_types_are_strict(change: dict[str, Any], field: str, expected: str) -> None:
    message = refusal(RULES.validate_sheet, sheet(**change))
    assert message.startswith(f"invalid sheet: {field}: ")
    assert expected in message


@pytest.mark.parametrize(
    ("option", "value", "expected"),
    [
        ("max_effort", "3", "a valid integer"),
        ("success_on", True, "a valid integer"),
        ("real_threat", 3.0, "a valid integer"),
        ("wounded_at", False, "not true/false"),
        ("armor_blunting", "a tenth", "not an exact number"),
    ],
)
def test_option_types_are_strict(option: str, value: Any, expected: str) -> None:
    message = refusal(RULES.validate_options, {option: value})
    assert message.startswith(f"invalid options: options.{option}: ")
    assert expected in message


@pytest.mark.parametrize(
    ("kind", "params", "field"),
    [
        ("attack", {"target": "x", "effort": "2"}, "attack.effort"),
        ("attack", {"target": "x", "effort": True}, "attack.effort"),
        ("defend", {"effort": 1.0}, "defend.effort"),
        ("riposte", {"effort": "1"}, "riposte.effort"),
        ("ward", {"effort": "0"}, "ward.effort"),
        ("cast", {"target": "x", "spell": "bolt", "effort": "3"}, "cast.effort"),
    ],
)
def test_action_parameters_are_strict(kind: str, params: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidInput) as raised:
        RULES.validate_params(kind, params)
    assert raised.value.message == f"invalid {kind}: {field}: Input should be a valid integer"


def test_the_published_sheet_schema_says_what_is_accepted() -> None:
    schema = RULES.sheet_model.model_json_schema()
    assert schema["properties"]["might"] == {
        "maximum": 20,
        "minimum": 0,
        "title": "Might",
        "type": "integer",
    }
    per_margin = schema["$defs"]["Weapon"]["properties"]["per_margin"]
    number, text = per_margin["anyOf"]
    assert number == {"type": "number", "minimum": 0.0, "maximum": 1000.0}
    assert text["type"] == "string" and "1/1000" in per_margin["description"]
    shield = schema["$defs"]["ArmorItem"]["properties"]["shield"]
    assert shield["type"] == "boolean"
