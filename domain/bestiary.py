"""A campaign's bestiary: the sheets its GM saved to enrol again ("3 x Goblin", issue
23), as an aggregate of its own (one per campaign, its id derived from the campaign's,
as the webhooks' is), so saving a sheet never contends with the campaign's own writes
and the bestiary's history is kept as events.

A sheet is validated by the campaign's ruleset before it is saved
(application/bestiary.py) and kept as the JSON the ruleset wrote, every default
written out, so an enrolment from it is the enrolment of that very sheet. The
bestiary is the GM's preparation, not the campaign's story: the views, the audit and
the open feed leave its events aside (domain/events.py, NOT_A_CAMPAIGNS).

It also keeps the GM's saved encounters (issue 36): a named group of foes, each line
"N x an entry, at a rank, on a side", set up again in one action (enrolled and put in a
new encounter together, application/bestiary.py). A saved encounter names its entries by
id, so an entry it uses cannot be removed while it does.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate, event

from skald_campaign.domain.campaign.roster import check_name
from skald_campaign.domain.errors import ActionRefused, InvalidInput, NotFound
from skald_campaign.domain.records import JSON, Record, Sheet, as_int, as_object, as_str

# The namespace of the bestiary aggregates' ids (uuid5 of the campaign's id): fixed forever.
BESTIARY_NAMESPACE = UUID("3c9a7e52-1d84-4b6f-8e2a-7f51c0d9b4e3")
MAX_ENTRIES = 200  # a GM's shelf of foes, not a monster manual
MAX_ENROLLED_AT_ONCE = 20  # "20 x Goblin" at most in one go
MAX_SAVED_ENCOUNTERS = 100
MAX_FOE_LINES = 20  # lines of one saved encounter ("3 x Goblin at rank 1", ...)
MAX_SAVED_FOES = 50  # foes of one saved encounter, all lines together: an encounter's most
MAX_RANK = 20


class BestiaryEntry(Record, frozen=True):
    id: str
    name: str
    sheet: Sheet


class SavedFoes(Record, frozen=True):
    """One line of a saved encounter: `count` foes of a bestiary entry, at a rank, on a side."""

    entry_id: str
    count: int
    rank: int
    side: str

    @classmethod
    def from_json(cls, stored: Mapping[str, JSON]) -> SavedFoes:
        return cls(
            entry_id=as_str(stored["entry_id"]),
            count=as_int(stored["count"]),
            rank=as_int(stored["rank"]),
            side=as_str(stored["side"]),
        )

    def as_json(self) -> dict[str, JSON]:
        return {
            "entry_id": self.entry_id,
            "count": self.count,
            "rank": self.rank,
            "side": self.side,
        }


class SavedEncounter(Record, frozen=True):
    id: str
    name: str
    foes: tuple[SavedFoes, ...]


class CampaignBestiary(Aggregate):
    TOPIC = "domain.bestiary:CampaignBestiary"

    # Not recorded by Skald (the library defines it on every aggregate); named so its
    # topic is explicit like every other class here.
    class Created(Aggregate.Created):
        TOPIC = "domain.bestiary:CampaignBestiary.Created"

    @staticmethod
    def create_id(campaign_id: UUID) -> UUID:
        return uuid5(BESTIARY_NAMESPACE, str(campaign_id))

    class Opened(Aggregate.Created):
        TOPIC = "domain.bestiary:CampaignBestiary.Opened"
        campaign_id: UUID

    @event(Opened)
    def __init__(self, campaign_id: UUID) -> None:
        self.campaign_id = campaign_id
        self.entries: dict[str, BestiaryEntry] = {}
        self.encounters: dict[str, SavedEncounter] = {}

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
        TOPIC = "domain.bestiary:CampaignBestiary.Added"
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
        TOPIC = "domain.bestiary:CampaignBestiary.Updated"
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
        TOPIC = "domain.bestiary:CampaignBestiary.Removed"
        entry_id: str
        by: str

    def remove(self, entry_id: str, by: str) -> None:
        entry = self.entry(entry_id)
        for saved in self.encounters.values():
            if any(line.entry_id == entry_id for line in saved.foes):
                raise ActionRefused(
                    f"{entry.name} is in the saved encounter {saved.name}: remove that "
                    "encounter first (or save it without them)"
                )
        self._removed(entry_id, by)

    @event(Removed)
    def _removed(self, entry_id: str, by: str) -> None:
        del self.entries[entry_id]

    # -- saved encounters (issue 36) ------------------------------------------------------

    def saved_encounter(self, saved_id: str) -> SavedEncounter:
        found = self.encounters.get(saved_id)
        if found is None:
            raise NotFound(f"no saved encounter {saved_id} in campaign {self.campaign_id}")
        return found

    class EncounterSaved(Aggregate.Event):
        TOPIC = "domain.bestiary:CampaignBestiary.EncounterSaved"
        saved_id: str
        name: str
        foes: list[dict[str, JSON]]
        by: str

    def save_encounter(
        self, saved_id: str, name: str, foes: Sequence[SavedFoes], by: str
    ) -> SavedEncounter:
        """Save a group of foes under a name (one saved encounter per name, any case)."""
        if len(self.encounters) >= MAX_SAVED_ENCOUNTERS:
            raise ActionRefused(f"a bestiary holds at most {MAX_SAVED_ENCOUNTERS} saved encounters")
        cleaned = check_name(name, "a saved encounter's name")
        for other in self.encounters.values():
            if other.name.casefold() == cleaned.casefold():
                raise ActionRefused(
                    f"the bestiary already has a saved encounter named {other.name}"
                )
        if not 1 <= len(foes) <= MAX_FOE_LINES:
            raise InvalidInput(f"a saved encounter has 1 to {MAX_FOE_LINES} lines of foes")
        lines = [self._checked_line(n, line) for n, line in enumerate(foes)]
        total = sum(line.count for line in lines)
        if total > MAX_SAVED_FOES:
            raise InvalidInput(f"a saved encounter has at most {MAX_SAVED_FOES} foes, not {total}")
        self._encounter_saved(saved_id, cleaned, [line.as_json() for line in lines], by)
        return self.encounters[saved_id]

    def _checked_line(self, n: int, line: SavedFoes) -> SavedFoes:
        if line.entry_id not in self.entries:
            raise InvalidInput(f"foes[{n}]: no bestiary entry {line.entry_id} in this campaign")
        if not 1 <= line.count <= MAX_ENROLLED_AT_ONCE:
            raise InvalidInput(f"foes[{n}]: count is 1 to {MAX_ENROLLED_AT_ONCE}, not {line.count}")
        if not 1 <= line.rank <= MAX_RANK:
            raise InvalidInput(f"foes[{n}]: rank is 1 (the front) to {MAX_RANK}, not {line.rank}")
        return SavedFoes(line.entry_id, line.count, line.rank, check_name(line.side, "side"))

    @event(EncounterSaved)
    def _encounter_saved(
        self, saved_id: str, name: str, foes: list[dict[str, JSON]], by: str
    ) -> None:
        lines = tuple(SavedFoes.from_json(as_object(line)) for line in foes)
        self.encounters[saved_id] = SavedEncounter(saved_id, name, lines)

    class EncounterUnsaved(Aggregate.Event):
        TOPIC = "domain.bestiary:CampaignBestiary.EncounterUnsaved"
        saved_id: str
        by: str

    def unsave_encounter(self, saved_id: str, by: str) -> None:
        self.saved_encounter(saved_id)
        self._encounter_unsaved(saved_id, by)

    @event(EncounterUnsaved)
    def _encounter_unsaved(self, saved_id: str, by: str) -> None:
        del self.encounters[saved_id]


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
