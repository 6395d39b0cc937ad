"""A campaign's bestiary (domain/bestiary.py): the GM saves sheets, changes and removes
them, and enrols "3 x Goblin" from one as Goblin 1, Goblin 2 and Goblin 3.

Every sheet is validated by the campaign's ruleset (its options included) before it is
saved, as an enrolment's is: a bad field is refused with a 422 naming it, and nothing
is written. An enrolment from the bestiary is one write of the campaign: all of the
pack or none of it.

A saved encounter (issue 36) is set up in one write too: each of its lines enrolled as
a numbered pack, and a new encounter opened with them (and whoever else the GM brings,
the party), or nothing at all.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError

from skald_campaign.application.commands import Combatant
from skald_campaign.application.encounters import check_combatants, open_encounter
from skald_campaign.application.store import Commands
from skald_campaign.domain.bestiary import (
    BestiaryEntry,
    CampaignBestiary,
    SavedEncounter,
    SavedFoes,
    numbered,
)
from skald_campaign.domain.campaign.aggregate import Campaign
from skald_campaign.domain.campaign.roster import check_name
from skald_campaign.domain.encounter.aggregate import Encounter
from skald_campaign.domain.errors import NotFound
from skald_campaign.domain.records import JSONObject


@dataclass(frozen=True)
class SaveToBestiary:
    campaign_id: UUID
    name: str
    sheet: JSONObject
    by: str
    entry_id: str | None = None  # None: a new entry


@dataclass(frozen=True)
class EnrolFromBestiary:
    campaign_id: UUID
    entry_id: str
    count: int
    by: str
    name: str | None = None  # the characters' base name; None: the entry's


@dataclass(frozen=True)
class SaveEncounter:
    campaign_id: UUID
    name: str
    foes: tuple[SavedFoes, ...]
    by: str


@dataclass(frozen=True)
class SetUpSavedEncounter:
    campaign_id: UUID
    saved_id: str
    by: str
    name: str | None = None  # the encounter's; None: the saved encounter's
    party: tuple[Combatant, ...] = ()  # who else takes part (the PCs)


class BestiaryCommands(Commands):
    def campaign_bestiary(self, campaign_id: UUID) -> CampaignBestiary | None:
        try:
            found: object = self.store.repository.get(CampaignBestiary.create_id(campaign_id))
        except AggregateNotFoundError:
            return None
        return found if isinstance(found, CampaignBestiary) else None

    def bestiary_entry(self, campaign_id: UUID, entry_id: str) -> BestiaryEntry:
        bestiary = self.campaign_bestiary(campaign_id)
        if bestiary is None:
            raise NotFound(f"no bestiary entry {entry_id} in campaign {campaign_id}")
        return bestiary.entry(entry_id)

    def bestiary_entries(self, campaign_id: UUID) -> list[BestiaryEntry]:
        """The entries by name (any case), as the GM's list shows them."""
        bestiary = self.campaign_bestiary(campaign_id)
        found = list(bestiary.entries.values()) if bestiary is not None else []
        return sorted(found, key=lambda entry: (entry.name.casefold(), entry.id))

    def save_to_bestiary(self, command: SaveToBestiary) -> BestiaryEntry:
        c = command
        new_id = str(uuid.uuid4())

        def attempt() -> BestiaryEntry:
            sheet = self.store.campaign(c.campaign_id).rules.validate_sheet(c.sheet)
            bestiary = self.campaign_bestiary(c.campaign_id)
            if c.entry_id is not None:
                if bestiary is None:
                    raise NotFound(f"no bestiary entry {c.entry_id} in campaign {c.campaign_id}")
                saved = bestiary.update(c.entry_id, c.name, sheet, c.by)
            else:
                bestiary = bestiary or CampaignBestiary(c.campaign_id)
                saved = bestiary.add(new_id, c.name, sheet, c.by)
            self.store.save(bestiary)
            return saved

        return self.store.run_command(attempt)

    def remove_from_bestiary(self, campaign_id: UUID, entry_id: str, by: str) -> None:
        def attempt() -> None:
            bestiary = self.campaign_bestiary(campaign_id)
            if bestiary is None:
                raise NotFound(f"no bestiary entry {entry_id} in campaign {campaign_id}")
            bestiary.remove(entry_id, by)
            self.store.save(bestiary)

        self.store.run_command(attempt)

    def enrol_from_bestiary(self, command: EnrolFromBestiary) -> tuple[Campaign, list[str]]:
        """Enrol `count` NPCs with the entry's sheet; the campaign and their ids."""
        c = command
        name = check_name(c.name, "name") if c.name is not None else None  # nothing read yet

        def attempt() -> tuple[Campaign, list[str]]:
            entry = self.bestiary_entry(c.campaign_id, c.entry_id)
            campaign = self.store.campaign(c.campaign_id)
            self.store.decides_on(campaign)
            taken = [character.name for character in campaign.characters.values()]
            base = name if name is not None else entry.name
            names = numbered(base, c.count, taken)
            ids = [campaign.enrol(name, entry.sheet, c.by, True, None) for name in names]
            self.store.save(campaign)
            return campaign, ids

        return self.store.run_command(attempt)

    # -- saved encounters ---------------------------------------------------------------

    def saved_encounters(self, campaign_id: UUID) -> list[SavedEncounter]:
        """The saved encounters by name (any case), as the GM's list shows them."""
        bestiary = self.campaign_bestiary(campaign_id)
        found = list(bestiary.encounters.values()) if bestiary is not None else []
        return sorted(found, key=lambda saved: (saved.name.casefold(), saved.id))

    def save_encounter(self, command: SaveEncounter) -> SavedEncounter:
        c = command
        new_id = str(uuid.uuid4())

        def attempt() -> SavedEncounter:
            self.store.campaign(c.campaign_id)  # a campaign that is not: 404, as elsewhere
            bestiary = self.campaign_bestiary(c.campaign_id) or CampaignBestiary(c.campaign_id)
            saved = bestiary.save_encounter(new_id, c.name, c.foes, c.by)
            self.store.save(bestiary)
            return saved

        return self.store.run_command(attempt)

    def unsave_encounter(self, campaign_id: UUID, saved_id: str, by: str) -> None:
        def attempt() -> None:
            bestiary = self.campaign_bestiary(campaign_id)
            if bestiary is None:
                raise NotFound(f"no saved encounter {saved_id} in campaign {campaign_id}")
            bestiary.unsave_encounter(saved_id, by)
            self.store.save(bestiary)

        self.store.run_command(attempt)

    def set_up_saved_encounter(self, command: SetUpSavedEncounter) -> Encounter:
        """Enrol each line of the saved encounter as a numbered pack of NPCs (Goblin 4-6
        when the campaign has Goblin 1-3) and open a new encounter with them and the
        party: one write, the encounter first (it answers the request)."""
        c = command
        if c.party:  # checked before anything is read (the foes are checked with them below)
            check_combatants(c.party)
        name = check_name(c.name, "encounter name") if c.name is not None else None

        def attempt() -> Encounter:
            bestiary = self.campaign_bestiary(c.campaign_id)
            if bestiary is None:
                raise NotFound(f"no saved encounter {c.saved_id} in campaign {c.campaign_id}")
            saved = bestiary.saved_encounter(c.saved_id)
            campaign = self.store.campaign(c.campaign_id)
            taken = [character.name for character in campaign.characters.values()]
            foes: list[Combatant] = []
            for line in saved.foes:
                entry = bestiary.entry(line.entry_id)
                for foe in numbered(entry.name, line.count, taken):
                    taken.append(foe)
                    foe_id = campaign.enrol(foe, entry.sheet, c.by, True, None)
                    foes.append(Combatant(foe_id, line.side, line.rank))
            combatants = [*c.party, *foes]
            check_combatants(combatants)
            encounter = open_encounter(campaign, name or saved.name, combatants, c.by)
            self.store.save(encounter, campaign)
            return encounter

        return self.store.run_command(attempt)
