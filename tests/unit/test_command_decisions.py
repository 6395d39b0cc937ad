"""The aggregates' command modules decide the events to record as plain records (issue 38):
each decision is named as the aggregate's event class it stands for and has that event's
fields, in their order, so the aggregate records it as that event and nothing is lost or
renamed on the way."""

from __future__ import annotations

import dataclasses
import inspect
from types import ModuleType

import pytest

from skald_campaign.domain.campaign import commands as campaign_commands
from skald_campaign.domain.campaign.aggregate import Campaign
from skald_campaign.domain.encounter import commands as encounter_commands
from skald_campaign.domain.encounter.aggregate import Encounter
from skald_campaign.domain.play.table import records as table_records

# The fields every event has from the library, not from the command; and the client it
# was written through, which the writer gives it as the command saves (issue 40,
# application/writes.py), never the command; and what the reads need of the rules, which
# the aggregate works out as it records the decision (issue 38, domain/reading/recorded.py),
# and its records' texts, likewise (domain/reading/told_form.py).
LIBRARY = {
    "originator_id",
    "originator_version",
    "timestamp",
    "originator_topic",
    "via",
    "readings",
    "told",
}


def decisions(module: ModuleType) -> list[type[object]]:
    return [
        cls
        for _, cls in inspect.getmembers(module, inspect.isclass)
        if cls.__module__ == module.__name__ and dataclasses.is_dataclass(cls)
    ]


def event_fields(event_class: type[object]) -> list[str]:
    return [f.name for f in dataclasses.fields(event_class) if f.name not in LIBRARY]  # type: ignore[arg-type]


DECIDED = [
    *((decision, Campaign) for decision in decisions(campaign_commands)),
    *((decision, Encounter) for decision in decisions(encounter_commands)),
    (table_records.TableRecorded, Encounter),
]


@pytest.mark.parametrize(("decision", "aggregate"), DECIDED, ids=lambda d: d.__name__)
def test_each_decision_is_an_event_of_its_aggregate_with_its_fields(
    decision: type[object], aggregate: type[object]
) -> None:
    event_class = getattr(aggregate, decision.__name__)
    names = [f.name for f in dataclasses.fields(decision)]  # type: ignore[arg-type]
    assert names == event_fields(event_class)


def test_the_campaigns_decisions_are_every_event_its_commands_record() -> None:
    assert sorted(cls.__name__ for cls in decisions(campaign_commands)) == [
        "CharacterEnrolled",
        "CharacterHealed",
        "CharacterJoined",
        "Created",
        "DayAdvanced",
        "EncounterClosed",
        "EncounterOpened",
        "KeyIssued",
        "KeyRevoked",
        "RulesetVersionAccepted",
        "RulesetVersionRecorded",
        "SheetAmended",
        "TracksAdjusted",
        "WoundMarked",
    ]


def test_the_encounters_decisions_are_every_event_its_commands_record() -> None:
    assert sorted(cls.__name__ for cls in decisions(encounter_commands)) == [
        "ActionResolved",
        "Corrected",
        "DefenseDeclared",
        "Ended",
        "ExchangeOpened",
        "ExchangeWithdrawn",
        "GMChanged",
        "OrderSet",
        "Recomputed",
        "RoundStarted",
        "TurnOverridden",
    ]
