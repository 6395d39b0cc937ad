"""Turn pydantic's validation errors into one readable domain error, and refuse text
that hides what it says (control and bidirectional characters)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import TypeVar

import msgspec
from pydantic import BaseModel, ValidationError

from domain.errors import InvalidInput

M = TypeVar("M", bound=BaseModel)


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
# and the bidirectional marks, embeddings, overrides and isolates that can make a
# name display differently from what is stored (U+202E turns "cod.exe" around).
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
LINE_SEPARATORS = frozenset("\u2028\u2029")


# The same characters as one class, so clean text (nearly all of it) is passed by one
# regex search in C rather than a Python loop over its characters; control characters
# (category Cc) are exactly U+0000-U+001F and U+007F-U+009F.
_HIDDEN = re.compile("[\x00-\x1f\x7f-\x9f" + "".join(sorted(BIDI_CONTROLS | LINE_SEPARATORS)) + "]")


def hidden_character(text: str) -> str | None:
    """The first character ``text`` may not carry, described; None when it is clean."""
    if _HIDDEN.search(text) is None:
        return None
    for char in text:
        if char in BIDI_CONTROLS or char in LINE_SEPARATORS:
            kind = "a bidirectional control" if char in BIDI_CONTROLS else "a line separator"
        elif unicodedata.category(char) == "Cc":
            kind = "a control character"
        else:
            continue
        named = unicodedata.name(char, "")
        return f"U+{ord(char):04X}" + (f" {named}" if named else "") + f" ({kind})"
    return None


_NO_TEXT = frozenset({int, float, bool, type(None)})


def _plainly_clean(value: object) -> bool:
    """True when ``value`` is plain JSON (dicts with string keys, lists, tuples, strings,
    numbers) with no hidden character anywhere: nearly every request. Checked by exact
    types, without the paths or the ABC checks the naming walk needs; anything else
    (a hidden character, another Mapping or sequence, a key that is not a string) is
    left to that walk, which decides and names."""
    if type(value) is str:
        return _HIDDEN.search(value) is None
    if type(value) is dict:
        for key, item in value.items():
            if type(key) is not str or _HIDDEN.search(key) is not None:
                return False
            if type(item) is str:
                if _HIDDEN.search(item) is not None:
                    return False
            elif type(item) not in _NO_TEXT and not _plainly_clean(item):
                return False
        return True
    if type(value) is list or type(value) is tuple:
        return all(_plainly_clean(item) for item in value)
    return type(value) in _NO_TEXT


def refuse_hidden_characters(data: object, where: str = "") -> None:
    """Refuse control and bidirectional characters in every string of ``data`` (keys too),
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
                problems.append(
                    Problem(
                        path or "body",
                        f"contains {found}; control and bidirectional characters are not allowed",
                    )
                )
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
