"""The suite's own check of the work tree (tests/worktree.py), run on real pytest
sessions inside a real git checkout: one whose test writes only under tmp_path passes;
one whose tests write into the checkout (over a tracked file, a new file, a file in a
gitignored folder, an empty folder) or remove a file fails, naming each path."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CLEAN = """
def test_writes_under_its_temporary_directory(tmp_path):
    (tmp_path / "out.txt").write_text("fine")
"""
DIRTY = """
from pathlib import Path

HERE = Path(__file__).parent

def test_writes_into_the_checkout():
    (HERE / "tracked.txt").write_text("changed")
    (HERE / "new.txt").write_text("new")
    (HERE / "build").mkdir()
    (HERE / "build" / "out.o").write_text("ignored by git, still written")
    (HERE / "empty").mkdir()
    (HERE / "gone.txt").unlink()
"""


def checkout(tmp_path: Path, test: str) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "test_sample.py").write_text(test)
    (repo / "tracked.txt").write_text("as committed")
    (repo / "gone.txt").write_text("as committed")
    (repo / ".gitignore").write_text("build/\n__pycache__/\n")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run([*git, "init", "-q"], cwd=repo, check=True)
    subprocess.run([*git, "add", "-A"], cwd=repo, check=True)
    subprocess.run([*git, "commit", "-q", "-m", "start"], cwd=repo, check=True)
    return repo


def session(tmp_path: Path, repo: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "SKALD_WRITE_SCREENSHOTS"}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.worktree", "-q",
         "--rootdir", str(repo), "--basetemp", str(tmp_path / "base"),
         str(repo / "test_sample.py")],
        cwd=repo,
        env={**env, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=300,
    )  # fmt: skip


def test_a_session_that_writes_only_under_its_temporary_directory_passes(tmp_path: Path) -> None:
    # pytest's own cache and the test's bytecode land in the checkout: the tools' caches.
    done = session(tmp_path, checkout(tmp_path, CLEAN))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout
    assert "changed the work tree" not in done.stdout


def test_a_session_that_writes_into_the_checkout_fails_naming_every_path(tmp_path: Path) -> None:
    repo = checkout(tmp_path, DIRTY)
    done = session(tmp_path, repo)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "1 passed" in done.stdout
    lines = done.stdout.splitlines()
    start = lines.index(
        f"the run changed the work tree {repo.resolve()} "
        "(tests write only under temporary directories):"
    )
    assert lines[start + 1 : lines.index("", start)] == [
        "  appeared: build/",
        "  appeared: build/out.o",
        "  appeared: empty/",
        "  disappeared: gone.txt",
        "  appeared: new.txt",
        "  written: tracked.txt",
        "(a test wrote there, or someone edited the work tree during the run)",
    ]
