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

One more kind of match is a JSON edge and is left out too, told by the syntax tree and
as strictly: a *write* (``x["k"] = v``, ``del x["k"]``) into a name that the same
function declares, by an annotated assignment, as one of the JSON aliases (``JSON_BUILT``:
``JsonObject``, ``StateObject``, ``dict[str, JSON]``, ``dict[str, JsonValue]``), e.g.
``breakdown: JsonObject = {...}`` then ``breakdown["hold"] = "kept"``. That is a JSON
document being built (a breakdown, an event's parameters, an answer), which the type
checker holds to JSON, not state being looked up. A read is never left out by it, nor a
write into anything else (a parameter, an attribute, a name declared otherwise). The
figure is printed both ways: with only the edges by function name (the measure before
this rule) and with the JSON being built left out too; ``--excluded`` lists each match
either rule leaves out.
"""

from __future__ import annotations

import argparse
import ast
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

LOOKUP = re.compile(r"""\[["'][^"']+["']\]""")
# The JSON edges, by function name: a record's own readers and writers of the JSON its
# events carry, the module-level ones beside them (``rolls_from_json``...), and the
# snapshots' state written out and read back as version 1's JSON.
EDGE_SUFFIXES = ("as_json", "from_json")
EDGES = frozenset({"stored_state", "upcast_v1_v2", "write_state", "read_state"})


# The JSON aliases a function declares a document it builds with (see the module's doc).
JSON_BUILT = frozenset({"JsonObject", "StateObject", "dict[str, JSON]", "dict[str, JsonValue]"})


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


def json_built(tree: ast.AST) -> set[tuple[int, int]]:
    """Where (line, column of the key) a string-keyed write goes into a name its own
    function declares as JSON being built (``name: JsonObject = ...``)."""
    found: set[tuple[int, int]] = set()
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        own = list(_own_nodes(function))
        declared = {
            node.target.id
            for node in own
            if isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and ast.unparse(node.annotation) in JSON_BUILT
        }
        for node in own:
            if (
                isinstance(node, ast.Subscript)
                and not isinstance(node.ctx, ast.Load)
                and isinstance(node.value, ast.Name)
                and node.value.id in declared
                and isinstance(node.slice, ast.Constant)
                and isinstance(node.slice.value, str)
            ):
                found.add((node.slice.lineno, node.slice.col_offset))
    return found


def _own_nodes(function: ast.AST) -> Iterator[ast.AST]:
    """The nodes of ``function`` itself, not those of a function nested in it."""
    stack = list(ast.iter_child_nodes(function))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            stack.extend(ast.iter_child_nodes(node))


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


class Measured:
    def __init__(self) -> None:
        self.counted: Counter[str] = Counter()  # per file, outside both kinds of edge
        self.excluded: list[str] = []  # inside a JSON edge, told by the function's name
        self.built: list[str] = []  # writes into JSON being built (json_built)
        self.kinds: Counter[str] = Counter()


def measure(paths: list[Path]) -> Measured:
    measured = Measured()
    for path in paths:
        source = path.read_text()
        tree = ast.parse(source)
        edges = edge_lines(tree)
        built = json_built(tree)
        reads, writes = subscripts(tree, edges)
        measured.kinds.update(reads=reads, writes=writes)
        name = str(path.relative_to(ROOT))
        for number, line in enumerate(source.splitlines(), start=1):
            for match in LOOKUP.finditer(line):
                shown = f"{name}:{number}: {match.group()}  ({line.strip()})"
                # The syntax tree's columns count UTF-8 bytes; the key starts after "[".
                column = len(line[: match.start() + 1].encode())
                if number in edges:
                    measured.excluded.append(shown)
                elif (number, column) in built:
                    measured.built.append(shown)
                else:
                    measured.counted[name] += 1
    return measured


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
    measured = measure(paths)
    kinds, built = measured.kinds, len(measured.built)
    print("string-keyed state lookups outside the JSON edges, per file:")
    for name, n in measured.counted.most_common():
        print(f"  {n:5d}  {name}")
    total = sum(measured.counted.values())
    print(f"  {total:5d}  total ({', '.join(folders)}, rulesets included; goal <= 40), of which")
    print(f"  {kinds['reads']:5d}    read a value (a subscript by a string literal, read)")
    print(f"  {kinds['writes'] - built:5d}    write one (assigned or deleted, into anything else)")
    other = total - kinds["reads"] - (kinds["writes"] - built)
    print(f"  {other:5d}    are no subscript (a list of one string, or in a string or comment)")
    print(f"  {built:5d}  left out: writes into JSON being built (json_built)")
    edges = ", ".join([*(f"*{suffix}" for suffix in EDGE_SUFFIXES), *sorted(EDGES)])
    print(f"  {len(measured.excluded):5d}  left out: inside the JSON edges ({edges})")
    print(f"  {total + built:5d}  total with only the edges by function name (the earlier measure)")
    if args.excluded:
        print("  left out, JSON being built:")
        print("\n".join(f"    {line}" for line in measured.built))
        print("  left out, inside the JSON edges:")
        print("\n".join(f"    {line}" for line in measured.excluded))
    return 0


if __name__ == "__main__":
    sys.exit(main())
