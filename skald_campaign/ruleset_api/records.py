"""Reading a stored action record's breakdown as typed records (msgspec structs).

A narration decodes the part of a record it reads into a ``Part`` subclass of its own
(``read``), where it reads it; a record of another shape fails to decode (a
``ValueError``) and the engine falls back to plain lines. ``given``/``present`` unwrap
a field the record may leave unset or null; ``target_of`` reads an action's target.

The built-ins' own breakdown records still live in the engine (domain/breakdowns.py)
while issue 38 moves the per-ruleset code into the rulesets' packages; they are
reachable here as ``builtin`` for the built-ins alone and are not part of API 1.0: a
ruleset of another distribution declares its own records on ``Part``.
"""

from __future__ import annotations

from skald_campaign.domain import breakdowns as builtin
from skald_campaign.domain.breakdowns import UNSET as UNSET
from skald_campaign.domain.breakdowns import Part as Part
from skald_campaign.domain.breakdowns import Target as Target
from skald_campaign.domain.breakdowns import Unset as Unset
from skald_campaign.domain.breakdowns import given as given
from skald_campaign.domain.breakdowns import present as present
from skald_campaign.domain.breakdowns import read as read
from skald_campaign.domain.breakdowns import target_of as target_of

__all__ = [
    "UNSET",
    "Part",
    "Target",
    "Unset",
    "builtin",  # transitional, the built-ins' only (see above)
    "given",
    "present",
    "read",
    "target_of",
]
