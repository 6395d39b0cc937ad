"""Our orjson transcoder passes the eventsourcing library's own transcoder test case."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from uuid import uuid4

from eventsourcing.persistence import Transcoder, Transcoding
from eventsourcing.tests import persistence as library
from eventsourcing.tests.persistence import (
    CustomType1AsDict,
    CustomType2AsDict,
    MyInt,
    MyList,
    MyStr,
)
from eventsourcing.tests.persistence import Mydict as MyDict

from skald.transcoder import OrjsonTranscoder


def _as(kind: type, name: str, to: type) -> Transcoding:
    class _Transcoding(Transcoding):
        type = kind

        def encode(self, obj: Any) -> Any:
            return to(obj)

        def decode(self, data: Any) -> Any:
            return kind(data)

    _Transcoding.name = name
    return _Transcoding()


class TestOrjsonTranscoder(library.TranscoderTestCase):
    def construct_transcoder(self) -> Transcoder:
        transcoder = OrjsonTranscoder()
        transcoder.register(CustomType1AsDict())
        transcoder.register(CustomType2AsDict())
        transcoder.register(_as(MyDict, "mydict", dict))
        transcoder.register(_as(MyList, "mylist", list))
        transcoder.register(_as(MyStr, "mystr", str))
        transcoder.register(_as(MyInt, "myint", int))
        return transcoder


def test_event_shaped_values_round_trip_exactly() -> None:
    transcoder = OrjsonTranscoder()
    value = {
        "originator_id": uuid4(),
        "timestamp": datetime(2026, 11, 30, 15, 40, 1, 123456, tzinfo=UTC),
        "faces": (2, 4, 6),
        "breakdown": {"raw": {"stamina": 7, "body": 3}, "notes": ["a", None, True, 1.5]},
    }
    assert transcoder.decode(transcoder.encode(value)) == value
