"""Aggregates to response bodies; the same shape at every version."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any
from uuid import UUID

import orjson

from skald_campaign.api.schemas import (
    ActionOut,
    CampaignOut,
    CharacterOut,
    CombatantOut,
    EncounterOut,
    EncounterSummaryOut,
)
from skald_campaign.domain.campaign.aggregate import Campaign
from skald_campaign.domain.campaign.reads import standing_conditions
from skald_campaign.domain.encounter.aggregate import Encounter
from skald_campaign.domain.play.actions import ActionRecord
from skald_campaign.domain.reading import installed
from skald_campaign.domain.reading.narrators import narrate
from skald_campaign.domain.reading.recorded import kept_for
from skald_campaign.domain.records import JSONObject


def character_out(campaign: Campaign, character_id: str) -> CharacterOut:
    c = campaign.character(character_id)
    # What the last event that touched the character recorded of the rules (issue 38:
    # domain/reading/recorded.py); what it did not record (an event stored before it
    # was), asked of the ruleset installed, none when it is not installed
    # (domain/reading/installed.py).
    kept = kept_for(campaign, character_id)
    asked = installed.Asked(campaign.ruleset_id, campaign.options)
    if kept is None:
        rules = asked.rules()
        conditions = standing_conditions(campaign, character_id)
        maxima = {} if rules is None else rules.track_maxima(c.sheet)
        listed = [] if conditions is None else list(conditions)
    else:
        maxima, listed = kept.maxima, kept.conditions
    if kept is not None and kept.derived is not None and kept.equipment is not None:
        derived, equipment = kept.derived, kept.equipment
    else:
        rules = asked.rules()
        derived = {} if rules is None else rules.derived_ratings(c.sheet, c.state)
        equipment = {} if rules is None else rules.equipment(c.sheet)
    return CharacterOut(
        id=character_id,
        name=c.name,
        sheet=c.sheet,
        tracks=c.tracks,
        maxima=maxima,
        conditions=listed,
        state=c.state,
        derived=derived,
        equipment=equipment,
        in_encounter=c.in_encounter,
        npc=c.npc,
        player=c.player,
    )


def campaign_out(campaign: Campaign) -> CampaignOut:
    return CampaignOut(
        id=campaign.id,
        name=campaign.name,
        ruleset=campaign.ruleset_id,
        options=campaign.options,
        day=campaign.day,
        version=campaign.version,
        created_by=campaign.created_by,
        characters=[character_out(campaign, cid) for cid in campaign.characters],
        encounters=[entry.as_json() for entry in campaign.encounters.values()],
    )


ALL_ACTIONS = 10**9


def combatants_out(encounter: Encounter, only: Iterable[str] | None = None) -> list[CombatantOut]:
    chosen = encounter.combatants if only is None else set(only)
    return [
        CombatantOut(
            id=cid,
            name=c.name,
            side=c.side,
            rank=c.rank,
            present=c.present,
            tracks=c.tracks,
            maxima=kept_maxima(encounter, cid),
            conditions=kept_conditions(encounter, cid),
            state=c.state,
        )
        for cid, c in encounter.combatants.items()
        if cid in chosen
    ]


def kept_maxima(encounter: Encounter, cid: str) -> dict[str, int]:
    """A combatant's maxima as the last event that changed it recorded them (issue 38:
    domain/reading/recorded.py), so an answer asks no ruleset; for one whose last event
    was stored before they were recorded, the ruleset installed's, none when it is not
    installed (domain/reading/installed.py)."""
    kept = kept_for(encounter, cid)
    if kept is not None:
        return kept.maxima
    rules = encounter.installed_rules
    return {} if rules is None else rules.track_maxima(encounter.combatants[cid].sheet)


def kept_conditions(encounter: Encounter, cid: str) -> list[str]:
    """A combatant's conditions, the same way (the ruleset installed's as the command
    that changed them last worked them out: domain/play/standing.py)."""
    kept = kept_for(encounter, cid)
    if kept is not None:
        return kept.conditions
    return list(encounter.standing_conditions(cid, encounter.installed_rules) or ())


def summary_fields(encounter: Encounter) -> dict[str, Any]:
    return {
        "id": encounter.id,
        "campaign_id": encounter.campaign_id,
        "name": encounter.name,
        "ruleset": encounter.ruleset_id,
        "day": encounter.day,
        "round": encounter.round,
        "ended": encounter.ended,
        "version": encounter.version,
    }


def encounter_out(encounter: Encounter, offset: int = 0, limit: int = ALL_ACTIONS) -> EncounterOut:
    table = encounter.table.as_json(encounter.names)
    return EncounterOut(
        **summary_fields(encounter),
        combatants=combatants_out(encounter),
        actions_total=len(encounter.actions),
        actions_offset=offset,
        actions=[narrated(encounter, r) for r in encounter.actions[offset : offset + limit]],
        corrections=[c.as_json() for c in encounter.corrections],
        turn=turn_out(encounter),
        exchanges=[x.as_json() for x in encounter.exchange_list],
        markers=table["markers"],
        end_reason=encounter.reason_ended,
    )


def turn_out(encounter: Encounter) -> dict[str, Any]:
    """Whose turn, and the table's: initiative totals, who the last turn change passed
    over and why (RULINGS T1)."""
    table = encounter.table.as_json(encounter.names)
    return {
        **encounter.turn_state().as_json(),
        "initiative": table["initiative"],
        "skipped": table["skipped"],
    }


def touched_by(record: Mapping[str, Any]) -> set[str]:
    """The combatants an action changed or named: the actor, whoever its effects or
    its conditions mention, and whoever its parameters name (a target it missed)."""
    effects = record.get("effects") or {}
    touched = {*effects.get("tracks", {}), *effects.get("state", {}), *record.get("conditions", {})}
    if record.get("actor"):
        touched.add(str(record["actor"]))
    for value in (record.get("params") or {}).values():
        kind = type(value)
        if kind is str:
            touched.add(value)
        elif kind in _NAMES_NOBODY:  # most parameters: numbers, flags, unset
            continue
        elif isinstance(value, list):
            touched.update([v for v in value if isinstance(v, str)])
        elif isinstance(value, str):
            touched.add(value)
    # Whoever rolled in it (a dwarf's Ward, a defender's parry): rules' roll names
    # carry the roller's id, e.g. "ward.<id>.guard".
    for roll in record.get("rolls") or []:
        name = roll.get("name")
        if name:
            touched.update(str(name).split("."))
        name = roll.get("roll")
        if name:
            touched.update(str(name).split("."))
    return touched  # strings that are no combatant's id select nobody


_NAMES_NOBODY = frozenset({int, float, bool, type(None)})


def narrated(encounter: Encounter, record: ActionRecord) -> dict[str, Any]:
    """The record's JSON with its narrative beside the breakdown (derived when read)."""
    return narrated_json(encounter, record.as_json())


def narrated_json(encounter: Encounter, stored: JSONObject) -> dict[str, Any]:
    """`narrated` of a record already written out (the answer reads it twice)."""
    return {**stored, "narrative": narrate(encounter.ruleset_id, stored, encounter.combatants)}


def action_out(encounter: Encounter, record: ActionRecord) -> ActionOut:
    touched = touched_by(record.as_json())
    return ActionOut(
        action=narrated(encounter, record),
        encounter=EncounterSummaryOut(
            **summary_fields(encounter), combatants=combatants_out(encounter, touched)
        ),
    )


def outcome_out(encounter: Encounter) -> ActionOut:
    """What the encounter's last action request produced: an action, or a pending exchange."""
    last = getattr(encounter, "last_outcome", None) or {"action": len(encounter.actions)}
    if "exchange" in last:
        exchange = encounter.exchange_list[int(last["exchange"]) - 1]
        parties = {str(exchange.actor), exchange.defender}
        summary = EncounterSummaryOut(
            **summary_fields(encounter), combatants=combatants_out(encounter, parties)
        )
        return ActionOut(status="pending", exchange=exchange.as_json(), encounter=summary)
    return action_out(encounter, encounter.action(int(last["action"])))


# -- the action's answer as bytes (the fast path's) -----------------------------------
# `ActionOut.model_dump_json()` of `outcome_out`, written by orjson from plain dicts
# instead: building and validating the four models cost more than the JSON itself. The
# bytes are the same (tests/integration/test_action_answer_bytes.py, every answer of the
# compat store): where pydantic's validation would change a value (a field typed int,
# str, bool or UUID given another type, tracks that are not a dict of ints) or orjson
# would write a value differently or not at all (datetimes, dataclasses, big integers,
# keys that are not strings), None is returned and the models answer.
_PLAIN_ONLY = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


_STR = frozenset({str})
_INT = frozenset({int})


def _ints(values: object) -> bool:
    # Each key exactly a str and each value exactly an int, the types compared in C.
    return (
        type(values) is dict
        and _STR.issuperset(map(type, values))
        and _INT.issuperset(map(type, values.values()))
    )


def _summary_plain(encounter: Encounter, only: set[str]) -> dict[str, object] | None:
    if not (
        type(encounter.id) is UUID
        and type(encounter.campaign_id) is UUID
        and type(encounter.name) is str
        and type(encounter.ruleset_id) is str
        and type(encounter.day) is int
        and type(encounter.round) is int
        and type(encounter.ended) is bool
        and type(encounter.version) is int
    ):
        return None
    combatants: list[dict[str, object]] = []
    for cid, c in encounter.combatants.items():
        if cid not in only:
            continue
        maxima = kept_maxima(encounter, cid)
        conditions = kept_conditions(encounter, cid)
        if not (
            type(cid) is str
            and type(c.name) is str
            and type(c.side) is str
            and type(c.rank) is int
            and type(c.present) is bool
            and _ints(c.tracks)
            and _ints(maxima)
            and _STR.issuperset(map(type, conditions))
            and type(c.state) is dict
        ):
            return None
        combatants.append(
            {
                "id": cid,
                "name": c.name,
                "side": c.side,
                "rank": c.rank,
                "present": c.present,
                "tracks": c.tracks,
                "maxima": maxima,
                "conditions": conditions,
                "state": c.state,
            }
        )
    return {**summary_fields(encounter), "combatants": combatants}


def outcome_json(encounter: Encounter) -> tuple[bool, bytes]:
    """`outcome_out(encounter)` as the bytes its `model_dump_json()` writes, and whether
    it is pending (an attack waiting for a declaration)."""
    last = getattr(encounter, "last_outcome", None) or {"action": len(encounter.actions)}
    answer: dict[str, object] | None = None
    if "exchange" in last:
        exchange = encounter.exchange_list[int(last["exchange"]) - 1]
        summary = _summary_plain(encounter, {str(exchange.actor), exchange.defender})
        if summary is not None:
            answer = {"status": "pending", "action": None, "exchange": exchange.as_json()}
    else:
        stored = encounter.action(int(last["action"])).as_json()
        summary = _summary_plain(encounter, touched_by(stored))
        if summary is not None:
            answer = {
                "status": "resolved",
                "action": narrated_json(encounter, stored),
                "exchange": None,
            }
    if answer is not None and summary is not None:
        try:
            return answer["status"] == "pending", orjson.dumps(
                {**answer, "encounter": summary}, option=_PLAIN_ONLY
            )
        except TypeError:  # a value orjson does not write as pydantic would
            pass
    result = outcome_out(encounter)
    return result.status == "pending", result.model_dump_json().encode()
