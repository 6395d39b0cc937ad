"""Defend, Riposte and Ward: postures declared as the round's action (M5, M13, M14).

A posture rolls nothing when it is declared. It is written into the character's
state with the round it belongs to, and every attack on its holder for the rest
of that round reads it; the next round retires it without a word.
"""

from __future__ import annotations

from skald_campaign.domain.rulesets.margin.ledger import Ledger
from skald_campaign.domain.rulesets.margin.rules import defense_pool
from skald_campaign.domain.rulesets.margin.sheet import DEFENSE_ORDER
from skald_campaign.domain.rulesets.margin.state import Posture, PostureKind
from skald_campaign.domain.rulesets.margin.turn import (
    check_effort,
    refuse_second_action,
    require_actor,
)
from skald_campaign.ruleset_api import (
    ActionRefused,
    EncounterView,
    InvalidInput,
    JsonObject,
    Outcome,
)

REQUIRED_RACE = {"riposte": "elf", "ward": "dwarf"}
WHAT_IT_DOES = {
    "defend": "every defense any attack allows rolls actively, effort on each, "
    "against every attacker until the round ends",
    "riposte": "evasion rolls actively and sharpened, every other defense passively; "
    "a blow turned aside comes back as a counter",
    "ward": "the dwarf defends himself actively and intercepts every blow that beats an "
    "ally at his rank or behind",
}


def _a(noun: str) -> str:
    return f"{'an' if noun[0] in 'aeiou' else 'a'} {noun}"


def _preview(ledger: Ledger, cid: str, posture: Posture) -> JsonObject:
    """The defense pools this posture gives, as they stand now, so the table can see them."""
    sheet = ledger.sheet(cid)
    pools: JsonObject = {}
    for defense in DEFENSE_ORDER:
        if posture.kind == "riposte" and defense != "evasion":
            pools[defense] = {
                "mode": "passive",
                **defense_pool(sheet, defense, "passive").breakdown(),
            }
            continue
        sharpening = ledger.options.riposte_sharpening if posture.kind == "riposte" else 0
        pool = defense_pool(
            sheet,
            defense,
            "active",
            effort=posture.effort,
            sharpening=sharpening,
            exhaustion=posture.exhaustion,
            wounded_penalty=ledger.wounded_penalty(cid),
        )
        pools[defense] = {"mode": "active", **pool.breakdown()}
    return pools


def declare(
    view: EncounterView,
    actor: str | None,
    kind: PostureKind,
    effort: int,
    weapon: str | None = None,
) -> Outcome:
    ledger = Ledger(view)
    cid = require_actor(ledger, actor, kind)
    name = ledger.name(cid)
    race = REQUIRED_RACE.get(kind)
    sheet = ledger.sheet(cid)
    if race is not None and sheet.race != race:
        raise ActionRefused(f"only {_a(race)} can {kind}; {name} is {_a(sheet.race)}")
    refuse_second_action(ledger, cid)
    check_effort(ledger, effort)
    if weapon is not None and sheet.find_weapon(weapon) is None and not sheet.find_spell(weapon):
        spells = [s.name for s in sheet.spells]
        raise InvalidInput(
            f"{name} has no weapon or spell '{weapon}' to counter with; their weapons: "
            f"{', '.join(sheet.weapon_names())}; their spells: {', '.join(spells) or 'none'}"
        )
    before = ledger.state(cid)
    posture = Posture(kind, effort, view.round, weapon, ledger.exhaustion(cid))
    ledger.set_state(
        cid,
        before.acting(
            view.round,
            effort * ledger.options.fatigue_per_effort_die,
            posture,
        ),
    )
    after = ledger.state(cid)
    breakdown: JsonObject = {
        "kind": kind,
        "actor": {"id": cid, "name": name},
        "posture": posture.as_json(),
        "lasts": f"until round {view.round} ends",
        "what_it_does": WHAT_IT_DOES[kind],
        "effort": {"dice": effort, "fatigue": {"before": before.fatigue, "after": after.fatigue}},
        "exhaustion_dice": posture.exhaustion,
        "defense_pools": _preview(ledger, cid, posture),
    }
    if kind == "ward":
        me = view.combatants[cid]
        breakdown["covers"] = [
            c.id
            for c in view.combatants.values()
            if c.side == me.side and c.id != cid and c.rank >= me.rank
        ]
    if kind == "riposte":
        breakdown["counter_weapon"] = weapon
    summary = f"{name} takes up {kind.capitalize()} for round {view.round}" + (
        f" with {effort} effort dice" if effort else ""
    )
    return ledger.outcome(summary, breakdown)
