"""The ruleset API is the one thing a ruleset imports from Skald (issue 38).

The built-in rulesets are held to it as any other: their import statements (read from
the syntax trees) name only ``skald_campaign.ruleset_api``, their own package, the
standard library, pydantic and msgspec.
"""

from __future__ import annotations

import ast
import inspect
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
    assert api.API_VERSION == "1.1"
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


# What every ruleset defines or the base class works with itself, never a capability:
# its identity, sheets, options, actions, tracks and conditions; and the builders
# RulesetOf's own narration defaults read (``summaries`` for ``summary``, ...).
REQUIRED = {
    "id", "version", "distribution", "sheet_model", "options_model", "actions",
    "campaign_options_model", "validate_options", "under", "validate_sheet",
    "complete_sheet", "sheet", "action_type", "validate_params", "track_maxima",
    "conditions",
}  # fmt: skip
BUILDERS = {"summaries", "narratives", "outcomes", "party_finders"}


def public_members(cls: type) -> set[str]:
    return {
        name
        for klass in cls.__mro__
        if klass.__module__.startswith("skald_campaign")
        for name in (*vars(klass), *getattr(klass, "__annotations__", {}))
        if not name.startswith("_")
    }


def test_the_capabilities_list_every_optional_member_a_ruleset_has() -> None:
    """Every member of RulesetOf the engine may read beyond what each ruleset defines
    is in exactly one capability, and every capability's member is one of RulesetOf's
    (which gives its default; mypy checks RulesetOf satisfies each protocol)."""
    listed = [m for c in capabilities.CAPABILITIES for m in capabilities.members(c)]
    assert len(listed) == len(set(listed)), listed
    assert set(listed) == public_members(api.RulesetOf) - REQUIRED - BUILDERS
    assert [c.__name__ for c in capabilities.CAPABILITIES] == [
        "Narration", "NpcDescriptors", "OddsHelpers", "DailyRules", "TurnRules",
        "CharacterRatings", "PagePresentation",
    ]  # fmt: skip
    assert set(capabilities.members(capabilities.OddsHelpers)) == {
        "odds_run_cost", "odds_public_hit_or_miss", "face_model", "odds_damage_type",
        "odds_memo", "attack_choices", "odds_result", "odds_extras",
    }  # fmt: skip
    assert set(capabilities.members(capabilities.Narration)) == {
        "narrate_is_narrative", "summary", "narrative", "outcome", "parties", "standing",
        "narrate",
    }  # fmt: skip


def test_the_engine_reads_no_optional_member_the_capabilities_leave_out() -> None:
    """Each name a capability lists is read by the engine outside the ruleset packages
    (a call or an attribute), and the engine reads no member of RulesetOf that is
    neither required nor in a capability."""
    code = ""
    for folder in ("domain", "application", "projections", "api", "workers"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "rulesets" not in path.relative_to(ROOT).parts:
                code += path.read_text()
    read = {name for name in public_members(api.RulesetOf) if f".{name}" in code}
    listed = {m for c in capabilities.CAPABILITIES for m in capabilities.members(c)}
    # Read by the base class only, through the member a capability lists.
    through_base = {"incapacitating", "cannot_act_at_all"}
    assert listed - read == through_base
    assert read - listed - REQUIRED <= BUILDERS


OFFERED = {
    "d20": ["Narration", "NpcDescriptors", "OddsHelpers", "TurnRules", "CharacterRatings",
            "PagePresentation"],
    "margin": ["Narration", "NpcDescriptors", "OddsHelpers", "DailyRules", "TurnRules",
               "CharacterRatings", "PagePresentation"],
    "stamina-body": ["Narration", "NpcDescriptors", "OddsHelpers", "DailyRules", "TurnRules",
                     "PagePresentation"],
}  # fmt: skip


@pytest.mark.parametrize("ruleset_id", ["d20", "margin", "stamina-body"])
def test_each_built_in_satisfies_the_capabilities_it_offers(ruleset_id: str) -> None:
    """A built-in offers a capability by defining its members; each it defines has the
    protocol's parameters, by name and kind (mypy checks their types)."""
    ruleset = RULESETS[ruleset_id]
    offered = capabilities.offered(ruleset)
    assert [c.__name__ for c in offered] == OFFERED[ruleset_id]
    own = [k for k in type(ruleset).__mro__ if k not in api.RulesetOf.__mro__]
    for capability in offered:
        assert isinstance(ruleset, capability), capability.__name__
        for name in capabilities.members(capability):
            defined = next((vars(k)[name] for k in own if name in vars(k)), None)
            if defined is None:
                continue  # RulesetOf's default
            wanted = vars(capability).get(name)
            if wanted is None or not callable(wanted):  # a class attribute
                assert not callable(defined) or isinstance(defined, type | frozenset | dict)
                continue
            assert callable(defined), (ruleset_id, name)
            assert parameters(defined) == parameters(wanted), (ruleset_id, name)


def parameters(function: object) -> list[tuple[str, object]]:
    signature = inspect.signature(function)  # type: ignore[arg-type]
    return [(p.name, p.kind) for p in signature.parameters.values()]
