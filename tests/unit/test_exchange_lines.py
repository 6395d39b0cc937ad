"""An export's event lines are read as JSON of unknown shape and checked field by field:
a line that is not an event is refused naming its line, never with a traceback."""

from __future__ import annotations

import io
from uuid import UUID

import orjson
import pytest
from eventsourcing.persistence import Mapper

from skald_campaign.exchange import ExchangeError, read_events
from skald_campaign.transcoder import OrjsonTranscoder

HEADER = {"format": "skald-events", "version": 1}
AGGREGATE = "d8c3a0d4-0144-4362-81fb-a80ddef79a41"
EVENT = {"originator_id": AGGREGATE, "originator_version": 1, "topic": "t:T", "state": "{}"}
NOT_AN_EVENT = "line 2 is not an event (originator_id, originator_version, topic, state)"


def read(*lines: object) -> list[tuple[UUID | str, int, str, bytes]]:
    raw = b"".join(orjson.dumps(line) + b"\n" for line in (HEADER, *lines))
    mapper: Mapper[UUID] = Mapper(transcoder=OrjsonTranscoder())
    return [
        (e.originator_id, e.originator_version, e.topic, e.state)
        for e in read_events(io.BytesIO(raw), mapper)
    ]


def test_an_event_line_is_read_as_the_store_holds_it() -> None:
    assert read(EVENT, {"end": True, "events": 1}) == [(UUID(AGGREGATE), 1, "t:T", b"{}")]


@pytest.mark.parametrize(
    "originator_id",
    [123, None, ["d8c3a0d4"], "not-a-uuid"],
    ids=["a number", "null", "a list", "not a uuid"],
)
def test_an_originator_id_that_is_not_a_uuid_string_is_refused(originator_id: object) -> None:
    with pytest.raises(ExchangeError) as refused:
        read({**EVENT, "originator_id": originator_id}, {"end": True, "events": 1})
    assert str(refused.value) == NOT_AN_EVENT


def test_a_line_without_a_field_is_refused() -> None:
    line = {k: v for k, v in EVENT.items() if k != "topic"}
    with pytest.raises(ExchangeError) as refused:
        read(line, {"end": True, "events": 1})
    assert str(refused.value) == NOT_AN_EVENT


def test_a_field_of_the_wrong_type_is_refused() -> None:
    with pytest.raises(ExchangeError) as refused:
        read({**EVENT, "originator_version": "1"}, {"end": True, "events": 1})
    assert str(refused.value) == "line 2: version, topic or state has the wrong type"
