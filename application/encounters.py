"""Commands of a fight's course: opening it, actions, rounds, ending it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import TypeVar

from skald_campaign.application.commands import Combatant as CommandCombatant
from skald_campaign.application.commands import (
    EndEncounter,
    NextRound,
    PerformAction,
    StartEncounter,
)
from skald_campaign.application.store import Commands
from skald_campaign.domain.campaign.aggregate import Campaign, check_name
from skald_campaign.domain.encounter.aggregate import Encounter
from skald_campaign.domain.encounter.commands import refuse_for_role
from skald_campaign.domain.errors import InvalidInput
from skald_campaign.domain.reading.visibility import refuse_hidden_roll
from skald_campaign.domain.records import Combatant, JSONObject

MAX_COMBATANTS = 50
R = TypeVar("R")


def check_combatants(combatants: Sequence[CommandCombatant]) -> None:
    """What an encounter's combatants must be, checked before anything is read."""
    if not combatants:
        raise InvalidInput("an encounter needs at least one combatant")
    if len(combatants) > MAX_COMBATANTS:
        raise InvalidInput(f"at most {MAX_COMBATANTS} combatants may take part")
    ids = [c.character_id for c in combatants]
    if len(set(ids)) != len(ids):
        raise InvalidInput("a character may appear only once among the combatants")
    for c in combatants:
        if c.side is not None:
            check_name(c.side, "side")
        if not 1 <= c.rank <= 20:
            raise InvalidInput(f"rank must be between 1 (the front) and 20, not {c.rank}")


def default_side(npc: bool) -> str:
    """A combatant's side when none is given: an NPC is a foe, as other trackers have it
    (issue 36: the bestiary's foes came on the party's side), a PC is of the party."""
    return "foes" if npc else "party"


def open_encounter(
    campaign: Campaign, name: str, combatants: Sequence[CommandCombatant], by: str
) -> Encounter:
    """A new encounter of these combatants, opened on the campaign (both to be saved
    together, the encounter first: it answers the request)."""
    ids = [c.character_id for c in combatants]
    # Owed heals first, saved with the opening: the encounter starts from them.
    campaign.heal_before_joining(ids)
    fighting = {}
    for c in combatants:
        character = campaign.character(c.character_id)
        side = c.side.strip() if c.side is not None else default_side(character.npc)
        fighting[c.character_id] = Combatant(
            character.name,
            side,
            c.rank,
            character.sheet,
            dict(character.tracks),
            dict(character.state),
        ).as_json()
    encounter = Encounter(
        campaign.id,
        name,
        campaign.ruleset_id,
        campaign.options,
        fighting,
        by,
        campaign.day,
    )
    encounter.note_readings()  # the Started event's, as the other events' are recorded
    campaign.open_encounter(str(encounter.id), name, ids)
    return encounter


class EncounterCommands(Commands):
    def start_encounter(self, command: StartEncounter) -> Encounter:
        check_combatants(command.combatants)
        name = check_name(command.name, "encounter name")

        def attempt() -> Encounter:
            campaign = self.store.campaign(command.campaign_id)
            encounter = open_encounter(campaign, name, command.combatants, command.by)
            self.store.save(encounter, campaign)
            return encounter

        return self.store.run_command(attempt)

    def perform_action(self, command: PerformAction) -> tuple[Encounter, JSONObject]:
        return self.store.run_command(self._performing(command))

    def perform_action_later(self, command: PerformAction) -> Future[tuple[Encounter, JSONObject]]:
        """`perform_action` queued for the writer: an async route awaits its future."""
        return self.store.run_command_later(self._performing(command))

    def perform_action_answered(
        self, command: PerformAction, answer: Callable[[Encounter], R]
    ) -> Future[R]:
        """`perform_action_later`, answered by `answer(encounter)` made on the writer right
        after the action (so the encounter is not copied for the caller)."""
        return self.store.run_command_answered(
            self._performing(command), lambda done: answer(done[0])
        )

    def _performing(self, command: PerformAction) -> Callable[[], tuple[Encounter, JSONObject]]:
        def act(encounter: Encounter) -> JSONObject:
            if command.hidden:
                campaign = self.store.campaign(command.campaign_id)
                refuse_hidden_roll(command.actor, campaign.characters)
            return encounter.act(
                command.kind,
                command.actor,
                command.params,
                command.dice,
                self.store.roller,
                command.by,
                role=command.role,
                override_reason=command.override_reason,
                hidden=command.hidden,
            )

        def permitted(encounter: Encounter) -> None:
            c = command
            refuse_for_role(encounter, c.kind, c.params, c.role, c.override_reason)

        return self.changing_encounter(command.campaign_id, command.encounter_id, act, permitted)

    def next_round(self, command: NextRound) -> Encounter:
        return self.change_encounter(
            command.campaign_id,
            command.encounter_id,
            lambda e: e.next_round(command.by, self.store.roller, command.dice),
        )

    def end_encounter(self, command: EndEncounter) -> Encounter:
        def attempt() -> Encounter:
            encounter = self.store.encounter(command.campaign_id, command.encounter_id)
            self.store.decides_on(encounter)
            campaign = self.store.campaign(command.campaign_id)
            encounter.end(command.by, command.reason)
            campaign.carry_over(
                str(encounter.id),
                {cid: dict(c.tracks) for cid, c in encounter.combatants.items()},
                {cid: dict(c.state) for cid, c in encounter.combatants.items()},
                command.by,
                {cid: c.sheet for cid, c in encounter.combatants.items()},
            )
            self.store.save(encounter, campaign)
            return encounter

        return self.store.run_command(attempt)
