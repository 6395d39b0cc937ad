"""Texts built from parts, rendered per reader (RULINGS T3a).

A line a player or a viewer may read (a summary, a narrative line, a correction report's
before/after) is a tuple of parts that know whose number each one is, built at read time
from the stored record by its ruleset's package (``domain/rulesets/<name>/texts.py``).
The GM's rendering is every part as written: the same bytes the line had before it was
built from parts. Another reader's rendering leaves out what T3a keeps from it (an NPC's
sheet values, tracks, damage taken, bonuses and totals that include one): a ``Secret``
shows its ``instead`` parts, usually the NPC's descriptor or nothing. Names, round
numbers, open dice faces, PCs' numbers and outcome words are plain parts, and every
reader reads them as the GM does: no character of a rendered line is ever scrubbed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Secret:
    """Parts that state a number of ``owner``'s (a character id): a reader who may see
    that character's numbers reads ``parts``, another reads ``instead``."""

    owner: str
    parts: Text
    instead: Text = ()


@dataclass(frozen=True, slots=True)
class Descriptor:
    """``owner``'s tracks as the one word of RULINGS T3 ('hurt'), for these values.
    ``word``: the word as the command that recorded the text worked it out (issue 38,
    domain/reading/told_form.py), read as it is; None: the reader works it out."""

    owner: str
    tracks: Mapping[str, int]
    word: str | None = None


Part = str | Secret | Descriptor
Text = tuple[Part, ...]
# A character's tracks (and maxima known to the reader) to its descriptor.
Describe = Callable[[str, Mapping[str, int]], str]


def _no_descriptor(owner: str, tracks: Mapping[str, int]) -> str:
    return ", ".join(f"{name} {value}" for name, value in tracks.items())


@dataclass(frozen=True, slots=True)
class Reader:
    """Whose numbers a reader may not see (``hidden``: NPC ids), and how that reader
    reads a character's tracks as a word."""

    hidden: frozenset[str] = frozenset()
    describe: Describe = field(default=_no_descriptor)

    def sees(self, owner: str) -> bool:
        return owner not in self.hidden


GM = Reader()


def render(text: Text | str, reader: Reader = GM) -> str:
    """The line as ``reader`` reads it."""
    if isinstance(text, str):
        return text
    said: list[str] = []
    _said(text, reader, said)
    return "".join(said)


def _said(text: Text, reader: Reader, said: list[str]) -> None:
    """Each part of ``text`` as ``reader`` reads it, onto ``said`` (one list per line:
    a command renders every line of its record once, a read every line it tells)."""
    hidden = reader.hidden
    for part in text:
        if type(part) is str:
            said.append(part)
        elif isinstance(part, Secret):
            _said(part.instead if part.owner in hidden else part.parts, reader, said)
        elif isinstance(part, str):
            said.append(part)
        elif part.word is not None:
            said.append(part.word)
        else:
            said.append(reader.describe(part.owner, part.tracks))


def render_lines(lines: Iterable[Text | str], reader: Reader = GM) -> list[str]:
    """Each line as ``reader`` reads it; a line left empty for this reader is dropped
    (a line that states nothing but an NPC's numbers)."""
    told = (render(line, reader) for line in lines)
    return [line for line in told if line]


def secret(owner: str | None, *parts: Part, instead: Text = ()) -> Text:
    """``parts`` as a secret of ``owner``'s, or plain parts when nobody owns them."""
    if owner is None:
        return parts
    return (Secret(owner, parts, instead),)


def joined(texts: Iterable[Text], separator: str) -> Text:
    """Texts joined like ``separator.join`` joins strings."""
    out: list[Part] = []
    for n, text in enumerate(texts):
        if n:
            out.append(separator)
        out.extend(text)
    return tuple(out)
