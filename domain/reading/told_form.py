"""The texts of an action record as its command worked them out (issue 38, "a read side
that needs no rules code"): the stored JSON form of what domain/reading/told.py,
outcomes.py and narrators.py otherwise ask the campaign's ruleset for.

An action record resolved since ``Encounter.ActionResolved`` version 4 (and each record
a ``Corrected``, ``GMChanged`` or ``Recomputed`` event of version 4, or a
``TableRecorded`` of version 3, holds) carries, under
``told``, what its ruleset's package said of it when the command was resolved, built
with the roster the command read (names, sheets), as its stored summary was::

    {"summary": [<part>...] | null,       # the summary's parts (the table's, initiative's
                                           #   or the ruleset's ``summary``)
     "narrative": [[<part>...]...] | null, # the ruleset's ``narrative`` lines
     "narrate": ["line", ...] | null,      # the ruleset's plain ``narrate`` (the GM's);
                                           #   absent: the narrative's lines as the GM reads them
     "outcome": [<part>...] | null,        # the ruleset's ``outcome`` (a hidden roll's)
     "parties": ["<id>", ...],             # the ruleset's ``parties``
     "standing": {"<id>": ["3 Stamina and 9 Body" | null, "winded"]}}  # ``standing``
                                           #   of each character's tracks the record
                                           #   changed, and their descriptor

A part is a string (plain words), ``{"part": "secret", "owner": id, "parts": [...],
"instead": [...]}`` (``texts.Secret``) or ``{"part": "descriptor", "owner": id,
"tracks": {...}, "word": "hurt"}`` (``texts.Descriptor``, its word worked out then, under
the fight's options and the owner's maxima). The parts hold every number of the record,
an NPC's too: they are the GM's working, which a player's and a viewer's key never
receive (application/redaction.py takes ``told`` out of every record it passes).

A record stored before (its event's version 3 or older) has no ``told``: "not
recorded", read as it always was, through the ruleset installed (else plain words).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from skald_campaign.domain.reading.texts import Describe, Descriptor, Part, Secret, Text
from skald_campaign.domain.records import JSON, JSONObject

# The key of a record (and the field of an ActionResolved event) that holds them.
FIELD = "told"


class SecretForm(msgspec.Struct, frozen=True, tag="secret", tag_field="part", omit_defaults=True):
    owner: str
    parts: list[PartForm]
    instead: list[PartForm] = []


class DescriptorForm(msgspec.Struct, frozen=True, tag="descriptor", tag_field="part"):
    owner: str
    tracks: dict[str, int]
    word: str | None = None


PartForm = str | SecretForm | DescriptorForm


class Standing(msgspec.Struct, frozen=True, array_like=True):
    """A character's tracks as the record left them, in words: the ruleset's
    ``standing`` (None: listed by name) and the descriptor a reader kept from its
    numbers reads (T3). Stored as ``[words, word]``."""

    words: str | None
    seen_as: str


class Told(msgspec.Struct, frozen=True, omit_defaults=True):
    """What the reads need of the ruleset's narration for one record, as recorded."""

    summary: list[PartForm] | None = None
    narrative: list[list[PartForm]] | None = None
    outcome: list[PartForm] | None = None
    parties: list[str] = []
    standing: dict[str, Standing] = {}
    # The GM's plain narrative; UNSET: the narrative's lines as the GM reads them.
    narrate: list[str] | msgspec.UnsetType | None = msgspec.UNSET


def part_form(part: Part, describe: Describe) -> PartForm:
    if type(part) is str or isinstance(part, str):
        return part
    if isinstance(part, Secret):
        return SecretForm(
            part.owner, text_form(part.parts, describe), text_form(part.instead, describe)
        )
    if isinstance(part, Descriptor):
        word = part.word if part.word is not None else describe(part.owner, part.tracks)
        return DescriptorForm(part.owner, dict(part.tracks), word)
    raise TypeError(f"not a text part: {part!r}")


def text_form(text: Text, describe: Describe) -> list[PartForm]:
    return [part_form(part, describe) for part in text]


def part_of(form: PartForm) -> Part:
    if isinstance(form, str):
        return form
    if isinstance(form, SecretForm):
        return Secret(form.owner, text_of(form.parts), text_of(form.instead))
    return Descriptor(form.owner, form.tracks, form.word)


def text_of(forms: list[PartForm]) -> Text:
    return tuple(part_of(form) for form in forms)


def as_json(told: Told) -> JSONObject:
    """The stored JSON of ``told``."""
    found: Any = msgspec.to_builtins(told)
    assert isinstance(found, dict)
    return found


def recorded(record: Mapping[str, Any]) -> Told | None:
    """What the record's command recorded of its texts; None when it recorded none (a
    record stored before, or one shaped otherwise: read as it always was)."""
    stored: JSON = record.get(FIELD)
    if type(stored) is not dict:
        return None
    try:
        return msgspec.convert(stored, Told)
    except msgspec.ValidationError:
        return None


def upcast_not_told(state: dict[str, object]) -> None:
    """An ActionResolved event stored before version 4: its texts were not recorded
    (None), so the reads tell them as they always did."""
    state[FIELD] = None


def upcast_records_not_told(state: dict[str, object]) -> None:
    """An event holding records stored before version 4: its records carry no ``told``
    (not recorded), as stored; nothing to change."""
