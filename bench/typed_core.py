"""Issue 22's done-when figures for the typed core, measured the same way each time.

    .venv/bin/python bench/typed_core.py [--excluded] [--no-mypy]

Prints, from the repository's root: the lines with ``dict[str, Any]`` in domain/ and
application/ (``grep -c``), the errors of ``mypy --strict --disallow-any-explicit`` over
domain/, application/ and projections/, the lines comparing an event's name
(``grep -rn '__qualname__ =='``), the longest modules of domain/ and application/
(``wc -l``, their top level only), and the string-keyed state lookups outside the JSON
edges, per file.

The lookups' measure is the issue's own regex, ``\\[["'][^"']+["']\\]`` (a subscript by a string
literal), counted per match, as ``grep -rEo`` over the folders would count it. A match
is left out when it sits inside a JSON edge, told by the function's name (``is_edge``):
a record's ``as_json``/``from_json`` and the ``*_as_json``/``*_from_json`` beside
them, which read and write the JSON that events carry, and the snapshots' state
written and read as version 1's JSON (``stored_state``, ``upcast_v1_v2``...). Every
match left out is listed with ``--excluded``, so the figure can be checked by hand.
The lookups are counted in domain/ and application/, rulesets included; the syntax tree
then tells how many of them read a value, how many write one (JSON being built) and how
many are no subscript at all (``["fists"]``, a list).
"""

from __future__ import annotations

import argparse
import ast
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

LOOKUP = re.compile(r"""\[["'][^"']+["']\]""")
# The JSON edges, by function name: a record's own readers and writers of the JSON its
# events carry, the module-level ones beside them (``rolls_from_json``...), and the
# snapshots' state written out and read back as version 1's JSON.
EDGE_SUFFIXES = ("as_json", "from_json")
EDGES = frozenset({"stored_state", "upcast_v1_v2", "write_state", "read_state"})


def is_edge(name: str) -> bool:
    return name in EDGES or name.endswith(EDGE_SUFFIXES)


ROOT = Path(__file__).resolve().parent.parent


def edge_lines(tree: ast.AST) -> set[int]:
    """The lines of every function named in EDGES (decorators and nested bodies included)."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and is_edge(node.name):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            lines.update(range(first, (node.end_lineno or node.lineno) + 1))
    return lines


def subscripts(tree: ast.AST, edges: set[int]) -> tuple[int, int]:
    """Outside the edges: subscripts by a string literal that read (``x["a"]``) and that
    write or delete (``x["a"] = 1``), told apart by the syntax tree."""
    reads = writes = 0
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.slice, ast.Constant)
            and isinstance(node.slice.value, str)
            and node.lineno not in edges
        ):
            if isinstance(node.ctx, ast.Load):
                reads += 1
            else:
                writes += 1
    return reads, writes


def measure(paths: list[Path]) -> tuple[Counter[str], list[str], Counter[str]]:
    counted: Counter[str] = Counter()
    excluded: list[str] = []
    kinds: Counter[str] = Counter()
    for path in paths:
        source = path.read_text()
        tree = ast.parse(source)
        edges = edge_lines(tree)
        reads, writes = subscripts(tree, edges)
        kinds.update(reads=reads, writes=writes)
        name = str(path.relative_to(ROOT))
        for number, line in enumerate(source.splitlines(), start=1):
            for match in LOOKUP.finditer(line):
                if number in edges:
                    excluded.append(f"{name}:{number}: {match.group()}  ({line.strip()})")
                else:
                    counted[name] += 1
    return counted, excluded, kinds


def grep_lines(pattern: str, folders: list[str]) -> list[str]:
    paths = sorted(p for folder in folders for p in (ROOT / folder).rglob("*.py"))
    found = re.compile(pattern)
    return [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in paths
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if found.search(line)
    ]


def mypy_errors() -> str:
    command = [sys.executable, "-m", "mypy", "--strict", "--disallow-any-explicit"]
    done = subprocess.run(
        [*command, "domain", "application", "projections"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stdout.strip().splitlines()[-1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--excluded", action="store_true", help="list each lookup left out")
    parser.add_argument("--no-mypy", action="store_true", help="skip the mypy run")
    args = parser.parse_args()
    folders = ["domain", "application"]
    typed_any = grep_lines(r"dict\[str, Any\]", folders)
    print(f"dict[str, Any] lines in domain/ application/: {len(typed_any)}")
    for line in typed_any:
        print(f"  {line}")
    if not args.no_mypy:
        checked = "mypy --strict --disallow-any-explicit domain application projections"
        print(f"{checked}: {mypy_errors()}")
    names = grep_lines(r"__qualname__ ==", [*folders, "projections"])
    print(f"__qualname__ == in domain/ application/ projections/: {len(names)}")
    for line in names:
        print(f"  {line}")
    modules = sorted(
        (len(path.read_text().splitlines()), str(path.relative_to(ROOT)))
        for folder in folders
        for path in (ROOT / folder).glob("*.py")
    )
    print("longest modules of domain/ and application/ (wc -l):")
    print("\n".join(f"  {lines:5d} {name}" for lines, name in modules[-5:]))
    paths = sorted(p for folder in folders for p in (ROOT / folder).rglob("*.py"))
    counted, excluded, kinds = measure(paths)
    print("string-keyed state lookups outside the JSON edges, per file:")
    for name, n in counted.most_common():
        print(f"  {n:5d}  {name}")
    total = sum(counted.values())
    print(f"  {total:5d}  total ({', '.join(folders)}, rulesets included), of which")
    print(f"  {kinds['reads']:5d}    read a value (a subscript by a string literal, read)")
    print(f"  {kinds['writes']:5d}    write one (the same, assigned or deleted: JSON being built)")
    other = total - kinds["reads"] - kinds["writes"]
    print(f"  {other:5d}    are no subscript (a list of one string, or in a string or comment)")
    edges = ", ".join([*(f"*{suffix}" for suffix in EDGE_SUFFIXES), *sorted(EDGES)])
    print(f"  {len(excluded):5d}  left out: inside the JSON edges ({edges})")
    if args.excluded:
        print("\n".join(f"    {line}" for line in excluded))
    return 0


if __name__ == "__main__":
    sys.exit(main())
