"""One narrator per ruleset, reading its breakdown in the order things happened.

Each reads the parts of the record it needs as typed records (domain/breakdowns.py),
decoded where it reads them; a record of another shape falls back to the plain lines.
"""

from __future__ import annotations

from collections.abc import Mapping

from skald_campaign.domain import breakdowns as bd
from skald_campaign.domain.breakdowns import UNSET, given, present, read, target_of
from skald_campaign.domain.narrative import (
    Narrator,
    Sheeted,
    conditions_lines,
    exact,
    faces,
    generic,
    name_of,
    plural,
    unids_lines,
    unused_lines,
)
from skald_campaign.domain.records import JSON, JSONObject
from skald_campaign.domain.rulesets.stamina_body import texts as sb_texts
from skald_campaign.domain.texts import render

Roster = Mapping[str, Sheeted]

# -- stamina-body (its parts: domain/rulesets/stamina_body/texts.py) ------------------


def stamina_body(record: JSONObject, combatants: Roster) -> list[str]:
    lines = sb_texts.narrative(record, combatants)
    if lines is None:
        return generic(record, combatants)
    return [render(line) for line in lines]


# -- margin ---------------------------------------------------------------------------


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


def margin(record: JSONObject, combatants: Roster) -> list[str]:
    told = read(record, bd.MarginTold)
    if told.kind not in ("attack", "cast"):
        return [given(told.summary)]
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
    if b.ward:
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
            damage = read(riposte.damage, bd.MarginDamage)
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


# -- d20 ------------------------------------------------------------------------------


def d20_checks(value: JSON | object, lines: list[str]) -> None:
    """Every d20 check in the breakdown, in order, with its terms and any surprise."""
    if isinstance(value, Mapping):
        if "d20" in value and "comparison" in value:
            check = read(value, bd.D20Check)
            terms = " ".join(f"{t.value:+d} {t.name}" for t in check.terms)
            verdict = "success" if check.success else "failure"
            lines.append(f"d20 {check.d20} {terms} = {check.total}: {check.comparison}")
            lines.append(f"{check.against} {check.target}: {verdict}")
            if check.note:
                lines.append(check.note)
            return
        for key, inner in value.items():
            if key == "forceful_defense_why" and inner:
                lines.append(f"Forceful Defense: {inner}; no double success")
            d20_checks(inner, lines)
    elif isinstance(value, list):
        for inner in value:
            d20_checks(inner, lines)


def d20(record: JSONObject, combatants: Roster) -> list[str]:
    told = read(record, bd.D20Told)
    lines: list[str] = []
    d20_checks(told.breakdown, lines)
    b = read(told.breakdown, bd.D20Breakdown)
    if isinstance(b.damage, Mapping) and "faces" in b.damage:
        damage = read(b.damage, bd.D20Damage)
        lines.append(f"Damage {damage.dice}: rolled {faces(damage.faces)}")
        lines += [said for said in (damage.why, damage.formula) if said]
    if isinstance(b.hp, Mapping):
        hp = read(b.hp, bd.BeforeAfter)
        target = name_of(combatants, target_of(given(told.params), ""))
        lines.append(f"{target}: HP {hp.before} -> {hp.after}")
    lines.append(told.summary)
    return lines


NARRATORS: dict[str, Narrator] = {"stamina-body": stamina_body, "margin": margin, "d20": d20}


def narrate(ruleset: str, stored: JSONObject, combatants: Roster) -> list[str]:
    """The narrative of one action record (its JSON); combatants map id -> a record
    with a name and a sheet."""
    narrator = NARRATORS.get(ruleset, generic)
    try:
        lines = narrator(stored, combatants)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        # A record shaped by an older or newer rules module still reads, if plainly.
        lines = generic(stored, combatants)
    lines += unused_lines(stored) + conditions_lines(stored, combatants)
    return unids_lines(lines, combatants)
