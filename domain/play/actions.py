"""Typed records of an encounter: its action records, rolls, exchanges and corrections.

Frozen ``msgspec.Struct`` records like those of domain/records.py. Events and
snapshots carry them as the JSON they always carried: ``from_json`` reads what an
event or a snapshot stored (fe485e1's shapes and the older ones, whose optional keys
may be missing), ``as_json`` writes today's dict again with the same keys in the same
order, so the API's answers and new events are byte for byte what they were.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from skald_campaign.domain.play.dice import Roll
from skald_campaign.domain.records import (
    JSON,
    Combatant,
    JSONObject,
    Record,
    State,
    Tracks,
    as_int,
    as_object,
    as_str,
    as_tracks,
    combatants_as_json,
    combatants_from_json,
)

# The kinds of GM record an encounter keeps among its actions (domain/play/gm_changes.py).
AMEND = "amend_sheet"
ADJUST = "adjust_tracks"
JOIN = "join"
LEAVE = "leave"
MOVE = "move"
GM_KINDS = frozenset({AMEND, ADJUST, JOIN, LEAVE, MOVE})


def as_list(value: JSON) -> Sequence[JSON]:
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise TypeError(f"a JSON array was stored here, not {value!r}")
    return value


def as_strs(value: JSON) -> tuple[str, ...]:
    return tuple(as_str(item) for item in as_list(value))


def as_ints(value: JSON) -> tuple[int, ...]:
    if type(value) is list and all(type(item) is int for item in value):
        return tuple(value)  # the stored shape: no ABC checks, no call per item
    return tuple(as_int(item) for item in as_list(value))


def as_optional_str(value: JSON) -> str | None:
    return None if value is None else as_str(value)


def as_optional_int(value: JSON) -> int | None:
    return None if value is None else as_int(value)


class RollRecord(Record, frozen=True):
    """One named roll as an action recorded it (domain/play/dice.py's Roll, as stored)."""

    name: str
    dice: str
    faces: tuple[int, ...]
    total: int
    supplied: bool
    adjusted: str | None = None  # how a replay refitted the recorded faces
    new: bool = False  # rolled fresh by a replay: the original resolution never made it

    @classmethod
    def from_json(cls, stored: JSON) -> RollRecord:
        if type(stored) is dict:  # as events store it: read by exact types, no ABC checks
            name, dice, faces = stored.get("name"), stored.get("dice"), stored.get("faces")
            total, adjusted = stored.get("total"), stored.get("adjusted")
            if (
                type(name) is str
                and type(dice) is str
                and type(faces) is list
                and all(type(face) is int for face in faces)
                and type(total) is int
                and "supplied" in stored
                and (adjusted is None or type(adjusted) is str)
            ):
                return cls(
                    name,
                    dice,
                    tuple(faces),
                    total,
                    stored["supplied"] is True,
                    adjusted,
                    stored.get("new") is True,
                )
        roll = as_object(stored)
        return cls(
            name=as_str(roll["name"]),
            dice=as_str(roll["dice"]),
            faces=as_ints(roll["faces"]),
            total=as_int(roll["total"]),
            supplied=roll["supplied"] is True,
            adjusted=as_optional_str(roll.get("adjusted")),
            new=roll.get("new") is True,
        )

    @classmethod
    def of(cls, roll: Roll) -> RollRecord:
        """The record of a roll just made: ``from_json(roll.as_record())`` without the
        JSON between (faces that are not integers still go that way, and are refused)."""
        if not all(type(face) is int for face in roll.faces):
            return cls.from_json(roll.as_record())
        return cls(
            name=roll.name,
            dice=str(roll.expression),
            faces=roll.faces,
            total=roll.total,
            supplied=roll.supplied is True,
            adjusted=roll.adjusted,
        )

    def as_json(self) -> dict[str, JSON]:
        stored: dict[str, JSON] = {
            "name": self.name,
            "dice": self.dice,
            "faces": list(self.faces),
            "total": self.total,
            "supplied": self.supplied,
        }
        if self.adjusted is not None:
            stored["adjusted"] = self.adjusted
        if self.new:
            stored["new"] = True
        return stored


def rolls_from_json(stored: JSON) -> tuple[RollRecord, ...]:
    return tuple(RollRecord.from_json(roll) for roll in as_list(stored))


def rolls_as_json(rolls: Sequence[RollRecord]) -> list[JSON]:
    return [roll.as_json() for roll in rolls]


class Override(Record, frozen=True):
    """The GM's override that let an action through out of turn: on its record."""

    refusal: str
    reason: str
    by: str

    @classmethod
    def from_json(cls, stored: JSON) -> Override:
        o = as_object(stored)
        return cls(as_str(o["refusal"]), as_str(o["reason"]), as_str(o["by"]))

    def as_json(self) -> dict[str, JSON]:
        return {"refusal": self.refusal, "reason": self.reason, "by": self.by}


def override_from_json(stored: JSON) -> Override | None:
    return None if stored is None else Override.from_json(stored)


class ConditionChange(Record, frozen=True):
    """A combatant's conditions before and after an action."""

    before: tuple[str, ...]
    after: tuple[str, ...]

    def as_json(self) -> dict[str, JSON]:
        return {"before": list(self.before), "after": list(self.after)}


def conditions_from_json(stored: JSON) -> dict[str, ConditionChange]:
    return {
        cid: ConditionChange(as_strs(as_object(c)["before"]), as_strs(as_object(c)["after"]))
        for cid, c in as_object(stored).items()
    }


class Effects(Record, frozen=True):
    """What an action did: each touched combatant's new tracks and state; a GM record's
    also the whole combatant (sheet, rank, presence)."""

    tracks: Mapping[str, Tracks]
    state: Mapping[str, State]
    combatants: Mapping[str, Combatant] | None = None

    @classmethod
    def from_json(cls, stored: JSON) -> Effects:
        e = as_object(stored)
        whole = e.get("combatants")
        return cls(
            tracks={cid: as_tracks(t) for cid, t in as_object(e["tracks"]).items()},
            state={cid: as_object(s) for cid, s in as_object(e["state"]).items()},
            combatants=None if whole is None else combatants_from_json(as_object(whole)),
        )

    def as_json(self) -> dict[str, JSON]:
        stored: dict[str, JSON] = {"tracks": self.tracks, "state": self.state}
        if self.combatants is not None:
            stored["combatants"] = combatants_as_json(self.combatants)
        return stored


class ActionRecord(Record, frozen=True):
    """One action of an encounter (or one GM change among them), as it stands now."""

    number: int
    round: int
    kind: str
    actor: str | None
    params: JSONObject
    rolls: tuple[RollRecord, ...]
    summary: str
    breakdown: JSONObject
    by: str
    status: str  # active, voided or superseded
    effects: Effects
    conditions: Mapping[str, ConditionChange] | None = None  # None: recorded before them
    version: int | None = None  # the encounter's version that recorded it
    override: Override | None = None
    rerolled: bool = False
    voided_because: str | None = None  # why a replay could no longer resolve it
    hidden: bool = False  # T3: the GM rolled it hidden; others see only its outcome
    # Issue 38: what its texts ask of the ruleset, as its command worked them out
    # (domain/reading/told_form.py); None: not recorded (read through the ruleset).
    told: JSONObject | None = None

    @classmethod
    def from_json(cls, stored: JSON) -> ActionRecord:
        r = as_object(stored)
        conditions = r.get("conditions")
        told = r.get("told")
        return cls(
            number=as_int(r["number"]),
            round=as_int(r["round"]),
            kind=as_str(r["kind"]),
            actor=as_optional_str(r["actor"]),
            params=as_object(r["params"]),
            rolls=rolls_from_json(r["rolls"]),
            summary=as_str(r["summary"]),
            breakdown=as_object(r["breakdown"]),
            by=as_str(r["by"]),
            status=as_str(r["status"]),
            effects=Effects.from_json(r["effects"]),
            conditions=None if conditions is None else conditions_from_json(conditions),
            version=as_optional_int(r.get("version")),
            override=override_from_json(r.get("override")),
            rerolled=r.get("rerolled") is True,
            voided_because=as_optional_str(r.get("voided_because")),
            hidden=r.get("hidden") is True,
            told=as_object(told) if told is not None else None,
        )

    def as_json(self) -> dict[str, JSON]:
        stored: dict[str, JSON] = {
            "number": self.number,
            "round": self.round,
            "kind": self.kind,
            "actor": self.actor,
            "params": self.params,
            "rolls": rolls_as_json(self.rolls),
            "summary": self.summary,
            "breakdown": self.breakdown,
            "by": self.by,
            "status": self.status,
        }
        # A resolved action's record has its version here, a GM record's after its
        # conditions: each where the encounter has always written it.
        gm = self.kind in GM_KINDS
        if self.version is not None and not gm:
            stored["version"] = self.version
        stored["effects"] = self.effects.as_json()
        if self.conditions is not None:
            stored["conditions"] = {cid: c.as_json() for cid, c in self.conditions.items()}
        if self.version is not None and gm:
            stored["version"] = self.version
        if self.override is not None:
            stored["override"] = self.override.as_json()
        if self.rerolled:
            stored["rerolled"] = True
        if self.voided_because is not None:
            stored["voided_because"] = self.voided_because
        if self.hidden:
            stored["hidden"] = True
        if self.told is not None:
            stored["told"] = self.told
        return stored

    @classmethod
    def resolved(
        cls,
        number: int,
        round: int,
        kind: str,
        actor: str | None,
        params: JSONObject,
        rolls: Sequence[JSON],
        summary: str,
        breakdown: JSONObject,
        by: str,
        version: int,
        effects: Effects,
        before: Mapping[str, Sequence[str]],
        after: Mapping[str, Sequence[str]],
        override: JSON,
        hidden: bool = False,
        told: JSONObject | None = None,
    ) -> ActionRecord:
        """An action just resolved (an ActionResolved event's) with what it did: new
        tracks and state, each touched combatant's conditions before and after, the GM's
        override that let it through (None if none), and whether the GM rolled it hidden."""
        return cls(
            number=number,
            round=round,
            kind=kind,
            actor=actor,
            params=params,
            rolls=tuple(RollRecord.from_json(roll) for roll in rolls),
            summary=summary,
            breakdown=breakdown,
            by=by,
            status="active",
            effects=effects,
            conditions={
                cid: ConditionChange(tuple(b), tuple(after[cid])) for cid, b in before.items()
            },
            version=version,
            override=override_from_json(override),
            hidden=hidden,
            told=told,
        )


def actions_from_json(stored: JSON) -> list[ActionRecord]:
    return [ActionRecord.from_json(record) for record in as_list(stored)]


def actions_as_json(records: Sequence[ActionRecord]) -> list[JSON]:
    return [record.as_json() for record in records]
