"""A version beside each campaign's audit list and event log, bumped in the same commit
as the entries it counts (issue 39): what a read asks first, a reply of a few bytes,
to learn whether the page it answered last is still the page, without reading the
page's entries again (a campaign audit page is ~34 KB from Redis, an event-log page of
50 ~70 KB; api/kept_views.py).

A version is ``token:count``. The count goes up by one with each entry written; the
token is drawn at random when the key is first written, so the key written again from
nothing (a Redis flushed or restarted empty, a new generation, a campaign rebuild's keys
swapped in) never gives a version a reader has seen before, even where the count comes
round to the same number with other bytes behind it. A reader keeps a page's bytes
under the version it read *before* the page's entries, so the bytes kept are never
older than the version they are kept under.
"""

from __future__ import annotations

import secrets

from skald_campaign.projections.staging import StagedViews


def new_token() -> str:
    return secrets.token_hex(8)


def bump(staged: StagedViews, key: str) -> None:
    """The version under ``key`` one entry further (staged with the entry: one commit)."""
    found = staged.get(key)
    if type(found) is str:
        token, _, count = found.rpartition(":")
        if token and count.isdigit():
            staged.put(key, f"{token}:{int(count) + 1}")
            return
    staged.put(key, f"{new_token()}:1")


def counted(raw: object) -> object:
    """A version as it is compared between two writings of the same views (a live
    projection and a rebuild): its count, its token aside."""
    if isinstance(raw, bytes) and raw.startswith(b'"') and raw.endswith(b'"'):
        token, _, count = raw[1:-1].rpartition(b":")
        if token and count.isdigit():
            return int(count)
    return raw
