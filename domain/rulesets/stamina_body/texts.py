"""Stamina-body's texts as parts (RULINGS T3a): an action record's narrative and summary,
built from its breakdown, each number marked with whose it is.

The GM reads every part, the same bytes domain/reading/narrators.py wrote before (its narrative
tests hold them). Others read an NPC's skill, defense, hit or defense score, the damage
it takes (a recovery's Stamina, a round's bleeding), its resilience and its tracks as
nothing or its descriptor; the open dice (3d6 rolled 12, damage dice 5, 1), the outcome
words (success, hit score, parried, lands, bleeds, stabilises) and the PCs' numbers
stay. A wound marked or treated and a stabilising are words only. The kinds besides an
attack and a take-hit are narrated as the plain lines (domain/reading/narrators.py): their open
dice and their summary (domain/reading/told.py).
"""

from __future__ import annotations

from collections.abc import Mapping

from skald_campaign.domain.rulesets.stamina_body import records as bd
from skald_campaign.ruleset_api import JSONObject
from skald_campaign.ruleset_api.narrative import Sheeted, faces, name_of
from skald_campaign.ruleset_api.records import given, present, read, target_of
from skald_campaign.ruleset_api.texts import Descriptor, Part, Text, render, secret

Roster = Mapping[str, Sheeted]


def check(who: str, owner: str, what: str, rolled: bd.SbCheck, against: str) -> Text:
    """'Ogre's hit: 3d6 rolled 5 against club skill 17: success, hit score 12'; the
    target and the score are the owner's (the roll is the table's)."""
    verdict = "success" if rolled.success else "failure"
    parts: list[Part] = [f"{who}'s {what}: 3d6 rolled {rolled.roll}"]
    parts += secret(owner, f" against {against} {rolled.target}")
    parts.append(f": {verdict}")
    parts += secret(owner, f", {what} score {rolled.margin}")
    if "natural" in str(rolled.note):
        parts.append(f" ({rolled.note})")
    return tuple(parts)


def damage(taken: bd.SbDamage, target: str, target_id: str, attacker: str | None) -> list[Text]:
    """The damage lines: the dice are the table's, their class the weapon's (the
    attacker's sheet), everything from the raw reading on the target's."""
    dice = taken.damage_dice
    options = ""
    if dice.options:
        options = f" + {given(dice.added)} for {', '.join(dice.options)}"
    lines: list[Text] = [
        (
            "Damage dice: ",
            *secret(attacker, f"class {dice.damage_class}{options} = "),
            f"{dice.count}d6, rolled {faces(dice.faces)}",
        )
    ]
    reading = taken.reading
    for r in reading.readings:
        lines.append(
            secret(
                target_id,
                f"Die {r.die} on the {reading.table} table: {r.stamina} Stamina, {r.body} Body",
            )
        )
    stamina = " + ".join(str(r.stamina) for r in reading.readings)
    body = " + ".join(str(r.body) for r in reading.readings)
    raw = reading.raw
    lines.append(
        secret(
            target_id,
            f"Raw damage: {stamina} = {raw.stamina} Stamina and {body} = {raw.body} Body",
        )
    )
    lines.append(secret(target_id, f"Shield: {taken.shield.why}"))
    res = taken.resilience
    lines.append(
        secret(target_id, f"Resilience: armour {res.armour} + shield {res.shield} = {res.total}")
    )
    lines += [secret(target_id, f"{note[0].upper()}{note[1:]}") for note in res.notes]
    before = {"stamina": raw.stamina, "body": raw.body}
    for step in taken.absorption.steps:
        lines.append(
            secret(
                target_id,
                f"Step {step.step} ({step.pool.title()}): {before[step.pool]} -> {step.after}; "
                f"resilience left {step.resilience_left}",
            )
        )
        before[step.pool] = step.after
    net = taken.absorption.net
    lines.append(secret(target_id, f"Net damage: {net.stamina} Stamina, {net.body} Body"))
    stamina_now, body_now = taken.tracks.stamina, taken.tracks.body
    after = {"stamina": stamina_now.after, "body": body_now.after}
    lines.append(
        (
            f"{target}: ",
            *secret(
                target_id,
                f"Stamina {stamina_now.before} -> {stamina_now.after}, "
                f"Body {body_now.before} -> {body_now.after}",
                instead=(Descriptor(target_id, after),),
            ),
        )
    )
    if taken.piercing_wound:
        lines.append((f"A piercing hit reached Body: {target} has a piercing wound",))
    return lines


class Recovery(bd.Part, frozen=True):
    check: bd.SbCheck
    why: str
    stamina: RecoveredStamina
    capped: bool = False


def recovery(who: str, owner: str, b: Recovery) -> list[Text]:
    """S7 as it went: 'Bran's recovery: 3d6 rolled 6 against CON 12: success, margin 6',
    'Success by 6: +max(1, 6)', 'Bran: Stamina 3 -> 9'. CON, the margin, the gain and
    the tracks are the owner's (an NPC's: the summary says 'recovers Stamina'); the
    dice and the outcome word are the table's. It had been the plain lines: 'recovery:
    3d6 rolled 1, 2, 3 = 6' and a gain whose why (CON, a natural 18, the maximum) was
    nowhere."""
    c = b.check
    head: list[Part] = [f"{who}'s recovery: 3d6 rolled {c.roll}"]
    head += secret(owner, f" against CON {c.target}")
    head.append(f": {'success' if c.success else 'failure'}")
    head += secret(owner, f", margin {c.margin}")
    capped = f" (never past the maximum, {b.stamina.max})" if b.capped else ""
    return [
        tuple(head),
        secret(owner, f"{b.why[0].upper()}{b.why[1:]}"),
        secret(owner, f"{who}: Stamina {b.stamina.before} -> {b.stamina.after}{capped}"),
    ]


def narrative(record: JSONObject, combatants: Roster) -> list[Text] | None:
    """The narrative of an attack, a take-hit or a recovery; None for another kind (the
    plain lines)."""
    told = read(record, bd.SbTold)
    if told.kind == "recover":
        actor = str(given(told.actor))
        return recovery(name_of(combatants, actor), actor, read(told.breakdown, Recovery))
    if told.kind == "take_hit":
        target_id = str(target_of(told.params))
        target = name_of(combatants, target_id)
        return damage(read(told.breakdown, bd.SbDamage), target, target_id, None)
    if told.kind != "attack":
        return None
    actor = str(given(told.actor))
    b = read(told.breakdown, bd.SbAttack)
    attacker = name_of(combatants, actor)
    defender_id = str(target_of(told.params))
    defender = name_of(combatants, defender_id)
    weapon = b.weapon
    lines: list[Text] = []
    if weapon.name == "unarmed":
        st = read(combatants[actor].sheet, bd.Strength).st
        damage_class = given(weapon.damage_class)
        lines.append(
            secret(
                actor,
                f"Unarmed: ST {st} // 4 = {damage_class} "
                f"{'die' if damage_class == 1 else 'dice'} (at least 1), impact",
            )
        )
    lines.append(check(attacker, actor, "hit", b.hit, f"{weapon.name} skill"))
    if b.result == "missed":
        return [*lines, (f"{attacker} misses {defender}: no defense and no damage",)]
    defense = present(b.defense)
    why = defense.why
    if defense.kind == "none" and why != "no defense declared":
        lines.append((why,))  # "Bare is stunned and cannot answer (S9)": words only
    elif defense.kind == "none":
        lines.append((f"{defender} answers with nothing",))
    elif not defense.rolled:
        lines.append((f"{defender} cannot {defense.kind}: {why}",))  # conditions, words
    else:
        rolled = present(defense.check)
        lines.append(check(defender, defender_id, defense.kind, rolled, defense.kind))
        answer = defense_outcome(defense.kind, rolled, b, actor, defender_id)
        stored = f"{why[0].upper()}{why[1:]}"
        if render(answer) != stored:  # a why worded otherwise: said as it was, to those who may
            answer = secret(defender_id, *secret(actor, stored))
        lines.append(answer)
    if b.result != "landed":
        return lines
    taken = read(present(b.damage), bd.SbDamage)
    return lines + damage(taken, defender, defender_id, actor)


def defense_outcome(
    kind: str, rolled: bd.SbCheck, attack: bd.SbAttack, actor: str, defender_id: str
) -> Text:
    """'Parry score 5 < hit score 12: it lands' (both scores their owners'), or 'The
    dodge failed (12 > 10)' (the roll the table's, the target the defender's)."""
    if not rolled.success:
        note = str(rolled.note)
        if "natural" in note:
            return (f"The {kind} failed ({note})",)
        return (
            f"The {kind} failed (",
            f"{rolled.roll} > ",
            *secret(defender_id, str(rolled.target), instead=(f"{kind}",)),
            ")",
        )
    stopped = attack.result != "landed"
    sign, end = (">=", "stopped") if stopped else ("<", "it lands")
    shown = f"{kind[0].upper()}{kind[1:]} score {rolled.margin} {sign} hit score"
    words = (
        f"The {kind} succeeded: {end}"
        if stopped
        else (f"The {kind} succeeded, below the hit score: {end}")
    )
    told = (shown, *secret(actor, f" {attack.hit.margin}"), f": {end}")
    return secret(defender_id, *told, instead=(words,))


def takes(target: str, target_id: str, taken: bd.SbDamage) -> Text:
    """'Ogre takes 4 Stamina and 0 Body (4/0 raw)'; to others 'Ogre is hurt'."""
    net, raw = taken.absorption.net, taken.reading.raw
    after = {"stamina": taken.tracks.stamina.after, "body": taken.tracks.body.after}
    return (
        target,
        *secret(
            target_id,
            f" takes {net.stamina} Stamina and {net.body} Body ({raw.stamina}/{raw.body} raw)",
            instead=(" is ", Descriptor(target_id, after)),
        ),
    )


def summary(record: JSONObject, combatants: Roster) -> Text | None:
    """The one-line summary of an attack, a take-hit or a recovery (the conditions'
    note aside: domain/reading/narrators.py adds it); None for another kind."""
    told = read(record, bd.SbTold)
    if told.kind == "take_hit":
        target_id = str(target_of(told.params))
        taken = read(told.breakdown, bd.SbDamage)
        return takes(name_of(combatants, target_id), target_id, taken)
    if told.kind == "recover":
        actor = str(given(told.actor))
        gained = read(told.breakdown, Recovered).stamina
        return (
            f"{name_of(combatants, actor)} recovers",
            *secret(actor, f" {gained.after - gained.before} Stamina", instead=(" Stamina",)),
        )
    if told.kind in CARE:
        return CARE[told.kind](told, combatants)
    if told.kind != "attack":
        return None
    actor = str(given(told.actor))
    attacker = name_of(combatants, actor)
    defender_id = str(target_of(told.params))
    defender = name_of(combatants, defender_id)
    b = read(told.breakdown, bd.SbAttack)
    if b.result == "missed":
        return (f"{attacker} misses {defender}",)
    if b.result != "landed":
        return (f"{defender} {b.result} {attacker}'s blow",)
    taken = read(present(b.damage), bd.SbDamage)
    return (f"{attacker} hits: ", *takes(defender, defender_id, taken))


class Recovered(bd.Part, frozen=True):
    stamina: bd.BeforeAfter


class RecoveredStamina(bd.Part, frozen=True):
    before: int
    after: int
    max: int


class Wound(bd.Part, frozen=True):
    wound: str
    after: bool


def marked(told: bd.SbTold, combatants: Roster) -> Text:
    """'Ogre now has broken bones' (the GM's record of a wound): words."""
    wound = read(told.breakdown, Wound)
    verb = "now has" if wound.after else "no longer has"
    who = name_of(combatants, target_of(told.params))
    return (f"{who} {verb} {wound.wound.replace('_', ' ')}",)


def treated(told: bd.SbTold, combatants: Roster) -> Text:
    return (f"{name_of(combatants, target_of(told.params))}'s piercing wound is treated",)


def stabilised(told: bd.SbTold, combatants: Roster) -> Text:
    helper, target = name_of(combatants, given(told.actor)), target_of(told.params)
    return (f"{helper} stabilises {name_of(combatants, target)}",)


class Bled(bd.Part, frozen=True):
    combatant: str


class Bleeding(bd.Part, frozen=True):
    bleed_per_round: int
    bled: list[Bled]


def bled(told: bd.SbTold, combatants: Roster) -> Text:
    """'Ogre, Bran bleed 1 Body': the Body lost is each one's, said to a reader who sees
    the numbers of every one who bled."""
    bleeding = read(told.breakdown, Bleeding)
    who = [b.combatant for b in bleeding.bled]
    verb = "bleeds" if len(who) == 1 else "bleed"
    lost: Text = (f" {bleeding.bleed_per_round} Body",)
    for owner in sorted(set(who)):
        lost = secret(owner, *lost)
    return (f"{', '.join(name_of(combatants, c) for c in who)} {verb}", *lost)


CARE = {"mark_wound": marked, "treat_wound": treated, "stabilise": stabilised, "bleed": bled}


def outcome(record: JSONObject, combatants: Roster) -> Text | None:
    """What an action did, as a hidden roll shows it (domain/reading/outcomes.py): 'Ogre attacks
    Bran with maul and hits', 'Bran parries Ogre's blow', 'Goblin 1 rolls to recover';
    no roll's number, no score, no skill. None for a kind it does not word."""
    told = read(record, bd.SbTold)
    if told.kind == "recover":
        return (f"{name_of(combatants, given(told.actor))} rolls to recover",)
    if told.kind in CARE and told.kind != "bleed":
        return CARE[told.kind](told, combatants)
    if told.kind != "attack":
        return None
    attacker = name_of(combatants, given(told.actor))
    defender = name_of(combatants, target_of(told.params))
    b = read(told.breakdown, bd.SbAttack)
    armed = " unarmed" if b.weapon.name == "unarmed" else f" with {b.weapon.name}"
    attacks = f"{attacker} attacks {defender}{armed}"
    if b.result == "missed":
        return (f"{attacks} and misses",)
    if b.result == "landed":
        return (f"{attacks} and hits",)
    answered = ANSWERED.get(b.result, f"{b.result} the blow")
    return (f"{attacks}: {defender} {answered}",)


# What a defense that stopped the blow did, in the present tense of the outcome's words.
ANSWERED = {"parried": "parries the blow", "dodged": "dodges the blow"}


def standing(tracks: Mapping[str, int]) -> str:
    """'3 Stamina and 9 Body'."""
    words = [f"{value} {name.title()}" for name, value in tracks.items()]
    return " and ".join(words)
