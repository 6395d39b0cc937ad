"""d20's moves as parts (RULINGS T3a): the Defensive Stance, shoves, trips, holds
(grapple, maintain, escape, throw, release) and standing up.

The GM reads every part, the same bytes domain/reading/narrators.py and the moves' summaries
wrote. Others read the d20's face, the feet moved, the outcome words (shoves, trips,
fails, keeps hold, double success, Forceful Defense denies it), the words of a refusal
and the PCs' numbers; an NPC's FD, FR bonus, a total that holds one and the damage a
throw does it are left out (its descriptor instead of its hit points). As for an attack
(domain/rulesets/d20/texts.py), a check's terms, total and comparison are said only to
a reader who sees the numbers of both sides.

A hold's other party is not named in a maintain's, an escape's, a throw's or a
release's parameters (it is read from the hold): it is the one character whose name
makes the record's summary, names being unique in a campaign.
"""

from __future__ import annotations

from collections.abc import Mapping

from skald_campaign.domain.rulesets.d20 import records as bd
from skald_campaign.domain.rulesets.d20.narrator import (
    forceful_verdict,
    into_the_wall,
    pit_stop,
    thrown_down,
)
from skald_campaign.domain.rulesets.d20.texts import both, check_lines
from skald_campaign.ruleset_api import JSONObject
from skald_campaign.ruleset_api.narrative import Sheeted, name_of
from skald_campaign.ruleset_api.records import read, target_of
from skald_campaign.ruleset_api.texts import Descriptor, Part, Text, render, secret

Roster = Mapping[str, Sheeted]

CONTESTS = frozenset({"shove", "trip", "grapple", "maintain", "escape", "throw"})
# Whose other party is read from the hold the actor is in, not from the parameters.
HELD = frozenset({"maintain", "escape", "throw", "release"})
MOVES = CONTESTS | HELD | {"defensive_stance", "stand_up"}


class Move(bd.Part, frozen=True):
    """What a move's texts read of its record."""

    kind: str
    actor: str
    params: dict[str, object]
    breakdown: dict[str, object]
    summary: str
    round: int


class Double(bd.Part, frozen=True):
    reached: bool
    forceful_defense: bool
    result: bool


class Moved(bd.Part, frozen=True):
    moved_feet: int


class Dealt(bd.Part, frozen=True):
    dealt: int


class HitPoints(bd.Part, frozen=True):
    before: int
    after: int


class Thrown(bd.Part, frozen=True):
    damage: Dealt | None = None
    hp: HitPoints | None = None


class Contest(bd.Part, frozen=True):
    """A contest's breakdown: refused (a wrestling note forbids it), or its roll."""

    refused: bool = False
    why: str | None = None
    roll: bd.D20Check | None = None
    double_success: Double | None = None  # a shove's
    displacement: Moved | None = None  # a successful shove's
    throw_damage: Thrown | None = None  # a successful throw's


class Rated(bd.Part, frozen=True):
    value: int


class Stance(bd.Part, frozen=True):
    fd_before: int
    fd_in_stance: Rated


class Force(bd.Part, frozen=True):
    value: int


class Forces(bd.Part, frozen=True):
    attacker: Force
    defender: Force


class Forceful(bd.Part, frozen=True):
    fr_bonus: Forces


def head(kind: str, c: Contest, actor: str, other: str) -> tuple[str, str] | None:
    """What the move did, before its comparison, and the outcome words in its bracket."""
    if c.refused:
        return f"{actor} cannot {kind} {other}: {c.why}", ""
    if c.roll is None:
        return None
    won = c.roll.success
    if kind == "shove":
        if not won:
            return f"{actor} fails to shove {other}", ""
        if c.double_success is None or c.displacement is None:
            return None
        double = c.double_success
        prone = " and knocks them prone" if double.result else ""
        words = ", double success" if double.result else ""
        if double.reached and double.forceful_defense:
            words = "; Forceful Defense denies the double success"
        return f"{actor} shoves {other} {c.displacement.moved_feet} ft{prone}", words
    done, failed = {
        "trip": (f"trips {other}, who falls prone", f"fails to trip {other}"),
        "grapple": (f"grapples {other}", f"fails to grapple {other}"),
        "maintain": (f"keeps hold of {other}", f"loses hold of {other}"),
        "escape": (f"escapes {other}", f"fails to escape {other}"),
        "throw": (f"throws {other} to the ground", f"fails to throw {other}"),
    }[kind]
    return f"{actor} {done if won else failed}", ""


def contest(move: Move, actor_name: str, other: str, other_name: str) -> Text | None:
    """The summary up to what follows the move's bracket (and a throw's damage)."""
    c = read(move.breakdown, Contest)
    said = head(move.kind, c, actor_name, other_name)
    if said is None:
        return None
    words, outcome = said
    if c.refused or c.roll is None:
        return (words,)
    instead: Text = (f" ({outcome[2:]})",) if outcome else ()
    parts: list[Part] = [words, *both(move.actor, other, f" ({c.roll.comparison}{outcome})",
                                      instead=instead)]  # fmt: skip
    thrown = c.throw_damage
    if c.roll.success and thrown is not None and thrown.damage and thrown.hp:
        hp = thrown.hp
        parts += secret(
            other,
            f", {thrown.damage.dealt} damage; HP {hp.before} -> {hp.after}",
            instead=(f"; {other_name} is ", Descriptor(other, {"hp": hp.after})),
        )
    return tuple(parts)


def built(move: Move, other: str | None, combatants: Roster) -> Text | None:
    """The move's summary as parts, but for the words that follow them (``rest``)."""
    actor = name_of(combatants, move.actor)
    if move.kind == "stand_up":
        return (f"{actor} stands up",)
    if move.kind == "defensive_stance":
        stance = read(move.breakdown, Stance)
        during = stance.fd_in_stance.value
        return (
            f"{actor} takes a Defensive Stance",
            *secret(move.actor, f": FD {stance.fd_before} -> {during}"),
            f" until round {move.round} ends",
        )
    if other is None:
        return None
    if move.kind == "release":
        return (f"{actor} lets go of {name_of(combatants, other)}",)
    return contest(move, actor, other, name_of(combatants, other))


def rest(summary: str, said: str) -> str | None:
    """What the stored summary says after ``said``: the words a move's summary ends with
    (', into the wall', '; the hold with Bran ends', '; Bran gains: prone'), or None
    when ``said`` does not begin it."""
    if not summary.startswith(said):
        return None
    after = summary[len(said) :]
    return after if after[:2] in ("", ", ", "; ") else None


def other_party(move: Move, combatants: Roster) -> str | None:
    """The move's other party: its target, or for a hold's move the one whose name
    makes the stored summary (the longest such name: 'Goblin 2' before 'Goblin')."""
    if move.kind not in HELD:
        return target_of(move.params, "") or None
    found: list[tuple[int, str]] = []
    for cid, character in combatants.items():
        if cid == move.actor or character.name not in move.summary:
            continue
        parts = built(move, cid, combatants)
        if parts is not None and rest(move.summary, render(parts)) is not None:
            found.append((len(character.name), cid))
    return max(found)[1] if found else None


def read_move(record: JSONObject) -> Move | None:
    if record.get("kind") not in MOVES:
        return None
    return read(record, Move)


def summary(record: JSONObject, combatants: Roster) -> Text | None:
    """'Bran shoves Ogre 5 ft (17 >= FD 14)'; to others 'Bran shoves Ogre 5 ft'."""
    move = read_move(record)
    if move is None:
        return None
    parts = built(move, other_party(move, combatants), combatants)
    if parts is None:
        return None
    after = rest(move.summary, render(parts))
    return None if after is None else (*parts, after) if after else parts


def forceful_line(move: Move, other: str, why: str, verdict: str) -> Text:
    """'Forceful Defense: defender FR +5 exceeds attacker FR +3; no double success': each
    FR bonus its owner's, the verdict (narrator.forceful_verdict) every reader's."""
    said = f"Forceful Defense: {why}; {verdict}"
    forces = read(move.breakdown, Forceful).fr_bonus
    exceeds = forces.defender.value > forces.attacker.value
    parts = (
        "Forceful Defense: defender FR",
        *secret(other, f" {forces.defender.value:+d}"),
        f" {'exceeds' if exceeds else 'does not exceed'} attacker FR",
        *secret(move.actor, f" {forces.attacker.value:+d}"),
        f"; {verdict}",
    )
    return parts if render(parts) == said else both(move.actor, other, said)


def checks(value: object, move: Move, other: str, lines: list[Text]) -> None:
    """Every d20 check in the breakdown, in order, as domain/reading/narrators.py d20_checks
    walks it (a part it cannot read fails here as there: no parts, the plain lines)."""
    if isinstance(value, Mapping):
        if "d20" in value and "comparison" in value:
            lines += check_lines(read(value, bd.D20Check), move.actor, other)
            return
        for key, inner in value.items():
            if key == "forceful_defense_why" and inner:
                lines.append(forceful_line(move, other, str(inner), forceful_verdict(value)))
            if key == "hazard" and isinstance(inner, Mapping):
                continue  # a save, not a check: told by pit_stop, after the checks
            checks(inner, move, other, lines)
    elif isinstance(value, list):
        for inner in value:
            checks(inner, move, other, lines)


def narrative(record: JSONObject, combatants: Roster) -> list[Text] | None:
    """The move's checks, then its summary: the lines domain/reading/narrators.py d20 writes."""
    move = read_move(record)
    if move is None:
        return None
    said = summary(record, combatants)
    other = other_party(move, combatants)
    if said is None or (other is None and move.kind in CONTESTS | HELD):
        return None
    if "damage" in move.breakdown or "hp" in move.breakdown:
        return None  # an attack's parts, which no move records
    lines: list[Text] = []
    checks(move.breakdown, move, other or move.actor, lines)
    if other is not None and isinstance(move.breakdown.get("hazard"), Mapping):
        # The save's number is the target's; the die, the push and the verdict everyone's.
        push, (die, compared, verdict) = pit_stop(
            read(move.breakdown, bd.Pushed), name_of(combatants, other)
        )
        lines += [(push,), (die, *secret(other, compared), verdict)]
    if other is not None and isinstance(move.breakdown.get("wall"), Mapping):
        lines += wall_lines(move, other, combatants)
    if other is not None and isinstance(move.breakdown.get("throw_damage"), Mapping):
        lines += throw_lines(move, other, combatants)
    return [*lines, said]


def wall_lines(move: Move, other: str, combatants: Roster) -> list[Text]:
    """A push into a wall (narrator.into_the_wall): the why states the shover's FR bonus,
    the damage through AV the target's AV, the hit points the target's (its descriptor
    instead); the push, the wall and the dice rolled are every reader's."""
    target = name_of(combatants, other)
    wall = into_the_wall(read(move.breakdown, bd.Walled), target)
    lines: list[Text] = [(wall.push, *secret(move.actor, f": {wall.why}"))]
    if wall.dice:
        lines.append((wall.dice,))
    if wall.arithmetic:
        lines.append(secret(other, wall.arithmetic))
    if wall.hp is not None:
        lines.append(hp_line(other, target, wall.hp))
    return lines


def throw_lines(move: Move, other: str, combatants: Roster) -> list[Text]:
    """A throw's damage (narrator.thrown_down): the dice rolled are every reader's, the
    damage through AV the thrown one's AV, the hit points the thrown one's (its
    descriptor instead, T3a)."""
    throw = thrown_down(read(move.breakdown, bd.Threw))
    if throw is None:
        return []
    lines: list[Text] = [(throw.dice,)]
    if throw.arithmetic:
        lines.append(secret(other, throw.arithmetic))
    if throw.hp is not None:
        lines.append(hp_line(other, name_of(combatants, other), throw.hp))
    return lines


def hp_line(other: str, name: str, hp: bd.BeforeAfter) -> Text:
    """'Ogre: HP 31 -> 28', the hit points the pushed or thrown one's own (its descriptor
    instead for a reader who may not see them, T3a)."""
    shown = secret(other, f"HP {hp.before} -> {hp.after}",
                   instead=(Descriptor(other, {"hp": hp.after}),))  # fmt: skip
    return (f"{name}: ", *shown)


def parties(record: JSONObject, combatants: Roster) -> set[str]:
    """Who a move involves beyond its actor and parameters: a hold's other party."""
    move = read_move(record)
    if move is None or move.kind not in HELD:
        return set()
    other = other_party(move, combatants)
    return set() if other is None else {other}


def outcome(record: JSONObject, combatants: Roster) -> Text | None:
    """What a move did, as a hidden roll shows it (domain/reading/outcomes.py): 'Ogre shoves Bran
    5 ft (double success), into the wall', 'Ogre fails to trip Bran', 'Ogre takes a
    Defensive Stance until round 2 ends'; no d20, no total, no FD, no FR bonus."""
    move = read_move(record)
    if move is None:
        return None
    actor = name_of(combatants, move.actor)
    if move.kind == "stand_up":
        return (f"{actor} stands up",)
    if move.kind == "defensive_stance":
        return (f"{actor} takes a Defensive Stance until round {move.round} ends",)
    other = other_party(move, combatants)
    if other is None:
        return None
    if move.kind == "release":
        return (f"{actor} lets go of {name_of(combatants, other)}",)
    said = head(move.kind, read(move.breakdown, Contest), actor, name_of(combatants, other))
    if said is None:
        return None
    words, bracket = said
    # What the summary says after the bracket: ', into the wall', '; the hold with Bran
    # ends', '; fails the save and goes into the pit': words, no die.
    parts = built(move, other, combatants)
    after = None if parts is None else rest(move.summary, render(parts))
    return (f"{words} ({bracket[2:]})" if bracket else words, after or "")
