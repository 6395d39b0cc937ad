"""Reading an aggregate's own events back as an audit trail, and finding versions by time."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from domain.errors import NotFound

HIDDEN = {"originator_id", "originator_topic"}


def event_record(event: Any) -> dict[str, Any]:
    """One event as the audit trail shows it: its kind, version, time and every field."""
    fields = {k: v for k, v in vars(event).items() if k not in HIDDEN}
    fields.pop("timestamp", None)
    fields.pop("originator_version", None)
    return {
        "event": type(event).__qualname__.split(".")[-1],
        "version": event.originator_version,
        "timestamp": event.timestamp.isoformat(),
        **fields,
    }


def mentions(record: Mapping[str, Any], character_id: str) -> bool:
    """Does this event concern the character: as actor, target, or in its effects?"""
    if record.get("actor") == character_id:
        return True
    params = record.get("params") or {}
    if character_id in params.values():
        return True
    for key in ("tracks", "state", "combatants"):
        if character_id in (record.get(key) or {}):
            return True
    return record.get("character_id") == character_id


def action_kind(record: Mapping[str, Any]) -> str:
    """Filter key: the action kind for actions, the correction kind for corrections."""
    if "kind" in record:
        return str(record["kind"])
    correction = record.get("correction")
    if isinstance(correction, Mapping):
        return str(correction["kind"])
    return str(record["event"])


def version_at(events: Iterable[Any], at: datetime, what: str) -> int:
    """The aggregate's version as it stood at instant ``at`` (events are in order)."""
    version = 0
    event: Any
    for event in events:
        if event.timestamp > at:
            break
        version = event.originator_version
    if version == 0:
        raise NotFound(f"the {what} did not exist yet at {at.isoformat()}")
    return version
