"""Attack and cast: one blow from roll to damage, every step in the breakdown.

The order is the seed's: the attack pool is thrown; every defense the weapon
allows is thrown against it; what remains is the margin; a Ward may intercept a
blow that beat its target; a surviving margin becomes damage through the
victim's nature and then armor; a blow an elf turned may come back as a counter.
"""

from __future__ import annotations

from typing import Literal

from skald_campaign.domain.rulesets.margin import defense as defending
from skald_campaign.domain.rulesets.margin.ledger import Ledger
from skald_campaign.domain.rulesets.margin.pools import roll_pool
from skald_campaign.domain.rulesets.margin.riposte import riposte
from skald_campaign.domain.rulesets.margin.rules import (
    attack_pool,
    distance,
    margin,
    reaches,
    weapon_damage,
)
from skald_campaign.domain.rulesets.margin.sheet import Weapon
from skald_campaign.domain.rulesets.margin.turn import (
    check_effort,
    refuse_second_action,
    require_actor,
)
from skald_campaign.ruleset_api import (
    ActionRefused,
    DiceTray,
    EncounterView,
    InvalidInput,
    JsonObject,
    Outcome,
)

StrikeKind = Literal["attack", "cast"]


def _find(ledger: Ledger, actor: str, name: str, kind: StrikeKind) -> Weapon:
    sheet = ledger.sheet(actor)
    if kind == "cast":
        spell = sheet.find_spell(name)
        if spell is None:
            known = ", ".join(s.name for s in sheet.spells) or "none"
            raise InvalidInput(f"{ledger.name(actor)} has no spell '{name}'; their spells: {known}")
        return spell
    weapon = sheet.find_weapon(name)
    if weapon is None:
        hint = " (a spell is cast, not attacked with)" if sheet.find_spell(name) else ""
        raise InvalidInput(
            f"{ledger.name(actor)} has no weapon '{name}'{hint}; their weapons: "
            f"{', '.join(sheet.weapon_names())}"
        )
    return weapon


def resolve_strike(
    view: EncounterView,
    actor: str | None,
    *,
    kind: StrikeKind,
    weapon_name: str,
    target_id: str,
    effort: int,
    tray: DiceTray,
) -> Outcome:
    ledger = Ledger(view)
    attacker_id = require_actor(ledger, actor, kind)
    attacker = ledger.view.combatants[attacker_id]  # require_actor found it
    target = ledger.combatant(target_id, "target")
    if target.id == attacker.id:
        raise InvalidInput(f"{attacker.name} cannot {kind} themselves; pick another target")
    refuse_second_action(ledger, attacker_id)
    check_effort(ledger, effort)
    weapon = _find(ledger, attacker_id, weapon_name, kind)
    start = ledger.state(attacker_id)
    span = distance(attacker.side, attacker.rank, target.side, target.rank)
    reach = reaches(weapon, span, start.shots_left(weapon), ledger.options)
    if not reach.reaches:
        raise ActionRefused(f"{attacker.name} cannot {kind} {target.name}: {reach.why}")

    # The attack pool uses fatigue as it stood before this blow's own effort was paid.
    exhaustion = ledger.exhaustion(attacker_id)
    pool = attack_pool(
        ledger.sheet(attacker_id),
        weapon,
        effort=effort,
        exhaustion=exhaustion,
        wounded_penalty=ledger.wounded_penalty(attacker_id),
    )
    attack = roll_pool(
        tray,
        "attack",
        pool,
        success_on=ledger.options.success_on,
        luck_available=ledger.has_luck(attacker_id),
    )
    if attack.luck_spent:
        ledger.spend_luck(attacker_id)
    fatigue_before = ledger.state(attacker_id).fatigue
    ledger.set_state(
        attacker_id,
        ledger.state(attacker_id)
        .spend_shot(weapon)
        .acting(
            view.round,
            effort * ledger.options.fatigue_per_effort_die,
        ),
    )
    shots = start.shots_left(weapon)

    defense = defending.defend(ledger, tray, target.id, weapon)
    value = margin(attack.total, defense.totals)
    breakdown: JsonObject = {
        "kind": kind,
        "attacker": {"id": attacker.id, "name": attacker.name},
        "target": {"id": target.id, "name": target.name},
        "weapon": weapon.model_dump(mode="json"),
        "distance": {"value": span, "why": reach.why},
        "attack": attack.breakdown(),
        "defense": defense.breakdown(),
        "margin": {"attack": attack.total, "defenses": [*defense.totals], "value": value},
        "ward": None,
        "damage": None,
        "riposte": None,
        "effort": {
            "dice": effort,
            "fatigue": {"before": fatigue_before, "after": ledger.state(attacker_id).fatigue},
        },
        "ammunition": (
            None if shots is None else {"weapon": weapon.name, "before": shots, "after": shots - 1}
        ),
    }
    summary = _exchange(ledger, tray, breakdown, weapon, attacker_id, target.id, value)
    breakdown["luck_spent"] = {**ledger.luck_spent}
    verb = "casts" if kind == "cast" else "attacks with"
    head = (
        f"{attacker.name} {verb} {weapon.name} at {target.name}: "
        f"{attack.total} against {sum(defense.totals)}, margin {value}"
    )
    return ledger.outcome(f"{head}; {summary}", breakdown)


def _exchange(
    ledger: Ledger,
    tray: DiceTray,
    breakdown: JsonObject,
    weapon: Weapon,
    attacker: str,
    target: str,
    value: int,
) -> str:
    """What the margin does: damage, a Ward's interception, a Riposte's counter, or nothing."""
    if value > 0:
        dwarf, considered = defending.warden_for(ledger, target)
        victim, victim_margin = target, value
        if dwarf is not None:
            interception = defending.intercept(ledger, tray, dwarf, weapon, value)
            breakdown["ward"] = {**interception.breakdown(), "considered": [*considered]}
            if interception.stopped:
                return f"{ledger.name(dwarf)} intercepts and stops the blow dead"
            victim, victim_margin = dwarf, interception.remaining
        elif considered:
            breakdown["ward"] = {"dwarf": None, "considered": [*considered]}
        damage = weapon_damage(weapon, victim_margin, ledger.sheet(victim), ledger.options)
        assert damage is not None  # victim_margin > 0 on both paths
        health = ledger.harm(victim, damage.final)
        breakdown["damage"] = {"to": victim, **damage.breakdown(), "health": health.as_json()}
        taker = ledger.name(victim)
        via = f"{taker} intercepts, " if victim != target else ""
        return f"{via}{taker} takes {damage.final} (health {health.before} -> {health.after})"
    posture = ledger.posture(target)
    if value < 0 and posture is not None and posture.kind == "riposte":
        counter = riposte(ledger, target, attacker, weapon, value, posture.weapon)
        breakdown["riposte"] = counter.breakdown()
        if counter.answered and counter.damage is not None and counter.weapon is not None:
            return (
                f"turned; {ledger.name(target)} counters with {counter.weapon.name}: "
                f"{ledger.name(attacker)} takes {counter.damage.final}"
            )
        return f"turned; no counter: {counter.why}"
    return "the blow is turned: nothing happens, no damage of any kind"
