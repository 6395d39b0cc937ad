"""domain/ has rooms and no circles (issue 38): what the layering test adds for domain/.

The graph these tests walk is domain/'s module import graph, read from the syntax trees:
every ``import`` and ``from ... import`` in a module counts, wherever it stands (at the
top, in a function, or under ``if TYPE_CHECKING:``): an import only the type checker
follows is still a dependency of the module's meaning, so it counts. Relative imports
are resolved against the module's package; ``from package import name`` is an arrow to
the module ``package.name`` when there is one, else to the package (its __init__).
A package's __init__ is run by Python whenever one of its modules is imported; that is
not an arrow of the importing module's and is not counted. Only modules of
skald_campaign.domain are nodes: an import reaching the domain through another package
(skald_campaign.ruleset_api) is not followed.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOMAIN = ROOT / "domain"
PACKAGE = "skald_campaign.domain"
MAX_TOP_LEVEL_MODULES = 15


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([PACKAGE, *parts])


def modules(root: Path) -> dict[str, Path]:
    return {module_name(path, root): path for path in sorted(root.rglob("*.py"))}


def imports_of(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The domain modules ``name`` (at ``path``) imports, each as its module name."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - (node.level - 1)])
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module or ""
            for alias in node.names:
                child = f"{source}.{alias.name}"
                found.add(child if child in known else source)
    return {m for m in found if m in known and m != name}


def graph(root: Path) -> dict[str, set[str]]:
    known = modules(root)
    return {name: imports_of(name, path, known) for name, path in known.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan's), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(short(m) for m in group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return sorted(found)


def short(name: str) -> str:
    return name.removeprefix(PACKAGE + ".") if name != PACKAGE else "domain"


def reaches(edges: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = [start]
    while todo:
        for w in edges[todo.pop()]:
            if w not in seen:
                seen.add(w)
                todo.append(w)
    return seen


def packages(edges: dict[str, set[str]], root: Path) -> list[str]:
    """domain's sub-packages, at every depth."""
    return sorted(module_name(p, root) for p in root.rglob("__init__.py") if p.parent != root)


def inside(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def imports_back_up(edges: dict[str, set[str]], root: Path) -> list[str]:
    """Arrows back up. A module inside a sub-package P of domain imports back up when
    it imports either
    - the __init__ of P or of any package enclosing it (the package sits above its
      modules: its __init__ may gather them, as domain/encounter/__init__.py answers
      ``Encounter`` for the stored topics), or
    - a module of a package enclosing P (P's parent, its parent, ..., up to domain's
      top-level modules) that itself imports, directly or not, any module inside P:
      the enclosing level depends on P, so P must not depend on it (the command
      modules importing back the aggregates that import them were such arrows).
    Each is listed as ``importer -> imported (back into P)``."""
    found = []
    for package in packages(edges, root):
        parent = package.rpartition(".")[0]
        ancestors = [a for a in (parent, *_enclosing(parent))]
        for a in sorted(m for m in edges if inside(m, package)):
            for b in sorted(edges[a]):
                if inside(b, package):
                    continue
                if b in ancestors or (b == package):
                    found.append(f"{short(a)} -> {short(b)} (an enclosing package's __init__)")
                    continue
                b_package = b.rpartition(".")[0] if b not in packages(edges, root) else b
                if b_package not in ancestors:
                    continue  # a sibling room or a room further off: not up
                if any(inside(c, package) for c in reaches(edges, b)):
                    found.append(f"{short(a)} -> {short(b)} (back into {short(package)})")
    return sorted(set(found))


def _enclosing(package: str) -> Iterator[str]:
    while package != PACKAGE and "." in package:
        package = package.rpartition(".")[0]
        yield package
        if package == PACKAGE:
            return


def private_uses(root: Path) -> list[str]:
    """Every ``x._name`` (one leading underscore, not a dunder) on anything but ``self``
    or ``cls``, and every ``from m import _name``: a module reaching into another's
    private names (an aggregate's private event methods, a module's private helper)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        where = path.relative_to(root.parent)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.Attribute) and _private(node.attr):
                owner = node.value
                if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
                    continue
                found.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
            elif isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if _private(alias.name):
                        found.append(f"{where}:{node.lineno}: import {alias.name}")
    return found


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def top_level_modules(root: Path) -> list[str]:
    """The .py files directly in domain/, its __init__.py included."""
    return sorted(p.name for p in root.glob("*.py"))


# -- the tests ----------------------------------------------------------------------


def test_domain_has_no_import_cycle() -> None:
    assert cycles(graph(DOMAIN)) == []


def test_no_domain_module_imports_back_up() -> None:
    assert imports_back_up(graph(DOMAIN), DOMAIN) == []


def test_no_domain_module_uses_another_objects_private_names() -> None:
    assert private_uses(DOMAIN) == []


def test_domain_has_at_most_15_top_level_modules() -> None:
    found = top_level_modules(DOMAIN)
    assert len(found) <= MAX_TOP_LEVEL_MODULES, found


def test_the_walk_reads_every_form_an_import_takes(tmp_path: Path) -> None:
    """Relative imports, imports in functions and under TYPE_CHECKING, and a package's
    name imported from it: a cycle through each, and an arrow back up, are found."""
    root = tmp_path / "domain"
    (root / "room" / "inner").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "top.py").write_text("from .room import low\n")
    (root / "room" / "__init__.py").write_text("from . import high\n")
    (root / "room" / "high.py").write_text("from skald_campaign.domain.room.low import x\n")
    (root / "room" / "low.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from skald_campaign.domain.room.high import y\n"
        "def f():\n"
        "    import skald_campaign.domain.top\n"
    )
    (root / "room" / "inner" / "__init__.py").write_text("")
    (root / "room" / "inner" / "deep.py").write_text(
        "from ... import top\nfrom skald_campaign.domain import room\nx = room._hidden\n"
    )
    edges = graph(root)
    assert edges[f"{PACKAGE}.room.low"] == {f"{PACKAGE}.room.high", f"{PACKAGE}.top"}
    assert edges[f"{PACKAGE}.room.inner.deep"] == {f"{PACKAGE}.top", f"{PACKAGE}.room"}
    assert cycles(edges) == [["room.high", "room.low", "top"]]
    assert imports_back_up(edges, root) == [
        "room.inner.deep -> room (an enclosing package's __init__)",
        "room.inner.deep -> top (back into room)",
        "room.low -> top (back into room)",
    ]
    assert private_uses(root) == ["domain/room/inner/deep.py:3: room._hidden"]
