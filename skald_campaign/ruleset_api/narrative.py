"""What a narration reads of the combatants and writes of numbers and dice."""

from __future__ import annotations

from collections.abc import Mapping

from skald_campaign.domain.reading.narrative import Named as Named
from skald_campaign.domain.reading.narrative import Sheeted as Sheeted
from skald_campaign.domain.reading.narrative import exact as exact
from skald_campaign.domain.reading.narrative import faces as faces
from skald_campaign.domain.reading.narrative import name_of as name_of
from skald_campaign.domain.reading.narrative import plural as plural

# The combatants a narration reads, by id: each one's name and stored sheet.
Roster = Mapping[str, Sheeted]

__all__ = ["Named", "Roster", "Sheeted", "exact", "faces", "name_of", "plural"]
