"""Where the browser tests put what they photograph: under the run's temporary
directory (the `screenshots` fixture; pytest keeps the last three runs' in
/tmp/pytest-of-$USER/), never in the work tree, which a test run leaves as it found it
(tests/worktree.py checks that).

The README's pictures are some of those screenshots, copied into docs/ only when asked,
so that refreshing them is a deliberate act with a diff to review, not a side effect of
running the suite:

    SKALD_TEST_BROWSER=1 SKALD_WRITE_SCREENSHOTS=docs .venv-test/bin/pytest \\
        tests/e2e/test_gm_readme_screenshot.py tests/e2e/test_what_others_see.py \\
        tests/e2e/test_table_look.py
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parents[2]
WRITE = "SKALD_WRITE_SCREENSHOTS"
# Every file a run with SKALD_WRITE_SCREENSHOTS=docs may write, relative to ROOT.
README_PICTURES = frozenset(
    {
        "docs/gm-screen.png",
        "docs/screenshots/play-phone.png",
        "docs/screenshots/table-1920x1080.png",
        "docs/screenshots/overlay-transparent.png",
        "docs/screenshots/table-1280x720.png",
        "docs/screenshots/table-360.png",
    }
)


def writing_the_readme_pictures() -> bool:
    """SKALD_WRITE_SCREENSHOTS=docs asks for the README's pictures; any other value is a
    mistake said at once, rather than a run that quietly writes nothing."""
    value = os.environ.get(WRITE, "")
    if value not in ("", "docs"):
        pytest.fail(f"{WRITE}={value!r}: its one value is 'docs' (unset: write nothing)")
    return value == "docs"


def take(page: Page, folder: Path, name: str, **options: Any) -> Path:
    """A screenshot of the page into the run's folder; returns where it went."""
    path = folder / name
    page.screenshot(path=str(path), **options)
    return path


def for_the_readme(taken: Path, picture: str) -> None:
    """Copy a screenshot over the README's picture when SKALD_WRITE_SCREENSHOTS=docs."""
    assert picture in README_PICTURES, picture
    if writing_the_readme_pictures():
        (ROOT / picture).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(taken, ROOT / picture)
