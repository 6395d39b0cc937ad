"""The pages' JS names no ruleset (issue 38): no built-in ruleset's id as a literal and no
object keyed by one in api/static/*.js. What a page shows of a ruleset (its labels, panel
order, starter sheets, initiative fields) comes from what /rulesets publishes for it
(its `presentation`), so a ruleset installed later renders with no page code.

The check reads each file's tokens (comments left out, strings, template literals and
regular expressions read as such): a string literal or a template's text equal to an id
(or to its package's name, "stamina_body"), and an object key that is one, are findings.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from skald_campaign.domain.rulesets import RULESETS

STATIC = Path(__file__).resolve().parents[2] / "api" / "static"
# The built-in rulesets' ids, and the names of their packages.
IDS = frozenset({"margin", "stamina-body", "d20"})
NAMES = IDS | {i.replace("-", "_") for i in IDS}

# After these a "/" starts a regular expression, not a division.
REGEX_AFTER_WORDS = frozenset(
    [
        "return",
        "typeof",
        "case",
        "do",
        "else",
        "in",
        "of",
        "new",
        "delete",
        "void",
        "throw",
        "yield",
        "await",
        "instanceof",
    ]
)
REGEX_AFTER_PUNCT = frozenset("(,=:[!&|?{};+-*%<>~^")
IDENT = re.compile(r"[A-Za-z_$][\w$]*")
NUMBER = re.compile(r"\d[\w.]*")


@dataclass(frozen=True)
class Token:
    kind: str  # "string" (a quoted string or a template's text), "name", "punct", "regex", "number"
    text: str
    line: int


def _quoted(source: str, start: int, quote: str) -> tuple[str, int]:
    """The text of the string opening at ``start`` (escapes read as the character they
    escape, enough to compare with an id) and the index after its closing quote."""
    out: list[str] = []
    i = start + 1
    while source[i] != quote:
        if source[i] == "\\":
            i += 1
        out.append(source[i])
        i += 1
    return "".join(out), i + 1


def _regex_end(source: str, start: int) -> int:
    i, in_class = start + 1, False
    while in_class or source[i] != "/":
        if source[i] == "\\":
            i += 1
        elif source[i] == "[":
            in_class = True
        elif source[i] == "]":
            in_class = False
        elif source[i] == "\n":
            raise SyntaxError(f"unterminated regular expression at {start}")
        i += 1
    i += 1
    while i < len(source) and (source[i].isalnum() or source[i] == "_"):
        i += 1  # its flags
    return i


def tokens(source: str) -> Iterator[Token]:
    """The tokens of an ES module, enough of them to tell code from comments and text."""
    braces: list[str] = []  # "{" or "${" (a template's substitution), innermost last
    i, previous = 0, None
    template_text = False  # inside a template literal's text
    while i < len(source):
        line = source.count("\n", 0, i) + 1
        if template_text:
            chunk: list[str] = []
            while source[i] != "`" and not source.startswith("${", i):
                if source[i] == "\\":
                    i += 1
                chunk.append(source[i])
                i += 1
            yield Token("string", "".join(chunk), line)
            if source[i] == "`":
                i += 1
                previous = Token("string", "`", line)
            else:
                braces.append("${")
                i += 2
                previous = Token("punct", "${", line)
            template_text = False
            continue
        char = source[i]
        if char.isspace():
            i += 1
        elif source.startswith("//", i):
            i = source.find("\n", i) if "\n" in source[i:] else len(source)
        elif source.startswith("/*", i):
            i = source.index("*/", i + 2) + 2
        elif char in "'\"":
            text, i = _quoted(source, i, char)
            previous = Token("string", text, line)
            yield previous
        elif char == "`":
            i += 1
            template_text = True
        elif char == "/" and (
            previous is None
            or (previous.kind == "punct" and previous.text in REGEX_AFTER_PUNCT | {"${"})
            or (previous.kind == "name" and previous.text in REGEX_AFTER_WORDS)
        ):
            end = _regex_end(source, i)
            previous = Token("regex", source[i:end], line)
            yield previous
            i = end
        elif match := IDENT.match(source, i):
            previous = Token("name", match.group(), line)
            yield previous
            i = match.end()
        elif match := NUMBER.match(source, i):
            previous = Token("number", match.group(), line)
            yield previous
            i = match.end()
        else:
            if char == "{":
                braces.append("{")
            elif char == "}" and braces and braces.pop() == "${":
                i += 1
                template_text = True
                continue
            previous = Token("punct", char, line)
            yield previous
            i += 1


def findings(source: str, where: str = "") -> list[str]:
    found: list[str] = []
    seen = list(tokens(source))
    for n, token in enumerate(seen):
        before = seen[n - 1] if n else None
        after = seen[n + 1] if n + 1 < len(seen) else None
        if token.kind == "string" and token.text in NAMES:
            found.append(f"{where}:{token.line}: the ruleset id {token.text!r}")
        if (
            token.kind in ("string", "name")
            and token.text in NAMES
            and before is not None
            and before.text in ("{", ",")
            and after is not None
            and after.text == ":"
        ):
            found.append(f"{where}:{token.line}: an object keyed by ruleset id {token.text!r}")
    return found


def test_the_ids_checked_are_the_built_in_rulesets() -> None:
    assert set(RULESETS) >= IDS


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ('export const T = { "stamina-body": ["bleed"] };', ["'stamina-body'", "keyed"]),
        ("const LABELS = {\n  margin: { attack: 'Attack' },\n};", ["keyed"]),
        ("const x = { a: 1, d20: 2 };", ["keyed"]),
        ("if (campaign.ruleset === 'd20') go();", ["'d20'"]),
        ("const n = `d20`;", ["'d20'"]),
        ("const n = `${a}${'margin'}`;", ["'margin'"]),
        ('switch (id) { case "stamina_body": break; }', ["'stamina_body'"]),
    ],
)
def test_the_check_finds_an_id_or_a_table_keyed_by_one(source: str, expected: list[str]) -> None:
    found = findings(source)
    assert len(found) == len(expected)
    for finding, what in zip(found, expected, strict=True):
        assert what in finding


@pytest.mark.parametrize(
    "source",
    [
        "// margin's fatigue: d20 has none\nconst a = 1;",
        "/* a ruleset without one (d20) takes no plan */ const b = 2;",
        'const dice = initiative.dice || "1d20";',
        "const style = 'margin-top'; const t = `rolled: 1d20 + ${x}`;",
        "const re = /(^|_)(margin|d20)s?$/.test(name);",
        "const half = a / 2 / b; const s = 'x';",
        "const m = cond ? { a: 1 } : { b: '//' };",
    ],
)
def test_the_check_reads_comments_dice_and_patterns_as_no_id(source: str) -> None:
    assert findings(source) == []


def test_the_pages_name_no_ruleset() -> None:
    files = sorted(STATIC.glob("*.js"))
    assert len(files) > 20 and STATIC / "rulesets.js" in files
    found = [f for path in files for f in findings(path.read_text(), path.name)]
    assert not found, "the pages name a ruleset (read it from /rulesets):\n" + "\n".join(found)


# The plain text check: a built-in ruleset's name as a whole word anywhere in a line,
# code or comment (a dice expression's "1d20" and CSS's "margin-top" are no name).
WORDS = re.compile(r"(?<![\w-])(?:margin|d20|stamina[-_]body)(?![\w-])")


def text_lines(source: str) -> set[int]:
    return {n for n, line in enumerate(source.splitlines(), start=1) if WORDS.search(line)}


def finding_lines(source: str) -> set[int]:
    return {int(finding.split(":")[1]) for finding in findings(source)}


@pytest.mark.parametrize(
    "source",
    [
        'export const T = { "stamina-body": ["bleed"] };',
        "const LABELS = {\n  margin: { attack: 'Attack' },\n};",
        "if (campaign.ruleset === 'd20') go();",
        "const n = `${a}${'margin'}`;",
        'switch (id) { case "stamina_body": break; }',
    ],
)
def test_the_plain_text_check_sees_every_line_the_tokens_find(source: str) -> None:
    assert finding_lines(source)
    assert finding_lines(source) <= text_lines(source)


def test_a_plain_text_check_of_the_pages_agrees() -> None:
    """Not a line of the pages' JS names a built-in ruleset, not even in a comment (a
    comment says "a ruleset without daily rules", not which one): the plain text finds
    nothing, as the tokens find nothing."""
    files = sorted(STATIC.glob("*.js"))
    named = {path.name: sorted(text_lines(path.read_text())) for path in files}
    assert {name: lines for name, lines in named.items() if lines} == {}
    assert text_lines("// margin's fatigue and luck\nconst dice = '1d20'; // d20 has none") == {
        1,
        2,
    }
    assert text_lines("const s = 'margin-top'; const d = '2d20';") == set()
