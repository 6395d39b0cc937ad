"""Rulesets are found through the ``skald.rulesets`` entry point group (issue 38).

The entry points here are real ones: a distribution's metadata (a ``.dist-info``
folder with its ``entry_points.txt``) and its module, written into a temporary folder
put on ``sys.path``, read by importlib.metadata as it reads an installed plugin's.
"""

from __future__ import annotations

import ast
import importlib
import logging
import sys
import textwrap
from collections.abc import Iterator
from importlib.metadata import entry_points, version
from pathlib import Path

import pytest

from skald_campaign.domain.errors import InvalidInput
from skald_campaign.domain.play.options import TableOptions, table_options
from skald_campaign.domain.rulesets import (
    ENTRY_POINT_GROUP,
    RULESETS,
    DuplicateRuleset,
    Registry,
    discover,
    get_ruleset,
)

BUILT_INS = ["d20", "margin", "stamina-body"]

# A toy ruleset as another distribution writes it: it imports only the ruleset API and
# declares no options of its own.
TOY = """
from collections.abc import Mapping
from typing import ClassVar

from skald_campaign.ruleset_api import (
    ActionType, DiceTray, EncounterView, Frozen, Outcome, RulesetOf, SheetLike,
)


class ToySheet(Frozen):
    hp: int = 10
    grit: int = 0


class Hit(Frozen):
    target: str


def hit(view: EncounterView, actor: str | None, params: Hit, tray: DiceTray) -> Outcome:
    return Outcome("hit", {})


class Toy(RulesetOf[ToySheet]):
    id = "toy"
    title = "Toy"
    sheet_model = ToySheet
    actions: ClassVar[Mapping[str, ActionType]] = {"hit": ActionType("hit", Hit, hit, "hits")}

    def track_maxima(self, sheet: SheetLike) -> dict[str, int]:
        return {"hp": self.sheet(sheet).hp}

    def conditions(self, sheet: SheetLike, tracks: Mapping[str, int], state) -> tuple[str, ...]:
        return ("down",) if tracks.get("hp", 0) <= 0 else ()


class Gritty(Toy):
    id = "gritty"
    initiative_adds = ("grit",)


class Margin(Toy):
    id = "margin"


def make_toy() -> Toy:
    return Gritty()


NOT_A_RULESET = 42
"""


def distribution(root: Path, name: str, entries: dict[str, str]) -> None:
    """A distribution's metadata, as pip writes it into site-packages."""
    info = root / f"{name.replace('-', '_')}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    lines = "".join(f"{key} = {value}\n" for key, value in entries.items())
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\n{lines}")


@pytest.fixture
def plugins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder on sys.path holding the toy module; each test adds its distributions."""
    (tmp_path / "toy_rules.py").write_text(textwrap.dedent(TOY))
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    sys.modules.pop("toy_rules", None)
    importlib.invalidate_caches()


def test_the_built_ins_register_through_the_entry_point_group() -> None:
    ours = [
        e
        for e in entry_points(group=ENTRY_POINT_GROUP)
        if e.dist and e.dist.name == "skald-campaign"
    ]
    assert sorted((e.name, e.value) for e in ours) == [
        ("d20", "skald_campaign.domain.rulesets.d20:D20"),
        ("margin", "skald_campaign.domain.rulesets.margin:Margin"),
        ("stamina-body", "skald_campaign.domain.rulesets.stamina_body:StaminaBody"),
    ]
    assert list(RULESETS) == BUILT_INS
    assert RULESETS.failed == {}


def test_a_ruleset_of_another_distribution_is_found(plugins: Path) -> None:
    distribution(plugins, "toy-rules", {"toy": "toy_rules:Toy", "made": "toy_rules:make_toy"})
    found = discover()
    assert list(found.rulesets) == [*BUILT_INS, "gritty", "toy"]
    assert found.failed == {}
    toy = found.rulesets["toy"]
    assert (type(toy).__module__, type(toy).__name__, toy.title) == ("toy_rules", "Toy", "Toy")
    registry = Registry(discover)
    assert sorted(registry) == ["d20", "gritty", "margin", "stamina-body", "toy"]
    assert registry["gritty"].id == "gritty"


def test_an_entry_point_that_fails_to_load_is_logged_by_name_and_the_others_load(
    plugins: Path, caplog: pytest.LogCaptureFixture
) -> None:
    distribution(
        plugins,
        "toy-rules",
        {
            "broken": "toy_rules_gone:Toy",
            "notone": "toy_rules:NOT_A_RULESET",
            "toy": "toy_rules:Toy",
        },
    )
    with caplog.at_level(logging.ERROR, logger="skald.rulesets"):
        found = discover()
    assert list(found.rulesets) == [*BUILT_INS, "toy"]
    assert found.failed == {
        "broken = toy_rules_gone:Toy (toy-rules 1.0)": (
            "ModuleNotFoundError: No module named 'toy_rules_gone'"
        ),
        "notone = toy_rules:NOT_A_RULESET (toy-rules 1.0)": (
            "TypeError: it names int, not a ruleset or a factory of one"
        ),
    }
    assert [r.getMessage() for r in caplog.records if r.name == "skald.rulesets"] == [
        "the ruleset entry point broken = toy_rules_gone:Toy (toy-rules 1.0) failed to load; "
        "the other rulesets still load",
        "the ruleset entry point notone = toy_rules:NOT_A_RULESET (toy-rules 1.0) failed to "
        "load; the other rulesets still load",
    ]


def test_two_rulesets_with_one_id_are_an_error_naming_both(plugins: Path) -> None:
    distribution(plugins, "toy-rules", {"margin": "toy_rules:Margin"})
    with pytest.raises(DuplicateRuleset) as raised:
        discover()
    assert str(raised.value) == (
        "two rulesets have the id 'margin': margin = skald_campaign.domain.rulesets.margin:"
        f"Margin (skald-campaign {version('skald-campaign')}) and margin = toy_rules:Margin "
        "(toy-rules 1.0); uninstall one of them"
    )


def test_an_unknown_ruleset_id_is_refused_naming_the_installed_ones() -> None:
    with pytest.raises(InvalidInput) as raised:
        get_ruleset("chess")
    assert raised.value.message == (
        "unknown ruleset 'chess'; choose one of: d20, margin, stamina-body"
    )


def test_a_ruleset_that_declares_no_options_takes_the_engines_table_options(
    plugins: Path,
) -> None:
    distribution(plugins, "toy-rules", {"toy": "toy_rules:Toy"})
    toy = discover().rulesets["toy"]
    assert list(toy.options_model.model_fields) == []
    assert toy.validate_options({}) == {
        "actions_per_round": 1,
        "initiative": {"mode": "manual"},
        "skip_unable": True,
        "show_npc_numbers": False,
    }
    rolled = toy.validate_options(
        {
            "actions_per_round": 2,
            "initiative": {"mode": "roll", "dice": "2d6", "each_round": True},
            "skip_unable": False,
            "show_npc_numbers": True,
        }
    )
    assert rolled == {
        "actions_per_round": 2,
        "initiative": {"mode": "roll", "dice": "2d6", "add": None, "each_round": True},
        "skip_unable": False,
        "show_npc_numbers": True,
    }
    assert table_options(rolled) == TableOptions(
        roll=True, dice="2d6", add=None, each_round=True, skip_unable=False
    )
    # It names no sheet field to add, so a roll adds none; nor does it take another's option.
    for bad, where in [
        ({"initiative": {"mode": "roll", "add": "grit"}}, "options.initiative.roll.add"),
        ({"success_on": 5}, "options.success_on"),
        ({"actions_per_round": 0}, "options.actions_per_round"),
    ]:
        with pytest.raises(InvalidInput) as raised:
            toy.validate_options(bad)
        assert where in raised.value.message


def test_a_ruleset_naming_sheet_fields_may_add_one_to_its_initiative(plugins: Path) -> None:
    distribution(plugins, "toy-rules", {"made": "toy_rules:make_toy"})
    gritty = discover().rulesets["gritty"]
    rolled = gritty.validate_options({"initiative": {"mode": "roll", "add": "grit"}})
    assert rolled["initiative"] == {
        "mode": "roll",
        "dice": "1d20",
        "add": "grit",
        "each_round": False,
    }
    model = gritty.campaign_options_model
    assert model.__name__ == "GrittyOptions"
    assert "GrittyInitiativeRoll" in model.model_json_schema()["$defs"]


def test_a_ruleset_options_model_may_not_copy_the_engines_table_options(plugins: Path) -> None:
    from skald_campaign.ruleset_api import Frozen

    distribution(plugins, "toy-rules", {"toy": "toy_rules:Toy"})
    toy = discover().rulesets["toy"]

    class Copying(Frozen):
        skip_unable: bool = True

    class CopyingToy(type(toy)):  # type: ignore[misc]
        options_model = Copying

    with pytest.raises(TypeError) as raised:
        CopyingToy().validate_options({})
    assert str(raised.value) == (
        "Copying declares the engine's table options skip_unable: a ruleset's options "
        "model holds only its own rules' options"
    )


def test_a_test_adds_a_ruleset_to_the_registry_for_as_long_as_it_lasts(plugins: Path) -> None:
    registry = Registry(discover)
    toy = importlib.import_module("toy_rules").Toy()
    d20 = registry["d20"]
    before = list(registry)
    assert "toy" not in registry
    with registry.added(toy) as added:
        assert added is toy
        assert registry["toy"] is toy
        assert list(registry) == [*before, "toy"]
    assert list(registry) == before
    # One of an installed id is played instead of it meanwhile, and then it is back,
    # also when the test fails inside.
    other = type("OtherD20", (type(d20),), {})()
    with pytest.raises(RuntimeError), registry.added(other):
        assert registry["d20"] is other
        assert list(registry) == before
        raise RuntimeError("the test failed")
    assert registry["d20"] is d20
    # The one the registry holds already: nothing changes.
    with registry.added(d20):
        assert registry["d20"] is d20
    assert registry["d20"] is d20 and list(registry) == before


def test_a_test_removes_a_ruleset_from_the_registry_for_as_long_as_it_lasts(
    plugins: Path,
) -> None:
    registry = Registry(discover)
    d20 = registry["d20"]
    before = list(registry)
    with registry.removed("d20") as hidden:
        assert hidden is d20
        assert "d20" not in registry and registry.get("d20") is None
        assert list(registry) == [rid for rid in before if rid != "d20"]
        with pytest.raises(KeyError):
            registry["d20"]
    assert registry["d20"] is d20 and list(registry) == before
    # Back also when the test fails inside; and inside, one may be added in its place.
    other = type("OtherD20", (type(d20),), {})()
    with pytest.raises(RuntimeError), registry.removed("d20"):
        with registry.added(other):
            assert registry["d20"] is other
        assert "d20" not in registry
        raise RuntimeError("the test failed")
    assert registry["d20"] is d20 and list(registry) == before
    # An id nobody installed: nothing to set aside, nothing changes.
    with registry.removed("no-such-ruleset") as nothing:
        assert nothing is None
        assert list(registry) == before
    assert list(registry) == before


# Where Python lives in the repo: every module and test, the bench and the examples.
SOURCES = ("domain", "application", "projections", "api", "workers", "skald_campaign", "tests")
SOURCES_TOO = ("bench", "examples")


def test_nothing_outside_the_registry_touches_its_private_state() -> None:
    """Tests install and uninstall rulesets through ``RULESETS.added`` and ``removed``,
    never by setting the registry's private ``_found`` (or reading ``_discovered``): one that did
    would bypass what the registry promises (restored on every path) and break with
    any change to how it keeps what it found."""
    root = Path(__file__).resolve().parents[2]
    registry_module = root / "domain" / "rulesets" / "__init__.py"
    private = {f"_{name}" for name in ("found", "discovered")}  # not spelt out here
    offenders = []
    for folder in (*SOURCES, *SOURCES_TOO):
        for path in sorted((root / folder).rglob("*.py")):
            if path == registry_module or ".venv" in path.parts:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for node in ast.walk(tree):
                owner_is_self = (
                    isinstance(node, ast.Attribute)
                    and isinstance(node.value, ast.Name)
                    and node.value.id in ("self", "cls")
                )
                named = (
                    node.attr
                    if isinstance(node, ast.Attribute) and not owner_is_self
                    else node.value
                    if isinstance(node, ast.Constant) and isinstance(node.value, str)
                    else None
                )
                if named in private:
                    offenders.append(f"{path.relative_to(root)}:{node.lineno}: {named}")
    assert offenders == []
