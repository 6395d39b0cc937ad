"""A campaign's bestiary: the sheets its GM saved to enrol again ("3 x Goblin", issue
23), as an aggregate of its own (one per campaign, its id derived from the campaign's,
as the webhooks' is), so saving a sheet never contends with the campaign's own writes
and the bestiary's history is kept as events.

A sheet is validated by the campaign's ruleset before it is saved
(application/bestiary.py) and kept as the JSON the ruleset wrote, every default
written out, so an enrolment from it is the enrolment of that very sheet. The
bestiary is the GM's preparation, not the campaign's story: the views, the audit and
the open feed leave its events aside (domain/events.py, NOT_A_CAMPAIGNS).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate, event

from domain.errors import ActionRefused, InvalidInput, NotFound
from domain.records import Record, Sheet
from domain.roster import check_name

# The namespace of the bestiary aggregates' ids (uuid5 of the campaign's id): fixed forever.
BESTIARY_NAMESPACE = UUID("3c9a7e52-1d84-4b6f-8e2a-7f51c0d9b4e3")
MAX_ENTRIES = 200  # a GM's shelf of foes, not a monster manual
MAX_ENROLLED_AT_ONCE = 20  # "20 x Goblin" at most in one go


class BestiaryEntry(Record, frozen=True):
    id: str
    name: str
    sheet: Sheet


class CampaignBestiary(Aggregate):
    @staticmethod
    def create_id(campaign_id: UUID) -> UUID:
        return uuid5(BESTIARY_NAMESPACE, str(campaign_id))

    class Opened(Aggregate.Created):
        campaign_id: UUID

    @event(Opened)
    def __init__(self, campaign_id: UUID) -> None:
        self.campaign_id = campaign_id
        self.entries: dict[str, BestiaryEntry] = {}

    def entry(self, entry_id: str) -> BestiaryEntry:
        found = self.entries.get(entry_id)
        if found is None:
            raise NotFound(f"no bestiary entry {entry_id} in campaign {self.campaign_id}")
        return found

    def _check_name(self, name: str, entry_id: str) -> str:
        """Names tell entries apart in the GM's list: one name, one entry (any case)."""
        cleaned = check_name(name, "a bestiary entry's name")
        for other in self.entries.values():
            if other.id != entry_id and other.name.casefold() == cleaned.casefold():
                raise ActionRefused(f"the bestiary already has an entry named {other.name}")
        return cleaned

    class Added(Aggregate.Event):
        entry_id: str
        name: str
        sheet: Sheet
        by: str

    def add(self, entry_id: str, name: str, sheet: Sheet, by: str) -> BestiaryEntry:
        if len(self.entries) >= MAX_ENTRIES:
            raise ActionRefused(f"a bestiary holds at most {MAX_ENTRIES} entries")
        self._added(entry_id, self._check_name(name, entry_id), sheet, by)
        return self.entries[entry_id]

    @event(Added)
    def _added(self, entry_id: str, name: str, sheet: Sheet, by: str) -> None:
        self.entries[entry_id] = BestiaryEntry(entry_id, name, sheet)

    class Updated(Aggregate.Event):
        entry_id: str
        name: str
        sheet: Sheet
        by: str

    def update(self, entry_id: str, name: str, sheet: Sheet, by: str) -> BestiaryEntry:
        self.entry(entry_id)
        self._updated(entry_id, self._check_name(name, entry_id), sheet, by)
        return self.entries[entry_id]

    @event(Updated)
    def _updated(self, entry_id: str, name: str, sheet: Sheet, by: str) -> None:
        self.entries[entry_id] = BestiaryEntry(entry_id, name, sheet)

    class Removed(Aggregate.Event):
        entry_id: str
        by: str

    def remove(self, entry_id: str, by: str) -> None:
        self.entry(entry_id)
        self._removed(entry_id, by)

    @event(Removed)
    def _removed(self, entry_id: str, by: str) -> None:
        del self.entries[entry_id]


def numbered(base: str, count: int, taken: Iterable[str]) -> list[str]:
    """The names of `count` characters made from one entry: "Goblin 1", "Goblin 2"...
    numbered on from the highest "Goblin N" the campaign already has (a second pack is
    Goblin 4-6); one alone, when the campaign has no Goblin yet, is plain "Goblin"."""
    if not 1 <= count <= MAX_ENROLLED_AT_ONCE:
        raise InvalidInput(f"enrol 1 to {MAX_ENROLLED_AT_ONCE} at once, not {count}")
    pattern = re.compile(rf"{re.escape(base)} ([1-9][0-9]{{0,5}})")
    names = list(taken)
    numbers = [int(found[1]) for name in names if (found := pattern.fullmatch(name))]
    if count == 1 and not numbers and base not in names:
        return [base]
    highest = max(numbers, default=0)
    return [f"{base} {highest + n}" for n in range(1, count + 1)]
