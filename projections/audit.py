"""The audit log: every event of a campaign in order, with who, when, the dice and
the breakdown; and the live feed: a capped Redis Stream whose entry ids are the
events' notification ids (so a client resuming from one misses nothing) and whose
entries name the audit entry by its place in the log (committed together with it,
so the feed never points at an entry that is not there)."""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping, Sized
from typing import Final, NamedTuple

import orjson
from eventsourcing.persistence import Tracking

from skald_campaign.domain.events import (
    CAMPAIGN_EVENTS,
    ENCOUNTER_EVENTS,
    NOT_A_CAMPAIGNS,
    CampaignCreated,
    CharacterEnrolled,
    DayAdvanced,
    EncounterClosed,
    EncounterEnded,
    EncounterEvent,
    EncounterOpened,
    EncounterStarted,
    Event,
    EventHandlers,
    RoundStarted,
    RulesetVersionAccepted,
    RulesetVersionRecorded,
)
from skald_campaign.domain.writing.attribution import attributed, author_of
from skald_campaign.projections import versions
from skald_campaign.projections.base import Facts, ProjectionView, ViewProjection, as_event, facts
from skald_campaign.projections.decoding import time_text
from skald_campaign.projections.keys import ViewKeys
from skald_campaign.projections.views import AuditMeta, stored

FEED_LENGTH = 500
# Fields every entry has at the top level; the event's other attributes go under "data".
TOP_LEVEL = ("by", "actor", "kind", "number", "round", "summary", "rolls", "breakdown", "params")


# Key hashes stay in the event store; the log is for the people at the table.
REDACTED_SUFFIX = "_hash"


# The one-line summary of an event that brings none of its own, by its class: a template
# of the event's fields ("{combatants:count}": how many there are).
Summary = Callable[[Mapping[str, object]], str]
SUMMARIES = EventHandlers[Summary]("the audit projection")


def summary_of(event: object, summary: Summary) -> str:
    """One line for the live log; actions bring their own."""
    own = getattr(event, "summary", None)
    if isinstance(own, str):
        return own
    return summary(vars(event))


class _Fields(string.Formatter):
    def format_field(self, value: object, format_spec: str) -> str:
        if format_spec == "count" and isinstance(value, Sized):
            return str(len(value))
        formatted: str = super().format_field(value, format_spec)
        return formatted


_FIELDS = _Fields()


def _templated(template: str) -> Summary:
    def summary(attrs: Mapping[str, object]) -> str:
        return _FIELDS.vformat(template, (), attrs)

    return summary


TEMPLATES: Final = {
    CampaignCreated: "Campaign '{name}' created ({ruleset})",
    CharacterEnrolled: "{name} joins the campaign",
    EncounterOpened: "Encounter '{name}' opened",
    EncounterClosed: "Encounter closed; tracks carried back to the roster",
    DayAdvanced: "Day {day} begins",
    EncounterStarted: "Encounter '{name}' starts with {combatants:count} combatants",
    RoundStarted: "Round {round} begins",
    RulesetVersionRecorded: "Ruleset version {version} recorded (was {previous_version}): "
    "every recorded action comes out as it did",
    RulesetVersionAccepted: "Ruleset version {version} accepted (was {previous_version}): "
    "{differing:count} recorded actions come out differently under it",
}
for _class, _template in TEMPLATES.items():
    SUMMARIES.register(_class)(_templated(_template))


@SUMMARIES.register(EncounterEnded)
def _ended(attrs: Mapping[str, object]) -> str:
    """With the GM's reason when they gave one (issue 23; older events have none)."""
    reason = attrs.get("reason")
    return f"Encounter ended: {reason}" if reason else "Encounter ended"


def _correction_or_name(name: str) -> Summary:
    def summary(attrs: Mapping[str, object]) -> str:
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
SUMMARIES.ignore(NOT_A_CAMPAIGNS)  # idempotency records, webhooks, bestiaries: not logged


# ``via`` (issue 40) is shown, with ``attributed``, only on a write through a client of
# note (domain/writing/attribution.py); every other event's is None and left out, as before it.
# What an event recorded of the rules for the reads (issue 38) is the views', not the audit's.
SKIPPED = frozenset(TOP_LEVEL) | {
    *("originator_id", "originator_version", "timestamp", "via"),
    "readings",
}


class Shape(NamedTuple):
    """Where an event's fields go in its entry: the top-level ones it has (in TOP_LEVEL's
    order, its own summary aside) and the rest, its data (in the event's order)."""

    top: tuple[str, ...]
    data: tuple[str, ...]


# By the event's field names in order: a few dozen shapes for every event of a store.
_SHAPES: dict[tuple[str, ...], Shape] = {}


def shape_of(names: tuple[str, ...]) -> Shape:
    found = _SHAPES.get(names)
    if found is None:
        found = _SHAPES[names] = Shape(
            tuple(f for f in TOP_LEVEL if f in names and f != "summary"),
            tuple(k for k in names if k not in SKIPPED and not k.endswith(REDACTED_SUFFIX)),
        )
    return found


def audit_entry(
    known: Facts, event: Event, tracking: Tracking, campaign_id: str, summary: Summary
) -> dict[str, object]:
    attrs: Mapping[str, object] = vars(event)  # the event's fields: its JSON, the audit's data
    entry: dict[str, object] = {
        "id": tracking.notification_id,
        "type": known.name,  # 'Campaign.CharacterHealed': the log's clients read it
        "campaign_id": campaign_id,
        "aggregate_id": known.aggregate_id,
        "version": event.originator_version,
        "time": time_text(event.timestamp),  # its isoformat(), as stored
        "summary": summary_of(event, summary),
    }
    if isinstance(event, EncounterEvent):
        entry["encounter_id"] = known.aggregate_id
    shape = shape_of(tuple(attrs))
    for field in shape.top:
        entry[field] = attrs[field]
    if "by" not in entry:
        correction = attrs.get("correction")
        if isinstance(correction, dict) and "by" in correction:
            entry["by"] = correction["by"]  # a correction's author is inside its record
    client = attrs.get("via")
    if client is not None:
        entry["via"] = client
        entry["attributed"] = attributed(author_of(attrs), client)
    data = entry["data"] = {k: attrs[k] for k in shape.data}
    if data.get("told", True) is None:  # not recorded (stored before): as it always read
        del data["told"]
    return entry


class CampaignKeys(NamedTuple):
    """A campaign's audit keys, made once per campaign rather than four times an event."""

    meta: str
    log: str
    feed: str
    positions: str
    version: str


class AuditProjection(ViewProjection):
    name = "audit"

    def __init__(self, view: ProjectionView) -> None:
        super().__init__(view)
        # A projection's view, and so its root, is its own for good (the engine makes
        # new projections for another root).
        self._campaign_keys: dict[str, CampaignKeys] = {}

    def process_event(self, domain_event: object, tracking: Tracking) -> None:
        summary = SUMMARIES(type(domain_event))
        if summary is None:
            return
        event = as_event(domain_event)
        known = facts(event)
        staged, keys = self.view.staged, self.view.keys
        campaign_id = self.campaign_of(event, known, keys.audit_encounter(known.aggregate_id))
        if campaign_id is None:
            return
        campaign = self._campaign_keys.get(campaign_id) or self._keys_for(keys, campaign_id)
        found = staged.get(campaign.meta)
        meta = AuditMeta(count=0) if found is None else stored(AuditMeta, found)
        entry = audit_entry(known, event, tracking, campaign_id, summary)
        meta["count"] += 1
        entry["seq"] = meta["count"]
        raw = orjson.dumps(entry, default=str)
        staged.append(campaign.log, raw)
        staged.add_to_stream(
            campaign.feed, f"{tracking.notification_id}-0", meta["count"], FEED_LENGTH
        )
        staged.keep_feed_entry(campaign.feed, tracking.notification_id, meta["count"], raw)
        staged.put(campaign.meta, meta)
        versions.bump(staged, campaign.version)
        # The event log's index (api/routes/log.py): pages by position in O(page).
        staged.index(
            campaign.positions,
            tracking.notification_id,
            f"{known.aggregate_id}:{event.originator_version}",
        )

    def _keys_for(self, keys: ViewKeys, campaign_id: str) -> CampaignKeys:
        made = CampaignKeys(
            keys.audit_meta(campaign_id),
            keys.audit(campaign_id),
            keys.feed(campaign_id),
            keys.positions(campaign_id),
            keys.audit_version(campaign_id),
        )
        self._campaign_keys[campaign_id] = made
        return made
