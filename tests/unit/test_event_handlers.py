"""Every event class has its place in every reader of events: a handler registered by
its class, or a listing as ignored. A new event class fails here until it has one
in each, and a class a reader does not know is refused, never passed over."""

from __future__ import annotations

from typing import Any, cast

import pytest
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import Tracking

from domain import events
from domain.campaign import Campaign
from domain.encounter import Encounter
from domain.events import EventHandlers, UnhandledEvent
from domain.idempotency import IdempotentRequest
from domain.timeline import STEPS
from projections.audit import SUMMARIES, AuditProjection
from projections.base import ProjectionView
from projections.board import CHANGES as BOARD
from projections.board import BoardProjection
from projections.vitals import CHANGES as VITALS
from projections.vitals import VitalsProjection

CAMPAIGN = set(events.CAMPAIGN_EVENTS)
ENCOUNTER = set(events.ENCOUNTER_EVENTS)
REQUESTS = set(events.REQUEST_EVENTS)


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
    assert len(CAMPAIGN) == len(events.CAMPAIGN_EVENTS) == 13
    assert len(ENCOUNTER) == len(events.ENCOUNTER_EVENTS) == 13


def test_the_never_recorded_class_is_not_the_encounter_s_created_event() -> None:
    # An encounter is created by Started; Encounter.Created exists only because the
    # library gives every aggregate one.
    started = Encounter(Campaign.create_id(), "E", "margin", {}, {}, "gm:GM")
    assert type(started.collect_events()[0]) is events.EncounterStarted
    assert (Encounter.Created,) == events.NEVER_RECORDED


@pytest.mark.parametrize(
    ("registry", "handled", "ignored"),
    [
        (VITALS, CAMPAIGN | ENCOUNTER, REQUESTS),
        (BOARD, ENCOUNTER, CAMPAIGN | REQUESTS),
        (SUMMARIES, CAMPAIGN | ENCOUNTER, REQUESTS),
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
