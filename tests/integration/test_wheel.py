"""The wheel installs Skald under one import name of its own (issue 38): no generic
top-level package (`domain`, `api`, ...) that another distribution may also install, and
a distribution name that is not the registry's `skald` (another project's)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from email.parser import Parser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_wheel_holds_one_top_level_package_skald_campaign(tmp_path: Path) -> None:
    # Built from a copy of the tracked files, so the build writes nothing into the work tree.
    tracked = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.split(b"\0")
    source = tmp_path / "source"
    for name in filter(None, tracked):
        path = Path(name.decode())
        target = source / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if (ROOT / path).is_symlink():
            target.symlink_to((ROOT / path).readlink())
        elif (ROOT / path).is_file():
            shutil.copy2(ROOT / path, target)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), str(source)],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        dist_info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA"))
        metadata = Parser().parsestr(archive.read(f"{dist_info}/METADATA").decode())
        entry_points = archive.read(f"{dist_info}/entry_points.txt").decode()
    top_level = {name.split("/")[0] for name in names if not name.startswith(dist_info)}
    assert top_level == {"skald_campaign"}
    assert metadata["Name"] == "skald-campaign"
    # The folders linked under skald_campaign/ arrive as real files, the pages included.
    assert "skald_campaign/domain/play/dice.py" in names
    assert "skald_campaign/api/static/gm.js" in names
    # Each built-in ruleset's rules document, which an assistant reads from the package.
    for package in ("d20", "margin", "stamina_body"):
        assert f"skald_campaign/domain/rulesets/{package}/RULES.md" in names
    assert "skald = skald_campaign.cli:app" in entry_points
