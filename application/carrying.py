"""Corrections past the end of a fight, and of a day already healed: preview, then commit.

The walk (domain/timeline.py) works out what the correction changes through the
whole campaign; the preview returns it and writes nothing; the commit records
it as events on every aggregate it touches (the corrected encounter, every
later encounter it reached, the campaign) in one transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

from skald_campaign.application.carry_preview import CarriedRecord, CarryPreview, Preview, summarise
from skald_campaign.application.commands import CorrectDayPlan, CorrectEncounter
from skald_campaign.application.store import Commands
from skald_campaign.domain.campaign.aggregate import Campaign
from skald_campaign.domain.campaign.calendar import DayPlans
from skald_campaign.domain.encounter.aggregate import Encounter
from skald_campaign.domain.errors import ActionRefused, InvalidInput, NotFound
from skald_campaign.domain.play.corrections import (
    ACTIVE,
    VOID,
    Reroll,
    Step,
    correction_plan,
    rewind_plan,
)
from skald_campaign.domain.play.gm_changes import GM_KINDS
from skald_campaign.domain.reasons import check_reason
from skald_campaign.domain.records import JSON, JSONObject, Sheet, State, Tracks, as_object
from skald_campaign.domain.validation import validate
from skald_campaign.domain.walk import Seed, Walk, events_of

Carried = tuple[Campaign, list[Encounter], Walk, CarryPreview]
Bounds = type[Campaign.EncounterOpened] | type[Campaign.EncounterClosed]


class Carrying(Commands):
    """Corrections of an ended fight, and of a day's plan, carried through the campaign."""

    def last_correction_carried(
        self, campaign_id: UUID, version: int | None = None
    ) -> CarriedRecord:
        """The record of the campaign's latest carried correction (up to ``version``):
        what a retried commit of a day plan answers again."""
        events = self.store.events.get(campaign_id, lte=version)
        carried = list(events_of(events, Campaign.CorrectionCarried))
        if not carried:
            raise NotFound(f"campaign {campaign_id} has carried no correction")
        return CarriedRecord.from_json(carried[-1].correction)

    # -- working it out -----------------------------------------------------------

    @staticmethod
    def _version_of(
        campaign_events: Sequence[object], cls: Bounds, encounter_id: str
    ) -> int | None:
        for event in events_of(campaign_events, cls):
            if event.encounter_id == encounter_id:
                return int(event.originator_version)
        return None

    def _encounter_seed(
        self, campaign: Campaign, command: CorrectEncounter
    ) -> tuple[Seed, Encounter, int]:
        encounter = self.store.encounter(command.campaign_id, command.encounter_id)
        eid = str(encounter.id)
        events = self.store.campaign_events(campaign)
        closed = self._version_of(events, Campaign.EncounterClosed, eid)
        start = closed or self._version_of(events, Campaign.EncounterOpened, eid) or 1
        if command.kind == "rewind":
            if command.to_version is None:
                raise InvalidInput("a rewind names the version to go back to")
            past = self.store.encounter(
                command.campaign_id, command.encounter_id, command.to_version
            )
            if past.version >= encounter.version:
                raise InvalidInput(
                    f"rewind needs an earlier version than the current {encounter.version}, "
                    f"not {past.version}"
                )
            records, plan = rewind_plan(past.actions, encounter.actions)
            return Seed(start, eid, plan, records), encounter, past.round
        if command.number is None:
            raise InvalidInput(f"a {command.kind} names the action's number")
        record = encounter.action(command.number)
        if record.status != ACTIVE:
            raise ActionRefused(f"action {command.number} is already {record.status}")
        if command.kind == "void":
            change: Step = VOID
        elif command.kind == "reroll":
            if record.kind in GM_KINDS:
                raise ActionRefused(f"action {command.number} is the GM's change, with no dice")
            change = Reroll(command.dice)
        else:
            raise InvalidInput(f"a correction is void, reroll or rewind, not '{command.kind}'")
        return Seed(start, eid, correction_plan(command.number, change)), encounter, encounter.round

    def _work_out(
        self, campaign: Campaign, seed: Seed, salt: str, correction: JSONObject
    ) -> Carried:
        found, encounters = self.store._walk(campaign, seed, salt)
        preview = summarise(campaign, found, encounters, correction)
        touched = [encounters[eid] for eid in found.encounters]
        return campaign, touched, found, preview

    # -- encounters ---------------------------------------------------------------------

    def preview_correction(self, command: CorrectEncounter) -> Preview:
        """What a correction would change through the whole campaign; nothing is written."""
        campaign = self.store.campaign(command.campaign_id)
        seed, _, _ = self._encounter_seed(campaign, command)
        correction = self._correction(command, command.reason.strip() or None)
        return self._work_out(campaign, seed, _salt(command), correction)[3].as_json()

    def commit_correction(self, command: CorrectEncounter) -> tuple[Encounter, Preview]:
        """Commit a correction of an ended encounter and everything it carries, atomically."""
        reason = check_reason(command.reason)

        def attempt() -> tuple[Encounter, Preview]:
            self.store.decides_on(self.store.encounter(command.campaign_id, command.encounter_id))
            return self.carry(command, reason)

        return self.store.run_command(attempt)

    def carry(self, command: CorrectEncounter, reason: str) -> tuple[Encounter, Preview]:
        """One attempt at committing an ended encounter's correction (run it on the writer,
        application/corrections.py): the corrected encounter and the preview it carried."""
        campaign = self.store.campaign(command.campaign_id)
        seed, corrected, round = self._encounter_seed(campaign, command)
        correction = self._correction(command, reason)
        _, touched, found, preview = self._work_out(campaign, seed, _salt(command), correction)
        if preview.changes_nothing:
            raise ActionRefused(preview.message)
        carried = {**correction, "carried": preview.recorded_as_json()}
        eid = str(corrected.id)
        result = found.encounters[eid]
        corrected.correct_after_end(
            {**correction, "report": result.replayed.report},
            result.replayed.records,
            result.replayed.combatants,
            round,
        )
        others = [e for e in touched if str(e.id) != eid]
        for other in others:
            mine = found.encounters[str(other.id)]
            other.recompute(
                {**correction, "report": mine.replayed.report},
                mine.initial,
                mine.replayed.records,
                mine.replayed.combatants,
            )
        tracks, state, sheets = _roster_now(campaign, found)
        steps = found.step_results
        campaign.carry_correction(carried, steps, tracks, state, sheets, {}, command.by)
        self.store.save(corrected, *others, campaign)
        return corrected, preview.as_json()

    @staticmethod
    def _correction(command: CorrectEncounter, reason: str | None) -> dict[str, JSON]:
        correction: dict[str, JSON] = {
            "kind": command.kind,
            "encounter_id": str(command.encounter_id),
            "reason": reason,
            "by": command.by,
            "after_end": True,
        }
        if command.kind == "rewind":
            correction["to_version"] = command.to_version
        else:
            correction["number"] = command.number
        return correction

    # -- day plans --------------------------------------------------------------------------

    def _plan_seed(
        self, campaign: Campaign, command: CorrectDayPlan
    ) -> tuple[Seed, dict[str, DayPlans]]:
        character = campaign.character(command.character_id)
        model = campaign.rules.day_plan_model
        if model is None:
            raise InvalidInput(f"the {campaign.ruleset_id} ruleset has no day plans")
        day_plans = campaign.plans_on(command.day)
        if command.character_id not in day_plans:
            raise NotFound(f"day {command.day} has no plan for {character.name}")
        current = day_plans[command.character_id]
        plan = as_object(
            validate(model, {**current, **command.plan}, "plan").model_dump(mode="json")
        )
        events = self.store.campaign_events(campaign)
        healed = next(
            (
                int(e.originator_version)
                for e in events_of(events, Campaign.CharacterHealed)
                if e.character_id == command.character_id and e.day == command.day
            ),
            campaign.version + 1,  # not healed yet: the worker will use the new plan
        )
        plans: dict[str, DayPlans] = {str(command.day): {command.character_id: plan}}
        return Seed(healed, plans=plans), plans

    def preview_day_plan(self, command: CorrectDayPlan) -> Preview:
        campaign = self.store.campaign(command.campaign_id)
        seed, _ = self._plan_seed(campaign, command)
        correction = self._plan_correction(command, command.reason.strip() or None)
        return self._work_out(campaign, seed, _plan_salt(command), correction)[3].as_json()

    def commit_day_plan(self, command: CorrectDayPlan) -> tuple[Campaign, Preview]:
        reason = check_reason(command.reason)

        def attempt() -> tuple[Campaign, Preview]:
            campaign = self.store.campaign(command.campaign_id)
            self.store.decides_on(campaign)
            seed, plans = self._plan_seed(campaign, command)
            correction = self._plan_correction(command, reason)
            _, touched, found, preview = self._work_out(
                campaign, seed, _plan_salt(command), correction
            )
            same_plan = (
                campaign.plans_on(command.day)[command.character_id]
                == plans[str(command.day)][command.character_id]
            )
            if same_plan:
                raise ActionRefused(
                    f"day {command.day}'s plan is already that: this correction changes nothing"
                )
            carried = {**correction, "carried": preview.recorded_as_json()}
            for other in touched:
                mine = found.encounters[str(other.id)]
                other.recompute(
                    {**correction, "report": mine.replayed.report},
                    mine.initial,
                    mine.replayed.records,
                    mine.replayed.combatants,
                )
            tracks, state, sheets = _roster_now(campaign, found)
            steps = found.step_results
            campaign.carry_correction(carried, steps, tracks, state, sheets, plans, command.by)
            self.store.save(campaign, *touched)
            return campaign, preview.as_json()

        return self.store.run_command(attempt)

    @staticmethod
    def _plan_correction(command: CorrectDayPlan, reason: str | None) -> dict[str, JSON]:
        return {
            "kind": "day_plan",
            "day": command.day,
            "character_id": command.character_id,
            "plan": command.plan,
            "reason": reason,
            "by": command.by,
        }


def _salt(command: CorrectEncounter) -> str:
    return f"{command.encounter_id}:{command.kind}:{command.number}:{command.to_version}"


def _plan_salt(command: CorrectDayPlan) -> str:
    return f"plan:{command.day}:{command.character_id}"


def _roster_now(
    campaign: Campaign, found: Walk
) -> tuple[dict[str, Tracks], dict[str, State], dict[str, Sheet]]:
    """Every character's tracks, state and sheet after the carry, but those an open
    encounter holds (the encounter's own event carries theirs)."""
    free = [
        (cid, e) for cid, e in found.roster.items() if campaign.characters[cid].in_encounter is None
    ]
    return (
        {cid: entry.tracks for cid, entry in free},
        {cid: entry.state for cid, entry in free},
        {cid: entry.sheet for cid, entry in free},
    )
