"""The log view's bytes of an event decoded inline from plain JSON are made without copying
its payload (issue 39, bench/README.md "rebuild18 lane"): ``msgspec.to_builtins`` copied
every payload of a rebuild (~1.2 s of a 100,000-event rebuild's ~8 s of Python) to give
back the same dicts, lists, text and numbers ``orjson.loads`` had made. An event decoded
by the mapper, or upcast on the way in (its values may be anything an upcast puts there),
is converted as before; the bytes are the catalog's either way.

tests/integration/test_rebuild40_fast_paths.py compares the bytes for every event of the
compat stores and of a played campaign, decoded both ways; the views, live against
rebuilt, are compared by tests/integration/test_rebuild_equals_live.py."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec
import orjson
import pytest

from skald_campaign.application.application import SkaldApplication
from skald_campaign.domain.event_catalog import logged
from skald_campaign.domain.events import Event
from skald_campaign.projections import log
from skald_campaign.projections.audit import SUMMARIES
from skald_campaign.projections.decoding import EventDecoder
from skald_campaign.projections.log import logged_json
from tests.integration import test_rebuild40_fast_paths as fast_paths
from tests.integration.test_rebuild40_fast_paths import SOURCES, stored_events

# The same application as the fast paths' test: the served SQLite recorder, seeded dice.
app = fast_paths.app


class CountedBuiltins:
    """``msgspec.to_builtins`` as the log view calls it, counted."""

    def __init__(self) -> None:
        self.calls = 0

    def to_builtins(self, value: object, **options: Any) -> object:
        self.calls += 1
        return msgspec.to_builtins(value, **options)

    def __getattr__(self, name: str) -> object:
        return getattr(msgspec, name)


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[CountedBuiltins]:
    counting = CountedBuiltins()
    monkeypatch.setattr(log, "msgspec", counting)
    yield counting


def logged_as_projected(app: SkaldApplication) -> Iterator[tuple[int, Event, bytes]]:
    """Each event the log view takes as the engine meets it (decoded, then projected at
    once), with the catalog's bytes for it."""
    decode = EventDecoder(app.mapper)
    for notification in app.recorder.select_notifications(start=1, limit=100_000):
        event = decode(notification)
        if isinstance(event, Event) and SUMMARIES(type(event)) is not None:
            expected = orjson.dumps(msgspec.to_builtins(logged(notification.id, event)))
            yield notification.id, event, expected


def test_a_played_campaign_s_log_bytes_copy_no_payload(
    app: SkaldApplication, counted: CountedBuiltins
) -> None:
    stored_events(app, "played")
    made = 0
    for position, event, expected in logged_as_projected(app):
        assert logged_json(position, event) == expected
        made += 1
    assert made == 87  # every event of the campaign and its fights
    # The two Encounter.Started hold the campaign's id as a UUID (a second envelope: read
    # by the mapper) and are converted; on the old code every event was: 87.
    assert counted.calls == 2


@pytest.mark.parametrize("which", SOURCES)
def test_only_events_read_as_stored_are_plain(
    app: SkaldApplication, counted: CountedBuiltins, which: str
) -> None:
    from skald_campaign.projections.decoding import is_plain_json

    stored_events(app, which)
    plain = converted = 0
    for position, event, expected in logged_as_projected(app):
        stored = app.recorder.select_notifications(start=position, limit=1)[0].state
        upcast = orjson.loads(stored).get("class_version", 1) < type(event).class_version
        # Inline: the timestamp its one envelope (skald_campaign/transcoder.py).
        read_as_stored = stored.count(b'"_type_"') == 1 and not upcast
        assert is_plain_json(event) is read_as_stored, (position, type(event))
        before = counted.calls
        assert logged_json(position, event) == expected
        assert counted.calls - before == (0 if read_as_stored else 1)
        plain += read_as_stored
        converted += not read_as_stored
        # The same event read by the mapper is never taken for plain.
        assert not is_plain_json(app.mapper.to_domain_event(
            app.recorder.select_notifications(start=position, limit=1)[0]
        ))  # fmt: skip
    if which == "played":  # today's events, read as stored
        assert (plain, converted) == (85, 2)  # the two Encounter.Started by the mapper
    else:  # the compat stores' events are all of older class versions, upcast on the way in
        assert plain == 0 and converted > 0
