"""The read side that is not a Redis view: audits, history, `?at=` reads and diffs, all
read from the event store. Route handlers only call these (api/routes/history.py)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import TypedDict
from uuid import UUID

from skald_campaign.application.audit_pages import AuditPages, Mark, Page
from skald_campaign.application.history import event_record, version_at
from skald_campaign.application.redaction import Redaction, redaction_for, written_records
from skald_campaign.application.store import Commands, Store
from skald_campaign.domain import records
from skald_campaign.domain.access import Role
from skald_campaign.domain.encounter.aggregate import Encounter
from skald_campaign.domain.errors import InvalidInput
from skald_campaign.domain.reading import installed
from skald_campaign.domain.reading.recorded import (
    FIELD,
    Recorded,
    recorded_for,
    records_readings,
    touched,
)
from skald_campaign.domain.records import JSON


class Diff(TypedDict):
    """What changed in an encounter between two versions (api/schemas.py DiffOut)."""

    from_version: int
    to_version: int
    round: dict[str, int]
    combatants: dict[str, dict[str, JSON]]
    actions: list[dict[str, JSON]]


class StoreMarks:
    """An aggregate's mark (application/audit_pages.py VersionMarks) in this store: this
    process's saves of it, then the store's position, each taken before what it marks."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def now(self, aggregate_id: UUID) -> Mark:
        return self.store.saves_of(aggregate_id), self.store.store_position()

    def fresh(self, aggregate_id: UUID) -> Mark | None:
        position = self.store.known_position.fresh()
        return None if position is None else (self.store.saves_of(aggregate_id), position)


class Queries(Commands):
    """Reads of the store: a group like the commands, over the same store."""

    def __init__(self, store: Store) -> None:
        super().__init__(store)
        self.pages = AuditPages(store.events, marks=StoreMarks(store))

    def redaction(
        self, campaign_id: UUID, role: Role, replayed: Encounter | None = None
    ) -> Redaction | None:
        """What a key of this role (or a webhook taking its view) may see of the campaign
        (application/redaction.py): None for the GM, who sees everything. Read from the
        campaign as it stands. ``replayed``: a fight read at an earlier version, whose
        NPCs' tracks then are none the fights now hold: its own kept readings word them
        (looked in first, with the open fights)."""
        if role == "gm":
            return None
        campaign = self.store.campaign(campaign_id)

        def written() -> dict[str, Mapping[str, JSON]]:
            fights = [UUID(eid) for eid in campaign.encounters]
            return written_records([event for fight in fights for event in self.history(fight)])

        def fights(open_only: bool) -> list[Encounter]:
            chosen = campaign.open_encounters if open_only else list(campaign.encounters)
            now = [self.store.encounter(campaign_id, UUID(eid)) for eid in chosen]
            return now if replayed is None or not open_only else [replayed, *now]

        return redaction_for(campaign, role, written, fights)

    def history(self, aggregate_id: UUID) -> list[dict[str, JSON]]:
        """Every event of one aggregate, oldest first, as the audit trail shows it."""
        return [event_record(e) for e in self.store.events.get(aggregate_id)]

    def version_at(self, aggregate_id: UUID, at: datetime, what: str) -> int:
        if at.tzinfo is None:
            raise InvalidInput("give the instant with its time zone, e.g. 2026-11-30T18:00:00Z")
        return version_at(self.store.events.get(aggregate_id), at, what)

    def encounter_audit(
        self,
        campaign_id: UUID,
        encounter_id: UUID,
        kind: str | None,
        character: str | None,
        offset: int,
        limit: int,
    ) -> Page:
        index, day = self.pages.encounter_index(campaign_id, encounter_id)
        return self.pages.page(index, kind, character, offset, limit, day)

    def campaign_history(
        self, campaign_id: UUID, kind: str | None, character: str | None, offset: int, limit: int
    ) -> Page:
        index = self.pages.campaign_index(campaign_id)
        return self.pages.page(index, kind, character, offset, limit)

    def encounter_audit_json(
        self,
        campaign_id: UUID,
        encounter_id: UUID,
        kind: str | None,
        character: str | None,
        offset: int,
        limit: int,
    ) -> bytes:
        """``encounter_audit`` as the API's answer model (AuditPage) writes it."""
        index, _ = self.pages.encounter_index(campaign_id, encounter_id)
        return self.pages.page_json(index, kind, character, offset, limit)

    def campaign_history_json(
        self, campaign_id: UUID, kind: str | None, character: str | None, offset: int, limit: int
    ) -> bytes:
        """``campaign_history`` as the API's answer model (AuditPage) writes it."""
        index = self.pages.campaign_index(campaign_id)
        return self.pages.page_json(index, kind, character, offset, limit)

    def kept_encounter_audit_json(
        self, campaign_id: UUID, encounter_id: UUID, offset: int, limit: int
    ) -> bytes | None:
        """``encounter_audit_json`` unfiltered, from memory alone; None when anything
        would be read from the store (the route then answers)."""
        index = self.pages.kept_encounter_index(campaign_id, encounter_id)
        return (
            None if index is None else self.pages.kept_page_json(index, encounter_id, offset, limit)
        )

    def kept_campaign_history_json(
        self, campaign_id: UUID, offset: int, limit: int
    ) -> bytes | None:
        """``campaign_history_json`` unfiltered, from memory alone, or None."""
        index = self.pages.kept_campaign_index(campaign_id)
        return (
            None if index is None else self.pages.kept_page_json(index, campaign_id, offset, limit)
        )

    def vitals_at(self, campaign_id: UUID, at: datetime) -> dict[str, JSON]:
        """Every character's tracks and conditions as they stood at an instant."""
        store = self.store
        campaign = store.campaign(campaign_id, self.version_at(campaign_id, at, "campaign"))
        # The ruleset installed (None: not installed), looked for only if some character's
        # last change was stored before the readings were recorded.
        asked = installed.Asked(campaign.ruleset_id, campaign.options)
        # What the events up to then recorded of the rules (issue 38): the rules are asked
        # only of a character whose last change was stored before they were recorded.
        on_campaign = self.readings(campaign_id, campaign.version)
        encounters: dict[str, tuple[Encounter, dict[str, Recorded | None]]] = {}
        characters: list[JSON] = []
        for character_id, character in campaign.characters.items():
            source: records.Character | records.Combatant = character
            kept = on_campaign.get(character_id)
            encounter_id = character.in_encounter
            if encounter_id is not None:
                if encounter_id not in encounters:
                    eid = UUID(encounter_id)
                    fight = store.encounter(campaign_id, eid, self.version_at(eid, at, "encounter"))
                    encounters[encounter_id] = (fight, self.readings(eid, fight.version))
                fight, on_fight = encounters[encounter_id]
                source = fight.combatants[character_id]
                changed = on_fight.get(character_id)
            else:
                changed = kept
            # The campaign's sheet's maxima (a GM's change in the fight is its own until
            # the fight ends); the conditions of the tracks and state read.
            if kept is not None:
                maxima: Mapping[str, int] = kept.maxima
            else:
                rules = asked.rules()
                maxima = {} if rules is None else rules.track_maxima(character.sheet)
            if changed is not None:
                conditions = changed.conditions
            else:
                rules = asked.rules()
                conditions = (
                    []
                    if rules is None
                    else list(rules.conditions(character.sheet, source.tracks, source.state))
                )
            characters.append(
                {
                    "id": character_id,
                    "name": character.name,
                    "tracks": {
                        t: {"current": v, "max": maxima.get(t)} for t, v in source.tracks.items()
                    },
                    "conditions": conditions,
                    "encounter": encounter_id,
                }
            )
        return {
            "campaign_id": str(campaign_id),
            "at": at.isoformat(),
            "day": campaign.day,
            "campaign_version": campaign.version,
            "characters": characters,
        }

    def readings(self, aggregate_id: UUID, version: int) -> dict[str, Recorded | None]:
        """Each character's readings as the last event up to ``version`` that changed it
        recorded them (domain/reading/recorded.py); None where that event was stored
        before they were."""
        return last_readings(self.store.events.get(aggregate_id, lte=version))

    def encounter_diff(
        self, campaign_id: UUID, encounter_id: UUID, from_version: int, to_version: int | None
    ) -> Diff:
        """What changed between two versions: tracks, conditions, round and action statuses."""
        before = self.store.encounter(campaign_id, encounter_id, from_version)
        after = self.store.encounter(campaign_id, encounter_id, to_version)
        read_before = self.readings(encounter_id, before.version)
        read_after = self.readings(encounter_id, after.version)
        combatants: dict[str, dict[str, JSON]] = {}
        # A combatant who joined between the two versions is in one of them only (either
        # way round: `from` may be the later version); it is named with its presence.
        only_before = [c for c in before.combatants if c not in after.combatants]
        for cid in [*after.combatants, *only_before]:
            then, now = before.combatants.get(cid), after.combatants.get(cid)
            if then is None or now is None:
                present = now or then
                assert present is not None
                combatants[cid] = {
                    "name": present.name,
                    "presence": {"from": then is not None, "to": now is not None},
                    "tracks": {
                        "from": None if then is None else then.tracks,
                        "to": None if now is None else now.tracks,
                    },
                }
                continue
            change: dict[str, JSON] = {}
            if then.tracks != now.tracks:
                change["tracks"] = {"from": then.tracks, "to": now.tracks}
            was = conditions_of(before, cid, read_before.get(cid))
            is_ = conditions_of(after, cid, read_after.get(cid))
            if was != is_:
                change["conditions"] = {"from": was, "to": is_}
            if then.state != now.state:
                change["state"] = {"from": then.state, "to": now.state}
            if change:
                combatants[cid] = {"name": now.name, **change}
        old = {a.number: a for a in before.actions}
        actions: list[dict[str, JSON]] = []
        for action in after.actions:
            previous = old.get(action.number)
            if previous is None:
                actions.append(
                    {
                        "number": action.number,
                        "change": "added",
                        "status": action.status,
                        "summary": action.summary,
                    }
                )
            elif (previous.status, previous.summary) != (action.status, action.summary):
                actions.append(
                    {
                        "number": action.number,
                        "change": "changed",
                        "status": {"from": previous.status, "to": action.status},
                        "summary": {"from": previous.summary, "to": action.summary},
                    }
                )
        return {
            "from_version": before.version,
            "to_version": after.version,
            "round": {"from": before.round, "to": after.round},
            "combatants": combatants,
            "actions": actions,
        }


def conditions_of(encounter: Encounter, combatant_id: str, kept: Recorded | None) -> list[str]:
    """A combatant's conditions: as the last event that changed it recorded them; else
    the ruleset installed's (none when it is not installed)."""
    if kept is not None:
        return kept.conditions
    c = encounter.combatants[combatant_id]
    return installed.conditions(encounter.ruleset_id, c.sheet, c.tracks, c.state, encounter.options)


def last_readings(events: Iterable[object]) -> dict[str, Recorded | None]:
    """Each character's readings as the last of ``events`` that changed it recorded them
    (None: that event was stored before they were recorded)."""
    found: dict[str, Recorded | None] = {}
    for event in events:
        if records_readings(type(event)):
            recorded = getattr(event, FIELD)
            for character_id in touched(vars(event)):
                found[character_id] = recorded_for(recorded, character_id)
    return found
