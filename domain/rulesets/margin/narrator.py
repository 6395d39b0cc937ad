"""Margin's plain narrative of an action record (the action view's ``narrative``): the
pools, the defenses, the margin, a Ward, the damage and a riposte, in the order they
happened, each part read from the breakdown as a typed record where it is read."""

from __future__ import annotations

from skald_campaign.domain.rulesets.margin import records as bd
from skald_campaign.ruleset_api import JSONObject
from skald_campaign.ruleset_api.narrative import Roster, exact, faces, name_of, plural
from skald_campaign.ruleset_api.records import UNSET, given, present, read


def pool_line(who: str, what: str, roll: bd.PoolRoll) -> list[str]:
    pool = roll.pool
    terms = [t for t in pool.terms if t.dice]
    sums = " + ".join(f"{given(t.term).title()} {t.dice}" for t in terms) or "nothing"
    dice = plural(pool.dice, "die", "dice")
    head = f"{who}'s {what}: {sums} = {dice}"
    if pool.floor_applied:
        head += f" (the bare attribute, {pool.floor}, is the floor)"
    if not roll.rolled or not pool.dice:
        return [f"{head}: no dice, total 0"]
    first = present(roll.first)
    lines = [f"{head}; rolled {faces(first.faces)}: {successes(first)}"]
    luck = roll.luck
    if luck:
        lines.append(
            f"{who} spends a luck point ({successes(first, short=True)} is 0 or less): "
            f"re-rolled {faces(luck.faces)}: {successes(luck)}; the second result stands"
        )
    return lines


def successes(rolled: bd.Successes, short: bool = False) -> str:
    if rolled.below_nothing:
        return "-1" if short else "no 5 or 6 and every die a 1: below nothing, -1"
    count = given(rolled.successes)
    return str(count) if short else plural(count, "success", "successes")


def margin_defenses(block: bd.Defenses, who: str) -> list[str]:
    why = block.why
    lines = [f"{why[0].upper()}{why[1:]}"]
    for roll in block.rolls:
        lines += pool_line(who, f"{roll.defense} ({roll.mode})", roll)
        if given(roll.counts_as, None) != roll.total:
            lines.append(f"{roll.defense.title()} counts as {given(roll.counts_as)}")
    return lines


def uncovered_lines(ward: bd.Uncovered) -> list[str]:
    """A Ward that does not cover the ally struck (M13; seed 000: "He can only cover
    people at his own rank or behind him — never someone standing further forward"):
    where each warding dwarf stands, and that his Ward does nothing against the blow.
    Ranks are where the table stands, every reader's."""
    return [
        f"Ward: {c.why}; a Ward covers allies at the dwarf's own rank or behind him, never "
        "one further forward: it does nothing against this blow"
        for c in ward.considered
        if not c.covers
    ]


def covers_nobody(told: bd.MarginTold, dwarf: str) -> list[str]:
    """A Ward declared that covers nobody (M13; seed 000: "He can only cover people at
    his own rank or behind him — never someone standing further forward"): no ally of
    his side stands at his rank or behind him (its record's ``covers`` is empty). A Ward
    that covers someone, or one recorded before ``covers`` was, says nothing more than
    its summary. Whom it covers is where the table stands, every reader's."""
    if told.kind != "ward" or read(told.breakdown, bd.WardDeclared).covers != []:
        return []
    return [
        f"Ward: {dwarf} covers nobody now: a Ward covers allies at the dwarf's own rank or "
        "behind him, never one further forward, and no ally of his stands there"
    ]


def margin(record: JSONObject, combatants: Roster) -> list[str]:
    told = read(record, bd.MarginTold)
    if told.kind not in ("attack", "cast"):
        actor = record.get("actor")
        dwarf = name_of(combatants, actor) if isinstance(actor, str) else ""
        return [given(told.summary), *covers_nobody(told, dwarf)]
    b = read(told.breakdown, bd.MarginAttack)
    attacker, target = b.attacker.name, b.target.name
    lines = [b.distance.why]
    lines += pool_line(attacker, f"{b.kind} with {b.weapon.name}", b.attack)
    if b.defense:
        lines += margin_defenses(read(b.defense, bd.Defenses), target)
    if b.margin:
        m = read(b.margin, bd.MarginValue)
        taken = " + ".join(str(d) for d in m.defenses) or "0"
        lines.append(f"Margin: {m.attack} - ({taken}) = {m.value}")
        if m.value <= 0:
            lines.append("A margin of 0 or less: nothing happens, no damage of any kind")
    if b.ward and b.ward.get("dwarf") is None:  # no Ward covers the target
        lines += uncovered_lines(read(b.ward, bd.Uncovered))
    elif b.ward:
        ward = read(b.ward, bd.Ward)
        dwarf = name_of(combatants, ward.dwarf)
        lines += margin_defenses(ward, dwarf)
        lines.append(
            f"Ward: {ward.margin_before} - {ward.sum} = {ward.remaining}"
            + ("; the blow is stopped" if ward.stopped else f"; {dwarf} takes the blow")
        )
    if b.damage:
        damage = read(b.damage, bd.MarginDamage)
        lines += margin_damage(damage, name_of(combatants, damage.to))
    if b.riposte:
        riposte = read(b.riposte, bd.Riposte)
        lines.append(f"Riposte: {b.riposte if riposte.why is UNSET else riposte.why}")
        if riposte.damage:
            damage = riposte.counter()
            lines += margin_damage(damage, name_of(combatants, damage.to))
    return lines


def margin_damage(damage: bd.MarginDamage, to: str) -> list[str]:
    w, nature, armor = damage.weapon, damage.nature, damage.armor
    lines = [f"Damage: {w.formula} = {exact(w.damage)} {nature.damage_type}"]
    if nature.nature:
        lines.append(
            f"{to} has {nature.nature} to {nature.damage_type}: "
            f"x {exact(given(nature.multiplier))} = {exact(given(nature.damage))}"
        )
    if armor.physical and armor.rating:
        multiplier, damaged = exact(given(armor.multiplier)), exact(given(armor.damage))
        lines.append(f"Armor {armor.rating}: x {multiplier} = {damaged}")
    lines.append(f"Rounded half up, once: {exact(damage.exact)} -> {damage.final}")
    health = damage.health
    lines.append(f"{to}: health {health.before} -> {health.after}")
    return lines
