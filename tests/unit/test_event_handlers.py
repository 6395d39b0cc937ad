"""Every event class has its place in every reader of events: a handler registered by
its class, or a listing as ignored. A new event class fails here until it has one
in each, and a class a reader does not know is refused, never passed over."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any, cast

import pytest
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import Tracking
from eventsourcing.utils import get_topic

from skald_campaign.domain import events
from skald_campaign.domain.bestiary import CampaignBestiary
from skald_campaign.domain.campaign.aggregate import Campaign
from skald_campaign.domain.encounter.aggregate import Encounter
from skald_campaign.domain.events import EventHandlers, UnhandledEvent
from skald_campaign.domain.idempotency import IdempotentRequest
from skald_campaign.domain.timeline import STEPS
from skald_campaign.projections.audit import SUMMARIES, AuditProjection
from skald_campaign.projections.base import ProjectionView
from skald_campaign.projections.board import CHANGES as BOARD
from skald_campaign.projections.board import BoardProjection
from skald_campaign.projections.vitals import CHANGES as VITALS
from skald_campaign.projections.vitals import VitalsProjection

CAMPAIGN = set(events.CAMPAIGN_EVENTS)
ENCOUNTER = set(events.ENCOUNTER_EVENTS)
REQUESTS = set(events.REQUEST_EVENTS)
WEBHOOKS = set(events.WEBHOOK_EVENTS)  # a campaign's webhooks: in the store, no view's
BESTIARY = set(events.BESTIARY_EVENTS)  # a campaign's bestiary (issue 23): no view's either
COMPAT_STORE = Path(__file__).resolve().parents[1] / "fixtures" / "compat" / "store-fe485e1.jsonl"


def declared_events(aggregate: type[Aggregate]) -> set[type]:
    """Every event class the aggregate has, as the library built it."""
    return {
        value
        for value in vars(aggregate).values()
        if isinstance(value, type)
        and issubclass(value, Aggregate.Event)
        and value is not aggregate.Event
        and value not in events.NEVER_RECORDED
    }


def test_domain_events_names_every_event_class_of_each_aggregate() -> None:
    assert declared_events(Campaign) == CAMPAIGN
    assert declared_events(Encounter) == ENCOUNTER
    assert declared_events(IdempotentRequest) == REQUESTS
    # Opened creates a bestiary; the library's own Created class is never recorded.
    assert declared_events(CampaignBestiary) - {CampaignBestiary.Created} == BESTIARY
    # fe485e1's 13, and the ruleset version's recording and acceptance (issue 38)
    assert len(CAMPAIGN) == len(events.CAMPAIGN_EVENTS) == 15
    # fe485e1's 13, and TableRecorded (issue 23: initiative, turn changes, markers)
    assert len(ENCOUNTER) == len(events.ENCOUNTER_EVENTS) == 14


def test_the_never_recorded_class_is_not_the_encounter_s_created_event() -> None:
    # An encounter is created by Started; Encounter.Created exists only because the
    # library gives every aggregate one.
    started = Encounter(Campaign.create_id(), "E", "margin", {}, {}, "gm:GM")
    assert type(started.collect_events()[0]) is events.EncounterStarted
    assert (Encounter.Created, IdempotentRequest.Created) == events.NEVER_RECORDED


def test_an_idempotency_record_is_created_by_its_recorded_event_only() -> None:
    record = IdempotentRequest("gm:GM|POST /campaigns|k1", "h" * 64, Campaign.create_id(), 3)
    assert [type(e) for e in record.collect_events()] == [events.RequestRecorded]
    assert (events.RequestRecorded,) == events.REQUEST_EVENTS


def test_no_stored_event_of_the_compat_store_has_a_never_recorded_class() -> None:
    # The store written at fe485e1 holds every event class that code recorded; the
    # idempotency records in it are all Recorded, none Created.
    _header, *stored, end = map(json.loads, COMPAT_STORE.read_text(encoding="utf-8").splitlines())
    assert end == {"end": True, "events": len(stored)} == {"end": True, "events": 156}
    topics = Counter(line["topic"] for line in stored)
    assert not {get_topic(cls) for cls in events.NEVER_RECORDED} & set(topics)
    requests = {t: n for t, n in topics.items() if t.startswith("domain.idempotency:")}
    assert requests == {"domain.idempotency:IdempotentRequest.Recorded": 15}


@pytest.mark.parametrize("projection", ["vitals", "board", "audit"])
def test_a_projection_refuses_an_idempotency_record_s_created_event(projection: str) -> None:
    registry = {"vitals": VITALS, "board": BOARD, "audit": SUMMARIES}[projection]
    with pytest.raises(UnhandledEvent, match=r"has no handler for .*Created"):
        registry(IdempotentRequest.Created)


@pytest.mark.parametrize(
    ("registry", "handled", "ignored"),
    [
        (VITALS, CAMPAIGN | ENCOUNTER, REQUESTS | WEBHOOKS | BESTIARY),
        (BOARD, ENCOUNTER, CAMPAIGN | REQUESTS | WEBHOOKS | BESTIARY),
        (SUMMARIES, CAMPAIGN | ENCOUNTER, REQUESTS | WEBHOOKS | BESTIARY),
    ],
    ids=["vitals", "board", "audit"],
)
def test_each_projection_has_a_place_for_every_event_class(
    registry: EventHandlers[Any], handled: set[type], ignored: set[type]
) -> None:
    assert registry.handled == handled
    assert registry.ignored == ignored


def test_the_timeline_has_a_place_for_every_campaign_event_class() -> None:
    # The walk reads only the campaign's own events; those that change no character
    # are listed, so a new event that does cannot be passed over by a correction.
    not_steps = {
        events.CampaignCreated,
        events.KeyIssued,
        events.KeyRevoked,
        events.DayAdvanced,
        events.CorrectionCarried,
        # The version the steps are worked out under, from then on (issue 38).
        events.RulesetVersionRecorded,
        events.RulesetVersionAccepted,
    }
    assert STEPS.handled == CAMPAIGN - not_steps
    assert STEPS.ignored == not_steps


class Stray(Campaign.Event):
    """An event class no reader was told about."""


@pytest.mark.parametrize("projection", [VitalsProjection, BoardProjection, AuditProjection])
def test_a_projection_refuses_an_event_class_it_does_not_know(projection: type[Any]) -> None:
    # The lookup comes first: nothing of the view is read or staged for such an event.
    reader = projection(view=cast(ProjectionView, None))
    stray = Stray(originator_id=Campaign.create_id(), originator_version=2, timestamp=None)
    with pytest.raises(UnhandledEvent, match=r"has no handler for Stray"):
        reader.process_event(stray, Tracking("Skald", 1))


def test_a_registry_looks_up_the_exact_class_and_refuses_a_class_listed_twice() -> None:
    class Base:
        pass

    class Derived(Base):
        pass

    registry = EventHandlers[Any]("a reader")
    registry.register(Base)(len)
    registry.ignore([int])
    assert registry(Base) is len
    assert registry(int) is None
    with pytest.raises(UnhandledEvent, match=r"a reader has no handler for .*Derived"):
        registry(Derived)
    with pytest.raises(ValueError, match=r"a reader lists .*Base twice"):
        registry.register(Base)(len)
