"""No per-ruleset code outside the ruleset packages (issue 38).

Outside domain/rulesets/<package>/ (and tests/, docs/, bench/, examples/), no Python
module names a built-in ruleset by its id, imports a ruleset package's internals or
keeps a table keyed by ruleset id: generic code asks the ruleset (the capabilities on
domain/rulesets/base.py) instead of switching on its id. Docstrings and comments may
mention a ruleset by name; an id in code is a string literal.

Two checks that must agree: one walks each module's syntax tree, the other reads its
text for the quoted ids (comments and docstrings left out).
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "skald_campaign"
RULESETS = ROOT / "domain" / "rulesets"
# The built-in rulesets' ids, and their packages (each a folder under domain/rulesets/).
IDS = frozenset({"margin", "stamina-body", "d20"})
PACKAGES = frozenset(path.name for path in RULESETS.iterdir() if (path / "__init__.py").exists())
INTERNALS = tuple(f"{PACKAGE}.domain.rulesets.{name}" for name in sorted(PACKAGES))
# Skald's own Python outside the ruleset packages: the layers' folders, and the
# composition root's modules and packages (skald_campaign/: its links to the folders
# are not walked twice).
FOLDERS = ("domain", "application", "projections", "api", "workers")

# What is left: per file, what it is and how many times. An explicit list that only
# shrinks: one more is a regression (the failure names its file:line), and one that no
# longer occurs must be taken off.
ALLOWED: dict[tuple[str, str], int] = {}


def modules() -> list[Path]:
    found = [path for folder in FOLDERS for path in sorted((ROOT / folder).rglob("*.py"))]
    found += sorted(
        path
        for path in (ROOT / PACKAGE).rglob("*.py")
        if not (ROOT / PACKAGE / path.relative_to(ROOT / PACKAGE).parts[0]).is_symlink()
    )
    return [
        path
        for path in found
        if not (path.is_relative_to(RULESETS) and path.relative_to(RULESETS).parts[0] in PACKAGES)
        and ".venv" not in path.parts
    ]


def kind(finding: str) -> tuple[str, str]:
    """A finding ("domain/x.py:12: what") as ALLOWED lists it: (file, what)."""
    place, what = finding.split(": ", 1)
    return place.rsplit(":", 1)[0], what


def where(path: Path, node: ast.AST) -> str:
    return f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}"


def docstrings(tree: ast.Module) -> set[int]:
    """The ids of the string constants that are docstrings (a mention, not code)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def tree_findings(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), str(path))
    skipped = docstrings(tree)
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and node.value in IDS and id(node) not in skipped:
            found.add(f"{where(path, node)}: the ruleset id {node.value!r}")
        elif isinstance(node, ast.Dict):
            for key in node.keys:
                if isinstance(key, ast.Constant) and key.value in IDS:
                    found.add(f"{where(path, node)}: a table keyed by ruleset id")
                    break
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
            if any(name.startswith(INTERNALS) for name in names):
                found.add(f"{where(path, node)}: imports a ruleset's internals")
        elif isinstance(node, ast.Import) and any(
            alias.name.startswith(INTERNALS) for alias in node.names
        ):
            found.add(f"{where(path, node)}: imports a ruleset's internals")
    return found


QUOTED = re.compile(r"""(["'])(""" + "|".join(re.escape(i) for i in sorted(IDS)) + r")\1")


def text_findings(path: Path) -> set[str]:
    """The lines whose code (not a comment, not a docstring) quotes a ruleset's id."""
    source = path.read_text()
    tree = ast.parse(source, str(path))
    mentions: set[int] = set()
    for node in ast.walk(tree):
        # A docstring or a bare string: a mention, not code.
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant | ast.JoinedStr):
            mentions.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    found: set[str] = set()
    for number, line in enumerate(source.splitlines(), start=1):
        code = line.split("#", 1)[0] if "#" in line else line
        if number not in mentions and QUOTED.search(code):
            found.add(f"{path.relative_to(ROOT)}:{number}")
    return found


def test_the_walk_sees_the_rulesets_and_every_layer() -> None:
    assert {"margin", "stamina_body", "d20"} <= PACKAGES
    walked = {path.relative_to(ROOT).parts[0] for path in modules()}
    assert walked == {*FOLDERS, PACKAGE}
    assert ROOT / "domain" / "rulesets" / "base.py" in modules()
    assert not [path for path in modules() if path.is_relative_to(RULESETS / "margin")]


def test_no_ruleset_id_import_or_table_outside_the_ruleset_packages() -> None:
    found = sorted(set().union(*(tree_findings(path) for path in modules())))
    counted = Counter(kind(finding) for finding in found)
    new = [finding for finding in found if counted[kind(finding)] > ALLOWED.get(kind(finding), 0)]
    assert not new, "per-ruleset code outside domain/rulesets/<package>/:\n" + "\n".join(new)
    gone = {key: n for key, n in ALLOWED.items() if counted[key] < n}
    assert not gone, f"fewer found than ALLOWED lists: take them off: {gone}"


def test_the_plain_text_check_agrees_with_the_syntax_trees() -> None:
    lines = set().union(*(text_findings(path) for path in modules()))
    literals = {
        finding.split(": ", 1)[0]
        for path in modules()
        for finding in tree_findings(path)
        if "the ruleset id" in finding
    }
    assert lines == literals
