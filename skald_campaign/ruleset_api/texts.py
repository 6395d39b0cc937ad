"""Texts built from parts, rendered per reader (RULINGS T3a): what a ruleset's narration
returns. A line is a ``Text``, a tuple of parts; a ``secret`` part is one a player's or
a viewer's key reads as its ``instead`` (an NPC's descriptor, or nothing)."""

from __future__ import annotations

from skald_campaign.domain.reading.texts import GM as GM
from skald_campaign.domain.reading.texts import Descriptor as Descriptor
from skald_campaign.domain.reading.texts import Part as Part
from skald_campaign.domain.reading.texts import Reader as Reader
from skald_campaign.domain.reading.texts import Secret as Secret
from skald_campaign.domain.reading.texts import Text as Text
from skald_campaign.domain.reading.texts import joined as joined
from skald_campaign.domain.reading.texts import render as render
from skald_campaign.domain.reading.texts import render_lines as render_lines
from skald_campaign.domain.reading.texts import secret as secret

__all__ = [
    "GM",
    "Descriptor",
    "Part",
    "Reader",
    "Secret",
    "Text",
    "joined",
    "render",
    "render_lines",
    "secret",
]
