"""The encounter's records (domain/play/actions.py, domain/play/records.py) read the JSON
that events and snapshots stored and write it back byte for byte, keys in their order.

Each shape below is one fe485e1 wrote (copied from its stored events and snapshots,
tests/fixtures/records/store_fe485e1.json, or built by its code paths: an override, a
reroll, a void a replay worked out, a GM record, a carried and a day plan's correction).
"""

from __future__ import annotations

import json
from pathlib import Path
from types import MappingProxyType

import orjson
import pytest

from skald_campaign.domain.play.actions import (
    ActionRecord,
    ConditionChange,
    Effects,
    Override,
    RollRecord,
)
from skald_campaign.domain.play.dice import DiceExpression, Roll
from skald_campaign.domain.play.records import Correction, Exchange, TurnOverride
from skald_campaign.domain.records import JSON, Combatant

HERO = "587e84dd-ed56-40e7-846a-9be351487816"

ROLL = {"name": "damage", "dice": "1d6", "faces": [3], "total": 3, "supplied": True}
TAKE_HIT = {
    "number": 1,
    "round": 1,
    "kind": "take_hit",
    "actor": None,
    "params": {"target": HERO, "damage_type": "impact", "damage_class": 1},
    "rolls": [ROLL],
    "summary": "Mira takes 2 Stamina and 0 Body (2/0 raw)",
    "breakdown": {"tracks": {"stamina": {"before": 12, "after": 10}}, "piercing_wound": False},
    "by": "gm",
    "status": "active",
    "version": 2,
    "effects": {"tracks": {HERO: {"stamina": 10, "body": 10}}, "state": {HERO: {}}},
    "conditions": {HERO: {"before": [], "after": []}},
}
COMBATANT = {
    "name": "Mira",
    "side": "party",
    "rank": 1,
    "sheet": {"st": 10},
    "tracks": {"stamina": 12, "body": 10},
    "state": {},
    "present": False,
}
# A GM record: its version comes after its conditions (GMChanged's apply added it last).
LEAVE = {
    "number": 3,
    "round": 2,
    "kind": "leave",
    "actor": None,
    "params": {"reason": "fled", "target": HERO},
    "rolls": [],
    "summary": "Mira leaves the fight",
    "breakdown": {},
    "by": "gm",
    "status": "voided",
    "effects": {
        "tracks": {HERO: {"stamina": 12, "body": 10}},
        "state": {HERO: {}},
        "combatants": {HERO: COMBATANT},
    },
    "conditions": {HERO: {"before": [], "after": ["out"]}},
    "version": 5,
    "voided_because": "'x' is not in this fight",
}
OVERRIDE = {"refusal": "Mira has already acted once", "reason": "haste", "by": "gm"}
REROLLED = {
    **TAKE_HIT,
    "rolls": [
        {**ROLL, "supplied": False, "adjusted": "kept 1 of 2 recorded faces"},
        {**ROLL, "name": "extra", "new": True},
    ],
    "override": OVERRIDE,
    "rerolled": True,
}


def written(value: dict[str, JSON]) -> bytes:
    return orjson.dumps(value)


@pytest.mark.parametrize("stored", [TAKE_HIT, LEAVE, REROLLED], ids=["action", "gm", "rerolled"])
def test_an_action_record_writes_back_what_was_stored(stored: dict[str, JSON]) -> None:
    record = ActionRecord.from_json(stored)
    assert written(record.as_json()) == orjson.dumps(stored)
    assert ActionRecord.from_json(record.as_json()) == record


def test_an_action_record_reads_its_fields_typed() -> None:
    record = ActionRecord.from_json(REROLLED)
    assert record.rolls == (
        RollRecord("damage", "1d6", (3,), 3, False, adjusted="kept 1 of 2 recorded faces"),
        RollRecord("extra", "1d6", (3,), 3, True, new=True),
    )
    assert record.effects == Effects({HERO: {"stamina": 10, "body": 10}}, {HERO: {}})
    assert record.conditions == {HERO: ConditionChange((), ())}
    assert record.override == Override("Mira has already acted once", "haste", "gm")
    assert (record.version, record.rerolled, record.voided_because) == (2, True, None)
    gm = ActionRecord.from_json(LEAVE)
    assert gm.effects.combatants == {
        HERO: Combatant("Mira", "party", 1, {"st": 10}, {"stamina": 12, "body": 10}, {}, False)
    }
    assert (gm.status, gm.voided_because, gm.version) == ("voided", "'x' is not in this fight", 5)


def test_an_older_record_without_conditions_or_version_writes_none() -> None:
    old = {k: v for k, v in TAKE_HIT.items() if k not in ("conditions", "version")}
    record = ActionRecord.from_json(old)
    assert (record.conditions, record.version) == (None, None)
    assert written(record.as_json()) == orjson.dumps(old)


EXCHANGE = {
    "kind": "attack",
    "actor": "fee2eb90",
    "defender": "e77d3cbe",
    "params": {"target": "e77d3cbe", "weapon": "longsword"},
    "dice": {"damage": [4, 2]},
    "rolls": [{"name": "hit", "dice": "3d6", "faces": [1, 1, 1], "total": 3, "supplied": True}],
    "param": "defense",
    "choices": ["parry", "dodge", "none"],
    "shown": {"attacker": "Ogre", "hit_score": 10, "scores": {"parry": 11, "dodge": 10}},
    "status": "pending",
    "awaiting": "Bran's declaration (parry / dodge / none)",
    "summary": "Ogre's attack on Bran waits for Bran's defense: parry, dodge, none",
    "number": 1,
    "round": 1,
    "by": "gm",
}
DECLARED = {
    **EXCHANGE,
    "status": "resolved",
    "override": OVERRIDE,
    "declared": "parry",
    "declared_by": "gm:GM",
    "action": 2,
}
WITHDRAWN = {**EXCHANGE, "status": "withdrawn", "reason": "misclick", "withdrawn_by": "gm"}


@pytest.mark.parametrize(
    "stored", [EXCHANGE, DECLARED, WITHDRAWN], ids=["pending", "declared", "withdrawn"]
)
def test_an_exchange_writes_back_what_was_stored(stored: dict[str, JSON]) -> None:
    exchange = Exchange.from_json(stored)
    assert written(exchange.as_json()) == orjson.dumps(stored)
    assert Exchange.from_json(exchange.as_json()) == exchange


def test_an_exchange_reads_its_fields_typed() -> None:
    exchange = Exchange.from_json(DECLARED)
    assert exchange.dice == {"damage": (4, 2)}
    assert exchange.rolls == (RollRecord("hit", "3d6", (1, 1, 1), 3, True),)
    assert exchange.choices == ("parry", "dodge", "none")
    assert (exchange.declared, exchange.declared_by, exchange.action) == ("parry", "gm:GM", 2)
    assert exchange.override == Override("Mira has already acted once", "haste", "gm")


REPORT = [{"number": 1, "kind": "take_hit", "before": "a", "after": None, "status": "voided"}]
CORRECTIONS = {
    "void": {"kind": "void", "number": 1, "reason": "typo", "by": "gm", "report": REPORT},
    "rewind": {"kind": "rewind", "to_version": 3, "reason": "r", "by": "gm", "report": []},
    "carried": {
        "kind": "reroll",
        "encounter_id": "5f0c",
        "reason": "dice fell off",
        "by": "gm",
        "after_end": True,
        "number": 2,
        "report": REPORT,
    },
    "carried rewind": {
        "kind": "rewind",
        "encounter_id": "5f0c",
        "reason": "r",
        "by": "gm",
        "after_end": True,
        "to_version": 4,
        "report": [],
    },
    "day plan": {
        "kind": "day_plan",
        "day": 2,
        "character_id": HERO,
        "plan": {"rest": True},
        "reason": "forgot",
        "by": "gm",
        "report": REPORT,
    },
}


@pytest.mark.parametrize("name", list(CORRECTIONS))
def test_a_correction_writes_back_what_was_stored(name: str) -> None:
    stored = {**CORRECTIONS[name], "version": 7}
    correction = Correction.from_json(stored)
    assert written(correction.as_json()) == orjson.dumps(stored)
    assert correction.version == 7
    assert correction.report == tuple(stored["report"])  # type: ignore[arg-type]
    # As its event carries it: no version yet, none written.
    assert written(Correction.from_json(CORRECTIONS[name]).as_json()) == orjson.dumps(
        CORRECTIONS[name]
    )


def test_a_correction_keeps_a_key_it_does_not_know() -> None:
    stored = {**CORRECTIONS["carried"], "carried": {"steps": 2}, "version": 9}
    correction = Correction.from_json(stored)
    assert correction.extra == {"carried": {"steps": 2}}
    assert correction.as_json() == stored


def test_a_turn_override_writes_back_what_was_stored() -> None:
    stored = {"actor": "a1", "round": 2, "refusal": "no", "reason": "haste", "by": "gm"}
    override = TurnOverride.from_json(stored)
    assert override == TurnOverride("a1", 2, "no", "haste", "gm")
    assert written(override.as_json()) == orjson.dumps(stored)


@pytest.mark.parametrize(
    "bad",
    [
        {**TAKE_HIT, "number": "1"},
        {**TAKE_HIT, "rolls": {"damage": [3]}},
        {**TAKE_HIT, "effects": []},
        {**TAKE_HIT, "conditions": {HERO: {"before": "down", "after": []}}},
    ],
    ids=["number", "rolls", "effects", "conditions"],
)
def test_a_record_of_another_shape_is_refused(bad: dict[str, JSON]) -> None:
    with pytest.raises(TypeError):
        ActionRecord.from_json(bad)


STORE = json.loads((Path(__file__).parents[1] / "fixtures/records/store_fe485e1.json").read_text())


def test_every_record_of_the_fe485e1_snapshots_reads_and_writes_back() -> None:
    """The old snapshots' actions and exchanges, through the records and back: same bytes."""
    seen = {"actions": 0, "exchanges": 0}
    for row in STORE["tables"]["stored_snapshots"]:
        state = json.loads(row["state"])["state"]
        for stored in state.get("actions", []):
            assert written(ActionRecord.from_json(stored).as_json()) == orjson.dumps(stored)
            seen["actions"] += 1
        for stored in state.get("exchanges", []):
            assert written(Exchange.from_json(stored).as_json()) == orjson.dumps(stored)
            seen["exchanges"] += 1
    assert seen == {"actions": 8, "exchanges": 2}


COMPAT = Path(__file__).parents[1] / "fixtures/compat/store-fe485e1.jsonl"


def test_every_record_the_compat_store_carries_in_its_events_writes_back_the_same() -> None:
    """The compat store's (fe485e1's) Corrected, Recomputed, GMChanged and ExchangeOpened
    events: every action record, correction and exchange in them, read and written back,
    gives the stored bytes."""
    seen = {"actions": 0, "corrections": 0, "exchanges": 0}
    for line in COMPAT.read_text().splitlines()[1:]:
        row = json.loads(line)
        topic, state = row.get("topic"), json.loads(row.get("state") or "{}")
        if topic in (
            "domain.encounter:Encounter.Corrected",
            "domain.encounter:Encounter.Recomputed",
        ):
            for stored in state["actions"]:
                assert written(ActionRecord.from_json(stored).as_json()) == orjson.dumps(stored)
                seen["actions"] += 1
            correction = Correction.from_json(state["correction"])
            assert written(correction.as_json()) == orjson.dumps(state["correction"])
            seen["corrections"] += 1
        elif topic == "domain.encounter:Encounter.GMChanged":
            record = ActionRecord.from_json(state["record"])
            assert written(record.as_json()) == orjson.dumps(state["record"])
            seen["actions"] += 1
        elif topic == "domain.encounter:Encounter.ExchangeOpened":
            exchange = Exchange.from_json(state["exchange"])
            assert written(exchange.as_json()) == orjson.dumps(state["exchange"])
            seen["exchanges"] += 1
    assert seen == {"actions": 134, "corrections": 12, "exchanges": 2}


def test_an_old_snapshot_loads_as_records_and_a_new_one_stores_the_same_json() -> None:
    """fe485e1's snapshot of the encounter at version 5 (an action, a declared exchange)
    loads into records; taking one now stores the same JSON, which loads the same."""
    from uuid import UUID

    from skald_campaign.domain.encounter.aggregate import Encounter
    from tests.unit.test_snapshot_upcast import SNAPSHOTS, loaded

    row = next(r for r in SNAPSHOTS if "exchanges" in json.loads(r["state"])["state"])
    app = loaded(True)
    encounter = app.repository.get(UUID(row["originator_id"]), version=row["originator_version"])
    assert isinstance(encounter, Encounter)
    assert [type(a) for a in encounter.actions] == [ActionRecord, ActionRecord]
    assert [type(x) for x in encounter.exchange_list] == [Exchange]
    assert encounter.exchange_list[0].declared == "parry"
    old = json.loads(row["state"])["state"]
    taken = Encounter.Snapshot.take(encounter)
    assert orjson.loads(orjson.dumps(taken.state["actions"])) == old["actions"]
    assert orjson.loads(orjson.dumps(taken.state["exchanges"])) == old["exchanges"]
    again = taken.mutate(None)
    assert isinstance(again, Encounter)
    assert again.actions == encounter.actions
    assert again.exchange_list == encounter.exchange_list


@pytest.mark.parametrize(
    "roll",
    [
        Roll("damage", DiceExpression(2, 6), (3, 6), supplied=True),
        Roll("hit", DiceExpression(3, 6, -2), (1, 1, 2), supplied=False),
        Roll("parry", DiceExpression(1, 20, 4), (20,), supplied=True, adjusted="2 dice recorded"),
        Roll("none", DiceExpression(0, 6), (), supplied=False),
    ],
)
def test_the_record_of_a_roll_is_the_record_its_json_reads(roll: Roll) -> None:
    made = RollRecord.of(roll)
    assert made == RollRecord.from_json(roll.as_record())
    assert orjson.dumps(made.as_json()) == orjson.dumps(roll.as_record())


def test_a_roll_whose_faces_are_not_integers_is_refused_as_its_json_is() -> None:
    roll = Roll("damage", DiceExpression(1, 6), ("3",), supplied=True)  # type: ignore[arg-type]
    with pytest.raises(TypeError) as through_json:
        RollRecord.from_json(roll.as_record())
    with pytest.raises(TypeError) as made:
        RollRecord.of(roll)
    assert str(made.value) == str(through_json.value)


@pytest.mark.parametrize(
    "stored",
    [
        ROLL,
        {**ROLL, "adjusted": "2 dice recorded, 1 needed now: kept 1", "new": True},
        {**ROLL, "faces": [True, 2]},  # a bool is an int here, as as_int reads it
        {**ROLL, "supplied": 1},  # only true is supplied
        {**ROLL, "new": 1},
        {**ROLL, "faces": []},
    ],
)
def test_a_stored_roll_reads_the_same_by_its_exact_types_or_as_any_mapping(
    stored: dict[str, JSON],
) -> None:
    assert RollRecord.from_json(stored) == RollRecord.from_json(MappingProxyType(stored))


@pytest.mark.parametrize(
    "stored",
    [
        {key: value for key, value in ROLL.items() if key != "supplied"},
        {key: value for key, value in ROLL.items() if key != "name"},
        {**ROLL, "faces": ["3"]},
        {**ROLL, "total": "3"},
        {**ROLL, "adjusted": 2},
    ],
)
def test_a_stored_roll_of_another_shape_is_refused_as_before(stored: dict[str, JSON]) -> None:
    with pytest.raises((KeyError, TypeError)) as as_mapping:
        RollRecord.from_json(MappingProxyType(stored))
    with pytest.raises(type(as_mapping.value)) as as_dict:
        RollRecord.from_json(stored)
    assert str(as_dict.value) == str(as_mapping.value)
