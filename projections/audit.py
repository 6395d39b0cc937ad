"""The audit log: every event of a campaign in order, with who, when, the dice and
the breakdown; and the live feed: a capped Redis Stream whose entry ids are the
events' notification ids (so a client resuming from one misses nothing) and whose
entries name the audit entry by its place in the log (committed together with it,
so the feed never points at an entry that is not there)."""

from __future__ import annotations

from typing import Any

import orjson
from eventsourcing.persistence import Tracking

from projections.base import Facts, ViewProjection, facts

FEED_LENGTH = 500
# Fields every entry has at the top level; the event's other attributes go under "data".
TOP_LEVEL = ("by", "actor", "kind", "number", "round", "summary", "rolls", "breakdown", "params")


# Key hashes stay in the event store; the log is for the people at the table.
REDACTED_SUFFIX = "_hash"


def summary_of(name: str, event: Any) -> str:
    """One line for the live log; actions bring their own."""
    own = getattr(event, "summary", None)
    if isinstance(own, str):
        return own
    attrs = vars(event)
    match name:
        case "Campaign.Created":
            return f"Campaign '{attrs['name']}' created ({attrs['ruleset']})"
        case "Campaign.CharacterEnrolled":
            return f"{attrs['name']} joins the campaign"
        case "Campaign.EncounterOpened":
            return f"Encounter '{attrs['name']}' opened"
        case "Campaign.EncounterClosed":
            return "Encounter closed; tracks carried back to the roster"
        case "Campaign.DayAdvanced":
            return f"Day {attrs['day']} begins"
        case "Encounter.Started":
            return f"Encounter '{attrs['name']}' starts with {len(attrs['combatants'])} combatants"
        case "Encounter.RoundStarted":
            return f"Round {attrs['round']} begins"
        case "Encounter.Ended":
            return "Encounter ended"
    correction = attrs.get("correction")
    if isinstance(correction, dict):
        what = correction.get("kind", "correction")
        target = correction.get("number", correction.get("to_version"))
        return f"{what} {target}: {correction.get('reason', '')}".strip()
    return name.split(".", 1)[-1]


SKIPPED = frozenset(TOP_LEVEL) | {"originator_id", "originator_version", "timestamp"}


def audit_entry(known: Facts, event: Any, tracking: Tracking, campaign_id: str) -> dict[str, Any]:
    attrs = vars(event)
    name = known.name
    entry: dict[str, Any] = {
        "id": tracking.notification_id,
        "type": name,
        "campaign_id": campaign_id,
        "aggregate_id": known.aggregate_id,
        "version": event.originator_version,
        "time": event.timestamp.isoformat(),
        "summary": summary_of(name, event),
    }
    if name.startswith("Encounter."):
        entry["encounter_id"] = known.aggregate_id
    for field in TOP_LEVEL:
        if field in attrs and field != "summary":
            entry[field] = attrs[field]
    correction = attrs.get("correction")
    if "by" not in entry and isinstance(correction, dict) and "by" in correction:
        entry["by"] = correction["by"]  # a correction's author is inside its record
    entry["data"] = {
        k: v for k, v in attrs.items() if k not in SKIPPED and not k.endswith(REDACTED_SUFFIX)
    }
    return entry


class AuditProjection(ViewProjection):
    name = "audit"

    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        event, known = domain_event, facts(domain_event)
        staged, keys = self.view.staged, self.view.keys
        campaign_id = self.campaign_of(event, known, keys.audit_encounter(known.aggregate_id))
        if campaign_id is None:
            return
        meta_key = keys.audit_meta(campaign_id)
        meta = staged.get(meta_key) or {"count": 0}
        entry = audit_entry(known, event, tracking, campaign_id)
        meta["count"] += 1
        entry["seq"] = meta["count"]
        raw = orjson.dumps(entry, default=str)
        staged.append(keys.audit(campaign_id), raw)
        staged.add_to_stream(
            keys.feed(campaign_id), f"{tracking.notification_id}-0", meta["count"], FEED_LENGTH
        )
        staged.put(meta_key, meta)
