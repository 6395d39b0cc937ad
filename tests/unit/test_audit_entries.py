"""Audit entries read from the stored JSON (application/audit_entries.py) are the entries
the domain events give, written with the bytes pydantic writes for them."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any
from uuid import UUID

import orjson
import pytest
from eventsourcing.compressor import ZlibCompressor
from eventsourcing.persistence import StoredEvent
from hypothesis import given, settings
from hypothesis import strategies as st

from skald_campaign.application import audit_entries
from skald_campaign.application.audit_entries import ENTRY_JSON, entry_of, page_json, render
from skald_campaign.application.history import event_record
from skald_campaign.transcoder import JsonPayloadMapper, OrjsonTranscoder

STORE = Path(__file__).resolve().parents[1] / "fixtures" / "compat" / "store-fe485e1.jsonl"


def stored_events() -> list[StoredEvent]:
    """Every event of the compat store (every event class fe485e1 had), as stored (the
    file's first and last lines say what it is and where it ends)."""
    lines = [orjson.loads(line) for line in STORE.read_bytes().splitlines()]
    return [
        StoredEvent(
            UUID(e["originator_id"]), e["originator_version"], e["topic"], e["state"].encode()
        )
        for e in lines
        if "originator_id" in e
    ]


def domain_entry(mapper: JsonPayloadMapper, stored: StoredEvent, day: int | None) -> Any:
    return entry_of(event_record(mapper.to_domain_event(stored)), day)


@pytest.mark.parametrize("day", [None, 0, 3])
def test_every_stored_event_renders_as_its_domain_event_does(day: int | None) -> None:
    mapper = JsonPayloadMapper(transcoder=OrjsonTranscoder())
    events = stored_events()
    through_the_library = set()
    for stored in events:
        expected = domain_entry(mapper, stored, day)
        entry, data = render(stored, mapper, day)
        assert data == ENTRY_JSON.dump_json(expected), stored.topic
        if audit_entries._plain_entry(stored, day) is None:
            through_the_library.add(stored.topic)
        else:
            assert entry == expected, stored.topic
    # Every event is plain JSON but for its time, but an encounter's first (it names its
    # campaign by UUID) and a request's record (never in a trail: its subject's id). The
    # upcasts of the rest (issue 38's ruleset version on a campaign's first, issue 40's
    # `via` on each) are plain JSON in and out, done on the stored JSON as the library does.
    assert through_the_library == {
        "domain.encounter:Encounter.Started",
        "domain.idempotency:IdempotentRequest.Recorded",
    }


def test_a_compressed_store_renders_through_the_library() -> None:
    plain = JsonPayloadMapper(transcoder=OrjsonTranscoder())
    compressed = JsonPayloadMapper(transcoder=OrjsonTranscoder(), compressor=ZlibCompressor())
    for stored in stored_events()[:40]:
        event = plain.to_domain_event(stored)
        squeezed = compressed.to_stored_event(event)
        _, data = render(squeezed, compressed, 2)
        assert data == ENTRY_JSON.dump_json(domain_entry(plain, stored, 2))


def test_an_upcast_event_class_takes_the_domain_path(monkeypatch: pytest.MonkeyPatch) -> None:
    mapper = JsonPayloadMapper(transcoder=OrjsonTranscoder())
    stored = next(e for e in stored_events() if e.topic.endswith("Campaign.DayAdvanced"))
    assert audit_entries._plain_entry(stored, None) is not None
    monkeypatch.setattr(audit_entries, "_plain_event", lambda topic: None)
    assert audit_entries._plain_entry(stored, None) is None
    assert render(stored, mapper, None)[1] == ENTRY_JSON.dump_json(
        domain_entry(mapper, stored, None)
    )


def test_a_page_is_written_as_its_model_writes_it() -> None:
    entries = [{"event": "A", "version": 1}, {"event": "Ü", "note": "☂", "n": 2.5}]
    written = page_json(7, 5, 2, [orjson.dumps(e) for e in entries])
    expected = orjson.dumps({"total": 7, "offset": 5, "limit": 2, "entries": entries})
    assert written == expected
    assert page_json(0, 0, 100, []) == b'{"total":0,"offset":0,"limit":100,"entries":[]}'


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(st.text(), JSON_VALUES, max_size=6))
def test_orjson_writes_plain_json_as_pydantic_does(entry: dict[str, Any]) -> None:
    """What orjson reads back from the store, it writes as pydantic does: numbers, floats
    in every range, any text (escapes, non-ASCII)."""
    try:
        loaded = orjson.loads(orjson.dumps(entry))
    except orjson.JSONEncodeError:  # text orjson will not write (a lone surrogate)
        return
    assert orjson.dumps(loaded) == ENTRY_JSON.dump_json(loaded)


def test_floats_at_the_edges_of_their_notation() -> None:
    for value in (1e16, 1e15, 1e-5, 1e-4, 0.1, -0.0, 5e-324, 1.7976931348623157e308, math.pi):
        assert orjson.dumps({"x": value}) == ENTRY_JSON.dump_json({"x": value})
