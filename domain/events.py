"""The aggregates' event classes, named once, and handlers registered by them.

``@event("CharacterHealed")`` makes ``Campaign.CharacterHealed`` while the class is
built, so a type checker cannot see it: each class is named here, once, and the
readers of events (the projections, the timeline, the carrying) dispatch on these
classes, never on a name. A renamed or missing event fails here, at import.
(When the events are declared as classes of their own, the ignores below turn into
mypy's "unused ignore" errors and these lines become plain re-exports.)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final, Generic, TypeVar

from eventsourcing.domain import Aggregate

from skald_campaign.domain.bestiary import CampaignBestiary
from skald_campaign.domain.campaign.aggregate import Campaign
from skald_campaign.domain.encounter.aggregate import Encounter
from skald_campaign.domain.idempotency import IdempotentRequest
from skald_campaign.domain.webhooks import CampaignWebhooks

Event = Aggregate.Event  # every event of Skald's aggregates
EventClass = type[Event]

CampaignEvent: Final[EventClass] = Campaign.Event
CampaignCreated: Final[EventClass] = Campaign.Created
KeyIssued: Final[EventClass] = Campaign.KeyIssued
KeyRevoked: Final[EventClass] = Campaign.KeyRevoked
CharacterEnrolled: Final[EventClass] = Campaign.CharacterEnrolled
EncounterOpened: Final[EventClass] = Campaign.EncounterOpened
EncounterClosed: Final[EventClass] = Campaign.EncounterClosed
DayAdvanced: Final[EventClass] = Campaign.DayAdvanced
CharacterHealed: Final[EventClass] = Campaign.CharacterHealed
WoundMarked: Final[EventClass] = Campaign.WoundMarked
SheetAmended: Final[EventClass] = Campaign.SheetAmended
TracksAdjusted: Final[EventClass] = Campaign.TracksAdjusted
CharacterJoined: Final[EventClass] = Campaign.CharacterJoined
CorrectionCarried: Final[EventClass] = Campaign.CorrectionCarried
# The ruleset's version on record (issue 38: after fe485e1).
RulesetVersionRecorded: Final[EventClass] = Campaign.RulesetVersionRecorded
RulesetVersionAccepted: Final[EventClass] = Campaign.RulesetVersionAccepted

EncounterEvent: Final[EventClass] = Encounter.Event
EncounterStarted: Final[EventClass] = Encounter.Started
ActionResolved: Final[EventClass] = Encounter.ActionResolved
RoundStarted: Final[EventClass] = Encounter.RoundStarted
OrderSet: Final[EventClass] = Encounter.OrderSet
TurnAdvanced: Final[EventClass] = Encounter.TurnAdvanced
TurnOverridden: Final[EventClass] = Encounter.TurnOverridden
ExchangeOpened: Final[EventClass] = Encounter.ExchangeOpened
DefenseDeclared: Final[EventClass] = Encounter.DefenseDeclared
ExchangeWithdrawn: Final[EventClass] = Encounter.ExchangeWithdrawn
EncounterEnded: Final[EventClass] = Encounter.Ended
Corrected: Final[EventClass] = Encounter.Corrected
GMChanged: Final[EventClass] = Encounter.GMChanged
Recomputed: Final[EventClass] = Encounter.Recomputed
TableRecorded: Final[EventClass] = Encounter.TableRecorded  # issue 23: after fe485e1

RequestRecorded: Final[EventClass] = IdempotentRequest.Recorded  # type: ignore[attr-defined]

CAMPAIGN_EVENTS: Final = (
    CampaignCreated,
    KeyIssued,
    KeyRevoked,
    CharacterEnrolled,
    EncounterOpened,
    EncounterClosed,
    DayAdvanced,
    CharacterHealed,
    WoundMarked,
    SheetAmended,
    TracksAdjusted,
    CharacterJoined,
    CorrectionCarried,
    RulesetVersionRecorded,
    RulesetVersionAccepted,
)
ENCOUNTER_EVENTS: Final = (
    EncounterStarted,
    ActionResolved,
    RoundStarted,
    OrderSet,
    TurnAdvanced,
    TurnOverridden,
    ExchangeOpened,
    DefenseDeclared,
    ExchangeWithdrawn,
    EncounterEnded,
    Corrected,
    GMChanged,
    Recomputed,
    TableRecorded,
)
# The idempotency records share the store (and so the projections' notifications).
REQUEST_EVENTS: Final = (RequestRecorded,)
# A campaign's webhooks (domain/webhooks.py): in the store, but no part of its story.
WebhooksOpened: Final[EventClass] = CampaignWebhooks.Opened
WebhookRegistered: Final[EventClass] = CampaignWebhooks.Registered
WebhookDisabled: Final[EventClass] = CampaignWebhooks.Disabled
WebhookEnabled: Final[EventClass] = CampaignWebhooks.Enabled
WebhookDeleted: Final[EventClass] = CampaignWebhooks.Deleted
WEBHOOK_EVENTS: Final = (
    WebhooksOpened,
    WebhookRegistered,
    WebhookDisabled,
    WebhookEnabled,
    WebhookDeleted,
)
# A campaign's bestiary (domain/bestiary.py, issue 23): the GM's preparation, no story.
BestiaryOpened: Final[EventClass] = CampaignBestiary.Opened
BestiaryAdded: Final[EventClass] = CampaignBestiary.Added
BestiaryUpdated: Final[EventClass] = CampaignBestiary.Updated
BestiaryRemoved: Final[EventClass] = CampaignBestiary.Removed
# Its saved encounters (issue 36): groups of its foes, set up again in one action.
EncounterSaved: Final[EventClass] = CampaignBestiary.EncounterSaved
EncounterUnsaved: Final[EventClass] = CampaignBestiary.EncounterUnsaved
BESTIARY_EVENTS: Final = (
    BestiaryOpened,
    BestiaryAdded,
    BestiaryUpdated,
    BestiaryRemoved,
    EncounterSaved,
    EncounterUnsaved,
)
# What the views, the log and the timeline leave aside: no campaign's story.
NOT_A_CAMPAIGNS: Final = REQUEST_EVENTS + WEBHOOK_EVENTS + BESTIARY_EVENTS
# The library gives every aggregate a "Created" class; an encounter is created by its
# Started event instead, and an idempotency record by its Recorded event (so it has
# been since it was introduced, 77146dd; the compat store holds Recorded only), so
# neither Created class is ever recorded: a reader that met one refuses it.
NEVER_RECORDED: Final = (Encounter.Created, IdempotentRequest.Created)


class UnhandledEvent(TypeError):
    """An event class a reader has neither a handler for nor lists as ignored: a new
    event must be given its place in every reader before one is recorded."""


H = TypeVar("H")  # a reader's handler (this registry only files it, never calls it)


class EventHandlers(Generic[H]):
    """One handler per event class, looked up by the event's own class (never a
    subclass's or a name's). A class the reader has no business with is listed as
    ignored, so that looking it up answers None; any other class raises.

    ``functools.singledispatch`` does the same lookup but cost ~2 us a call on this
    path against ~0.25 us for this dict: the projections look up every event, three
    times, at ~20,000 events a second in a rebuild (bench/README.md)."""

    def __init__(self, reader: str) -> None:
        self.reader = reader
        self._handlers: dict[type[object], H | None] = {}

    def register(self, *classes: type[object]) -> Callable[[H], H]:
        def add(handler: H) -> H:
            for cls in classes:
                self._add(cls, handler)
            return handler

        return add

    def ignore(self, classes: Iterable[type[object]]) -> None:
        for cls in classes:
            self._add(cls, None)

    def _add(self, cls: type[object], handler: H | None) -> None:
        if cls in self._handlers:
            raise ValueError(f"{self.reader} lists {cls.__qualname__} twice")
        self._handlers[cls] = handler

    def __call__(self, event_class: type[object]) -> H | None:
        """The handler for this class; None if the reader ignores it."""
        try:
            return self._handlers[event_class]
        except KeyError:
            raise UnhandledEvent(
                f"{self.reader} has no handler for {event_class.__qualname__} "
                "(register one, or list the class as ignored)"
            ) from None

    @property
    def handled(self) -> frozenset[type[object]]:
        return frozenset(c for c, h in self._handlers.items() if h is not None)

    @property
    def ignored(self) -> frozenset[type[object]]:
        return frozenset(c for c, h in self._handlers.items() if h is None)
