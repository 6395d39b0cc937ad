"""The one validator that refuses text hiding what it says: controls and bidi marks, and
what renders invisibly or passes for another character."""

from __future__ import annotations

import unicodedata
from types import MappingProxyType

import pytest

from skald_campaign.application.application import check_reason
from skald_campaign.domain.campaign.aggregate import check_name
from skald_campaign.domain.validation import (
    BIDI_CONTROLS,
    LINE_SEPARATORS,
    InvalidFields,
    hidden_character,
    refuse_hidden_characters,
)

REFUSED = [
    ("\x00", "U+0000 (a control character)"),
    ("\x1b", "U+001B (a control character)"),
    ("\n", "U+000A (a control character)"),
    ("\x7f", "U+007F (a control character)"),
    ("\x85", "U+0085 (a control character)"),
    ("\u202a", "U+202A LEFT-TO-RIGHT EMBEDDING (a bidirectional control)"),
    ("\u202b", "U+202B RIGHT-TO-LEFT EMBEDDING (a bidirectional control)"),
    ("\u202c", "U+202C POP DIRECTIONAL FORMATTING (a bidirectional control)"),
    ("\u202d", "U+202D LEFT-TO-RIGHT OVERRIDE (a bidirectional control)"),
    ("\u202e", "U+202E RIGHT-TO-LEFT OVERRIDE (a bidirectional control)"),
    ("\u2066", "U+2066 LEFT-TO-RIGHT ISOLATE (a bidirectional control)"),
    ("\u2067", "U+2067 RIGHT-TO-LEFT ISOLATE (a bidirectional control)"),
    ("\u2068", "U+2068 FIRST STRONG ISOLATE (a bidirectional control)"),
    ("\u2069", "U+2069 POP DIRECTIONAL ISOLATE (a bidirectional control)"),
    ("\u061c", "U+061C ARABIC LETTER MARK (a bidirectional control)"),
    ("\u2028", "U+2028 LINE SEPARATOR (a line separator)"),
    ("\u2029", "U+2029 PARAGRAPH SEPARATOR (a line separator)"),
    ("\U000e0041", "U+E0041 TAG LATIN CAPITAL LETTER A (an invisible format character)"),
    ("\u2064", "U+2064 INVISIBLE PLUS (an invisible format character)"),
    ("\u180e", "U+180E MONGOLIAN VOWEL SEPARATOR (an invisible format character)"),
    ("\ufeff", "U+FEFF ZERO WIDTH NO-BREAK SPACE (an invisible format character)"),
    ("\u200b", "U+200B ZERO WIDTH SPACE (an invisible format character)"),
    ("\u00ad", "U+00AD SOFT HYPHEN (an invisible format character)"),
    ("\uffff", "U+FFFF (a noncharacter)"),
    ("\ufdd0", "U+FDD0 (a noncharacter)"),
    ("\U0010fffe", "U+10FFFE (a noncharacter)"),
    ("\u0378", "U+0378 (an unassigned code point)"),
    ("\ue000", "U+E000 (a private-use character)"),
    ("\U000f0000", "U+F0000 (a private-use character)"),
    ("\ud800", "U+D800 (a lone surrogate)"),
    # after the "n" of Bran: a letter takes no variation selector
    (
        "\ufe0f",
        "U+FE0F VARIATION SELECTOR-16 (a variation selector after a character that takes none)",
    ),
    (
        "\ufe00",
        "U+FE00 VARIATION SELECTOR-1 (a variation selector after a character that takes none)",
    ),
    (
        "\U000e0100",
        "U+E0100 VARIATION SELECTOR-17 (a variation selector after a character that takes none)",
    ),
]


@pytest.mark.parametrize(("char", "described"), REFUSED)
def test_each_hidden_character_is_found_and_named(char: str, described: str) -> None:
    assert hidden_character(f"Bran{char}the Bold") == described


@pytest.mark.parametrize(
    "text",
    [
        "Bran",
        "Ulf Ǫrnólfsson",
        "שלום",
        "مرحبا",
        "Zoë 🧙🏽‍♀️",
        "tab-free\u00a0nbsp",
        "",
        "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f Scotland",
        "Red \u2764\ufe0f, keycap 1\ufe0f\u20e3 #\ufe0f\u20e3 *\ufe0f\u20e3",
        "\U0001f3f3\ufe0f\u200d\U0001f308 pride",
        "\u263a\ufe0e text smile, \u2194\ufe0f \u203c\ufe0f",
        "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",  # Persian: a ZWNJ
        "\u0915\u094d\u200d\u0937",  # Devanagari: a ZWJ
        "\u05e9\u05dc\u05d5\u05dd\u200f 2",  # Hebrew, a right-to-left mark before its number
        "Bran\u200e (\u05e9\u05dc\u05d5\u05dd)",  # a left-to-right mark
        "\u845b\U000e0100",  # an ideographic variation sequence
        "\u2229\ufe00",  # a standardized variation sequence (a math symbol)
    ],
)
def test_ordinary_names_in_any_script_pass(text: str) -> None:
    assert hidden_character(text) is None
    refuse_hidden_characters({"name": text, "sheet": {"weapons": [{"name": text}]}})


def test_every_offending_field_is_named_with_its_path() -> None:
    body = {
        "name": "ok",
        "sheet": {"weapons": [{"name": "sword"}, {"name": "a\u202eb"}]},
        "label\x00": "x",
        "reason": "nul\x00",
    }
    with pytest.raises(InvalidFields) as refused:
        refuse_hidden_characters(body)
    assert [p.field for p in refused.value.problems] == [
        "sheet.weapons.1.name",
        "<key>",
        "reason",
    ]
    assert refused.value.problems[0].problem == (
        "contains U+202E RIGHT-TO-LEFT OVERRIDE (a bidirectional control); "
        "control and bidirectional characters are not allowed"
    )
    assert refused.value.message.startswith("invalid request: sheet.weapons.1.name: contains")


def test_the_domain_checks_names_and_reasons_itself() -> None:
    with pytest.raises(InvalidFields, match="campaign name: contains U\\+202E"):
        check_name("Crown\u202e", "campaign name")
    with pytest.raises(InvalidFields, match="reason: contains U\\+0000"):
        check_reason("misread\x00")
    assert check_name(" Crown ", "campaign name") == "Crown"


def test_every_code_point_is_judged_as_its_category_and_the_listed_marks_say() -> None:
    # hidden_character passes clean ASCII text by one regex search before its
    # per-character loop: the search must let through no character the loop would refuse.
    marks = BIDI_CONTROLS | LINE_SEPARATORS
    refused_categories = {"Cc", "Cf", "Cn", "Co", "Cs"}
    for point in range(0x110000):
        char = chr(point)
        selector = 0xFE00 <= point <= 0xFE0F or 0xE0100 <= point <= 0xE01EF  # after "a"
        hidden = (
            (
                unicodedata.category(char) in refused_categories
                and char not in "\u200c\u200d\u200e\u200f"
            )
            or char in marks
            or selector
        )
        assert (hidden_character(f"a{char}b") is not None) == hidden, hex(point)


@pytest.mark.parametrize(
    ("text", "described"),
    [
        # tags outside a flag's tag sequence: alone, after another emoji, unterminated
        ("\U000e0067\U000e0062\U000e007f", "U+E0067 TAG LATIN SMALL LETTER G"),
        ("\U0001f600\U000e0067\U000e007f", "U+E0067 TAG LATIN SMALL LETTER G"),
        ("\U0001f3f4\U000e0067\U000e0062", "U+E0067 TAG LATIN SMALL LETTER G"),
        ("\U0001f3f4\U000e007f", "U+E007F CANCEL TAG"),
        # a variation selector first, after a space, after another selector
        ("\ufe0fBran", "U+FE0F VARIATION SELECTOR-16"),
        ("Bran \ufe0f", "U+FE0F VARIATION SELECTOR-16"),
        ("\u2764\ufe0f\ufe0f", "U+FE0F VARIATION SELECTOR-16"),
        # an ideographic variation selector after a symbol, not an ideograph
        ("\u2764\U000e0100", "U+E0100 VARIATION SELECTOR-17"),
        # a zero width joiner is fine, a zero width space beside it is not
        ("Bra\u200d\u200bn", "U+200B ZERO WIDTH SPACE"),
    ],
)
def test_tags_and_variation_selectors_only_in_their_sequences(text: str, described: str) -> None:
    found = hidden_character(text)
    assert found is not None and found.startswith(described + " ("), found


def test_the_new_refusals_say_their_own_rule() -> None:
    with pytest.raises(InvalidFields) as refused:
        refuse_hidden_characters({"name": "Bra\u2064n"})
    assert refused.value.problems[0].problem == (
        "contains U+2064 INVISIBLE PLUS (an invisible format character); "
        "characters that are invisible or pass for others are not allowed"
    )


class Text(str):
    """A str that is not exactly a str: the exact-type check leaves it to the walk."""


@pytest.mark.parametrize(
    ("data", "fields"),
    [
        ({"a": ("ok", "b\x00")}, ["a.1"]),  # a tuple, as a list
        (MappingProxyType({"a": {"b": "c\u202e"}}), ["a.b"]),  # a Mapping that is no dict
        ({1: "x\x00", "n": 2}, ["1"]),  # a key that is no string: its value is walked
        ({Text("k\n"): "v"}, ["<key>"]),  # a str subclass as key
        ([Text("a\x1b")], ["0"]),
        ({"deep": [{"er": [1, 2.5, None, True, "x\u2028"]}]}, ["deep.0.er.4"]),
    ],
)
def test_other_shapes_are_walked_and_named_as_before(data: object, fields: list[str]) -> None:
    with pytest.raises(InvalidFields) as refused:
        refuse_hidden_characters(data)
    assert [p.field for p in refused.value.problems] == fields


@pytest.mark.parametrize(
    "data",
    [
        MappingProxyType({"a": ["b", ("c", 1)]}),
        {1: "x", "n": None},
        {Text("k"): Text("v")},
        ("a", 1.5, False, None, {"b": {}}),
        {"b": []},
    ],
)
def test_other_clean_shapes_pass(data: object) -> None:
    refuse_hidden_characters(data)
