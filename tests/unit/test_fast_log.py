"""The event log's fast path takes only a plainly valid query; the route answers any
other (validates it, refuses it, or reads it its own way)."""

from __future__ import annotations

import pytest

from skald_campaign.api.fast_log import page_query
from skald_campaign.api.routes.feed import LARGEST_ID


@pytest.mark.parametrize(
    ("query", "bounds"),
    [
        (b"", (0, 100)),
        (b"after=7", (7, 100)),
        (b"limit=50", (0, 50)),
        (b"after=12&limit=500", (12, 500)),
        (b"limit=1&after=0", (0, 1)),
        (f"after={LARGEST_ID}".encode(), (LARGEST_ID, 100)),
    ],
)
def test_a_plain_query_is_the_fast_path_s(query: bytes, bounds: tuple[int, int]) -> None:
    assert page_query(query) == bounds


@pytest.mark.parametrize(
    "query",
    [
        b"limit=0",
        b"limit=501",
        b"after=-1",
        b"after=x",
        b"after=",
        b"after=1&after=2",
        b"since=3",
        f"after={LARGEST_ID + 1}".encode(),
        b"after=%EF%BC%91",  # a digit beyond ASCII: Python's isdigit, not the route's int
        b"after=1" + b"0" * 30,
    ],
)
def test_any_other_query_is_the_route_s(query: bytes) -> None:
    assert page_query(query) is None
