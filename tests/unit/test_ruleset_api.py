"""The ruleset API is the one thing a ruleset imports from Skald (issue 38).

The built-in rulesets are held to it as any other: their import statements (read from
the syntax trees) name only ``skald_campaign.ruleset_api``, their own package, the
standard library, pydantic and msgspec.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

import skald_campaign.ruleset_api as api
from skald_campaign.domain.rulesets import RULESETS
from skald_campaign.ruleset_api import capabilities

ROOT = Path(__file__).resolve().parents[2]
BUILT_INS = ("margin", "stamina_body", "d20")
API = "skald_campaign.ruleset_api"
LIBRARIES = {"pydantic", "pydantic_core", "msgspec"}  # pydantic_core: pydantic's own


def absolute(node: ast.ImportFrom, path: Path, root: Path) -> str:
    """The module a ``from`` import names, a relative one resolved against its file."""
    if node.level == 0:
        return node.module or ""
    parts = list(path.relative_to(root).with_suffix("").parts)
    base = ["skald_campaign", *parts[: len(parts) - node.level]]
    return ".".join([*base, *([node.module] if node.module else [])])


def imports_of(path: Path, root: Path) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.append((node.lineno, absolute(node, path, root)))
    return found


def allowed(module: str, package: str) -> bool:
    own = f"skald_campaign.domain.rulesets.{package}"
    top = module.split(".")[0]
    if module == API or module.startswith(API + "."):
        return True
    if module == own or module.startswith(own + "."):
        return True
    if top == "skald_campaign":
        return False
    return top in LIBRARIES or top in sys.stdlib_module_names


def offending_imports(root: Path) -> list[str]:
    found = []
    for package in BUILT_INS:
        for path in sorted((root / "domain" / "rulesets" / package).rglob("*.py")):
            for line, module in imports_of(path, root):
                if not allowed(module, package):
                    found.append(f"{path.relative_to(root)}:{line}: {module}")
    return found


def test_the_built_in_rulesets_import_only_the_ruleset_api_of_skald() -> None:
    assert offending_imports(ROOT) == []


def test_the_walk_sees_what_it_must_refuse(tmp_path: Path) -> None:
    """The walk reads every form an import takes: a relative import out of the package,
    an import of the engine, a library the API does not cover."""
    rules = tmp_path / "domain" / "rulesets" / "margin"
    rules.mkdir(parents=True)
    (rules / "rules.py").write_text(
        "from __future__ import annotations\n"
        "import fractions\n"
        "from pydantic import Field\n"
        "from skald_campaign.ruleset_api import Outcome\n"
        "from skald_campaign.ruleset_api.texts import Text\n"
        "from skald_campaign.domain.rulesets.margin.sheet import MarginSheet\n"
        "from .sheet import MarginSheet as Sheet\n"
        "from ..base import Frozen\n"
        "import skald_campaign.domain.play.dice\n"
        "from skald_campaign.domain import breakdowns\n"
        "from skald_campaign.domain.rulesets.d20 import D20\n"
        "import requests\n",
        encoding="utf-8",
    )
    assert offending_imports(tmp_path) == [
        "domain/rulesets/margin/rules.py:8: skald_campaign.domain.rulesets.base",
        "domain/rulesets/margin/rules.py:9: skald_campaign.domain.play.dice",
        "domain/rulesets/margin/rules.py:10: skald_campaign.domain",
        "domain/rulesets/margin/rules.py:11: skald_campaign.domain.rulesets.d20",
        "domain/rulesets/margin/rules.py:12: requests",
    ]


def test_the_api_has_a_version_and_every_name_it_lists() -> None:
    assert api.API_VERSION == "1.0"
    assert re.fullmatch(r"[0-9]+\.[0-9]+", api.API_VERSION)
    for name in api.__all__:
        assert getattr(api, name) is not None, name
    for module in (api.texts, api.narrative, api.records, capabilities):
        for name in module.__all__:
            assert hasattr(module, name), f"{module.__name__}.{name}"


@pytest.mark.parametrize("ruleset_id", ["margin", "stamina-body", "d20"])
def test_every_built_in_is_a_ruleset_of_the_api_with_its_daily_rules_as_declared(
    ruleset_id: str,
) -> None:
    ruleset = RULESETS[ruleset_id]
    assert isinstance(ruleset, api.RulesetOf)
    assert isinstance(ruleset, api.PagePresentation)
    assert isinstance(ruleset, api.DailyRules)
    assert api.has_daily_rules(ruleset) is (ruleset_id != "d20")
