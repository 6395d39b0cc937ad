"""Each combatant's conditions as they stand: worked out once per change, then reused.

A ruleset's ``conditions()`` is a pure function of its sheet, tracks and state (under the
campaign's options, which the ruleset object carries). A command works out the conditions
of the combatants it touches once, as it resolves (domain/play/resolution.py); applying
its event, answering the request and the next command's view of the fight then find
them here instead of asking the rules again (issue 38: "``conditions()`` runs at most
once per touched combatant per command"; it ran six times for one attack). A combatant
the command did not touch is not asked about at all.

What is known is checked against the values it was worked out from (the same ruleset
object, equal sheet, tracks and state), never trusted by position: a stale entry is
worked out again, not read. So one ``KnownConditions`` may serve an aggregate and every
copy of it (they hold equal values), and a correction's replay, which walks a fight
through its earlier values, finds the values it passes again among the few kept per
combatant.

``known_for(aggregate_id)`` keeps one per aggregate, outside the aggregate's state (no
snapshot or copy carries it), for more aggregates than a writer keeps in memory.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass
from uuid import UUID

from skald_campaign.domain.records import JSON
from skald_campaign.domain.rulesets.base import Ruleset, SheetLike

# The values kept per combatant: the current ones, and a few earlier ones that a
# correction's replay meets again (the values before the action it rerolls, say).
KEPT_PER_COMBATANT = 4
# The aggregates whose conditions are kept (the writer's cache holds 1,000: application/
# writer_cache.py); the one used longest ago makes room.
KEPT_AGGREGATES = 4096


@dataclass(frozen=True, slots=True)
class Known:
    """Conditions, and what they were worked out from."""

    rules: Ruleset
    sheet: SheetLike
    tracks: Mapping[str, int]
    state: Mapping[str, JSON]
    conditions: tuple[str, ...]

    def holds_for(
        self, rules: Ruleset, sheet: SheetLike, tracks: Mapping[str, int], state: Mapping[str, JSON]
    ) -> bool:
        # Identity first: most lookups are of the very objects the entry was made from.
        return (
            self.rules is rules
            and (self.sheet is sheet or self.sheet == sheet)
            and (self.tracks is tracks or self.tracks == tracks)
            and (self.state is state or self.state == state)
        )


class KnownConditions:
    """The conditions worked out for each combatant (or character) id, by their values."""

    __slots__ = ("_known",)

    def __init__(self) -> None:
        # Each id's entries, newest first; a tuple replaced whole, never changed in place,
        # so a reader on another thread never sees one half-written.
        self._known: dict[str, tuple[Known, ...]] = {}

    def known(
        self,
        rules: Ruleset,
        cid: str,
        sheet: SheetLike,
        tracks: Mapping[str, int],
        state: Mapping[str, JSON],
    ) -> tuple[str, ...] | None:
        """The conditions worked out for these values, or None if they never were."""
        for entry in self._known.get(cid, ()):
            if entry.holds_for(rules, sheet, tracks, state):
                return entry.conditions
        return None

    def of(
        self,
        rules: Ruleset,
        cid: str,
        sheet: SheetLike,
        tracks: Mapping[str, int],
        state: Mapping[str, JSON],
    ) -> tuple[str, ...]:
        """The combatant's conditions with these values: known, or worked out now (once).

        ``sheet`` is the typed sheet (``rules.sheet(stored)``, one object per stored
        sheet): what the rules read, and what every caller hands here."""
        found = self.known(rules, cid, sheet, tracks, state)
        if found is not None:
            return found
        conditions = tuple(rules.conditions(sheet, tracks, state))
        entry = Known(rules, sheet, tracks, state, conditions)
        self._known[cid] = (entry, *self._known.get(cid, ())[: KEPT_PER_COMBATANT - 1])
        return conditions


class Standing(Mapping[str, tuple[str, ...]]):
    """The conditions of ``ids`` as a mapping, each worked out when asked for (through
    ``conditions_of``, which works each value out once): what an event records for the
    characters it touched (domain/reading/recorded.py) is then what the command worked
    out, and the others are never asked."""

    __slots__ = ("_conditions_of", "_ids")

    def __init__(
        self, ids: Collection[str], conditions_of: Callable[[str], tuple[str, ...]]
    ) -> None:
        self._ids = ids
        self._conditions_of = conditions_of

    def __getitem__(self, cid: str) -> tuple[str, ...]:
        if cid not in self._ids:
            raise KeyError(cid)
        return self._conditions_of(cid)

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids)

    def __len__(self) -> int:
        return len(self._ids)


# In the order they were first asked for; the oldest makes room (a cache, never the
# record: one dropped is worked out again). Each step is one dict operation, atomic under
# the interpreter's lock: the writer and the request threads both ask.
_KEPT: dict[UUID, KnownConditions] = {}


def known_for(aggregate_id: UUID) -> KnownConditions:
    """The conditions known for one aggregate's combatants (an encounter's, or a
    campaign's characters'), shared by the aggregate and its copies."""
    found = _KEPT.get(aggregate_id)
    if found is not None:
        return found
    found = _KEPT.setdefault(aggregate_id, KnownConditions())
    while len(_KEPT) > KEPT_AGGREGATES:
        try:
            del _KEPT[next(iter(_KEPT))]
        except (KeyError, RuntimeError, StopIteration):  # another thread got there first
            break
    return found


def forget_all() -> None:
    """Know nothing: the state of a process that has worked nothing out yet (a test that
    reads a store back "as another process would", skald_campaign/ruleset_kit)."""
    _KEPT.clear()
