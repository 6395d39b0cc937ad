"""The application is composed of groups of commands over one store, not of mixins."""

from __future__ import annotations

import ast
from pathlib import Path

from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.store import Commands

APPLICATION = Path(__file__).resolve().parents[2] / "application"


def test_no_module_of_the_application_declares_type_checking_stubs() -> None:
    found = {
        str(path.relative_to(APPLICATION.parent))
        for path in APPLICATION.rglob("*.py")
        if "TYPE_CHECKING" in path.read_text()
    }
    assert found == set()


def test_skald_application_inherits_from_no_group_of_commands() -> None:
    assert not any(issubclass(base, Commands) for base in SkaldApplication.__mro__)


def test_the_store_keeps_its_name_so_existing_tables_are_read() -> None:
    # The library names each subclass after itself unless told; the tables are "skald_...".
    assert SkaldApplication.name == "Skald"


def test_every_group_shares_the_one_store() -> None:
    app = SkaldApplication(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    try:
        groups = [value for value in vars(app).values() if isinstance(value, Commands)]
        assert {type(group).__name__ for group in groups} == {
            "CampaignCommands",
            "EncounterCommands",
            "TableCommands",
            "Amendments",
            "Carrying",
            "Corrections",
            "HouseRules",
            "Queries",
            "WebhookCommands",
            "BestiaryCommands",
            "RulesetVersions",
        }
        assert all(group.store is app for group in groups)
    finally:
        app.close()


def test_every_public_command_of_the_application_is_handed_to_a_group() -> None:
    """Each command method is one line calling its group: no logic sits in the facade."""
    source = (APPLICATION / "application.py").read_text()
    tree = ast.parse(source)
    (cls,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "SkaldApplication"]
    reads = {"__init__", "history", "version_at", "access", "access_if_fresh"}
    for method in cls.body:
        if isinstance(method, ast.FunctionDef) and method.name not in reads:
            (statement,) = method.body
            assert isinstance(statement, ast.Return), method.name
            call = statement.value
            assert isinstance(call, ast.Call), method.name
            assert isinstance(call.func, ast.Attribute), method.name
            assert call.func.attr == method.name, method.name


def test_the_history_routes_only_call_their_query() -> None:
    """Audits, history, `?at=` reads and diffs are worked out in application/queries.py."""
    routes = APPLICATION.parent / "api" / "routes" / "history.py"
    tree = ast.parse(routes.read_text())
    handlers = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.decorator_list]
    assert len(handlers) == 4
    for handler in handlers:
        body = [s for s in handler.body if not isinstance(s, ast.Expr)]  # the docstring
        (statement,) = body
        assert isinstance(statement, ast.Return), handler.name
        assert "app.queries." in ast.unparse(statement), handler.name
