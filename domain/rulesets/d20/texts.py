"""d20's texts as parts (RULINGS T3a): an attack's narrative and summary, built from its
breakdown, each number marked with whose it is.

The GM reads every part, the same bytes domain/reading/narrators.py wrote before. Others read
neither an NPC's bonuses (the total of a d20 that holds them) nor its AC, its armour
value, the damage it takes or its hit points, which become its descriptor; the d20's
face, the damage dice's faces, the outcome words (hits, misses, success) and the PCs'
numbers stay. A check's terms, total and target are said only to a reader who may see
the numbers of both sides (a PC's bonus beside an NPC's AC would tell the AC).
"""

from __future__ import annotations

from collections.abc import Mapping

from skald_campaign.domain.rulesets.d20 import records as bd
from skald_campaign.ruleset_api import JSONObject
from skald_campaign.ruleset_api.narrative import Sheeted, faces, name_of
from skald_campaign.ruleset_api.records import read, target_of
from skald_campaign.ruleset_api.texts import Descriptor, Part, Text, render, secret

Roster = Mapping[str, Sheeted]


class D20Attack(bd.Part, frozen=True):
    """What an attack's texts read of its record."""

    kind: str
    actor: str | None
    params: dict[str, object]
    breakdown: dict[str, object]


class Weapon(bd.Part, frozen=True):
    name: str


class Rolled(bd.Part, frozen=True):
    faces: list[int]
    modifier: int = 0


class HitPoints(bd.Part, frozen=True):
    before: int
    after: int
    down: bool = False


class AttackBreakdown(bd.Part, frozen=True):
    weapon: Weapon
    hit: bd.D20Check
    damage: dict[str, object] | None = None
    hp: HitPoints | None = None
    hold: str | None = None


class Dealt(bd.Part, frozen=True):
    dealt: int


def both(actor: str, target: str, *parts: Part, instead: Text = ()) -> Text:
    """Parts said only to a reader who sees both sides' numbers."""
    return secret(actor, *secret(target, *parts, instead=instead), instead=instead)


def comparison(check: bd.D20Check, actor: str, target: str) -> Text:
    """'(3 < AC 11)' to the GM; to others the natural die when it decided, or nothing."""
    instead: Text = (f" ({check.note})",) if check.note else ()
    return both(actor, target, f" ({check.comparison})", instead=instead)


def check_lines(check: bd.D20Check, actor: str, target: str) -> list[Text]:
    terms = " ".join(f"{t.value:+d} {t.name}" for t in check.terms)
    verdict = "success" if check.success else "failure"
    lines: list[Text] = [
        (
            f"d20 {check.d20}",
            *both(actor, target, f" {terms} = {check.total}: {check.comparison}"),
        ),
        (check.against, *secret(target, f" {check.target}"), f": {verdict}"),
    ]
    if check.note:
        lines.append(both(actor, target, check.note))
    return lines


def read_attack(record: JSONObject) -> tuple[D20Attack, AttackBreakdown, str, str] | None:
    told = read(record, D20Attack)
    if told.kind != "attack" or told.actor is None:
        return None
    target = target_of(told.params)
    return told, read(told.breakdown, AttackBreakdown), told.actor, str(target)


def summary(record: JSONObject, combatants: Roster) -> Text | None:
    """'Bran hits Ogre with Sword (20 >= AC 14): 6 rolled, 5 dealt; HP 31 -> 26';
    to others 'Bran hits Ogre with Sword: 6 rolled, Ogre is hurt'."""
    found = read_attack(record)
    if found is None:
        return None
    _, b, actor, target_id = found
    attacker, target = name_of(combatants, actor), name_of(combatants, target_id)
    head = f"{attacker} {'hits' if b.hit.success else 'misses'} {target} with {b.weapon.name}"
    if not b.hit.success:
        return (head, *comparison(b.hit, actor, target_id))
    if b.damage is None or b.hp is None:
        return None
    rolled = read(b.damage, Rolled)
    dealt = read(b.damage, Dealt).dealt
    total = sum(rolled.faces) + rolled.modifier
    hp = b.hp
    down = " (down)" if hp.down else ""
    return (
        head,
        *comparison(b.hit, actor, target_id),
        ": ",
        *secret(actor, f"{total} rolled", instead=(f"{faces(rolled.faces)} rolled",)),
        *secret(
            target_id,
            f", {dealt} dealt; HP {hp.before} -> {hp.after}{down}",
            instead=(f"; {target} is ", Descriptor(target_id, {"hp": hp.after})),
        ),
    )


def narrative(record: JSONObject, combatants: Roster) -> list[Text] | None:
    """An attack's lines: the check, the damage, the hit points, the summary."""
    found = read_attack(record)
    if found is None:
        return None
    _, b, actor, target_id = found
    said = summary(record, combatants)
    if said is None:
        return None
    lines = check_lines(b.hit, actor, target_id)
    if b.damage is not None and "faces" in b.damage:
        damage = read(b.damage, bd.D20Damage)
        lines.append(
            ("Damage", *secret(actor, f" {damage.dice}"), f": rolled {faces(damage.faces)}")
        )
        said_of = (damage.why, damage.formula, damage.arithmetic)
        lines += [both(actor, target_id, line) for line in said_of if line]
    if b.hp is not None:
        target = name_of(combatants, target_id)
        lines.append(
            (
                f"{target}: ",
                *secret(
                    target_id,
                    f"HP {b.hp.before} -> {b.hp.after}",
                    instead=(Descriptor(target_id, {"hp": b.hp.after}),),
                ),
            )
        )
    # The narrative ends with the stored summary, with the conditions the action brought
    # on ("; Ogre gains: down"): words every reader reads (domain/play/resolution.py).
    stored = str(record.get("summary", ""))
    note = stored[len(render(said)) :] if stored.startswith(render(said)) else ""
    return [*lines, (*said, note) if note.startswith("; ") else said]


def outcome(record: JSONObject, combatants: Roster) -> Text | None:
    """What an attack did, as a hidden roll shows it (domain/reading/outcomes.py): 'Bandit 1
    attacks Mira with Sword and hits'; no d20, no total, no AC, no damage rolled."""
    found = read_attack(record)
    if found is None:
        return None
    _, b, actor, target_id = found
    attacker, target = name_of(combatants, actor), name_of(combatants, target_id)
    hits = "hits" if b.hit.success else "misses"
    return (f"{attacker} attacks {target} with {b.weapon.name} and {hits}",)


def standing(tracks: Mapping[str, int]) -> str:
    """'14 HP'."""
    return ", ".join(f"{value} {name.upper()}" for name, value in tracks.items())
