"""Every dependency the routes share is declared once, in api/deps.py: a route module
that wrote its own ``Annotated[..., Depends(...)]`` would drift from the others."""

from __future__ import annotations

import ast
from pathlib import Path

import skald_campaign.api.deps

API = Path(__file__).resolve().parents[2] / "api"


def depends_calls(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(), filename=str(path))
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name | ast.Attribute)
        and (node.func.id if isinstance(node.func, ast.Name) else node.func.attr) == "Depends"
    ]


def test_only_api_deps_declares_dependencies() -> None:
    found = {
        str(path.relative_to(API)): lines
        for path in sorted(API.rglob("*.py"))
        if path.name != "deps.py" and (lines := depends_calls(path))
    }
    assert found == {}


def test_api_deps_declares_the_shared_ones() -> None:
    assert depends_calls(API / "deps.py") != []
    for name in ("App", "Views", "Keys", "Reader", "GM", "Operator", "Idempotency"):
        assert hasattr(skald_campaign.api.deps, name), name
