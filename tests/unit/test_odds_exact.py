"""Exact odds worked by hand (or by a few lines of brute force beside the seed's text)."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from skald_campaign.domain.odds.odds import odds_now
from tests.unit.test_odds_support import (
    SWORD,
    d20_sheet,
    damage,
    encounter,
    gained,
    margin_sheet,
    odds,
    result,
    sb_sheet,
)

# -- stamina-body (seed 001) --------------------------------------------------------

CLUB = {"name": "club", "damage_class": 1, "damage_type": "impact", "skill": 13}


def test_a_3d6_hit_against_skill_13_succeeds_with_181_in_216() -> None:
    rules, view = encounter(
        "stamina-body", {"a": ("x", 1, sb_sheet(weapons=[CLUB])), "b": ("y", 1, sb_sheet())}
    )
    report = odds(rules, view, "attack", "a", target="b", weapon="club")
    assert result(report, "hit") == "181/216"
    assert result(report, "miss") == "35/216"
    # One impact die read on the table: 1, 2 -> 1 Stamina; 3 -> 2; 4 -> 3; 5 -> 4; 6 -> 5 + 1 Body.
    assert damage(report, "b", "stamina") == {
        0: "35/216",
        1: "181/648",
        2: "181/1296",
        3: "181/1296",
        4: "181/1296",
        5: "181/1296",
    }
    assert damage(report, "b", "body") == {0: "1115/1296", 1: "181/1296"}
    assert report["results"][0] == {"result": "hit", "probability": "181/216", "decimal": 0.837963}


def test_conditions_gained_follow_the_tracks() -> None:
    rules, view = encounter(
        "stamina-body",
        {"a": ("x", 1, sb_sheet(weapons=[CLUB])), "b": ("y", 1, sb_sheet())},
        tracks={"b": {"stamina": 2, "body": 0}},
    )
    report = odds(rules, view, "attack", "a", target="b", weapon="club")
    assert gained(report, "b", "stunned") == str(Fraction(181, 216) * Fraction(3, 6))  # 4, 5, 6
    assert gained(report, "b", "unconscious") == "181/1296"  # a 6 reaches Body 0 -> -1


def test_a_parry_stops_the_blow_as_seed_001_says() -> None:
    """S3 brute-forced beside the text: 3d6 each, a successful parry scoring >= the hit stops it."""
    rules, view = encounter(
        "stamina-body",
        {"a": ("x", 1, sb_sheet(weapons=[CLUB])), "b": ("y", 1, sb_sheet(parry=11))},
    )
    report = odds(rules, view, "attack", "a", target="b", weapon="club", defense="parry")

    def succeeds(roll: int, target: int) -> bool:
        return roll <= 3 or (roll < 18 and roll <= target)

    sums = [sum(f) for f in product(range(1, 7), repeat=3)]
    parried = Fraction(0)
    for hit, parry in product(sums, sums):
        if succeeds(hit, 13) and succeeds(parry, 11) and 11 - parry >= 13 - hit:
            parried += Fraction(1, 216 * 216)
    assert result(report, "parried") == str(parried)
    assert result(report, "miss") == "35/216"
    assert result(report, "dodged") == "0"


def test_an_attack_left_to_wait_is_worked_out_answer_by_answer() -> None:
    """S3: an attack that does not name the defense waits for the defender's answer
    when it hits. Before the dice its odds are the hit (the defender is asked) and each
    answer's own, never a harm worked out as if nothing had been answered."""
    rules, view = encounter(
        "stamina-body",
        {"a": ("x", 1, sb_sheet(weapons=[CLUB])), "b": ("y", 1, sb_sheet(parry=11, dodge=9))},
    )
    report = odds_now(rules, view, "attack", "a", {"target": "b", "weapon": "club"})
    assert (result(report, "hit"), result(report, "miss")) == ("181/216", "35/216")
    assert report["damage"] == report["conditions"] == []
    assert report["awaits"] == {
        "defender": "b",
        "name": "B",
        "param": "defense",
        "choices": ["parry", "dodge", "none"],
    }
    assert "defense" not in report["params"]

    def succeeds(roll: int, target: int) -> bool:
        return roll <= 3 or (roll < 18 and roll <= target)

    sums = [sum(f) for f in product(range(1, 7), repeat=3)]
    stopped = {"parry": Fraction(0), "dodge": Fraction(0)}
    for (kind, score), hit, roll in product((("parry", 11), ("dodge", 9)), sums, sums):
        if succeeds(hit, 13) and succeeds(roll, score) and score - roll >= 13 - hit:
            stopped[kind] += Fraction(1, 216 * 216)
    answers = report["answers"]
    assert result(answers["parry"], "parried") == str(stopped["parry"]) == "3575/15552"
    assert result(answers["dodge"], "dodged") == str(stopped["dodge"]) == "1645/15552"
    assert result(answers["none"], "hit") == "181/216"
    assert damage(answers["none"], "b", "body") == {0: "1115/1296", 1: "181/1296"}
    # A defender named: the odds as before, nothing waits.
    named = odds_now(
        rules, view, "attack", "a", {"target": "b", "weapon": "club", "defense": "dodge"}
    )
    assert "awaits" not in named and result(named, "dodged") == "1645/15552"


def test_the_seeds_longsword_through_resilience_4() -> None:
    """Seed 001's worked example: 3 piercing dice, read per die, soaked Body-first by 4."""
    rules, view = encounter(
        "stamina-body",
        {"gm": ("x", 1, sb_sheet()), "b": ("y", 1, sb_sheet(armour_resilience=4))},
    )
    report = odds(rules, view, "take_hit", None, target="b", damage_type="piercing", damage_class=3)
    table = {1: (1, 0), 2: (1, 0), 3: (1, 0), 4: (2, 1), 5: (3, 1), 6: (4, 2)}
    expected: dict[tuple[int, int], Fraction] = {}
    for faces in product(range(1, 7), repeat=3):
        stamina = sum(table[f][0] for f in faces)
        body = sum(table[f][1] for f in faces)
        left, turn = 4, "body"  # 1 Body, 1 Stamina, ... skipping an empty pool
        while left and (stamina or body):
            if (turn == "body" and body) or not stamina:
                body, turn = body - 1, "stamina"
            else:
                stamina, turn = stamina - 1, "body"
            left -= 1
        expected[(stamina, body)] = expected.get((stamina, body), Fraction(0)) + Fraction(1, 216)
    # The seed's own faces 2, 4, 6 land 5 Stamina and 1 Body, among others that do.
    assert expected[(5, 1)] > 0
    net_stamina = damage(report, "b", "stamina")
    for value in range(13):
        want = sum((p for (s, _), p in expected.items() if s == value), Fraction(0))
        assert net_stamina.get(value, "0") == str(want)
    assert result(report, "hit") == "1"
    assert gained(report, "b", "piercing_wound") == str(
        sum((p for (_, b), p in expected.items() if b > 0), Fraction(0))
    )


def test_recovery_gains_are_losses_below_zero() -> None:
    rules, view = encounter(
        "stamina-body", {"a": ("x", 1, sb_sheet(con=12))}, tracks={"a": {"stamina": 5}}
    )
    report = odds(rules, view, "recover", "a")
    want: dict[int, Fraction] = {}
    for faces in product(range(1, 7), repeat=3):
        roll = sum(faces)
        gain = 0 if roll == 18 else (1 if roll > 12 and roll > 3 else max(1, 12 - roll))
        want[-gain] = want.get(-gain, Fraction(0)) + Fraction(1, 216)
    assert damage(report, "a", "stamina") == {v: str(p) for v, p in want.items()}


# -- margin (seed 000) -----------------------------------------------------------------

FISTLESS = {"riposte_sharpening": 0}


def test_a_one_die_pool_is_below_nothing_one_time_in_six() -> None:
    """A 1-die attack on an elf in Riposte with nothing to roll: -1 comes back as a counter."""
    rules, view = encounter(
        "margin",
        {
            "a": ("x", 1, margin_sheet(might=1, weapons=[SWORD])),
            "e": ("y", 1, margin_sheet(race="elf", grace=0, vigor=0)),
        },
        options=FISTLESS,
        states={"e": {"posture": {"kind": "riposte", "effort": 0, "round": 1}}},
    )
    report = odds(rules, view, "attack", "a", target="e", weapon="sword")
    assert result(report, "countered") == "1/6"
    assert result(report, "miss") == "1/2"
    assert result(report, "hit") == "1/3"
    assert damage(report, "a", "health") == {0: "5/6", 1: "1/6"}  # fists: 0 + 1 x 1
    assert damage(report, "e", "health") == {0: "2/3", 3: "1/3"}  # sword: 2 + 1 x 1


def test_luck_looks_again_at_a_blank_and_the_second_result_stands() -> None:
    rules, view = encounter(
        "margin",
        {
            "a": ("x", 1, margin_sheet(might=1, luck=1, weapons=[SWORD])),
            "e": ("y", 1, margin_sheet(race="elf", grace=0, vigor=0)),
        },
        options=FISTLESS,
        states={"e": {"posture": {"kind": "riposte", "effort": 0, "round": 1}}},
    )
    report = odds(rules, view, "attack", "a", target="e", weapon="sword")
    assert report["luck"] == [
        {
            "combatant": "a",
            "name": "A",
            "spent": [
                {"points": 0, "probability": "1/3", "decimal": 0.333333},
                {"points": 1, "probability": "2/3", "decimal": 0.666667},
            ],
            "any": {"probability": "2/3", "decimal": 0.666667},
        }
    ]
    assert result(report, "hit") == "5/9"  # 1/3 + 2/3 x 1/3
    assert result(report, "countered") == "1/9"  # 2/3 x 1/6
    assert result(report, "miss") == "1/3"


def test_a_blade_meets_evasion_and_guard_together() -> None:
    """M1, M9 by brute force: 2 attack dice against two passive 1-die defenses."""
    rules, view = encounter(
        "margin",
        {
            "a": ("x", 1, margin_sheet(might=1, melee=1, weapons=[SWORD])),
            "b": ("y", 1, margin_sheet(grace=1, vigor=1)),
        },
    )
    report = odds(rules, view, "attack", "a", target="b", weapon="sword")

    def total(faces: tuple[int, ...]) -> int:
        hits = sum(f >= 5 for f in faces)
        return -1 if hits == 0 and all(f == 1 for f in faces) else hits

    losses: dict[int, Fraction] = {}
    for a1, a2, e, g in product(range(1, 7), repeat=4):
        margin = total((a1, a2)) - total((e,)) - total((g,))
        loss = 2 + margin if margin > 0 else 0
        losses[loss] = losses.get(loss, Fraction(0)) + Fraction(1, 6**4)
    assert damage(report, "b", "health") == {v: str(p) for v, p in sorted(losses.items())}
    assert result(report, "hit") == str(1 - losses[0])


def test_armor_blunts_as_in_m12() -> None:
    """7 slash into Armor 5 -> 4.13 -> 4; a margin of 4 (6 x 0.59049 = 3.54) also lands 4."""
    rules, view = encounter(
        "margin",
        {
            "a": ("x", 1, margin_sheet(might=5, weapons=[SWORD])),
            "b": ("y", 1, margin_sheet(grace=0, vigor=0, armor=[{"name": "mail", "rating": 5}])),
        },
    )
    report = odds(rules, view, "attack", "a", target="b", weapon="sword")
    assert damage(report, "b", "health")[4] == str(Fraction(10, 243) + Fraction(1, 243))


def test_a_declared_posture_is_certain() -> None:
    rules, view = encounter("margin", {"a": ("x", 1, margin_sheet())})
    report = odds(rules, view, "defend", "a", effort=1)
    assert report["results"] == [{"result": "declared", "probability": "1", "decimal": 1.0}]
    assert report["resolutions"] == 1


# -- d20 (seed 004) ------------------------------------------------------------------


def test_d20_attack_against_ac_11_and_chain_mail() -> None:
    rules, view = encounter(
        "d20",
        {"a": ("x", 1, d20_sheet()), "b": ("y", 1, d20_sheet(armor="chain_mail"))},
        tracks={"b": {"hp": 2}},
    )
    report = odds(rules, view, "attack", "a", target="b", weapon="longsword")
    assert result(report, "hit") == "1/2"  # d20 + 0 >= 11
    # AV 4: 1 + max(0, d - 1 - 4): 1 for d <= 5, then 2, 3, 4.
    assert damage(report, "b", "hp") == {0: "1/2", 1: "5/16", 2: "1/16", 3: "1/16", 4: "1/16"}
    assert gained(report, "b", "down") == "3/16"  # 2 HP: down at 2 or more dealt


def test_d20_shove_distances_and_prone() -> None:
    rules, view = encounter(
        "d20",
        {"a": ("x", 1, d20_sheet(fr_skill_slots=2)), "b": ("y", 1, d20_sheet())},
    )
    report = odds(rules, view, "shove", "a", target="b")
    # FD 10; d20 + 2 >= 10 from 8 up; >= FD + 10 = 20 from 18 up (a double success).
    assert result(report, "failure") == "7/20"
    assert result(report, "success") == "1/2"
    assert result(report, "double_success") == "3/20"
    assert report["extras"]["distance_feet"] == [
        {"value": 0, "probability": "7/20", "decimal": 0.35},
        {"value": 5, "probability": "1/2", "decimal": 0.5},
        {"value": 10, "probability": "3/20", "decimal": 0.15},
    ]
    assert gained(report, "b", "prone") == "3/20"


def test_forceful_defense_denies_the_double_success() -> None:
    """Seed 004: a defender whose FR bonus exceeds the attacker's (Ogre +8, Fighter +9)."""
    rules, view = encounter(
        "d20",
        {"ogre": ("x", 1, d20_sheet(fr_skill_slots=8)), "f": ("y", 1, d20_sheet(fr_skill_slots=9))},
    )
    report = odds(rules, view, "shove", "ogre", target="f")
    assert result(report, "double_success") == "0"
    assert gained(report, "f", "prone") == "0"


def test_a_hazard_save_is_explored_on_every_successful_shove() -> None:
    rules, view = encounter(
        "d20",
        {"a": ("x", 1, d20_sheet(fr_skill_slots=2)), "b": ("y", 1, d20_sheet())},
    )
    report = odds(rules, view, "shove", "a", target="b", hazard_at_feet=3)
    stops = {row["value"]: row["probability"] for row in report["extras"]["stopped_by"]}
    assert stops == {"edge": "117/400", "hazard": "143/400", "nothing": "7/20"}  # d20 >= 12
