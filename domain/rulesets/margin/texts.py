"""Margin's texts as parts (RULINGS T3a): an attack's or a spell's narrative and summary,
a Dwarf's Ward and an Elf's Riposte in it, and a posture's summary, built from the
record, each number marked with whose it is.

The GM reads every part, the same bytes domain/reading/narrators.py wrote before. Others read
neither the sheet values an NPC's pools add up (Might 2 + Melee 2) nor its weapon's
damage, its nature, its armor or its health (its descriptor instead), nor the effort
an NPC puts into a posture (it spends its fatigue); the dice thrown (how many and their
faces), the successes they show and the margin they make (a Ward's too), the outcome
words (intercepts, stops the blow dead, turned, counters) and the PCs' numbers stay.

Where the GM's narrator cannot read a record it writes the plain lines, and so do these
parts (domain/reading/told.py): the open dice, then the summary. An answered Riposte's
counter is recorded with whom it hurt beside its damage (records.Riposte.counter reads
them together); a Ward that covers nobody the blow reaches is recorded with no dwarf and
the Wards considered (records.Uncovered), told as where each dwarf stands and that his
Ward does nothing (narrator.uncovered_lines: ranks, every reader's).
"""

from __future__ import annotations

from collections.abc import Mapping

from skald_campaign.domain.rulesets.margin import records as bd
from skald_campaign.domain.rulesets.margin.narrator import covers_nobody, uncovered_lines
from skald_campaign.ruleset_api import JSONObject
from skald_campaign.ruleset_api.narrative import Sheeted, exact, faces, name_of, plural
from skald_campaign.ruleset_api.records import UNSET, given, present, read, target_of
from skald_campaign.ruleset_api.texts import Descriptor, Part, Text, secret

Roster = Mapping[str, Sheeted]


class Told(bd.Part, frozen=True):
    kind: str
    actor: str | None
    params: dict[str, object]
    breakdown: dict[str, object]


def both(one: str, other: str, *parts: Part, instead: Text = ()) -> Text:
    """Parts said only to a reader who sees both characters' numbers."""
    return secret(one, *secret(other, *parts, instead=instead), instead=instead)


def successes(rolled: bd.Successes, short: bool = False) -> str:
    if rolled.below_nothing:
        return "-1" if short else "no 5 or 6 and every die a 1: below nothing, -1"
    count = given(rolled.successes)
    return str(count) if short else plural(count, "success", "successes")


def pool_lines(who: str, owner: str, what: str, roll: bd.PoolRoll) -> list[Text]:
    """'Ogre's attack with axe: Might 2 + Melee 2 = 4 dice; rolled 6, 6, 5, 1: 3
    successes': the terms (sheet values) are the owner's, the dice the table's."""
    pool = roll.pool
    terms = [t for t in pool.terms if t.dice]
    sums = " + ".join(f"{given(t.term).title()} {t.dice}" for t in terms) or "nothing"
    dice = plural(pool.dice, "die", "dice")
    head: list[Part] = [f"{who}'s {what}: ", *secret(owner, f"{sums} = "), dice]
    if pool.floor_applied:
        head += secret(owner, f" (the bare attribute, {pool.floor}, is the floor)")
    if not roll.rolled or not pool.dice:
        return [(*head, ": no dice, total 0")]
    first = present(roll.first)
    lines: list[Text] = [(*head, f"; rolled {faces(first.faces)}: {successes(first)}")]
    luck = roll.luck
    if luck:
        lines.append(
            (
                f"{who} spends a luck point ({successes(first, short=True)} is 0 or less): "
                f"re-rolled {faces(luck.faces)}: {successes(luck)}; the second result stands",
            )
        )
    return lines


def defense_lines(block: bd.Defenses, who: str, owner: str, plain: bool = False) -> list[Text]:
    """The defender's posture (it may say its effort: the owner's, unless ``plain``),
    then each defense rolled."""
    why = f"{block.why[0].upper()}{block.why[1:]}"
    lines: list[Text] = [(why,) if plain else secret(owner, why)]
    for roll in block.rolls:
        lines += pool_lines(who, owner, f"{roll.defense} ({roll.mode})", roll)
        if given(roll.counts_as, None) != roll.total:
            lines.append((f"{roll.defense.title()} counts as {given(roll.counts_as)}",))
    return lines


def damage_lines(damage: bd.MarginDamage, to: str, to_id: str, by: str) -> list[Text]:
    """The weapon's damage is the attacker's, the nature, armor and health the target's."""
    w, nature, armor = damage.weapon, damage.nature, damage.armor
    lines: list[Text] = [
        ("Damage: ", *secret(by, f"{w.formula} = {exact(w.damage)} "), nature.damage_type)
    ]
    if nature.nature:
        lines.append(
            both(
                by,
                to_id,
                f"{to} has {nature.nature} to {nature.damage_type}: "
                f"x {exact(given(nature.multiplier))} = {exact(given(nature.damage))}",
            )
        )
    if armor.physical and armor.rating:
        multiplier, damaged = exact(given(armor.multiplier)), exact(given(armor.damage))
        lines.append(both(by, to_id, f"Armor {armor.rating}: x {multiplier} = {damaged}"))
    lines.append(both(by, to_id, f"Rounded half up, once: {exact(damage.exact)} -> {damage.final}"))
    health = damage.health
    lines.append(
        (
            f"{to}: ",
            *secret(
                to_id,
                f"health {health.before} -> {health.after}",
                instead=(Descriptor(to_id, {"health": health.after}),),
            ),
        )
    )
    return lines


POSTURES = frozenset({"defend", "riposte", "ward"})


def read_attack(record: JSONObject) -> tuple[bd.MarginAttack, str, str] | None:
    """An attack or a spell, with its actor and its target."""
    told = read(record, Told)
    if told.kind not in ("attack", "cast") or told.actor is None:
        return None
    return read(told.breakdown, bd.MarginAttack), told.actor, str(target_of(told.params))


def narrative(record: JSONObject, combatants: Roster) -> list[Text] | None:
    """The lines domain/reading/narrators.py margin writes, in its order; what it cannot read
    fails here too (domain/reading/told.py then says the plain lines)."""
    if record.get("kind") == "ward":
        return declared_ward(record, combatants)
    found = read_attack(record)
    if found is None:
        return None
    b, actor, target_id = found
    attacker, target = b.attacker.name, b.target.name
    lines: list[Text] = [(b.distance.why,)]
    lines += pool_lines(attacker, actor, f"{b.kind} with {b.weapon.name}", b.attack)
    if b.defense:
        lines += defense_lines(read(b.defense, bd.Defenses), target, target_id)
    if b.margin:
        m = read(b.margin, bd.MarginValue)
        taken = " + ".join(str(d) for d in m.defenses) or "0"
        lines.append((f"Margin: {m.attack} - ({taken}) = {m.value}",))
        if m.value <= 0:
            lines.append(("A margin of 0 or less: nothing happens, no damage of any kind",))
    if b.ward and b.ward.get("dwarf") is None:  # no Ward covers the target
        lines += [(line,) for line in uncovered_lines(read(b.ward, bd.Uncovered))]
    elif b.ward:
        ward = read(b.ward, bd.Ward)
        dwarf = name_of(combatants, ward.dwarf)
        lines += defense_lines(ward, dwarf, ward.dwarf, plain=True)  # its words hold no number
        end = "; the blow is stopped" if ward.stopped else f"; {dwarf} takes the blow"
        lines.append((f"Ward: {ward.margin_before} - {ward.sum} = {ward.remaining}{end}",))
    if b.damage:
        damage = read(b.damage, bd.MarginDamage)
        lines += damage_lines(damage, name_of(combatants, damage.to), damage.to, actor)
    if b.riposte:
        riposte = read(b.riposte, bd.Riposte)
        if riposte.why is UNSET:  # an early record: the whole riposte, to those who see all
            lines.append(both(actor, target_id, f"Riposte: {b.riposte}"))
        else:
            lines.append((f"Riposte: {riposte.why}",))  # whether and how she answers: words
        if riposte.damage:
            damage = riposte.counter()
            lines += damage_lines(damage, name_of(combatants, damage.to), damage.to, target_id)
    return lines


def declared_ward(record: JSONObject, combatants: Roster) -> list[Text] | None:
    """A Ward declared that covers nobody: its summary, then that it covers nobody
    (narrator.covers_nobody, every reader's). Any other Ward: None, the plain lines, its
    summary alone, as before."""
    said = posture(record)
    told = read(record, Told)
    if said is None or told.actor is None:
        return None
    lines = covers_nobody(read(record, bd.MarginTold), name_of(combatants, told.actor))
    return [said, *((line,) for line in lines)] if lines else None


class Answer(bd.Part, frozen=True):
    """An answered Riposte: her weapon, and what it did to the attacker's health."""

    answered: bool
    why: str
    weapon: str | None = None
    damage: dict[str, object] | None = None
    health: bd.BeforeAfter | None = None


class Final(bd.Part, frozen=True):
    final: int


def takes(who: str, owner: str, final: int, health: bd.BeforeAfter, more: str = "") -> Text:
    """'Ogre takes 5 (health 27 -> 22)'; to others 'Ogre is hurt'."""
    return (
        who,
        *secret(
            owner,
            f" takes {final}{more}",
            instead=(" is ", Descriptor(owner, {"health": health.after})),
        ),
    )


def exchange(b: bd.MarginAttack, actor: str, target_id: str, combatants: Roster) -> Text | None:
    """What the margin did (strike.py _exchange): damage, a Ward's interception, a
    Riposte's counter, or nothing."""
    ward = read(b.ward, bd.Ward) if b.ward and b.ward.get("dwarf") is not None else None
    if ward is not None and ward.stopped:
        return (f"{name_of(combatants, ward.dwarf)} intercepts and stops the blow dead",)
    if b.damage:
        damage = read(b.damage, bd.MarginDamage)
        health = damage.health
        more = f" (health {health.before} -> {health.after})"
        if damage.to == target_id:
            return takes(b.target.name, target_id, damage.final, health, more)
        if ward is None or damage.to != ward.dwarf:
            return None
        dwarf = name_of(combatants, ward.dwarf)
        return (f"{dwarf} intercepts, ", *takes(dwarf, ward.dwarf, damage.final, health, more))
    if b.riposte:
        answer = read(b.riposte, Answer)
        if not answer.answered:
            return (f"turned; no counter: {answer.why}",)
        if answer.damage is None or answer.health is None or answer.weapon is None:
            return None
        final = read(answer.damage, Final).final
        counter = f"turned; {b.target.name} counters with {answer.weapon}: "
        return (counter, *takes(b.attacker.name, actor, final, answer.health))
    return ("the blow is turned: nothing happens, no damage of any kind",)


def summary(record: JSONObject, combatants: Roster) -> Text | None:
    """'Bran attacks with sword at Ogre: 4 against 0, margin 4; Ogre takes 5 (health 27
    -> 22)'; to others '...; Ogre is hurt'. A posture: 'Thrain takes up Ward for round
    2 with 1 effort dice'; to others '... for round 2'."""
    if record.get("kind") in POSTURES:
        return posture(record)
    found = read_attack(record)
    if found is None or not found[0].margin:
        return None
    b, actor, target_id = found
    m = read(b.margin, bd.MarginValue)
    verb = "casts" if b.kind == "cast" else "attacks with"
    head = (
        f"{b.attacker.name} {verb} {b.weapon.name} at {b.target.name}: "
        f"{m.attack} against {sum(m.defenses)}, margin {m.value}; "
    )
    said = exchange(b, actor, target_id, combatants)
    return None if said is None else (head, *said)


class Posture(bd.Part, frozen=True):
    effort: int
    round: int


class Declared(bd.Part, frozen=True):
    kind: str
    actor: bd.Named
    posture: Posture


def posture(record: JSONObject) -> Text | None:
    """A posture declared: its effort is the actor's (it spends the actor's fatigue)."""
    told = read(record, Told)
    if told.actor is None:
        return None
    declared = read(told.breakdown, Declared)
    effort = declared.posture.effort
    return (
        f"{declared.actor.name} takes up {declared.kind.capitalize()} "
        f"for round {declared.posture.round}",
        *secret(told.actor, f" with {effort} effort dice" if effort else ""),
    )


def parties(record: JSONObject, combatants: Roster) -> set[str]:
    """Who an attack involves beyond its actor and target: the dwarf whose Ward took
    part (his pools and numbers are in its lines, whatever became of the blow)."""
    if record.get("kind") not in ("attack", "cast"):
        return set()
    breakdown = record.get("breakdown")
    ward = breakdown.get("ward") if isinstance(breakdown, Mapping) else None
    dwarf = ward.get("dwarf") if isinstance(ward, Mapping) else None
    return {dwarf} if isinstance(dwarf, str) else set()


def outcome(record: JSONObject, combatants: Roster) -> Text | None:
    """What an attack, a spell or a posture did, as a hidden roll shows it
    (domain/reading/outcomes.py): 'Orc 2 attacks Thrain with axe and hits', 'Orc 1 attacks Lia
    with axe: the blow is turned and Lia counters with rapier', 'Orc 1 takes up Defend
    for round 2'; no pool, no success count, no margin, no effort."""
    if record.get("kind") in POSTURES:
        told = read(record, Told)
        declared = read(told.breakdown, Declared)
        return (
            f"{declared.actor.name} takes up {declared.kind.capitalize()} "
            f"for round {declared.posture.round}",
        )
    found = read_attack(record)
    if found is None:
        return None
    b, _, target_id = found
    verb = "casts" if b.kind == "cast" else "attacks"
    weapon = b.weapon.name
    head = (
        f"{b.attacker.name} casts {weapon} at {b.target.name}"
        if verb == "casts"
        else f"{b.attacker.name} attacks {b.target.name}" + (f" with {weapon}" if weapon else "")
    )
    ward = read(b.ward, bd.Ward) if b.ward and b.ward.get("dwarf") is not None else None
    if ward is not None and ward.stopped:
        return (f"{head}: {name_of(combatants, ward.dwarf)} intercepts and stops the blow dead",)
    if b.damage:
        to = read(b.damage, bd.MarginDamage).to
        if to == target_id:
            return (f"{head} and hits",)
        return (f"{head}: {name_of(combatants, to)} intercepts and takes the blow",)
    if b.riposte:
        answer = read(b.riposte, Answer)
        if answer.answered and answer.weapon is not None:
            counter = f"{b.target.name} counters with {answer.weapon}"
            return (f"{head}: the blow is turned and {counter}",)
    return (f"{head}: the blow is turned",)


def standing(tracks: Mapping[str, int]) -> str:
    """'10 health'."""
    return ", ".join(f"{value} {name}" for name, value in tracks.items())
