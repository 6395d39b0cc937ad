"""The projections' decoder (projections/decoding.py) builds the event the mapper
builds: same class, same attributes in the same order, same values of the same types;
and where it cannot, it is the mapper that answers (or refuses)."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

import orjson
import pytest
from eventsourcing.persistence import Notification, StoredEvent

from skald_campaign.application.application import SkaldApplication
from skald_campaign.database import open_application
from skald_campaign.domain.events import EncounterStarted
from skald_campaign.projections.decoding import EventDecoder, time_text
from skald_campaign.settings import Settings

STORE = Path(__file__).resolve().parents[1] / "fixtures" / "compat" / "store-fe485e1.jsonl"


def compat_notifications() -> list[Notification]:
    """fe485e1's store, every event class in it, as notifications."""
    lines = STORE.read_bytes().splitlines()[1:-1]
    notifications = []
    for number, raw in enumerate(lines, start=1):
        line = orjson.loads(raw)
        notifications.append(
            Notification(
                id=number,
                originator_id=UUID(line["originator_id"]),
                originator_version=line["originator_version"],
                topic=line["topic"],
                state=line["state"].encode(),
            )
        )
    return notifications


@pytest.fixture()
def application(tmp_path: Path) -> Any:
    app = open_application(Settings(data_dir=tmp_path))
    yield app
    app.close()


def described(event: object) -> list[tuple[str, type, object]]:
    return [(name, type(value), value) for name, value in vars(event).items()]


def test_every_event_of_the_compat_store_decodes_as_the_mapper_decodes_it(
    application: SkaldApplication,
) -> None:
    decode = EventDecoder(application.mapper)
    assert decode.plain  # the inline path is the one tried
    notifications = compat_notifications()
    assert len(notifications) == 156
    for notification in notifications:
        ours, theirs = decode(notification), application.mapper.to_domain_event(notification)
        assert type(ours) is type(theirs)
        assert described(ours) == described(theirs)
    kinds = {type(decode(n)) for n in notifications}
    assert EncounterStarted in kinds  # one with a second envelope (its campaign's id)


def test_what_the_inline_path_does_not_take_goes_to_the_mapper(
    application: SkaldApplication,
) -> None:
    decode = EventDecoder(application.mapper)
    started = next(n for n in compat_notifications() if n.topic.endswith("Encounter.Started"))
    event = decode(started)
    assert isinstance(vars(event)["campaign_id"], UUID)  # its second envelope, unwrapped
    broken = Notification(
        id=1,
        originator_id=uuid4(),
        originator_version=1,
        topic=started.topic,
        state=b'{"timestamp": "not an envelope"',
    )
    with pytest.raises(Exception) as ours:
        decode(broken)
    with pytest.raises(Exception) as theirs:
        application.mapper.to_domain_event(broken)
    assert (type(ours.value), str(ours.value)) == (type(theirs.value), str(theirs.value))
    unknown = StoredEvent(uuid4(), 1, "domain.nowhere:Nothing.Happened", b"{}")
    with pytest.raises(Exception) as ours:
        decode(Notification(id=2, **vars(unknown)))
    with pytest.raises(Exception) as theirs:
        application.mapper.to_domain_event(unknown)
    assert (type(ours.value), str(ours.value)) == (type(theirs.value), str(theirs.value))


@pytest.mark.parametrize(
    ("stored", "written"),
    [
        ("2026-12-01T21:23:39.972448+00:00", "2026-12-01T21:23:39.972448+00:00"),
        ("2026-12-01T21:23:39.972448Z", "2026-12-01T21:23:39.972448+00:00"),
        ("2026-12-01 21:23:39.972448+00:00", "2026-12-01T21:23:39.972448+00:00"),
        ("2026-12-01T21:23:39.972448-00:00", "2026-12-01T21:23:39.972448+00:00"),
        ("2026-12-01T21:23:39+00:00", "2026-12-01T21:23:39+00:00"),
    ],
)
def test_the_audit_s_time_is_the_timestamp_s_isoformat_whatever_its_stored_spelling(
    application: SkaldApplication, stored: str, written: str
) -> None:
    decode = EventDecoder(application.mapper)
    created = compat_notifications()[0]
    state = orjson.loads(created.state)
    state["timestamp"]["_data_"] = stored
    notification = Notification(
        id=1,
        originator_id=created.originator_id,
        originator_version=1,
        topic=created.topic,
        state=orjson.dumps(state),
    )
    event = decode(notification)
    assert time_text(vars(event)["timestamp"]) == written
    assert vars(event)["timestamp"].isoformat() == written


class CountingMapper:
    """The application's mapper, counting the events handed to it."""

    def __init__(self, mapper: Any) -> None:
        self.mapper = mapper
        self.calls = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.mapper, name)

    def to_domain_event(self, stored: StoredEvent) -> Any:
        self.calls += 1
        return self.mapper.to_domain_event(stored)


def test_todays_events_with_their_class_versions_are_decoded_inline_as_the_mapper_would(
    application: SkaldApplication,
) -> None:
    """Every event class is at version 2 or more (issue 40's `via`): the inline path takes
    a stored class version as the mapper does, so only an event with a second envelope
    (Encounter.Started: its campaign's UUID) is the mapper's."""
    from tests.integration.projection_support import play

    play(application, campaigns=1, encounters=2, actions=5)
    notifications = application.recorder.select_notifications(start=1, limit=1000)
    assert all(b'"class_version":' in n.state for n in notifications)
    counting = CountingMapper(application.mapper)
    decode = EventDecoder(application.mapper)
    decode.mapper = counting  # type: ignore[assignment]
    for notification in notifications:
        ours, theirs = decode(notification), application.mapper.to_domain_event(notification)
        assert type(ours) is type(theirs)
        assert described(ours) == described(theirs)
        assert "class_version" not in vars(ours)
    # Created, 3 enrolments; per fight Started, Opened, 5 hits, Ended, Closed.
    assert len(notifications) == 1 + 3 + 2 * (1 + 1 + 5 + 1 + 1)
    assert counting.calls == 2  # the two Encounter.Started
