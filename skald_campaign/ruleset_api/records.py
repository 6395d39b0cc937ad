"""Reading a stored action record's breakdown as typed records (msgspec structs).

A narration decodes the part of a record it reads into a ``Part`` subclass of its own
(``read``), where it reads it; a record of another shape fails to decode (a
``ValueError``) and the engine falls back to plain lines. ``given``/``present`` unwrap
a field the record may leave unset or null; ``target_of`` reads an action's target.

Each ruleset declares its own records on ``Part`` in its package (the built-ins': their
``records.py``); ``BeforeAfter`` and ``Why`` are parts several read.
"""

from __future__ import annotations

from skald_campaign.domain.reading.breakdowns import UNSET as UNSET
from skald_campaign.domain.reading.breakdowns import BeforeAfter as BeforeAfter
from skald_campaign.domain.reading.breakdowns import Part as Part
from skald_campaign.domain.reading.breakdowns import Target as Target
from skald_campaign.domain.reading.breakdowns import Unset as Unset
from skald_campaign.domain.reading.breakdowns import Why as Why
from skald_campaign.domain.reading.breakdowns import given as given
from skald_campaign.domain.reading.breakdowns import present as present
from skald_campaign.domain.reading.breakdowns import read as read
from skald_campaign.domain.reading.breakdowns import target_of as target_of

__all__ = [
    "UNSET",
    "BeforeAfter",
    "Part",
    "Target",
    "Unset",
    "Why",
    "given",
    "present",
    "read",
    "target_of",
]
