"""The GM's narrative lines corrected since the compat fixtures were written, each named
with why, applied to an old answer to give what today's code must answer instead.

A ruleset's texts may change without its version (docs/rulesets.md, "Versions": an
outcome as it was, a text, keeps it), and the narratives of events stored before texts
were recorded are told anew on every read. The compat tests (test_compat_fe485e1.py,
test_compat_77c0eaa.py) still compare every other byte with the old answers: only the
lines below may differ, and only as written here (each since the commit named).
"""

from __future__ import annotations

import re
from typing import Any

import orjson

# Seed 004: "If a defender's FR bonus exceeds the attacker's FR bonus the attacker cannot
# achieve a Double Success". The old narrator wrote "no double success" after every
# Forceful Defense line, also when the defender's FR bonus did not exceed the attacker's
# (beside "... knocks them prone (double success)"); since 3c5261d it says so only when
# it did.
FORCEFUL_NOT_EXCEEDING = re.compile(
    r"^(Forceful Defense: defender FR [+-]\d+ does not exceed attacker FR [+-]\d+); "
    r"no double success$"
)

# d20's damage through armor (seed 004, D4): the rules record its working as the damage's
# `arithmetic`, which the old narrator never read, so a hit went from the dice rolled
# straight to the HP; since 3c5261d it follows the dice (after `why` and `formula`).
D20_DAMAGE_ROLLED = re.compile(r"^Damage \d*d\d+[^:]*: rolled ")

# Margin's answered Riposte (seed 000): the old narrator could not read the counter's
# damage (recorded with whom it hurt beside it, not in it) and wrote the plain lines,
# sums of faces that seed 000 never adds up; since f144867 it reads as every other
# attack. Pinned literally: the one answered Riposte of the compat stories.
ANSWERED_RIPOSTES = {
    (
        "attack: 3d6 rolled 2, 2, 2 = 6",
        "defense.Elowen.evasion: 6d6 rolled 6, 6, 6, 6, 6, 6 = 36",
        "defense.Elowen.guard: 2d6 rolled 6, 6 = 12",
        "Goblin attacks with fists at Elowen: 0 against 8, margin -8; turned; Elowen "
        "counters with sword: Goblin takes 10",
    ): [
        "fists (melee) reaches 1; distance 1",
        "Goblin's attack with fists: Might 2 + Melee 1 = 3 dice; rolled 2, 2, 2: 0 successes",
        "Elowen is in Riposte: evasion active and sharpened, every other defense at the bare "
        "passive floor",
        "Elowen's evasion (active): Grace 2 + Evasion 2 + Effort 1 + Riposte_Sharpening 1 = 6 "
        "dice; rolled 6, 6, 6, 6, 6, 6: 6 successes",
        "Elowen's guard (passive): Vigor 2 = 2 dice; rolled 6, 6: 2 successes",
        "Margin: 0 - (6 + 2) = -8",
        "A margin of 0 or less: nothing happens, no damage of any kind",
        "Riposte: Elowen turned the blow by 8 and answers with sword at distance 1",
        "Damage: 2 + 1 x 8 = 10 slash",
        "Rounded half up, once: 10 -> 10",
        "Goblin: health 80 -> 70",
    ],
}


# Stamina-body's recovery (seed 001, "The Recovery roll"): the old narrator wrote the
# plain lines, the dice's sum and the summary, nothing of CON, the margin or why the
# gain; since 54a063e it tells the roll against CON, the outcome and margin, the gain's
# why and the Stamina before and after (capped at the maximum). Pinned literally: the
# recoveries of the compat stories.
RECOVERIES = {
    ("recovery: 3d6 rolled 6, 6, 4 = 16", "Mira ✦ recovers 0 Stamina"): [
        "Mira ✦'s recovery: 3d6 rolled 16 against CON 12: failure, margin -4",
        "Failure (16 > 12): +1",
        "Mira ✦: Stamina 12 -> 12 (never past the maximum, 12)",
    ],
    ("recovery: 3d6 rolled 1, 2, 3 = 6", "Mira ✦ recovers 0 Stamina"): [
        "Mira ✦'s recovery: 3d6 rolled 6 against CON 12: success, margin 6",
        "Success by 6: +max(1, 6)",
        "Mira ✦: Stamina 12 -> 12 (never past the maximum, 12)",
    ],
    ("recovery: 3d6 rolled 5, 1, 6 = 12", "Ylva recovers 1 Stamina"): [
        "Ylva's recovery: 3d6 rolled 12 against CON 12: success, margin 0",
        "Success by 0: +max(1, 0)",
        "Ylva: Stamina 11 -> 12",
    ],
}


# d20's shove towards a hazard (seed 004, the Pit-Stop Rule): the old narrator read the
# target's Save vs Death Ray as a d20 check, could not, and wrote the plain lines, the dice
# summed and the summary, no check and no rule; since the shove's narrative reads as every
# other shove's, the save told after the checks (the push and the edge, the die against the
# save number, what it did). Pinned literally: the one hazard of the compat stories, at
# the Orc's heels (0 ft): "right behind them", not "0 ft behind them", since the push line
# says so of a hazard or a wall at 0 ft (true either way; the summary keeps its "0 ft").
HAZARD_SHOVES: dict[tuple[str, ...], list[str]] = {
    (
        "shove: 1d20 rolled 18 = 18",
        "hazard_save: 1d20 rolled 3 = 3",
        "Grimm shoves Orc 0 ft (18 >= FD 10); fails the save and goes into the well",
    ): [
        "d20 18 +0 FR bonus +0 size penalty = 18: 18 >= FD 10",
        "FD 10: success",
        "Forceful Defense: defender FR +0 does not exceed attacker FR +0; a double success is "
        "not ruled out",
        "Orc is pushed towards the well, right behind them, within the shove's 5 ft: a Save "
        "vs Death Ray to stop at the very edge",
        "Save vs Death Ray: d20 3 < 12: failure; Orc goes into the well; its own effects and "
        "saves follow",
        "Grimm shoves Orc 0 ft (18 >= FD 10); fails the save and goes into the well",
    ],
}


# d20's shove into a wall (seed 004: "A target pushed into a wall before its distance is
# spent takes one shove die of damage per full 2 points of the attacker's FR bonus (at
# least one), through AV"): the old narrator said nothing of it, neither the die nor the
# damage through AV nor the HP; since the shove tells them between its checks and its
# summary. Pinned literally: the compat stories' one wall, met twice (Grimm at 17 HP and
# at 20), by the old lines and the HP the record holds; at 0 ft, "right behind them", as
# for the hazard above.
WALL_SHOVE = (
    "d20 19 +0 FR bonus +0 size penalty = 19: 19 >= FD 12",
    "FD 12: success",
    "Forceful Defense: defender FR +0 does not exceed attacker FR +0; no double success",
    "Orc shoves Grimm 0 ft (19 >= FD 12), into the wall",
)
WALL_SHOVES: dict[tuple[tuple[str, ...], tuple[object, object] | None], list[str]] = {
    (WALL_SHOVE, (before, after)): [
        "d20 19 +0 FR bonus +0 size penalty = 19: 19 >= FD 12",
        "FD 12: success",
        "Forceful Defense: defender FR +0 does not exceed attacker FR +0; a double success is "
        "not ruled out",
        "Grimm is pushed into the wall, right behind them, with 5 of the shove's 5 ft "
        "unspent: one d6 per full 2 points of FR +0, at least 1",
        "Wall damage: 1 shove die (d6), rolled 3",
        "1 penetrates; remaining 3 - 1 = 2; 2 - AV 4 = -2 -> 0; 1 + 0 = 1",
        f"Grimm: HP {before} -> {after}",
        "Orc shoves Grimm 0 ft (19 >= FD 12), into the wall",
    ]
    for before, after in ((17, 16), (20, 19))
}


# d20's throw (RULES.md: a successful throw deals `throw_damage_dice` shove dice through
# AV; seed 004: "AV applies to all physical damage including [...] Wrestling damage"): the
# old narrator told the checks and the summary's "1 damage; HP a -> b", nothing of the die
# rolled nor of the damage through AV; since the throw tells the dice, D4's arithmetic and
# the HP between its checks and its summary. Pinned literally: the compat stories' one
# throw (Aldric throws Grimm, in chain mail, rolling a 1 on his d10), met at three HP.
THROW_CHECK = (
    "d20 19 +6 FR bonus +0 size penalty +0 armor wrestling penalty (No armor) = 25: 25 >= FD 12"
)
THROWS: dict[tuple[str, ...], list[str]] = {
    (
        THROW_CHECK,
        "FD 12: success",
        f"Aldric throws Grimm to the ground (25 >= FD 12), 1 damage; HP {before} -> {after}; "
        "Grimm gains: prone",
        "Aldric loses: grappling",
        "Grimm gains: prone",
        "Grimm loses: grappled",
    ): [
        THROW_CHECK,
        "FD 12: success",
        "Throw damage: 1 shove die (d10), rolled 1",
        "1 penetrates; remaining 1 - 1 = 0; 0 - AV 4 = -4 -> 0; 1 + 0 = 1",
        f"Grimm: HP {before} -> {after}",
        f"Aldric throws Grimm to the ground (25 >= FD 12), 1 damage; HP {before} -> {after}; "
        "Grimm gains: prone",
        "Aldric loses: grappling",
        "Grimm gains: prone",
        "Grimm loses: grappled",
    ]
    for before, after in ((20, 19), (16, 15), (19, 18))
}


def wall_hp(breakdown: object) -> tuple[object, object] | None:
    wall = breakdown.get("wall") if isinstance(breakdown, dict) else None
    hp = wall.get("hp") if isinstance(wall, dict) else None
    return (hp.get("before"), hp.get("after")) if isinstance(hp, dict) else None


def corrected_narrative(lines: list[str], breakdown: object) -> list[str]:
    pinned = (
        ANSWERED_RIPOSTES.get(tuple(lines))
        or RECOVERIES.get(tuple(lines))
        or HAZARD_SHOVES.get(tuple(lines))
        or WALL_SHOVES.get((tuple(lines), wall_hp(breakdown)))
        or THROWS.get(tuple(lines))
    )
    if pinned is not None:
        return list(pinned)
    out = [FORCEFUL_NOT_EXCEEDING.sub(r"\1; a double success is not ruled out", x) for x in lines]
    damage = breakdown.get("damage") if isinstance(breakdown, dict) else None
    arithmetic = damage.get("arithmetic") if isinstance(damage, dict) else None
    rolled = [n for n, line in enumerate(out) if D20_DAMAGE_ROLLED.match(line)]
    if arithmetic and rolled:
        assert isinstance(damage, dict) and len(rolled) == 1, (lines, damage)
        after = (
            rolled[0] + 1 + sum(1 for said in (damage.get("why"), damage.get("formula")) if said)
        )
        out.insert(after, arithmetic)
    return out


def corrected_since(then: Any) -> Any:
    """``then`` (an old answer, as JSON) with every action record's narrative as today's
    narrators tell it, by the corrections above; everything else as it was."""
    if isinstance(then, dict):
        out = {k: corrected_since(v) for k, v in then.items()}
        narrative = then.get("narrative")
        if isinstance(narrative, list) and all(isinstance(x, str) for x in narrative):
            out["narrative"] = corrected_narrative(narrative, then.get("breakdown"))
        return out
    if isinstance(then, list):
        return [corrected_since(v) for v in then]
    return then


def corrected_answers(answers: dict[str, str]) -> list[str]:
    """The requests whose recorded answer has a narrative the corrections above change."""
    return [
        request
        for request, answer in answers.items()
        if corrected_since(orjson.loads(answer)) != orjson.loads(answer)
    ]
