"""Pins the rule functions where mutation testing found the tests silent: M15's distance
on one side, the success face through a whole throw and luck's second look, reach limits,
the real-threat bound and the exact-number edges."""

from __future__ import annotations

from fractions import Fraction

import pytest

from skald_campaign.domain.play.dice import DiceTray
from skald_campaign.domain.rulesets.margin.exact import Bounds, parse_exact, round_half_up
from skald_campaign.domain.rulesets.margin.options import MarginOptions
from skald_campaign.domain.rulesets.margin.pools import Pool, PoolTerm, read_faces, roll_pool
from skald_campaign.domain.rulesets.margin.rules import distance, reach_of, reaches
from skald_campaign.domain.rulesets.margin.sheet import FISTS, Weapon
from tests.unit.test_margin_table import BOW, FIREBOLT, HALBERD, SWORD, Table, sheet

OPTIONS = MarginOptions()


@pytest.mark.parametrize(
    ("a", "b", "span"),
    [
        (("x", 1), ("x", 3), 2),
        (("x", 3), ("x", 1), 2),  # the difference either way round
        (("x", 2), ("x", 2), 1),  # nobody stands inside anybody else
        (("x", 1), ("x", 2), 1),
        (("x", 1), ("y", 1), 1),
        (("x", 2), ("y", 3), 4),
    ],
)
def test_distance_on_one_side_is_the_rank_difference_at_least_1(
    a: tuple[str, int], b: tuple[str, int], span: int
) -> None:
    assert distance(a[0], a[1], b[0], b[1]) == span


def test_an_attack_on_someone_of_ones_own_side_measures_the_rank_difference() -> None:
    table = Table()
    table.enrol("brenna", sheet(might=3, weapons=[SWORD, HALBERD]))
    table.enrol("charmed", sheet())
    table.enrol("foe", sheet())
    table.start(("brenna", "pcs", 1), ("charmed", "pcs", 3), ("foe", "foes", 1))
    quiet = {"defense.charmed.evasion": [2, 2], "defense.charmed.guard": [2, 2]}
    record = table.act(
        "attack", "brenna", target="charmed", weapon="halberd", dice={"attack": [2] * 3, **quiet}
    )
    assert record["breakdown"]["distance"]["value"] == 2


def pool(size: int) -> Pool:
    return Pool((PoolTerm("dice", size),))


def test_the_success_face_counts_on_the_first_throw() -> None:
    tray = DiceTray(None, {"attack": [4, 4, 1]})
    thrown = roll_pool(tray, "attack", pool(3), success_on=4, luck_available=False)
    assert thrown.total == 2
    tray = DiceTray(None, {"attack": [5, 5, 6]})
    assert roll_pool(tray, "attack", pool(3), success_on=6, luck_available=False).total == 1


def test_the_success_face_counts_on_luck_s_second_look() -> None:
    tray = DiceTray(None, {"attack": [3, 2], "attack.luck": [4, 2]})
    thrown = roll_pool(tray, "attack", pool(2), success_on=4, luck_available=True)
    assert thrown.luck_spent and thrown.total == 1
    tray = DiceTray(None, {"attack": [4, 2], "attack.luck": [5, 5]})
    thrown = roll_pool(tray, "attack", pool(2), success_on=6, luck_available=True)
    assert thrown.luck_spent and thrown.total == 0  # a 5 is no success on a 6


def test_a_success_face_option_reaches_the_rolls_of_a_fight() -> None:
    table = Table({"success_on": 6})
    table.enrol("brenna", sheet(might=3, luck=1, weapons=[SWORD]))
    table.enrol("orc", sheet(health=30))
    table.start(("brenna", "a", 1), ("orc", "b", 1))
    record = table.act(
        "attack",
        "brenna",
        target="orc",
        weapon="sword",
        dice={
            "attack": [5, 5, 2],
            "attack.luck": [6, 5, 5],
            "defense.orc.evasion": [5, 5],
            "defense.orc.guard": [6, 2],
        },
    )
    assert record["breakdown"]["margin"] == {"attack": 1, "defenses": [0, 1], "value": 0}


@pytest.mark.parametrize(
    ("weapon", "span", "shots", "reached"),
    [
        (SWORD, 1, None, True),
        (SWORD, 2, None, False),
        (HALBERD, 2, None, True),
        (HALBERD, 3, None, False),
        (BOW, 40, 1, True),
        (BOW, 1, 0, False),
        (BOW, 1, -1, False),
        (BOW, 40, None, True),
    ],
)
def test_reach_limits(
    weapon: dict[str, object], span: int, shots: int | None, reached: bool
) -> None:
    found = reaches(Weapon.model_validate(weapon), span, shots, OPTIONS)
    assert found.reaches is reached


def test_reach_follows_the_options() -> None:
    options = MarginOptions(melee_reaches=3, reach_reaches=5)
    assert reach_of(FISTS, options) == 3
    assert reach_of(Weapon.model_validate(HALBERD), options) == 5
    assert reach_of(Weapon.model_validate(BOW), options) is None
    assert reaches(FISTS, 3, None, options).why == "fists (melee) reaches 3; distance 3"
    assert reaches(FISTS, 4, None, options).why == "fists (melee) reaches only 3; distance is 4"


@pytest.mark.parametrize(
    ("value", "rounded"),
    [
        (Fraction(1, 2), 1),
        (Fraction(3, 2), 2),
        (Fraction(5, 2), 3),
        (Fraction(49, 100), 0),
        (Fraction(51, 100), 1),
        (Fraction(7), 7),
        (Fraction(0), 0),
    ],
)
def test_round_half_up(value: Fraction, rounded: int) -> None:
    assert round_half_up(value) == rounded


@pytest.mark.parametrize(
    ("bounds", "value", "ok"),
    [
        (Bounds(0, 1, "x"), Fraction(0), True),
        (Bounds(0, 1, "x"), Fraction(1), True),
        (Bounds(0, 1, "x"), Fraction(-1, 1000), False),
        (Bounds(0, 1, "x"), Fraction(1001, 1000), False),
        (Bounds(0, 1, "x", high_open=True), Fraction(1), False),
        (Bounds(0, 1, "x", high_open=True), Fraction(999, 1000), True),
    ],
)
def test_bounds_are_inclusive_unless_open_above(bounds: Bounds, value: Fraction, ok: bool) -> None:
    if ok:
        assert bounds.check(value) == value
    else:
        with pytest.raises(ValueError, match=r"^x: at least 0, "):
            bounds.check(value)


def test_bound_messages_say_the_range_and_what_came() -> None:
    with pytest.raises(ValueError) as raised:
        Bounds(0, 1, "x", high_open=True).check(Fraction(3))
    assert str(raised.value) == "x: at least 0, below 1; got 3"
    with pytest.raises(ValueError) as raised:
        Bounds(0, 1, "x").check(Fraction(10**12))
    assert str(raised.value) == "x: at least 0, at most 1; got far more"
    with pytest.raises(ValueError) as raised:
        Bounds(0, 1, "x").check(Fraction(10**12 - 1))
    assert str(raised.value).endswith("got 999999999999")


@pytest.mark.parametrize(
    ("written", "value"),
    [
        ("1/1000", Fraction(1, 1000)),
        ("0.001", Fraction(1, 1000)),
        (" 3 / 4 ", Fraction(3, 4)),
        (0.25, Fraction(1, 4)),
        (7, Fraction(7)),
        (Fraction(2, 3), Fraction(2, 3)),
    ],
)
def test_exact_numbers_read_exactly(written: object, value: Fraction) -> None:
    assert parse_exact(written) == value


@pytest.mark.parametrize(
    ("written", "words"),
    [
        ("1/1001", "'1/1001' is finer than 1/1000"),
        ("1.5/2", "'1.5/2' is not an exact number"),
        (0.0001, "0.0001 is finer than 1/1000"),
        (True, "not true/false"),
        (None, "not None"),
        ([1], "not [1]"),
        (float("nan"), "a finite number"),
        ("x" * 50, "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..."),
    ],
)
def test_exact_numbers_refuse_in_words(written: object, words: str) -> None:
    with pytest.raises(ValueError) as raised:
        parse_exact(written)
    assert words in str(raised.value)


def test_a_long_input_is_shown_cut_at_40_characters() -> None:
    with pytest.raises(ValueError) as raised:
        parse_exact("y" * 38)  # its repr, quotes included, is exactly 40 long: shown whole
    assert f"'{'y' * 38}' is not an exact number" in str(raised.value)
    with pytest.raises(ValueError) as raised:
        parse_exact("y" * 39)  # 41 long: cut to 37 and an ellipsis
    assert f"'{'y' * 36}... is not an exact number" in str(raised.value)


@pytest.mark.parametrize(
    ("written", "message"),
    [
        ("-1", "'-1': a negative number; this cannot be negative"),
        ("1/0", "'1/0' divides by zero"),
        (float("inf"), "expected a finite number like 2, '1/2' or '0.5', not inf"),
        (
            "1e3",
            "'1e3' is not an exact number; write it like 2, '1/2' or '0.5' "
            "(no sign, no exponent, at most 3 decimals)",
        ),
    ],
)
def test_exact_number_refusals_word_for_word(written: object, message: str) -> None:
    with pytest.raises(ValueError) as raised:
        parse_exact(written)
    assert str(raised.value) == message


def test_no_faces_read_as_nothing_not_below_nothing() -> None:
    reading = read_faces([])
    assert (reading.successes, reading.below_nothing, reading.total) == (0, False, 0)


def test_a_pool_not_rolled_keeps_its_name_and_spends_no_luck() -> None:
    thrown = roll_pool(DiceTray(None), "attack", pool(0), success_on=5, luck_available=True)
    assert thrown.luck_spent is False
    assert thrown.breakdown()["roll"] == "attack"
    assert thrown.breakdown()["rolled"] is False


def test_a_throw_that_needs_no_second_look_spends_no_luck() -> None:
    tray = DiceTray(None, {"attack": [6, 2]})
    thrown = roll_pool(tray, "attack", pool(2), success_on=5, luck_available=True)
    assert thrown.luck_spent is False and thrown.second is None


def test_a_defense_pool_is_active_or_passive_and_nothing_else() -> None:
    from skald_campaign.domain.rulesets.margin.rules import defense_pool
    from skald_campaign.domain.rulesets.margin.sheet import MarginSheet

    character = MarginSheet.model_validate(sheet(evasion=2))
    assert defense_pool(character, "evasion", "active").size == 4
    assert defense_pool(character, "evasion", "passive").size == 2
    with pytest.raises(ValueError, match="a defense rolls active or passive, not 'ACTIVE'"):
        defense_pool(character, "evasion", "ACTIVE")  # type: ignore[arg-type]


def test_a_dwarf_behind_the_ally_is_passed_over_for_one_further_on_in_the_list() -> None:
    table = Table()
    table.enrol("orc", sheet(might=3, weapons=[SWORD]))
    table.enrol("back", sheet(race="dwarf"))
    table.enrol("ally", sheet(health=20))
    table.enrol("front", sheet(race="dwarf"))
    table.start(("orc", "b", 1), ("back", "a", 2), ("ally", "a", 1), ("front", "a", 1))
    table.act("ward", "back")
    table.act("ward", "front")
    record = table.act(
        "attack",
        "orc",
        target="ally",
        weapon="sword",
        dice={
            "attack": [6, 2, 2],
            "defense.ally.evasion": [2, 2],
            "defense.ally.guard": [2, 2],
            "ward.front.evasion": [6, 2],
            "ward.front.guard": [2, 2],
        },
    )
    ward = record["breakdown"]["ward"]
    assert ward["dwarf"] == table.ids["front"] and ward["stopped"] is True
    assert [c["covers"] for c in ward["considered"]] == [False, True]


def test_luck_spent_twice_in_one_action_is_counted_twice() -> None:
    table = Table()
    table.enrol("orc", sheet(might=3, weapons=[SWORD]))
    table.enrol("ally", sheet(health=20))
    table.enrol("thrain", sheet(race="dwarf", luck=2))
    table.start(("orc", "b", 1), ("ally", "a", 1), ("thrain", "a", 1))
    table.act("ward", "thrain")
    record = table.act(
        "attack",
        "orc",
        target="ally",
        weapon="sword",
        dice={
            "attack": [6, 6, 2],
            "defense.ally.evasion": [2, 2],
            "defense.ally.guard": [2, 2],
            "ward.thrain.evasion": [2, 2],
            "ward.thrain.evasion.luck": [2, 3],
            "ward.thrain.guard": [2, 2],
            "ward.thrain.guard.luck": [3, 3],
        },
    )
    assert record["breakdown"]["luck_spent"] == {table.ids["thrain"]: 2}
    assert table.state("thrain")["luck"] == 0


def test_an_action_without_an_actor_says_which_action_needs_one() -> None:
    from skald_campaign.domain.errors import InvalidInput
    from skald_campaign.domain.rulesets.base import EncounterView
    from skald_campaign.domain.rulesets.margin.actions import (
        Attack,
        Defend,
        resolve_attack,
        resolve_defend,
    )

    view = EncounterView(1, {}, MarginOptions().model_dump(mode="json"))
    with pytest.raises(InvalidInput, match=r"^defend needs an actor: the combatant who takes"):
        resolve_defend(view, None, Defend(), DiceTray(None))
    with pytest.raises(InvalidInput, match=r"^attack needs an actor: the combatant who takes"):
        resolve_attack(view, None, Attack(target="x"), DiceTray(None))


def test_a_posture_pays_fatigue_per_effort_die_and_says_its_effort_only_when_bought() -> None:
    table = Table({"fatigue_per_effort_die": 2})
    table.enrol("guard", sheet())
    table.enrol("other", sheet())
    table.start(("guard", "a", 1), ("other", "b", 1))
    record = table.act("defend", "guard", effort=1)
    assert record["breakdown"]["effort"] == {"dice": 1, "fatigue": {"before": 0, "after": 2}}
    assert record["summary"] == "guard takes up Defend for round 1 with 1 effort dice"
    assert table.act("defend", "other")["summary"] == "other takes up Defend for round 1"


def test_names_that_are_not_there_list_what_is() -> None:
    from skald_campaign.domain.errors import InvalidInput

    frost = {**FIREBOLT, "name": "frost", "damage_type": "cold"}
    table = Table()
    table.enrol("mage", sheet(race="elf", spells=[FIREBOLT, frost]))
    table.enrol("orc", sheet())
    table.start(("mage", "a", 1), ("orc", "b", 1))
    assert table.refused(InvalidInput, "cast", "mage", target="orc", spell="x") == (
        "mage has no spell 'x'; their spells: firebolt, frost"
    )
    assert table.refused(InvalidInput, "attack", "mage", target="orc", weapon="frost") == (
        "mage has no weapon 'frost' (a spell is cast, not attacked with); their weapons: fists"
    )
    assert table.refused(InvalidInput, "riposte", "mage", weapon="x") == (
        "mage has no weapon or spell 'x' to counter with; their weapons: fists; "
        "their spells: firebolt, frost"
    )


def test_a_ranged_weapon_missing_from_the_state_has_its_full_ammunition() -> None:
    from skald_campaign.domain.rulesets.margin.state import CharacterState

    bow = Weapon.model_validate(BOW)
    assert CharacterState().shots_left(bow) == 5
    assert CharacterState(ammunition={"bow": 2}).shots_left(bow) == 2
    assert CharacterState().shots_left(Weapon.model_validate({**BOW, "ammunition": None})) is None


def test_a_non_warding_companion_listed_first_does_not_hide_the_dwarf() -> None:
    table = Table()
    table.enrol("orc", sheet(might=3, weapons=[SWORD]))
    table.enrol("scout", sheet())
    table.enrol("ally", sheet(health=20))
    table.enrol("thrain", sheet(race="dwarf"))
    table.start(("orc", "b", 1), ("scout", "a", 1), ("ally", "a", 1), ("thrain", "a", 1))
    table.act("ward", "thrain")
    record = table.act(
        "attack",
        "orc",
        target="ally",
        weapon="sword",
        dice={
            "attack": [6, 2, 2],
            "defense.ally.evasion": [2, 2],
            "defense.ally.guard": [2, 2],
            "ward.thrain.evasion": [6, 2],
            "ward.thrain.guard": [2, 2],
        },
    )
    assert record["breakdown"]["ward"]["dwarf"] == table.ids["thrain"]


def test_state_read_from_older_records_fills_what_is_missing_with_zero() -> None:
    from skald_campaign.domain.rulesets.margin.state import CharacterState, Posture

    empty = CharacterState.from_json({})
    assert (empty.fatigue, empty.luck, empty.ammunition, empty.posture) == (0, 0, {}, None)
    old = CharacterState.from_json({"posture": {"kind": "defend", "effort": 1, "round": 2}})
    assert old.posture == Posture("defend", 1, 2, None, 0)


def test_an_action_that_is_no_posture_keeps_the_posture_on_record() -> None:
    from skald_campaign.domain.rulesets.margin.state import CharacterState, Posture

    held = Posture("defend", 1, 1)
    after = CharacterState(posture=held).acting(2, 3)
    assert after.posture == held and after.fatigue == 3 and after.acted_round == 2


def test_an_actor_who_is_not_in_the_encounter_is_named() -> None:
    from skald_campaign.domain.errors import NotFound
    from skald_campaign.domain.rulesets.base import EncounterView
    from skald_campaign.domain.rulesets.margin.actions import Defend, resolve_defend

    view = EncounterView(1, {}, MarginOptions().model_dump(mode="json"))
    with pytest.raises(NotFound) as raised:
        resolve_defend(view, "ghost", Defend(), DiceTray(None))
    assert raised.value.message == "actor 'ghost' is not a combatant in this encounter"


def test_an_attack_is_the_round_s_one_action() -> None:
    from skald_campaign.domain.errors import ActionRefused

    table = Table()
    table.enrol("brenna", sheet(might=3, weapons=[SWORD]))
    table.enrol("orc", sheet(health=30))
    table.start(("brenna", "a", 1), ("orc", "b", 1))
    quiet = {"defense.orc.evasion": [2, 2], "defense.orc.guard": [2, 2]}
    table.act("attack", "brenna", target="orc", weapon="sword", dice={"attack": [2] * 3, **quiet})
    assert table.state("brenna")["acted_round"] == 1
    message = table.refused(ActionRefused, "attack", "brenna", target="orc", weapon="sword")
    assert message.startswith("brenna has already acted")
