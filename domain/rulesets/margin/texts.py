"""Margin's texts as parts (RULINGS T3a): an attack's or a spell's narrative and summary,
built from its breakdown, each number marked with whose it is.

The GM reads every part, the same bytes domain/narrators.py wrote before. Others read
neither the sheet values an NPC's pools add up (Might 2 + Melee 2) nor its weapon's
damage, its nature, its armor or its health (its descriptor instead); the dice thrown
(how many and their faces), the successes they show and the margin they make, the
outcome words and the PCs' numbers stay. A Ward's interception or a Riposte's counter
is not built from parts yet: such an attack is told by its outcome (domain/told.py).
"""

from __future__ import annotations

from collections.abc import Mapping

from domain import breakdowns as bd
from domain.breakdowns import given, present, read, target_of
from domain.narrative import Sheeted, exact, faces, name_of, plural
from domain.records import JSONObject
from domain.texts import Descriptor, Part, Text, secret

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


def defense_lines(block: bd.Defenses, who: str, owner: str) -> list[Text]:
    why = block.why
    lines: list[Text] = [secret(owner, f"{why[0].upper()}{why[1:]}")]
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


def read_attack(record: JSONObject) -> tuple[bd.MarginAttack, str, str] | None:
    """An attack or a spell without a Ward or a Riposte in it (those are told otherwise)."""
    told = read(record, Told)
    if told.kind not in ("attack", "cast") or told.actor is None:
        return None
    b = read(told.breakdown, bd.MarginAttack)
    if b.ward or b.riposte:
        return None
    return b, told.actor, str(target_of(told.params))


def narrative(record: JSONObject, combatants: Roster) -> list[Text] | None:
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
    if b.damage:
        damage = read(b.damage, bd.MarginDamage)
        lines += damage_lines(damage, name_of(combatants, damage.to), damage.to, actor)
    return lines


def summary(record: JSONObject, combatants: Roster) -> Text | None:
    """'Bran attacks with sword at Ogre: 4 against 0, margin 4; Ogre takes 5 (health 27
    -> 22)'; to others '...; Ogre is hurt'."""
    found = read_attack(record)
    if found is None or not found[0].margin:
        return None
    b, _, target_id = found
    m = read(b.margin, bd.MarginValue)
    verb = "casts" if b.kind == "cast" else "attacks with"
    head = (
        f"{b.attacker.name} {verb} {b.weapon.name} at {b.target.name}: "
        f"{m.attack} against {sum(m.defenses)}, margin {m.value}"
    )
    if not b.damage:
        return (f"{head}; the blow is turned: nothing happens, no damage of any kind",)
    damage = read(b.damage, bd.MarginDamage)
    if damage.to != target_id:
        return None
    health = damage.health
    return (
        f"{head}; {b.target.name}",
        *secret(
            target_id,
            f" takes {damage.final} (health {health.before} -> {health.after})",
            instead=(" is ", Descriptor(target_id, {"health": health.after})),
        ),
    )
