"""Every stored topic still resolves now that domain/ has rooms (issue 38).

The classes keep the topics they were stored under (``TOPIC = "domain.encounter:..."``,
the module each lived in before domain/ had sub-packages): ``domain.encounter`` and
``domain.campaign`` are packages now, which answer ``Encounter`` and ``Campaign``. The
topics are resolved in a fresh process that imports only skald_campaign.domain, as a
process reading a store does before any aggregate class has been used, so no topic
resolves from the library's cache of classes already in use.
"""

from __future__ import annotations

import importlib
import inspect
import json
import pkgutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import skald_campaign.domain

ROOT = Path(__file__).resolve().parents[2]
COMPAT = ROOT / "tests" / "fixtures" / "compat"

RESOLVE = """
import sys
import skald_campaign.domain
from eventsourcing.utils import resolve_topic
for topic in sys.stdin.read().split():
    found = resolve_topic(topic)
    print(topic, f"{found.__module__}:{found.__qualname__}")
"""


def resolved_in_a_fresh_process(topics: list[str]) -> dict[str, str]:
    done = subprocess.run(
        [sys.executable, "-c", RESOLVE],
        input="\n".join(topics),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=True,
    )
    return dict(line.split(" ", 1) for line in done.stdout.splitlines())


def topics_in(value: object) -> Iterator[str]:
    if isinstance(value, dict):
        for key, inner in value.items():
            if key in ("topic", "originator_topic") and isinstance(inner, str):
                yield inner
            yield from topics_in(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from topics_in(inner)
    elif isinstance(value, str) and value.startswith("{"):
        try:
            parsed = json.loads(value)
        except ValueError:
            return
        yield from topics_in(parsed)


def stored_topics() -> list[str]:
    """Every topic the compat fixtures' events and snapshots were stored under."""
    found: set[str] = set()
    for path in sorted(COMPAT.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            found.update(topics_in(json.loads(line)))
    return sorted(found)


def classes_with_topics() -> dict[str, type]:
    """Every class in skald_campaign.domain (nested ones too) with a TOPIC, by its topic:
    a nested event class as its aggregate holds it (the library may have made it anew
    from the one declared, which keeps the TOPIC declared)."""
    found: dict[str, type] = {}

    def walk(cls: type) -> None:
        topic = getattr(cls, "TOPIC", None)
        if isinstance(topic, str) and topic.startswith("domain."):
            found[topic] = cls
        for inner in vars(cls).values():
            if inspect.isclass(inner) and inner.__qualname__.startswith(cls.__qualname__ + "."):
                walk(inner)

    prefix = skald_campaign.domain.__name__ + "."
    for info in pkgutil.walk_packages(skald_campaign.domain.__path__, prefix):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if inspect.isclass(value) and value.__module__ == module.__name__:
                walk(value)
    return found


def test_every_stored_topic_resolves_to_the_class_that_declares_it() -> None:
    stored = stored_topics()
    # 44 in the fixtures of fe485e1 and the later issues', and the table's records
    # (Encounter.TableRecorded) in the export made on 77c0eaa (issue 38).
    assert len(stored) == 45
    assert "domain.encounter:Encounter.TableRecorded" in stored
    declared = classes_with_topics()
    resolved = resolved_in_a_fresh_process(stored)
    assert resolved["eventsourcing.domain:Snapshot"] == "eventsourcing.domain:Snapshot"
    for topic in stored:
        if topic.startswith("domain."):
            cls = declared[topic]
            assert resolved[topic] == f"{cls.__module__}:{cls.__qualname__}", topic


def test_every_class_topic_resolves_to_its_class() -> None:
    declared = classes_with_topics()
    assert len(declared) == 52
    resolved = resolved_in_a_fresh_process(sorted(declared))
    assert resolved == {
        topic: f"{cls.__module__}:{cls.__qualname__}" for topic, cls in declared.items()
    }
    # The aggregates moved into their rooms; their stored topics did not.
    assert resolved["domain.encounter:Encounter.ActionResolved"] == (
        "skald_campaign.domain.encounter.aggregate:Encounter.ActionResolved"
    )
    assert resolved["domain.campaign:Campaign.Created"] == (
        "skald_campaign.domain.campaign.aggregate:Campaign.Created"
    )
