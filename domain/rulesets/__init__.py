"""The registry of rulesets; a campaign names one by id.

Rulesets are discovered through the ``skald.rulesets`` entry point group
(importlib.metadata), the three built-ins through Skald's own distribution's entry
points (pyproject.toml) like any other: each entry point names a ruleset object, a
``RulesetOf`` subclass (instantiated with no arguments) or a factory that returns one.

Discovery happens once, the first time the registry is read (not on import: a ruleset
imports skald_campaign.ruleset_api, which imports this package's ``base``). An entry
point that fails to load, or loads something that is not a ruleset, is logged with its
name and the others still load; two rulesets with one id are an error that names both,
since a campaign of that id would otherwise play under whichever came first.

A test plays a ruleset that is not installed with ``RULESETS.added(ruleset)``, a context
manager (the ruleset kit does, skald_campaign.ruleset_kit), and reads a campaign whose
ruleset is gone with ``RULESETS.removed(ruleset_id)``; nothing outside this module reads
or sets the registry's private state (tests/unit/test_ruleset_discovery.py checks).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from skald_campaign.domain.errors import InvalidInput
from skald_campaign.domain.reading import installed
from skald_campaign.domain.rulesets.base import Ruleset, RulesetOf

ENTRY_POINT_GROUP = "skald.rulesets"
# Skald's own distribution: its rulesets (the built-ins) come first, as they always have.
OWN_DISTRIBUTION = "skald-campaign"

log = logging.getLogger("skald.rulesets")


class DuplicateRuleset(Exception):
    """Two entry points provide rulesets with the same id."""


@dataclass(frozen=True)
class Discovered:
    """What discovery found: the rulesets by id, and the entry points that failed."""

    rulesets: dict[str, Ruleset]
    failed: dict[str, str]  # "name = value (distribution)" -> why


def describe(entry_point: EntryPoint) -> str:
    dist = entry_point.dist
    where = f"{dist.name} {dist.version}" if dist is not None else "no distribution"
    return f"{entry_point.name} = {entry_point.value} ({where})"


def ruleset_of(loaded: object) -> Ruleset:
    """The ruleset an entry point names: an instance, a class, or a factory."""
    if isinstance(loaded, RulesetOf):
        return loaded
    if callable(loaded):
        made = loaded()
        if isinstance(made, RulesetOf):
            return made
        raise TypeError(f"calling it gave {type(made).__name__}, not a ruleset")
    raise TypeError(f"it names {type(loaded).__name__}, not a ruleset or a factory of one")


def _order(entry_point: EntryPoint) -> tuple[bool, str, str]:
    dist = entry_point.dist
    name = dist.name if dist is not None else ""
    return (name != OWN_DISTRIBUTION, name, entry_point.name)


def discover(found: Iterable[EntryPoint] | None = None) -> Discovered:
    """Load every ruleset entry point (the installed ones unless ``found`` is given)."""
    points = list(entry_points(group=ENTRY_POINT_GROUP) if found is None else found)
    # Skald's own first, then each other distribution's by its name; within one, by the
    # entry points' names (the order the built-ins' wheel metadata lists them in).
    points.sort(key=_order)
    rulesets: dict[str, Ruleset] = {}
    source: dict[str, str] = {}
    failed: dict[str, str] = {}
    for entry_point in points:
        name = describe(entry_point)
        try:
            ruleset = ruleset_of(entry_point.load())
        except Exception as error:  # a broken plugin must not take the others down
            failed[name] = f"{type(error).__name__}: {error}"
            log.error(
                "the ruleset entry point %s failed to load; the other rulesets still load",
                name,
                exc_info=True,
            )
            continue
        if ruleset.id in rulesets:
            raise DuplicateRuleset(
                f"two rulesets have the id '{ruleset.id}': {source[ruleset.id]} and {name}; "
                "uninstall one of them"
            )
        rulesets[ruleset.id] = ruleset
        source[ruleset.id] = name
    return Discovered(rulesets, failed)


class Registry(Mapping[str, Ruleset]):
    """The installed rulesets by id, discovered the first time one is asked for."""

    def __init__(self, find: Callable[[], Discovered] = discover) -> None:
        self._find = find
        self._found: Discovered | None = None

    def _discovered(self) -> Discovered:
        found = self._found
        if found is None:
            # Discovery is deterministic, so two threads that both run it agree.
            found = self._found = self._find()
        return found

    @contextmanager
    def added(self, ruleset: Ruleset) -> Iterator[Ruleset]:
        """For a test: the registry holds ``ruleset`` under its id for as long as this
        lasts, as if its entry point were installed (one installed under the same id is
        set aside meanwhile), then stands as it stood before. Every reader of the
        registry finds it meanwhile: the campaigns, their version check, the reads."""
        before = self._discovered()
        if before.rulesets.get(ruleset.id) is ruleset:
            yield ruleset
            return
        self._found = Discovered({**before.rulesets, ruleset.id: ruleset}, dict(before.failed))
        try:
            yield ruleset
        finally:
            self._found = before

    @contextmanager
    def removed(self, ruleset_id: str) -> Iterator[Ruleset | None]:
        """For a test: the registry holds no ruleset ``ruleset_id`` for as long as this
        lasts, as if its distribution were uninstalled (its campaigns are then read
        without the rules and refuse writes: domain/reading/installed.py,
        application/ruleset_versions.py), then stands as it stood before, on every way
        out of the block, a failure included. It gives the ruleset it set aside (None
        when none of that id was installed: nothing changes)."""
        before = self._discovered()
        hidden = before.rulesets.get(ruleset_id)
        if hidden is None:
            yield None
            return
        kept = {rid: ruleset for rid, ruleset in before.rulesets.items() if rid != ruleset_id}
        self._found = Discovered(kept, dict(before.failed))
        try:
            yield hidden
        finally:
            self._found = before

    @property
    def failed(self) -> Mapping[str, str]:
        """The entry points that failed to load, each with why."""
        return self._discovered().failed

    def __getitem__(self, ruleset_id: str) -> Ruleset:
        return self._discovered().rulesets[ruleset_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._discovered().rulesets)

    def __len__(self) -> int:
        return len(self._discovered().rulesets)


RULESETS: Registry = Registry()


def get_ruleset(ruleset_id: str) -> Ruleset:
    try:
        return RULESETS[ruleset_id]
    except KeyError:
        known = ", ".join(sorted(RULESETS))
        raise InvalidInput(f"unknown ruleset '{ruleset_id}'; choose one of: {known}") from None


def _installed(ruleset_id: str, options: Mapping[str, Any] | None) -> Ruleset | None:
    """The ruleset the read side asks for (domain/reading/installed.py): under the
    campaign's options, or its defaults when it has none; None if it is not installed."""
    rules = RULESETS.get(ruleset_id)
    if rules is None:
        return None
    return rules.under(options) if options else rules


installed.provide(_installed)
