"""What the read side asks of a campaign's rules, if its ruleset is installed (issue 38,
"a read side that needs no rules code").

The projections, the redaction and the read routes import no ruleset and not the
registry: they ask this port, which the registry (domain/rulesets/__init__.py) fills
when it is imported. A campaign whose ruleset is missing (its plugin uninstalled, no
entry point) is still read everywhere, with what needs no rules:

- its characters' and combatants' conditions: none (``[]``);
- their maxima: none known (``{}``; a bar's ``max`` is null);
- derived ratings and equipment: none (``{}``);
- an NPC's descriptor for players and viewers: the engine's own, ``hurt`` or
  ``unhurt`` against the maxima known (domain/reading/visibility.py);
- its records' texts: as their commands recorded them (``told``, since version 4 of the
  events that hold records: domain/reading/told_form.py); older records' as stored, the
  parts the engine builds (domain/reading/told.py).

Writes to such a campaign are refused (application/ruleset_versions.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol


class ReadRules(Protocol):
    """The part of a ruleset the reads use, under the campaign's options."""

    def track_maxima(self, sheet: Any) -> dict[str, int]: ...

    def conditions(
        self, sheet: Any, tracks: Mapping[str, int], state: Mapping[str, Any]
    ) -> Sequence[str]: ...

    def track_descriptor(
        self, tracks: Mapping[str, int], maxima: Mapping[str, int]
    ) -> str | None: ...

    def derived_ratings(self, sheet: Any, state: Any) -> dict[str, Any]: ...

    def equipment(self, sheet: Any) -> dict[str, Any]: ...


# A ruleset id and a campaign's options -> that ruleset under them, or None if missing.
Find = Callable[[str, Mapping[str, Any] | None], ReadRules | None]


def _none(ruleset_id: str, options: Mapping[str, Any] | None) -> ReadRules | None:
    return None


_find: list[Find] = [_none]


def provide(find: Find) -> None:
    """The registry's: how the installed rulesets are found."""
    _find[0] = find


def rules(ruleset_id: str, options: Mapping[str, Any] | None = None) -> ReadRules | None:
    """The ruleset under these options (its defaults without any); None if not installed."""
    return _find[0](ruleset_id, options)


def conditions(
    ruleset_id: str,
    sheet: Any,
    tracks: Mapping[str, int],
    state: Mapping[str, Any],
    options: Mapping[str, Any] | None = None,
) -> list[str]:
    found = rules(ruleset_id, options)
    return [] if found is None else list(found.conditions(sheet, tracks, state))


def maxima(ruleset_id: str, sheet: Any, options: Mapping[str, Any] | None = None) -> dict[str, int]:
    found = rules(ruleset_id, options)
    return {} if found is None else dict(found.track_maxima(sheet))


class Asked:
    """The ruleset installed under a campaign's options, looked for when first asked for
    (a read that finds everything recorded never looks: domain/reading/recorded.py),
    and once; None when it is not installed."""

    def __init__(self, ruleset_id: str, options: Mapping[str, Any] | None) -> None:
        self.ruleset_id, self.options = ruleset_id, options
        self.found: list[ReadRules | None] = []

    def rules(self) -> ReadRules | None:
        if not self.found:
            self.found.append(rules(self.ruleset_id, self.options))
        return self.found[0]
