"""The audit log: every event of a campaign in order, with who, when, the dice and
the breakdown; and the live feed: a capped Redis Stream whose entry ids are the
events' notification ids (so a client resuming from one misses nothing) and whose
entries name the audit entry by its place in the log (committed together with it,
so the feed never points at an entry that is not there)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson
from eventsourcing.persistence import Tracking

from domain.events import (
    CAMPAIGN_EVENTS,
    ENCOUNTER_EVENTS,
    REQUEST_EVENTS,
    CampaignCreated,
    CharacterEnrolled,
    DayAdvanced,
    EncounterClosed,
    EncounterEnded,
    EncounterEvent,
    EncounterOpened,
    EncounterStarted,
    EventHandlers,
    RoundStarted,
)
from projections.base import Facts, ViewProjection, facts

FEED_LENGTH = 500
# Fields every entry has at the top level; the event's other attributes go under "data".
TOP_LEVEL = ("by", "actor", "kind", "number", "round", "summary", "rolls", "breakdown", "params")


# Key hashes stay in the event store; the log is for the people at the table.
REDACTED_SUFFIX = "_hash"


# The one-line summary of an event that brings none of its own, by its class.
Summary = Callable[[dict[str, Any]], str]
SUMMARIES = EventHandlers[Summary]("the audit projection")


def summary_of(event: Any, summary: Summary) -> str:
    """One line for the live log; actions bring their own."""
    own = getattr(event, "summary", None)
    if isinstance(own, str):
        return own
    return summary(vars(event))


@SUMMARIES.register(CampaignCreated)
def _created(attrs: dict[str, Any]) -> str:
    return f"Campaign '{attrs['name']}' created ({attrs['ruleset']})"


@SUMMARIES.register(CharacterEnrolled)
def _enrolled(attrs: dict[str, Any]) -> str:
    return f"{attrs['name']} joins the campaign"


@SUMMARIES.register(EncounterOpened)
def _opened(attrs: dict[str, Any]) -> str:
    return f"Encounter '{attrs['name']}' opened"


@SUMMARIES.register(EncounterClosed)
def _closed(_: dict[str, Any]) -> str:
    return "Encounter closed; tracks carried back to the roster"


@SUMMARIES.register(DayAdvanced)
def _day(attrs: dict[str, Any]) -> str:
    return f"Day {attrs['day']} begins"


@SUMMARIES.register(EncounterStarted)
def _started(attrs: dict[str, Any]) -> str:
    return f"Encounter '{attrs['name']}' starts with {len(attrs['combatants'])} combatants"


@SUMMARIES.register(RoundStarted)
def _round(attrs: dict[str, Any]) -> str:
    return f"Round {attrs['round']} begins"


@SUMMARIES.register(EncounterEnded)
def _ended(_: dict[str, Any]) -> str:
    return "Encounter ended"


def _correction_or_name(name: str) -> Summary:
    def summary(attrs: dict[str, Any]) -> str:
        correction = attrs.get("correction")
        if isinstance(correction, dict):
            what = correction.get("kind", "correction")
            target = correction.get("number", correction.get("to_version"))
            return f"{what} {target}: {correction.get('reason', '')}".strip()
        return name

    return summary


# Every other event of a campaign or an encounter is summed up by its correction, if it
# carries one, else by its class's own name ('KeyIssued', 'CharacterHealed').
for _plain in CAMPAIGN_EVENTS + ENCOUNTER_EVENTS:
    if _plain not in SUMMARIES.handled:
        SUMMARIES.register(_plain)(_correction_or_name(_plain.__qualname__.split(".", 1)[-1]))
SUMMARIES.ignore(REQUEST_EVENTS)  # the idempotency records: no campaign's, not logged


SKIPPED = frozenset(TOP_LEVEL) | {"originator_id", "originator_version", "timestamp"}


def audit_entry(
    known: Facts, event: Any, tracking: Tracking, campaign_id: str, summary: Summary
) -> dict[str, Any]:
    attrs = vars(event)
    entry: dict[str, Any] = {
        "id": tracking.notification_id,
        "type": known.name,  # 'Campaign.CharacterHealed': the log's clients read it
        "campaign_id": campaign_id,
        "aggregate_id": known.aggregate_id,
        "version": event.originator_version,
        "time": event.timestamp.isoformat(),
        "summary": summary_of(event, summary),
    }
    if isinstance(event, EncounterEvent):
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
        summary = SUMMARIES(type(domain_event))
        if summary is None:
            return
        event, known = domain_event, facts(domain_event)
        staged, keys = self.view.staged, self.view.keys
        campaign_id = self.campaign_of(event, known, keys.audit_encounter(known.aggregate_id))
        if campaign_id is None:
            return
        meta_key = keys.audit_meta(campaign_id)
        meta = staged.get(meta_key) or {"count": 0}
        entry = audit_entry(known, event, tracking, campaign_id, summary)
        meta["count"] += 1
        entry["seq"] = meta["count"]
        raw = orjson.dumps(entry, default=str)
        staged.append(keys.audit(campaign_id), raw)
        staged.add_to_stream(
            keys.feed(campaign_id), f"{tracking.notification_id}-0", meta["count"], FEED_LENGTH
        )
        staged.put(meta_key, meta)
