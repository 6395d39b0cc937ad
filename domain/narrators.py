"""One narrator per ruleset, reading its breakdown in the order things happened."""

from __future__ import annotations

from collections.abc import Mapping

from domain.narrative import (
    Narrator,
    Read,
    Sheeted,
    conditions_lines,
    exact,
    faces,
    generic,
    name_of,
    plural,
    unids,
    unused_lines,
)
from domain.records import JSON, JSONObject

Roster = Mapping[str, Sheeted]

# -- stamina-body ---------------------------------------------------------------------


def sb_check(who: str, what: str, check: Read, against: str) -> str:
    verdict = "success" if check["success"] else "failure"
    line = f"{who}'s {what}: 3d6 rolled {check['roll']} against {against} {check['target']}"
    line += f": {verdict}, {what} score {check['margin']}"
    if "natural" in str(check.get("note", "")):
        line += f" ({check['note']})"
    return line


def sb_damage(damage: Read, target: str) -> list[str]:
    dice = damage["damage_dice"]
    options = ""
    if dice["options"]:
        named = ", ".join(option.text for option in dice["options"])
        options = f" + {dice['added']} for {named}"
    lines = [
        f"Damage dice: class {dice['class']}{options} = {dice['count']}d6, "
        f"rolled {faces(dice['faces'])}"
    ]
    reading = damage["reading"]
    for r in reading["readings"]:
        lines.append(
            f"Die {r['die']} on the {reading['table']} table: "
            f"{r['stamina']} Stamina, {r['body']} Body"
        )
    stamina = " + ".join(str(r["stamina"]) for r in reading["readings"])
    body = " + ".join(str(r["body"]) for r in reading["readings"])
    raw = reading["raw"]
    lines.append(
        f"Raw damage: {stamina} = {raw['stamina']} Stamina and {body} = {raw['body']} Body"
    )
    lines.append(f"Shield: {damage['shield']['why']}")
    res = damage["resilience"]
    lines.append(f"Resilience: armour {res['armour']} + shield {res['shield']} = {res['total']}")
    lines += [f"{note.text[0].upper()}{note.text[1:]}" for note in res["notes"]]
    before = {"stamina": raw["stamina"], "body": raw["body"]}
    for step in damage["absorption"]["steps"]:
        pool = step["pool"].text
        lines.append(
            f"Step {step['step']} ({pool.title()}): {before[pool]} -> {step['after']}; "
            f"resilience left {step['resilience_left']}"
        )
        before[pool] = step["after"]
    net = damage["absorption"]["net"]
    lines.append(f"Net damage: {net['stamina']} Stamina, {net['body']} Body")
    tracks = damage["tracks"]
    lines.append(
        f"{target}: Stamina {tracks['stamina']['before']} -> {tracks['stamina']['after']}, "
        f"Body {tracks['body']['before']} -> {tracks['body']['after']}"
    )
    if damage.get("piercing_wound"):
        lines.append(f"A piercing hit reached Body: {target} has a piercing wound")
    return lines


def stamina_body(record: Read, combatants: Roster) -> list[str]:
    b, params = record["breakdown"], record["params"]
    kind = record["kind"].text
    if kind == "take_hit":
        return sb_damage(b, name_of(combatants, params["target"]))
    if kind != "attack":
        return generic(record, combatants)
    attacker = name_of(combatants, record["actor"])
    defender = name_of(combatants, params["target"])
    weapon = b["weapon"]
    lines = []
    if weapon["name"] == "unarmed":
        st = combatants[str(record["actor"])].sheet["st"]
        lines.append(
            f"Unarmed: ST {st} // 4 = {weapon['damage_class']} "
            f"{'die' if weapon['damage_class'] == 1 else 'dice'} (at least 1), impact"
        )
    lines.append(sb_check(attacker, "hit", b["hit"], f"{weapon['name']} skill"))
    if b["result"] == "missed":
        return [*lines, f"{attacker} misses {defender}: no defense and no damage"]
    defense = b["defense"]
    why = defense["why"].text
    if defense["kind"] == "none" and why != "no defense declared":
        lines.append(why)  # "Bare is stunned and cannot answer (S9)"
    elif defense["kind"] == "none":
        lines.append(f"{defender} answers with nothing")
    elif not defense.get("rolled"):
        lines.append(f"{defender} cannot {defense['kind']}: {why}")
    else:
        kind = defense["kind"].text
        lines.append(sb_check(defender, kind, defense["check"], kind))
        lines.append(f"{why[0].upper()}{why[1:]}")
    if b["result"] != "landed":
        return lines
    return lines + sb_damage(b["damage"], defender)


# -- margin ---------------------------------------------------------------------------


def pool_line(who: str, what: str, roll: Read) -> list[str]:
    pool = roll["pool"]
    terms = [t for t in pool["terms"] if t["dice"]]
    sums = " + ".join(f"{t['term'].text.title()} {t['dice']}" for t in terms) or "nothing"
    dice = plural(pool["dice"].number, "die", "dice")
    head = f"{who}'s {what}: {sums} = {dice}"
    if pool.get("floor_applied"):
        head += f" (the bare attribute, {pool['floor']}, is the floor)"
    if not roll.get("rolled", True) or not pool["dice"]:
        return [f"{head}: no dice, total 0"]
    first = roll["first"]
    lines = [f"{head}; rolled {faces(first['faces'])}: {successes(first)}"]
    luck = roll.get("luck")
    if luck:
        lines.append(
            f"{who} spends a luck point ({successes(first, short=True)} is 0 or less): "
            f"re-rolled {faces(luck['faces'])}: {successes(luck)}; the second result stands"
        )
    return lines


def successes(read: Read, short: bool = False) -> str:
    if read.get("below_nothing"):
        return "-1" if short else "no 5 or 6 and every die a 1: below nothing, -1"
    count = read["successes"]
    return str(count) if short else plural(count.number, "success", "successes")


def margin_defenses(block: Read, combatants: Roster, who: str) -> list[str]:
    why = block["why"].text
    lines = [f"{why[0].upper()}{why[1:]}"]
    for roll in block["rolls"]:
        lines += pool_line(who, f"{roll['defense']} ({roll['mode']})", roll)
        if roll.get("counts_as") != roll.get("total"):
            lines.append(f"{roll['defense'].text.title()} counts as {roll['counts_as']}")
    return lines


def margin(record: Read, combatants: Roster) -> list[str]:
    b = record["breakdown"]
    if record["kind"] not in ("attack", "cast"):
        return [str(record["summary"])]
    attacker = b["attacker"]["name"].text
    target = b["target"]["name"].text
    lines = [f"{b['distance']['why']}"]
    lines += pool_line(attacker, f"{b['kind']} with {b.get('weapon', {}).get('name')}", b["attack"])
    defense = b.get("defense")
    if defense:
        lines += margin_defenses(defense, combatants, target)
    m = b.get("margin")
    if m:
        taken = " + ".join(str(d) for d in m["defenses"]) or "0"
        lines.append(f"Margin: {m['attack']} - ({taken}) = {m['value']}")
        if m["value"].number <= 0:
            lines.append("A margin of 0 or less: nothing happens, no damage of any kind")
    ward = b.get("ward")
    if ward:
        dwarf = name_of(combatants, ward["dwarf"])
        lines += margin_defenses(ward, combatants, dwarf)
        lines.append(
            f"Ward: {ward['margin_before']} - {ward['sum']} = {ward['remaining']}"
            + ("; the blow is stopped" if ward["stopped"] else f"; {dwarf} takes the blow")
        )
    damage = b.get("damage")
    if damage:
        lines += margin_damage(damage, name_of(combatants, damage["to"]))
    riposte = b.get("riposte")
    if riposte:
        lines.append(f"Riposte: {riposte.get('why', riposte.value)}")
        if riposte.get("damage"):
            lines += margin_damage(riposte["damage"], name_of(combatants, riposte["damage"]["to"]))
    return lines


def margin_damage(damage: Read, to: str) -> list[str]:
    w, nature, armor = damage["weapon"], damage["nature"], damage["armor"]
    lines = [f"Damage: {w['formula']} = {exact(w['damage'])} {nature['damage_type']}"]
    if nature.get("nature"):
        lines.append(
            f"{to} has {nature['nature']} to {nature['damage_type']}: "
            f"x {exact(nature['multiplier'])} = {exact(nature['damage'])}"
        )
    if armor.get("physical") and armor.get("rating"):
        lines.append(
            f"Armor {armor['rating']}: x {exact(armor['multiplier'])} = {exact(armor['damage'])}"
        )
    lines.append(f"Rounded half up, once: {exact(damage['exact'])} -> {damage['final']}")
    health = damage["health"]
    lines.append(f"{to}: health {health['before']} -> {health['after']}")
    return lines


# -- d20 ------------------------------------------------------------------------------


def d20_checks(value: JSON, lines: list[str]) -> None:
    """Every d20 check in the breakdown, in order, with its terms and any surprise."""
    if isinstance(value, Mapping):
        if "d20" in value and "comparison" in value:
            check = Read(value)
            terms = " ".join(f"{t['value']:+d} {t['name']}" for t in check["terms"])
            verdict = "success" if check["success"] else "failure"
            lines.append(f"d20 {check['d20']} {terms} = {check['total']}: {check['comparison']}")
            lines.append(f"{check['against']} {check['target']}: {verdict}")
            if check.get("note"):
                lines.append(str(check["note"]))
            return
        for key, inner in value.items():
            if key == "forceful_defense_why" and inner:
                lines.append(f"Forceful Defense: {inner}; no double success")
            d20_checks(inner, lines)
    elif isinstance(value, list):
        for inner in value:
            d20_checks(inner, lines)


def d20(record: Read, combatants: Roster) -> list[str]:
    b = record["breakdown"]
    lines: list[str] = []
    d20_checks(b.value, lines)
    damage = b.get("damage")
    if isinstance(damage.value, Mapping) and "faces" in damage:
        lines.append(f"Damage {damage.get('dice', '')}: rolled {faces(damage['faces'])}")
        for key in ("why", "formula"):
            if damage.get(key):
                lines.append(str(damage[key]))
    hp = b.get("hp")
    if isinstance(hp.value, Mapping):
        target = name_of(combatants, record["params"].get("target", ""))
        lines.append(f"{target}: HP {hp['before']} -> {hp['after']}")
    lines.append(str(record["summary"]))
    return lines


NARRATORS: dict[str, Narrator] = {"stamina-body": stamina_body, "margin": margin, "d20": d20}


def narrate(ruleset: str, stored: JSONObject, combatants: Roster) -> list[str]:
    """The narrative of one action record (its JSON); combatants map id -> a record
    with a name and a sheet."""
    narrator = NARRATORS.get(ruleset, generic)
    record = Read(stored)
    try:
        lines = narrator(record, combatants)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        # A record shaped by an older or newer rules module still reads, if plainly.
        lines = generic(record, combatants)
    lines += unused_lines(record) + conditions_lines(record, combatants)
    return [unids(line, combatants) for line in lines if line]
