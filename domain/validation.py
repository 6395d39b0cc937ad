"""Turn pydantic's validation errors into one readable domain error, and refuse text
that hides what it says (control and bidirectional characters, and what renders
invisibly or passes for another character)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import TypeVar

import msgspec
from pydantic import BaseModel, ConfigDict, ValidationError

from skald_campaign.domain.errors import InvalidInput

M = TypeVar("M", bound=BaseModel)


class Frozen(BaseModel):
    """Base for sheets, options and action parameters: immutable, no unknown fields
    (re-exported by domain/rulesets/base.py, where a ruleset finds it)."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Problem(msgspec.Struct, frozen=True):
    """What is wrong with one field of the input, as the answer's ``problems`` lists it."""

    field: str
    problem: str

    def as_json(self) -> dict[str, str]:
        return {"field": self.field, "problem": self.problem}


def listed(problems: list[Problem]) -> str:
    return "; ".join(f"{p.field}: {p.problem}" for p in problems)


class InvalidFields(InvalidInput):
    """Invalid input with one entry per offending field."""

    def __init__(self, message: str, problems: list[Problem]) -> None:
        super().__init__(message)
        self.problems = problems


def validate(model: type[M], data: object, what: str) -> M:
    """Validate ``data`` as ``model``; on failure name every field that is wrong."""
    refuse_hidden_characters(data, what)
    if not isinstance(data, Mapping):
        raise InvalidFields(f"{what} must be a JSON object", [Problem(what, "not an object")])
    try:
        return model.model_validate(data if type(data) is dict else dict(data))
    except ValidationError as error:
        problems = [
            Problem(".".join([what, *(str(part) for part in item["loc"])]), item["msg"])
            for item in error.errors()
        ]
        raise InvalidFields(f"invalid {what}: {listed(problems)}", problems) from None


# Characters that make text lie about itself: controls (NUL, escapes, newlines)
# and the bidirectional embeddings, overrides and isolates that can make a name
# display differently from what is stored (U+202E turns "cod.exe" around), and the
# Arabic letter mark. The left-to-right and right-to-left marks (U+200E, U+200F) are
# kept (issue 37): mixed-direction writing needs them ("שלום 2" with its number on
# the right side), and they reorder nothing but the neutral characters beside them.
BIDI_CONTROLS = frozenset("\u061c\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
DIRECTION_MARKS = frozenset("\u200e\u200f")
LINE_SEPARATORS = frozenset("\u2028\u2029")

# And what renders as nothing, or as another character, so that "Bran" and "Bra\u2064n"
# would be two names that look the same: unassigned code points (in the Unicode of
# Python's unicodedata, 14.0 for 3.11), noncharacters, private-use characters, lone
# surrogates, format characters (category Cf: U+2064 INVISIBLE PLUS, U+FEFF, U+180E,
# U+200B ZERO WIDTH SPACE...) and variation selectors outside a variation sequence.
# Kept, since real writing needs them: the zero width joiner and non-joiner (emoji
# sequences, Persian, Indic scripts), the direction marks (above), tag characters
# inside a flag's tag sequence (U+1F3F4, tags, U+E007F: the flags of England,
# Scotland, Wales), and variation selectors right after a character that takes one.
JOINERS = frozenset("\u200c\u200d")
# What is kept although it renders as nothing: two names that differ only by these
# look the same, so names are compared without them (domain/campaign/roster.py).
KEPT_INVISIBLE = JOINERS | DIRECTION_MARKS
FLAG_TAG_SEQUENCE = re.compile("\U0001f3f4[\U000e0020-\U000e007e]+\U000e007f")
TAGS = range(0xE0000, 0xE0080)
EMOJI_VARIATION = frozenset("\ufe0e\ufe0f")  # text and emoji presentation
STANDARD_VARIATION = range(0xFE00, 0xFE0E)  # VS1-VS14: math symbols, CJK, some scripts
IDEOGRAPHIC_VARIATION = range(0xE0100, 0xE01F0)  # VS17-VS256: CJK ideographs only
KEYCAP_BASES = frozenset("0123456789#*")
# Emoji with a text default that are not symbols (So), from Unicode's
# emoji-variation-sequences.txt: the variation selector chooses how they look.
EMOJI_BASES_NOT_SO = frozenset(
    "\u203c\u2049\u2122\u2139\u2194\u2195\u2196\u2197\u2198\u2199\u21a9\u21aa"
    "\u24c2\u25aa\u25ab\u25b6\u25c0\u25fb\u25fc\u25fd\u25fe\u2934\u2935\u3030\u303d"
)


# The characters refused whatever their place, as one class, so that clean ASCII text
# (nearly all of it) is passed by one regex search in C; other text is judged one
# character at a time. Control characters (category Cc) are exactly U+0000-U+001F and
# U+007F-U+009F.
_HIDDEN = re.compile("[\x00-\x1f\x7f-\x9f" + "".join(sorted(BIDI_CONTROLS | LINE_SEPARATORS)) + "]")


def _takes_variation(base: str, selector: str) -> bool:
    """Whether `selector` right after `base` makes a variation sequence (a base that
    takes one), rather than an invisible character after a letter."""
    if not base:
        return False
    category = unicodedata.category(base)
    if selector in EMOJI_VARIATION:
        return base in KEYCAP_BASES or category == "So" or base in EMOJI_BASES_NOT_SO
    if ord(selector) in IDEOGRAPHIC_VARIATION:
        return unicodedata.name(base, "").startswith("CJK ")
    return category in ("Sm", "So", "Nd", "Lo")


def _refused_kind(text: str, at: int, flag_tags: set[int] | None) -> str | None:
    """Why the character at `at` of `text` may not be there, or None."""
    char = text[at]
    if char in BIDI_CONTROLS:
        return "a bidirectional control"
    if char in LINE_SEPARATORS:
        return "a line separator"
    category = unicodedata.category(char)
    if category == "Cc":
        return "a control character"
    point = ord(char)
    if category == "Cn":
        if 0xFDD0 <= point <= 0xFDEF or point & 0xFFFE == 0xFFFE:
            return "a noncharacter"
        return "an unassigned code point"
    if category == "Co":
        return "a private-use character"
    if category == "Cs":
        return "a lone surrogate"
    if category == "Cf":
        if char in KEPT_INVISIBLE or (point in TAGS and flag_tags is not None and at in flag_tags):
            return None
        return "an invisible format character"
    selector = (
        char in EMOJI_VARIATION or point in STANDARD_VARIATION or point in IDEOGRAPHIC_VARIATION
    )
    if selector and not _takes_variation(text[at - 1] if at else "", char):
        return "a variation selector after a character that takes none"
    return None


def _flag_tags(text: str) -> set[int] | None:
    """The positions of the tag characters that belong to a flag's tag sequence."""
    if not any(ord(char) in TAGS for char in text):
        return None
    return {
        at
        for found in FLAG_TAG_SEQUENCE.finditer(text)
        for at in range(found.start() + 1, found.end())
    }


def _is_clean(text: str) -> bool:
    if text.isascii():
        return _HIDDEN.search(text) is None
    return hidden_character(text) is None


def hidden_character(text: str) -> str | None:
    """The first character ``text`` may not carry, described; None when it is clean."""
    if text.isascii() and _HIDDEN.search(text) is None:
        return None
    flag_tags = _flag_tags(text)
    for at, char in enumerate(text):
        if char.isascii() and " " <= char <= "~":
            continue
        kind = _refused_kind(text, at, flag_tags)
        if kind is None:
            continue
        named = unicodedata.name(char, "")
        return f"U+{ord(char):04X}" + (f" {named}" if named else "") + f" ({kind})"
    return None


OLD_KINDS = ("(a control character)", "(a bidirectional control)", "(a line separator)")


def why_refused(described: str) -> str:
    """The rule a described character breaks, as the answer states it."""
    if described.endswith(
        ("(a control character)", "(a bidirectional control)", "(a line separator)")
    ):
        return "control and bidirectional characters are not allowed"
    return "characters that are invisible or pass for others are not allowed"


_NO_TEXT = frozenset({int, float, bool, type(None)})


def _plainly_clean(value: object) -> bool:
    """True when ``value`` is plain JSON (dicts with string keys, lists, tuples, strings,
    numbers) with no hidden character anywhere: nearly every request. Checked by exact
    types, without the paths or the ABC checks the naming walk needs; anything else
    (a hidden character, another Mapping or sequence, a key that is not a string) is
    left to that walk, which decides and names."""
    if type(value) is str:
        return _is_clean(value)
    if type(value) is dict:
        for key, item in value.items():
            if type(key) is not str or not _is_clean(key):
                return False
            if type(item) is str:
                if not _is_clean(item):
                    return False
            elif type(item) not in _NO_TEXT and not _plainly_clean(item):
                return False
        return True
    if type(value) is list or type(value) is tuple:
        return all(_plainly_clean(item) for item in value)
    return type(value) in _NO_TEXT


def refuse_hidden_characters(data: object, where: str = "") -> None:
    """Refuse hidden characters (hidden_character) in every string of ``data`` (keys too),
    naming each field that carries one; nothing is written after this refusal."""
    if _plainly_clean(data):
        return
    problems: list[Problem] = []

    def walk(value: object, path: str) -> None:
        if type(value) in _NO_TEXT:  # numbers, booleans, null: nothing to look at
            return
        if isinstance(value, str):
            found = hidden_character(value)
            if found is not None:
                problems.append(Problem(path or "body", f"contains {found}; {why_refused(found)}"))
        elif isinstance(value, Mapping):
            for key, item in value.items():
                child = f"{path}.{key}" if path else str(key)
                if isinstance(key, str) and hidden_character(key) is not None:
                    walk(key, f"{path}.<key>" if path else "<key>")
                else:
                    walk(item, child)
        elif isinstance(value, list | tuple):
            for index, item in enumerate(value):
                walk(item, f"{path}.{index}" if path else str(index))

    walk(data, where)
    if problems:
        raise InvalidFields(f"invalid request: {listed(problems)}", problems)
