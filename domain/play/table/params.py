"""What the table's records keep in their parameters and breakdowns, as typed records.

A table record is an action record (domain/play/actions.py), so its parameters and breakdown
are the JSON its event carried; the table (domain/play/table/records.py), its commands and its
corrections decode the parts they read once, here, instead of by key.
"""

from __future__ import annotations

from collections.abc import Mapping

import msgspec

from skald_campaign.domain.records import JSON, Record


class MarkPlaced(Record, frozen=True):
    """A mark's parameters: the marker, whom it stands on, and how long (T2)."""

    target: str
    name: str
    note: str | None = None
    rounds: int | None = None  # None: until removed
    watch: str | None = None  # with rounds: whose turn's boundaries it counts
    at: str | None = None  # with rounds: START or END

    @classmethod
    def from_json(cls, params: Mapping[str, JSON]) -> MarkPlaced:
        return msgspec.convert(params, cls)


class TakenOff(Record, frozen=True):
    """An unmark's or an expiry's parameters: the marker (the number of the record that
    placed it) and, for an expiry, the turn change that caused it."""

    marker: int
    cause: int | None = None

    @classmethod
    def from_json(cls, params: Mapping[str, JSON]) -> TakenOff:
        return msgspec.convert(params, cls)


class Rolled(Record, frozen=True):
    """One entry of an initiative roll's breakdown: who, and their total (none when
    they were placed by hand)."""

    id: str
    total: int | None = None

    @classmethod
    def from_json(cls, entry: JSON) -> Rolled:
        return msgspec.convert(entry, cls)


class PassedOver(Record, frozen=True):
    """One entry of a turn change's ``skipped``: why a combatant was passed over."""

    why: str

    @classmethod
    def from_json(cls, entry: JSON) -> PassedOver:
        return msgspec.convert(entry, cls)
