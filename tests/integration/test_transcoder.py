"""Our orjson transcoder passes the eventsourcing library's own transcoder test case."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from uuid import uuid4

import orjson
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
from hypothesis import given, settings
from hypothesis import strategies as st

from skald_campaign.transcoder import OrjsonTranscoder


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


# -- the plain-JSON fast path changes the cost, not the bytes ---------------------------

_leaves = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
    | st.sampled_from(["_type_", '"_type_"', "_data_"])  # look-alikes of the envelope's keys
    | st.uuids()
    | st.datetimes(timezones=st.just(UTC))
)
_values = st.recursive(
    _leaves,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.lists(inner, max_size=4).map(tuple)
        | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=25,
)


def _walked(transcoder: OrjsonTranscoder, obj: Any) -> Any:
    """The envelope walk as it was before the fast path: every value visited in Python."""
    kind = type(obj)
    if kind in (str, int, float, bool, type(None)):
        return obj
    if kind is dict:
        return {key: _walked(transcoder, value) for key, value in obj.items()}
    if kind is list:
        return [_walked(transcoder, value) for value in obj]
    transcoding = transcoder.types[kind]
    return {"_type_": transcoding.name, "_data_": _walked(transcoder, transcoding.encode(obj))}


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(st.text(max_size=6), _values, max_size=6))
def test_the_fast_path_writes_the_walks_bytes_and_reads_them_back(state: dict[str, Any]) -> None:
    transcoder = OrjsonTranscoder()
    encoded = transcoder.encode(state)
    assert encoded == orjson.dumps(_walked(transcoder, state))
    assert transcoder.decode(encoded) == state
    assert [type(v) for v in transcoder.decode(encoded).values()] == [
        type(v) for v in state.values()
    ]


def test_a_nested_tuple_uuid_or_subclass_is_still_wrapped() -> None:
    transcoder = OrjsonTranscoder()
    transcoder.register(_as(MyStr, "mystr", str))
    ident = uuid4()
    state = {"deep": {"a": [1, {"b": (2, 3)}], "c": [ident], "d": {"e": MyStr("x")}}}
    decoded = transcoder.decode(transcoder.encode(state))
    assert decoded == state
    assert type(decoded["deep"]["a"][1]["b"]) is tuple
    assert type(decoded["deep"]["c"][0]) is type(ident)
    assert type(decoded["deep"]["d"]["e"]) is MyStr


def test_a_plain_dict_with_an_envelope_key_is_read_by_the_walk() -> None:
    """A key named like the envelope's, below the top, sends the reader down the walk."""
    transcoder = OrjsonTranscoder()
    state = {"at": datetime(2026, 12, 1, tzinfo=UTC), "notes": {"_type_": "x", "n": (1,)}}
    assert transcoder.decode(transcoder.encode(state)) == state


# -- a snapshot's records, written unchecked, as the check writes them ------------------

_json_leaves = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
    | st.sampled_from(["_type_", '"_type_"', "_data_"])
)
_json = st.recursive(
    _json_leaves,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=25,
)


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(st.text(max_size=6), _json, max_size=4),
    st.dictionaries(st.text(max_size=6), _values, max_size=4),
)
def test_a_snapshot_s_records_are_written_unchecked_as_the_check_writes_them(
    records: dict[str, Any], others: dict[str, Any]
) -> None:
    """`encode_json_state` (skald_campaign/transcoder.py): the state's JSON keys unchecked, the rest
    (ids, dates, a tuple) wrapped as before; the same bytes as `encode`, read back exactly."""
    transcoder = OrjsonTranscoder()
    event_state = {
        "timestamp": datetime(2026, 12, 3, tzinfo=UTC),
        "topic": "domain.encounter:Encounter",
        "state": {"_id": uuid4(), **others, **records},
    }
    encoded = transcoder.encode_json_state(event_state, frozenset(records))
    assert encoded == transcoder.encode(event_state)
    assert transcoder.decode(encoded) == event_state
