"""Whole outcomes of margin actions and days, written out in full (ids replaced by the table's
names), so that every word and number a table reads is pinned: the scenarios."""

from __future__ import annotations

from typing import Any

from skald_campaign.domain.rulesets.margin import Margin
from skald_campaign.domain.rulesets.margin.options import MarginOptions
from skald_campaign.domain.rulesets.margin.ratings import derived_ratings
from skald_campaign.domain.rulesets.margin.sheet import MarginSheet
from skald_campaign.domain.rulesets.margin.state import CharacterState
from tests.unit.test_margin_table import BOW, FIREBOLT, HALBERD, SWORD, Table, sheet

RULES = Margin()
THRAIN = sheet(
    race="dwarf", grace=1, vigor=3, evasion=1, guard=3, armor=[{"name": "mail", "rating": 4}]
)
ORC = sheet(might=3, melee=2, weapons=[SWORD])
HIDE_ORC = sheet(might=3, melee=2, armor=[{"name": "hide", "rating": 2}], weapons=[SWORD])
LIA = sheet(race="elf", grace=3, vigor=1, evasion=2, weapons=[SWORD, BOW])


def named(value: Any, table: Table) -> Any:
    """``value`` with every combatant id (alone or inside a roll name) swapped for its name."""
    names = {cid: name for name, cid in table.ids.items()}
    if isinstance(value, dict):
        return {named(k, table): named(v, table) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [named(v, table) for v in value]
    if isinstance(value, str):
        for cid, name in names.items():
            value = value.replace(cid, name)
    return value


def outcome(table: Table, record: dict[str, Any]) -> Any:
    return named({"summary": record["summary"], "breakdown": record["breakdown"]}, table)


def ward_table() -> Table:
    table = Table()
    table.enrol("orc", ORC)
    table.enrol("thrain", THRAIN)
    table.enrol("ally", sheet(health=20))
    table.enrol("scout", sheet())
    table.start(("orc", "b", 1), ("thrain", "a", 1), ("ally", "a", 1), ("scout", "a", 2))
    return table


def ward_declared() -> Any:
    table = ward_table()
    return outcome(table, table.act("ward", "thrain", effort=1))


def ward_intercepts() -> Any:
    table = ward_table()
    table.act("ward", "thrain", effort=1)
    record = table.act(
        "attack",
        "orc",
        target="ally",
        weapon="sword",
        dice={
            "attack": [6, 6, 6, 1, 2],
            "defense.ally.evasion": [2, 2],
            "defense.ally.guard": [2, 2],
            "ward.thrain.evasion": [2, 2, 2],
            "ward.thrain.guard": [6, 2, 2, 2, 2, 2, 2],
        },
    )
    return outcome(table, record)


def ward_stops() -> Any:
    table = ward_table()
    table.act("ward", "thrain", effort=1)
    record = table.act(
        "attack",
        "orc",
        target="ally",
        weapon="sword",
        dice={
            "attack": [6, 1, 1, 1, 2],
            "defense.ally.evasion": [2, 2],
            "defense.ally.guard": [2, 2],
            "ward.thrain.evasion": [1, 1, 1],
            "ward.thrain.guard": [6, 1, 1, 1, 1, 1, 1],
        },
    )
    return named({"summary": record["summary"], "ward": record["breakdown"]["ward"]}, table)


def riposte_table() -> Table:
    table = Table()
    table.enrol("lia", LIA)
    table.enrol("orc", HIDE_ORC)
    table.enrol("archer", sheet(grace=2, weapons=[BOW]))
    table.enrol("pikeman", sheet(might=3, melee=2, weapons=[HALBERD]))
    table.start(("lia", "a", 1), ("orc", "b", 1), ("archer", "b", 1), ("pikeman", "b", 2))
    return table


def riposte_declared() -> Any:
    table = riposte_table()
    return outcome(table, table.act("riposte", "lia", effort=1, weapon="sword"))


def turned(table: Table, attacker: str, weapon: str, attack: list[int]) -> dict[str, Any]:
    return table.act(
        "attack",
        attacker,
        target="lia",
        weapon=weapon,
        dice={
            "attack": attack,
            "defense.lia.evasion": [6, 6, 6, 1, 1, 1, 2],
            "defense.lia.guard": [2],
        },
    )


def riposte_answers() -> Any:
    table = riposte_table()
    table.act("riposte", "lia", effort=1)
    return outcome(table, turned(table, "orc", "sword", [6, 1, 1, 1, 2]))


def riposte_never_answers_a_bow() -> Any:
    table = riposte_table()
    table.act("riposte", "lia", effort=1)
    record = turned(table, "archer", "bow", [6, 2])
    return named({"summary": record["summary"], "riposte": record["breakdown"]["riposte"]}, table)


def riposte_named_weapon_cannot_reach() -> Any:
    table = riposte_table()
    table.act("riposte", "lia", effort=1, weapon="sword")
    record = turned(table, "pikeman", "halberd", [6, 1, 1, 1, 2])
    return named({"summary": record["summary"], "riposte": record["breakdown"]["riposte"]}, table)


def riposte_nothing_reaches() -> Any:
    table = Table()
    table.enrol("lia", sheet(race="elf", grace=3, vigor=1, evasion=2, weapons=[SWORD]))
    table.enrol("pikeman", sheet(might=3, melee=2, weapons=[HALBERD]))
    table.enrol("wall", sheet())
    table.start(("lia", "a", 1), ("wall", "b", 1), ("pikeman", "b", 2))
    table.act("riposte", "lia", effort=1)
    record = turned(table, "pikeman", "halberd", [6, 1, 1, 1, 2])
    return named({"summary": record["summary"], "riposte": record["breakdown"]["riposte"]}, table)


def defend_wounded_and_tired() -> Any:
    table = Table()
    table.enrol("guard", sheet(grace=3, evasion=1, guard=2, health=20))
    table.enrol("orc", sheet(might=6, melee=4))
    table.start(("guard", "a", 1), ("orc", "b", 1))
    table.act(
        "attack",
        "orc",
        target="guard",
        dice={
            "attack": [6] * 10,
            "defense.guard.evasion": [2, 2, 2],
            "defense.guard.guard": [2, 2],
        },
    )
    table.act("defend", "guard", effort=3)
    table.next_round()
    return outcome(table, table.act("defend", "guard", effort=2))


def cast_with_luck_and_a_fumble() -> Any:
    table = Table()
    table.enrol("mage", sheet(aether=3, abjuration=1, luck=1, spells=[FIREBOLT]))
    table.enrol("scholar", sheet(grace=1, vigor=1, aether=2, luck=1, nature={"fire": "weak"}))
    table.start(("mage", "a", 3), ("scholar", "b", 2))
    record = table.act(
        "cast",
        "mage",
        target="scholar",
        spell="firebolt",
        dice={
            "attack": [1, 2, 3, 4],
            "attack.luck": [6, 2, 2, 2],
            "defense.scholar.evasion": [1],
            "defense.scholar.evasion.luck": [1],
            "defense.scholar.guard": [3],
            "defense.scholar.abjuration": [1, 1],
        },
    )
    return outcome(table, record)


def days() -> Any:
    stored = RULES.validate_sheet(sheet(luck=2))
    state = {
        "fatigue": 7,
        "luck": 0,
        "ammunition": {},
        "posture": {"kind": "defend", "effort": 1, "round": 2, "weapon": None, "exhaustion": 0},
        "acted_round": 2,
    }
    plan = Margin.day_plan_model
    assert plan is not None
    found = {}
    for rest in ("full", "light", "none"):
        day = RULES.daily(stored, {"health": 3}, state, plan.model_validate({"rest": rest}))
        found[rest] = {"tracks": day.tracks, "state": day.state, "breakdown": day.breakdown}
    return found


def ratings() -> Any:
    character = MarginSheet.model_validate(
        sheet(
            might=3,
            melee=2,
            evasion=1,
            luck=2,
            armor=[{"name": "mail", "rating": 3}, {"name": "buckler", "rating": 1, "shield": True}],
            weapons=[SWORD, {**BOW, "per_margin": "1/2"}],
            spells=[FIREBOLT],
        )
    )
    state = CharacterState(fatigue=3, luck=1, ammunition={"bow": 2})
    return derived_ratings(character, state)


def schemas() -> Any:
    sheet_schema = RULES.sheet_model.model_json_schema()
    options_schema = MarginOptions.model_json_schema()
    return {
        "per_margin": sheet_schema["$defs"]["Weapon"]["properties"]["per_margin"],
        "armor_blunting": options_schema["properties"]["armor_blunting"],
        "wounded_at": options_schema["properties"]["wounded_at"],
    }


SCENARIOS = {
    "ward_declared": ward_declared,
    "ward_intercepts": ward_intercepts,
    "ward_stops": ward_stops,
    "riposte_declared": riposte_declared,
    "riposte_answers": riposte_answers,
    "riposte_never_answers_a_bow": riposte_never_answers_a_bow,
    "riposte_named_weapon_cannot_reach": riposte_named_weapon_cannot_reach,
    "riposte_nothing_reaches": riposte_nothing_reaches,
    "defend_wounded_and_tired": defend_wounded_and_tired,
    "cast_with_luck_and_a_fumble": cast_with_luck_and_a_fumble,
    "days": days,
    "ratings": ratings,
    "schemas": schemas,
}
