"""The rebuild's shortcuts give what the long way gives (issue 39, bench/README.md
"rebuild40 lane"), for every event of the compat stores (every event class of fe485e1
and 77c0eaa, read through today's upcasts) and of a freshly played campaign (today's
events, their readings recorded):

- the log view's bytes of an event (projections/log.py ``logged_json``) are the bytes of
  the catalog's `LoggedEvent` as it was written before, ``orjson.dumps(msgspec.
  to_builtins(logged(position, event)))``, for the event decoded as the projections decode
  it (inline, the stored time's text at hand) and as the mapper decodes it;
- a character's readings read once per event (projections/base.py ``reading``) are what
  ``recorded_for`` reads from that event, event after event, as the views ask for them.

The whole of the views is compared, live against rebuilt, by
tests/integration/test_rebuild_equals_live.py."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from uuid import UUID

import msgspec
import orjson
import pytest

from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.commands import (
    AdvanceDays,
    Combatant,
    CreateCampaign,
    EndEncounter,
    EnrolCharacter,
    NextRound,
    StartEncounter,
    VoidAction,
)
from skald_campaign.domain.event_catalog import logged
from skald_campaign.domain.events import Event
from skald_campaign.domain.reading.recorded import FIELD, recorded_for
from skald_campaign.exchange import import_events
from skald_campaign.projections.base import facts, reading
from skald_campaign.projections.decoding import EventDecoder
from skald_campaign.projections.log import logged_json
from skald_campaign.services import SQLITE_RECORDER
from skald_campaign.settings import Settings
from skald_campaign.store import persistence_env
from tests.integration.projection_support import SHEET, hit

COMPAT = Path(__file__).resolve().parents[1] / "fixtures" / "compat"


@pytest.fixture
def app(tmp_path: Path) -> Iterator[SkaldApplication]:
    env = persistence_env(Settings(data_dir=tmp_path / "data"))
    env["APPLICATION_RECORDER_TOPIC"] = SQLITE_RECORDER
    application = SkaldApplication(env=env, roller=random.Random(11))
    try:
        yield application
    finally:
        application.close()


def play_a_campaign(app: SkaldApplication) -> UUID:
    """Two fights of hits on three heroes (rounds, a voided action), a day between."""
    campaign = app.create_campaign(CreateCampaign("Fast paths", "stamina-body"))
    heroes = [
        app.enrol_character(EnrolCharacter(campaign.id, f"Hero {h}", SHEET))[1] for h in range(3)
    ]
    for number in range(2):
        fight = app.start_encounter(
            StartEncounter(
                campaign.id,
                f"Fight {number}",
                tuple(Combatant(h, "party", 1 + i) for i, h in enumerate(heroes)),
            )
        )
        for a in range(30):
            app.perform_action(hit(campaign.id, fight.id, heroes[a % 3], 1 + a % 6))
            if a % 7 == 6:
                app.next_round(NextRound(campaign.id, fight.id))
        app.void_action(VoidAction(campaign.id, fight.id, 2, "the wrong target"))
        app.end_encounter(EndEncounter(campaign.id, fight.id))
        app.advance_days(AdvanceDays(campaign.id, 1))
    return campaign.id


def stored_events(app: SkaldApplication, which: str) -> None:
    if which == "played":
        play_a_campaign(app)
    else:
        report = import_events(app.recorder, app.mapper, COMPAT / which)
        assert report.events == app.recorder.max_notification_id() > 0


SOURCES = ["played", "store-fe485e1.jsonl", "store-77c0eaa.jsonl"]


@pytest.mark.parametrize("which", SOURCES)
def test_the_log_view_s_bytes_are_the_catalog_s_logged_event(
    app: SkaldApplication, which: str
) -> None:
    stored_events(app, which)
    notifications = app.recorder.select_notifications(start=1, limit=100_000)
    assert len(notifications) == app.recorder.max_notification_id()
    decode = EventDecoder(app.mapper)
    compared = 0
    for notification in notifications:
        for event in (decode(notification), app.mapper.to_domain_event(notification)):
            if not isinstance(event, Event):
                continue  # idempotency records and the like: never logged
            expected = orjson.dumps(msgspec.to_builtins(logged(notification.id, event)))
            assert logged_json(notification.id, event) == expected, notification
            compared += 1
    assert compared >= len(notifications)  # nearly every event is a campaign's story


@pytest.mark.parametrize("which", SOURCES)
def test_a_character_s_readings_read_once_per_event_are_that_event_s(
    app: SkaldApplication, which: str
) -> None:
    stored_events(app, which)
    decode = EventDecoder(app.mapper)
    asked = recorded = 0
    for notification in app.recorder.select_notifications(start=1, limit=100_000):
        event = decode(notification)
        if not isinstance(event, Event):
            continue
        known = facts(event)
        # Every character an event touches or records, and one it does not.
        named = {*known.tracks, *known.state, "not-a-character"}
        if isinstance(known.readings, dict):
            named |= set(known.readings)
        for character_id in sorted(named):
            for _ in range(2):  # asked again, as the vitals and the board each ask
                found = reading(facts(event), character_id)
                assert found == recorded_for(vars(event).get(FIELD), character_id)
                asked += 1
                recorded += found is not None
    assert asked > 0
    if which == "played":  # today's events record their readings
        assert recorded > 100
