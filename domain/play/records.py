"""Typed records of an encounter beside its actions: exchanges, corrections, overrides.

Frozen records like those of domain/play/actions.py, stored (in events and snapshots) as
the JSON they always were; ``as_json`` writes today's keys in today's order.
"""

from __future__ import annotations

from collections.abc import Mapping

from skald_campaign.domain.play.actions import (
    Override,
    RollRecord,
    as_ints,
    as_list,
    as_optional_int,
    as_optional_str,
    as_strs,
    override_from_json,
    rolls_as_json,
    rolls_from_json,
)
from skald_campaign.domain.records import JSON, JSONObject, Record, as_int, as_object, as_str


class TurnOverride(Record, frozen=True):
    """A TurnOverridden event as the encounter keeps it."""

    actor: str | None
    round: int
    refusal: str
    reason: str
    by: str

    @classmethod
    def from_json(cls, stored: JSON) -> TurnOverride:
        o = as_object(stored)
        return cls(
            actor=as_optional_str(o["actor"]),
            round=as_int(o["round"]),
            refusal=as_str(o["refusal"]),
            reason=as_str(o["reason"]),
            by=as_str(o["by"]),
        )

    def as_json(self) -> dict[str, JSON]:
        return {
            "actor": self.actor,
            "round": self.round,
            "refusal": self.refusal,
            "reason": self.reason,
            "by": self.by,
        }


class Exchange(Record, frozen=True):
    """An attack waiting for (or past) the defender's declaration."""

    kind: str
    actor: str | None
    defender: str
    params: JSONObject
    dice: Mapping[str, tuple[int, ...]]  # supplied faces not rolled yet
    rolls: tuple[RollRecord, ...]  # the rolls made before the choice (the hit)
    param: str
    choices: tuple[str, ...]
    shown: JSONObject
    status: str  # pending, resolved or withdrawn
    awaiting: str
    summary: str
    number: int
    round: int
    by: str
    override: Override | None = None
    declared: str | None = None
    declared_by: str | None = None
    action: int | None = None  # the action record the declaration resolved into
    reason: str | None = None
    withdrawn_by: str | None = None
    hidden: bool = False  # T3: the GM rolled the attack hidden

    @classmethod
    def from_json(cls, stored: JSON) -> Exchange:
        x = as_object(stored)
        return cls(
            kind=as_str(x["kind"]),
            actor=as_optional_str(x["actor"]),
            defender=as_str(x["defender"]),
            params=as_object(x["params"]),
            dice={name: as_ints(faces) for name, faces in as_object(x["dice"]).items()},
            rolls=rolls_from_json(x["rolls"]),
            param=as_str(x["param"]),
            choices=as_strs(x["choices"]),
            shown=as_object(x["shown"]),
            status=as_str(x["status"]),
            awaiting=as_str(x["awaiting"]),
            summary=as_str(x["summary"]),
            number=as_int(x["number"]),
            round=as_int(x["round"]),
            by=as_str(x["by"]),
            override=override_from_json(x.get("override")),
            declared=as_optional_str(x.get("declared")),
            declared_by=as_optional_str(x.get("declared_by")),
            action=as_optional_int(x.get("action")),
            reason=as_optional_str(x.get("reason")),
            withdrawn_by=as_optional_str(x.get("withdrawn_by")),
            hidden=x.get("hidden") is True,
        )

    def as_json(self) -> dict[str, JSON]:
        stored: dict[str, JSON] = {
            "kind": self.kind,
            "actor": self.actor,
            "defender": self.defender,
            "params": self.params,
            "dice": {name: list(faces) for name, faces in self.dice.items()},
            "rolls": rolls_as_json(self.rolls),
            "param": self.param,
            "choices": list(self.choices),
            "shown": self.shown,
            "status": self.status,
            "awaiting": self.awaiting,
            "summary": self.summary,
            "number": self.number,
            "round": self.round,
            "by": self.by,
        }
        if self.override is not None:
            stored["override"] = self.override.as_json()
        # What the declaration or the withdrawal added, in the order they add it.
        for key, value in (
            ("declared", self.declared),
            ("declared_by", self.declared_by),
            ("action", self.action),
            ("reason", self.reason),
            ("withdrawn_by", self.withdrawn_by),
        ):
            if value is not None:
                stored[key] = value
        if self.hidden:
            stored["hidden"] = True
        return stored


class Correction(Record, frozen=True):
    """A void, reroll or rewind of an encounter (in the fight, or carried after its end),
    or a correction elsewhere in the campaign that changed how it started (a day's plan)."""

    kind: str  # void, reroll, rewind or day_plan
    reason: str | None
    by: str
    report: tuple[JSONObject, ...]  # what it changed, action by action (the answer's JSON)
    version: int | None = None  # the encounter's version that recorded it
    number: int | None = None  # the action voided or rerolled
    to_version: int | None = None  # a rewind's
    encounter_id: str | None = None  # a correction carried after the fight's end
    after_end: bool = False
    day: int | None = None  # a day plan's
    character_id: str | None = None
    plan: JSONObject | None = None
    extra: JSONObject | None = None  # any other key a carried correction named

    KNOWN = frozenset(
        {"kind", "reason", "by", "report", "version", "number", "to_version"}
        | {"encounter_id", "after_end", "day", "character_id", "plan"}
    )

    @classmethod
    def from_json(cls, stored: JSON) -> Correction:
        c = as_object(stored)
        plan = c.get("plan")
        extra = {key: value for key, value in c.items() if key not in cls.KNOWN}
        return cls(
            kind=as_str(c["kind"]),
            reason=as_optional_str(c["reason"]),
            by=as_str(c["by"]),
            report=tuple(as_object(entry) for entry in as_list(c["report"])),
            version=as_optional_int(c.get("version")),
            number=as_optional_int(c.get("number")),
            to_version=as_optional_int(c.get("to_version")),
            encounter_id=as_optional_str(c.get("encounter_id")),
            after_end=c.get("after_end") is True,
            day=as_optional_int(c.get("day")),
            character_id=as_optional_str(c.get("character_id")),
            plan=None if plan is None else as_object(plan),
            extra=extra or None,
        )

    def as_json(self) -> dict[str, JSON]:
        """In the order each kind was always written: an open fight's (kind, number or
        to_version, reason, by), a carried one's (kind, encounter_id, reason, by,
        after_end, number or to_version), a day plan's (kind, day, character_id, plan,
        reason, by); then the report and the version."""
        stored: dict[str, JSON] = {"kind": self.kind}
        target: dict[str, JSON] = {}
        if self.number is not None:
            target["number"] = self.number
        if self.to_version is not None:
            target["to_version"] = self.to_version
        if self.encounter_id is not None:
            stored["encounter_id"] = self.encounter_id
        if self.day is not None:
            stored["day"] = self.day
        if self.character_id is not None:
            stored["character_id"] = self.character_id
        if self.plan is not None:
            stored["plan"] = self.plan
        if not self.after_end:
            stored.update(target)
        stored["reason"] = self.reason
        stored["by"] = self.by
        if self.after_end:
            stored["after_end"] = True
            stored.update(target)
        stored.update(self.extra or {})
        stored["report"] = list(self.report)
        if self.version is not None:
            stored["version"] = self.version
        return stored
