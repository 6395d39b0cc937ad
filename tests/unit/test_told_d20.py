"""d20's Defensive Stance, shoves, trips, holds and standing up, as the GM, a player and a
viewer read them (RULINGS T3a; the records: tests/unit/scenes_d20.py).

The GM reads what domain/reading/narrators.py and the rules wrote, byte for byte as before these
kinds were built from parts; a shove towards a hazard reads as every other shove, its
Save vs Death Ray told after the checks. A player and a viewer read the d20's face, the
feet, the outcome words and a PC's numbers; an NPC's FD, FR bonus, save number, any
total or comparison that holds one, and the damage a throw does it (its descriptor
instead) are left out. A PC's failed escape from an NPC's hold named the NPC nowhere in
its parameters and was shown whole, FD and all: no more.
"""

from __future__ import annotations

from collections.abc import Callable

from skald_campaign.domain.records import JSON
from tests.unit import scenes_d20 as scenes
from tests.unit.told_support import Read, Table


def told(scene: Callable[[], tuple[Table, dict[str, JSON]]]) -> tuple[Read, Read]:
    table, record = scene()
    return table.told(record)


def test_an_npc_takes_a_defensive_stance() -> None:
    gm, others = told(scenes.an_npc_takes_a_defensive_stance)
    assert gm == (
        "Ogre takes a Defensive Stance: FD 14 -> 16 until round 1 ends",
        [
            "Ogre takes a Defensive Stance: FD 14 -> 16 until round 1 ends",
        ],
    )
    assert others == (
        "Ogre takes a Defensive Stance until round 1 ends",
        [
            "Ogre takes a Defensive Stance until round 1 ends",
        ],
    )


def test_a_pc_shoves_an_npc() -> None:
    gm, others = told(scenes.a_pc_shoves_an_npc)
    assert gm == (
        "Bran shoves Ogre 5 ft (17 >= FD 14)",
        [
            "d20 18 +3 FR bonus -4 size penalty = 17: 17 >= FD 14",
            "FD 14: success",
            "Forceful Defense: defender FR +5 exceeds attacker FR +3; no double success",
            "Bran shoves Ogre 5 ft (17 >= FD 14)",
        ],
    )
    assert others == (
        "Bran shoves Ogre 5 ft",
        [
            "d20 18",
            "FD: success",
            "Forceful Defense: defender FR exceeds attacker FR +3; no double success",
            "Bran shoves Ogre 5 ft",
        ],
    )


def test_a_pc_fails_to_shove_an_npc() -> None:
    gm, others = told(scenes.a_pc_fails_to_shove_an_npc)
    assert gm == (
        "Bran fails to shove Ogre (3 < FD 14)",
        [
            "d20 4 +3 FR bonus -4 size penalty = 3: 3 < FD 14",
            "FD 14: failure",
            "Forceful Defense: defender FR +5 exceeds attacker FR +3; no double success",
            "Bran fails to shove Ogre (3 < FD 14)",
        ],
    )
    assert others == (
        "Bran fails to shove Ogre",
        [
            "d20 4",
            "FD: failure",
            "Forceful Defense: defender FR exceeds attacker FR +3; no double success",
            "Bran fails to shove Ogre",
        ],
    )


def test_an_npc_shoves_a_pc_into_a_wall() -> None:
    """Seed 004: the wall stops the push with 8 of its 10 ft unspent, and Bran takes one
    shove die per full 2 points of the Ogre's FR +5, through his AV (none). The narrative
    had said nothing of it, not the dice, not Bran's HP 20 -> 13. The Ogre's FR bonus
    (in the dice's why) is the GM's; Bran's AV and HP are his player's too."""
    gm, others = told(scenes.an_npc_shoves_a_pc_into_a_wall)
    wall = "Bran is pushed into the wall, 2 ft behind them, with 8 of the shove's 10 ft unspent"
    damage = [
        "Wall damage: 2 shove dice (d8), rolled 3, 4",
        "1 penetrates; remaining 7 - 1 = 6; 6 - AV 0 = 6; 1 + 6 = 7",
        "Bran: HP 20 -> 13",
    ]
    assert gm == (
        "Ogre shoves Bran 2 ft and knocks them prone (24 >= FD 10, double success), into the wall",
        [
            "d20 19 +5 FR bonus +0 size penalty = 24: 24 >= FD 10",
            "FD 10: success",
            (
                "Forceful Defense: defender FR +3 does not exceed attacker FR +5; a double "
                "success is not ruled out"
            ),
            f"{wall}: one d8 per full 2 points of FR +5, at least 1",
            *damage,
            (
                "Ogre shoves Bran 2 ft and knocks them prone (24 >= FD 10, double success), into "
                "the wall"
            ),
            "Bran gains: prone",
        ],
    )
    assert others == (
        "Ogre shoves Bran 2 ft and knocks them prone (double success), into the wall",
        [
            "d20 19",
            "FD 10: success",
            (
                "Forceful Defense: defender FR +3 does not exceed attacker FR; a double success is "
                "not ruled out"
            ),
            wall,
            *damage,
            "Ogre shoves Bran 2 ft and knocks them prone (double success), into the wall",
            "Bran gains: prone",
        ],
    )


def test_a_pc_shoves_an_npc_into_a_wall() -> None:
    """Bran's FR +3 is his player's to read; the Ogre's AV (chain mail, 4) and its HP are
    the GM's: a player reads the dice and the Ogre's descriptor."""
    gm, others = told(scenes.a_pc_shoves_an_npc_into_a_wall)
    wall = (
        "Ogre is pushed into the wall, 1 ft behind them, with 4 of the shove's 5 ft unspent: one "
        "d10 per full 2 points of FR +3, at least 1"
    )
    assert gm == (
        "Bran shoves Ogre 1 ft (19 >= FD 14), into the wall",
        [
            "d20 20 +3 FR bonus -4 size penalty = 19: 19 >= FD 14",
            "FD 14: success",
            "Forceful Defense: defender FR +5 exceeds attacker FR +3; no double success",
            wall,
            "Wall damage: 1 shove die (d10), rolled 9",
            "1 penetrates; remaining 9 - 1 = 8; 8 - AV 4 = 4; 1 + 4 = 5",
            "Ogre: HP 20 -> 15",
            "Bran shoves Ogre 1 ft (19 >= FD 14), into the wall",
        ],
    )
    assert others == (
        "Bran shoves Ogre 1 ft, into the wall",
        [
            "d20 20",
            "FD: success",
            "Forceful Defense: defender FR exceeds attacker FR +3; no double success",
            wall,
            "Wall damage: 1 shove die (d10), rolled 9",
            "Ogre: hurt",
            "Bran shoves Ogre 1 ft, into the wall",
        ],
    )


def test_a_pc_shoves_an_npc_into_a_wall_right_behind_it() -> None:
    """A wall at 0 ft is 'right behind them', where the push line said '0 ft behind
    them' (true, but odd). The summary, recorded as the shove resolved, keeps its '0 ft'."""
    gm, others = told(scenes.a_pc_shoves_an_npc_into_a_wall_right_behind_it)
    wall = (
        "Ogre is pushed into the wall, right behind them, with 5 of the shove's 5 ft unspent: "
        "one d10 per full 2 points of FR +3, at least 1"
    )
    assert gm == (
        "Bran shoves Ogre 0 ft (19 >= FD 14), into the wall",
        [
            "d20 20 +3 FR bonus -4 size penalty = 19: 19 >= FD 14",
            "FD 14: success",
            "Forceful Defense: defender FR +5 exceeds attacker FR +3; no double success",
            wall,
            "Wall damage: 1 shove die (d10), rolled 2",
            "1 penetrates; remaining 2 - 1 = 1; 1 - AV 4 = -3 -> 0; 1 + 0 = 1",
            "Ogre: HP 20 -> 19",
            "Bran shoves Ogre 0 ft (19 >= FD 14), into the wall",
        ],
    )
    assert others == (
        "Bran shoves Ogre 0 ft, into the wall",
        [
            "d20 20",
            "FD: success",
            "Forceful Defense: defender FR exceeds attacker FR +3; no double success",
            wall,
            "Wall damage: 1 shove die (d10), rolled 2",
            "Ogre: hurt",
            "Bran shoves Ogre 0 ft, into the wall",
        ],
    )


def test_an_npc_shoves_a_pc_towards_a_pit() -> None:
    """Seed 004's Pit-Stop Rule: the push reaches the pit's edge, Bran saves and stops at
    it. The narrative had been the plain lines ('shove: 1d20 rolled 12 = 12', 'hazard_save:
    1d20 rolled 15 = 15'), no check, no rule: the narrator read the save as a d20 check.
    Bran's save number is a PC's, every reader's; the Ogre's FR bonus stays the GM's."""
    gm, others = told(scenes.an_npc_shoves_a_pc_towards_a_pit)
    push = (
        "Bran is pushed towards the pit, 5 ft behind them, within the shove's 10 ft: a Save "
        "vs Death Ray to stop at the very edge"
    )
    save = "Save vs Death Ray: d20 15 >= 12: success; Bran stops at the very edge"
    assert gm == (
        "Ogre shoves Bran 5 ft (17 >= FD 10); saves and stops at the edge of the pit",
        [
            "d20 12 +5 FR bonus +0 size penalty = 17: 17 >= FD 10",
            "FD 10: success",
            (
                "Forceful Defense: defender FR +3 does not exceed attacker FR +5; a double "
                "success is not ruled out"
            ),
            push,
            save,
            "Ogre shoves Bran 5 ft (17 >= FD 10); saves and stops at the edge of the pit",
        ],
    )
    assert others == (
        "Ogre shoves Bran 5 ft; saves and stops at the edge of the pit",
        [
            "d20 12",
            "FD 10: success",
            (
                "Forceful Defense: defender FR +3 does not exceed attacker FR; a double success is "
                "not ruled out"
            ),
            push,
            save,
            "Ogre shoves Bran 5 ft; saves and stops at the edge of the pit",
        ],
    )


def test_a_pc_shoves_an_npc_into_the_fire() -> None:
    """The Ogre fails its save and goes in: the die and the verdict are the table's, its
    save number (its sheet's) the GM's (T3a), as its FD and FR bonus are."""
    gm, others = told(scenes.a_pc_shoves_an_npc_into_the_fire)
    push = (
        "Ogre is pushed towards the fire, 2 ft behind them, within the shove's 5 ft: a Save "
        "vs Death Ray to stop at the very edge"
    )
    assert gm == (
        "Bran shoves Ogre 2 ft (19 >= FD 14); fails the save and goes into the fire",
        [
            "d20 20 +3 FR bonus -4 size penalty = 19: 19 >= FD 14",
            "FD 14: success",
            "Forceful Defense: defender FR +5 exceeds attacker FR +3; no double success",
            push,
            (
                "Save vs Death Ray: d20 3 < 12: failure; Ogre goes into the fire; its own effects "
                "and saves follow"
            ),
            "Bran shoves Ogre 2 ft (19 >= FD 14); fails the save and goes into the fire",
        ],
    )
    assert others == (
        "Bran shoves Ogre 2 ft; fails the save and goes into the fire",
        [
            "d20 20",
            "FD: success",
            "Forceful Defense: defender FR exceeds attacker FR +3; no double success",
            push,
            (
                "Save vs Death Ray: d20 3: failure; Ogre goes into the fire; its own effects and "
                "saves follow"
            ),
            "Bran shoves Ogre 2 ft; fails the save and goes into the fire",
        ],
    )


def test_a_shove_breaks_an_npcs_hold() -> None:
    gm, others = told(scenes.a_shove_breaks_an_npcs_hold)
    assert gm == (
        "Mira shoves Ogre 5 ft (18 >= FD 14); the hold with Bran ends",
        [
            "d20 20 +2 FR bonus -4 size penalty = 18: 18 >= FD 14",
            "FD 14: success",
            "Forceful Defense: defender FR +5 exceeds attacker FR +2; no double success",
            "Mira shoves Ogre 5 ft (18 >= FD 14); the hold with Bran ends",
            "Bran loses: grappled",
            "Ogre loses: grappling",
        ],
    )
    assert others == (
        "Mira shoves Ogre 5 ft; the hold with Bran ends",
        [
            "d20 20",
            "FD: success",
            "Forceful Defense: defender FR exceeds attacker FR +2; no double success",
            "Mira shoves Ogre 5 ft; the hold with Bran ends",
            "Bran loses: grappled",
            "Ogre loses: grappling",
        ],
    )


def test_a_pc_trips_an_npc() -> None:
    gm, others = told(scenes.a_pc_trips_an_npc)
    assert gm == (
        "Bran trips Ogre, who falls prone (17 >= FD 14)",
        [
            "d20 18 +3 FR bonus -4 size penalty = 17: 17 >= FD 14",
            "FD 14: success",
            "Bran trips Ogre, who falls prone (17 >= FD 14)",
            "Ogre gains: prone",
        ],
    )
    assert others == (
        "Bran trips Ogre, who falls prone",
        [
            "d20 18",
            "FD: success",
            "Bran trips Ogre, who falls prone",
            "Ogre gains: prone",
        ],
    )


def test_an_npc_fails_to_trip_a_pc() -> None:
    gm, others = told(scenes.an_npc_fails_to_trip_a_pc)
    assert gm == (
        "Ogre fails to trip Bran (7 < FD 10)",
        [
            "d20 2 +5 FR bonus +0 size penalty = 7: 7 < FD 10",
            "FD 10: failure",
            "Ogre fails to trip Bran (7 < FD 10)",
        ],
    )
    assert others == (
        "Ogre fails to trip Bran",
        [
            "d20 2",
            "FD 10: failure",
            "Ogre fails to trip Bran",
        ],
    )


def test_an_npc_grapples_a_pc() -> None:
    gm, others = told(scenes.an_npc_grapples_a_pc)
    assert gm == (
        "Ogre grapples Bran (21 >= FD 10); Bran gains: grappled; Ogre gains: grappling",
        [
            (
                "d20 17 +5 FR bonus +0 size penalty -1 armor wrestling penalty (Chain Mail) = 21: "
                "21 >= FD 10"
            ),
            "FD 10: success",
            "Bran gains: grappled",
            "Ogre gains: grappling",
            "Ogre grapples Bran (21 >= FD 10); Bran gains: grappled; Ogre gains: grappling",
        ],
    )
    assert others == (
        "Ogre grapples Bran; Bran gains: grappled; Ogre gains: grappling",
        [
            "d20 17",
            "FD 10: success",
            "Bran gains: grappled",
            "Ogre gains: grappling",
            "Ogre grapples Bran; Bran gains: grappled; Ogre gains: grappling",
        ],
    )


def test_a_pc_with_a_shield_cannot_grapple_an_npc() -> None:
    gm, others = told(scenes.a_pc_with_a_shield_cannot_grapple_an_npc)
    assert gm == (
        "Mira cannot grapple Ogre: Small Shield: Cannot initiate Grapple while shield is equipped",
        [
            (
                "Mira cannot grapple Ogre: Small Shield: Cannot initiate Grapple while shield is "
                "equipped"
            ),
        ],
    )
    assert others == gm


def test_a_pc_fails_to_escape_an_npc() -> None:
    gm, others = told(scenes.a_pc_fails_to_escape_an_npc)
    assert gm == (
        "Bran fails to escape Ogre (6 < FD 14)",
        [
            (
                "d20 5 +3 FR bonus -4 size penalty +2 Slippery: +2 to Escape rolls (No armor) = 6: "
                "6 < FD 14"
            ),
            "FD 14: failure",
            "Bran fails to escape Ogre (6 < FD 14)",
        ],
    )
    assert others == (
        "Bran fails to escape Ogre",
        [
            "d20 5",
            "FD: failure",
            "Bran fails to escape Ogre",
        ],
    )


def test_a_pc_escapes_an_npc() -> None:
    gm, others = told(scenes.a_pc_escapes_an_npc)
    assert gm == (
        "Bran escapes Ogre (21 >= FD 14)",
        [
            (
                "d20 20 +3 FR bonus -4 size penalty +2 Slippery: +2 to Escape rolls (No armor) = "
                "21: 21 >= FD 14"
            ),
            "FD 14: success",
            "Bran escapes Ogre (21 >= FD 14)",
            "Bran loses: grappled",
            "Ogre loses: grappling",
        ],
    )
    assert others == (
        "Bran escapes Ogre",
        [
            "d20 20",
            "FD: success",
            "Bran escapes Ogre",
            "Bran loses: grappled",
            "Ogre loses: grappling",
        ],
    )


def test_an_npc_keeps_its_hold() -> None:
    gm, others = told(scenes.an_npc_keeps_its_hold)
    assert gm == (
        "Ogre keeps hold of Bran (17 >= FD 10)",
        [
            (
                "d20 12 +5 FR bonus +0 size penalty -1 armor wrestling penalty (Chain Mail) +1 "
                "Mesh Grip: +1 to Maintain holds (Chain Mail) = 17: 17 >= FD 10"
            ),
            "FD 10: success",
            "Ogre keeps hold of Bran (17 >= FD 10)",
        ],
    )
    assert others == (
        "Ogre keeps hold of Bran",
        [
            "d20 12",
            "FD 10: success",
            "Ogre keeps hold of Bran",
        ],
    )


def test_a_pc_loses_hold_of_an_npc() -> None:
    gm, others = told(scenes.a_pc_loses_hold_of_an_npc)
    assert gm == (
        "Bran loses hold of Knight (5 < FD 14)",
        [
            (
                "d20 2 +3 FR bonus +0 size penalty +0 armor wrestling penalty (No armor) = 5: 5 < "
                "FD 14"
            ),
            "FD 14: failure",
            "Bran loses hold of Knight (5 < FD 14)",
            "Bran loses: grappling",
            "Knight loses: grappled",
        ],
    )
    assert others == (
        "Bran loses hold of Knight",
        [
            "d20 2",
            "FD: failure",
            "Bran loses hold of Knight",
            "Bran loses: grappling",
            "Knight loses: grappled",
        ],
    )


def test_an_npc_throws_a_pc() -> None:
    """A throw's shove die through AV (RULES.md's throw_damage_dice; seed 004: "AV applies
    to all physical damage including [...] Wrestling damage"): the narrative had only the
    summary's '3 damage; HP 20 -> 17', not the d8 rolled nor D4's arithmetic. Bran's AV and
    HP are his player's too."""
    gm, others = told(scenes.an_npc_throws_a_pc)
    bran = [
        "Throw damage: 1 shove die (d8), rolled 3",
        "1 penetrates; remaining 3 - 1 = 2; 2 - AV 0 = 2; 1 + 2 = 3",
        "Bran: HP 20 -> 17",
    ]
    assert gm == (
        "Ogre throws Bran to the ground (22 >= FD 10), 3 damage; HP 20 -> 17; Bran gains: prone",
        [
            (
                "d20 18 +5 FR bonus +0 size penalty -1 armor wrestling penalty (Chain Mail) = 22: "
                "22 >= FD 10"
            ),
            "FD 10: success",
            *bran,
            "Bran gains: prone",
            "Bran loses: grappled",
            "Ogre loses: grappling",
            (
                "Ogre throws Bran to the ground (22 >= FD 10), 3 damage; HP 20 -> 17; Bran gains: "
                "prone"
            ),
        ],
    )
    assert others == (
        "Ogre throws Bran to the ground, 3 damage; HP 20 -> 17; Bran gains: prone",
        [
            "d20 18",
            "FD 10: success",
            *bran,
            "Bran gains: prone",
            "Bran loses: grappled",
            "Ogre loses: grappling",
            "Ogre throws Bran to the ground, 3 damage; HP 20 -> 17; Bran gains: prone",
        ],
    )


def test_a_pc_throws_an_npc() -> None:
    """The d10 rolled is every reader's; the Ogre's AV (chain mail, 4) in D4's arithmetic
    and its HP are the GM's: a player reads its descriptor (T3a)."""
    gm, others = told(scenes.a_pc_throws_an_npc)
    assert gm == (
        "Bran throws Ogre to the ground (19 >= FD 14), 3 damage; HP 20 -> 17; Ogre gains: prone",
        [
            (
                "d20 20 +3 FR bonus -4 size penalty +0 armor wrestling penalty (No armor) = 19: 19 "
                ">= FD 14"
            ),
            "FD 14: success",
            "Throw damage: 1 shove die (d10), rolled 7",
            "1 penetrates; remaining 7 - 1 = 6; 6 - AV 4 = 2; 1 + 2 = 3",
            "Ogre: HP 20 -> 17",
            "Bran loses: grappling",
            (
                "Bran throws Ogre to the ground (19 >= FD 14), 3 damage; HP 20 -> 17; Ogre gains: "
                "prone"
            ),
            "Ogre gains: prone",
            "Ogre loses: grappled",
        ],
    )
    assert others == (
        "Bran throws Ogre to the ground; Ogre is hurt; Ogre gains: prone",
        [
            "d20 20",
            "FD: success",
            "Throw damage: 1 shove die (d10), rolled 7",
            "Ogre: hurt",
            "Bran loses: grappling",
            "Bran throws Ogre to the ground; Ogre is hurt; Ogre gains: prone",
            "Ogre gains: prone",
            "Ogre loses: grappled",
        ],
    )


def test_a_pc_cannot_throw_an_npc_in_plate() -> None:
    gm, others = told(scenes.a_pc_cannot_throw_an_npc_in_plate)
    assert gm == (
        (
            "Bran cannot throw Knight: Immovable: Cannot be Thrown by same-size foes (Plate Mail; "
            "both are Medium)"
        ),
        [
            (
                "Bran cannot throw Knight: Immovable: Cannot be Thrown by same-size foes (Plate "
                "Mail; both are Medium)"
            ),
        ],
    )
    assert others == gm


def test_an_npc_lets_go() -> None:
    gm, others = told(scenes.an_npc_lets_go)
    assert gm == (
        "Ogre lets go of Bran",
        [
            "Ogre lets go of Bran",
            "Bran loses: grappled",
            "Ogre loses: grappling",
        ],
    )
    assert others == gm


def test_an_npc_stands_up() -> None:
    gm, others = told(scenes.an_npc_stands_up)
    assert gm == (
        "Ogre stands up",
        [
            "Ogre stands up",
            "Ogre loses: prone",
        ],
    )
    assert others == gm


def test_a_hit_says_how_the_armor_took_its_share() -> None:
    """The GM reads D4's arithmetic (one point through, the rest less AV) under the dice,
    where the narrative had gone from the die straight to the hit points. A player reads
    no line of it: the Ogre's AV is its own."""
    gm, others = told(scenes.a_pc_hits_an_npc_in_chain_mail)
    assert gm == (
        "Bran hits Ogre with Longsword (20 >= AC 11): 7 rolled, 3 dealt; HP 20 -> 17",
        [
            "d20 20 +0 HR bonus with Longsword = 20: 20 >= AC 11",
            "AC 11: success",
            "Damage 1d8: rolled 7",
            "1 penetrates; remaining 7 - 1 = 6; 6 - AV 4 = 2; 1 + 2 = 3",
            "Ogre: HP 20 -> 17",
            "Bran hits Ogre with Longsword (20 >= AC 11): 7 rolled, 3 dealt; HP 20 -> 17",
        ],
    )
    assert others == (
        "Bran hits Ogre with Longsword: 7 rolled; Ogre is hurt",
        [
            "d20 20",
            "AC: success",
            "Damage 1d8: rolled 7",
            "Ogre: hurt",
            "Bran hits Ogre with Longsword: 7 rolled; Ogre is hurt",
        ],
    )


def test_a_hit_on_plate_says_only_one_point_got_through() -> None:
    gm, _ = told(scenes.an_npc_hits_a_pc_in_plate)
    assert gm[1][2:4] == [
        "Damage 1d8: rolled 5",
        "1 penetrates; remaining 5 - 1 = 4; 4 - AV 6 = -2 -> 0; 1 + 0 = 1",
    ]
