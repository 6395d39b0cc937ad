"""The Campaign aggregate: ruleset and options, roster, calendar and open encounters."""

from __future__ import annotations

from typing import Any
from uuid import uuid4

from eventsourcing.domain import Aggregate, event

from domain.errors import ActionRefused, InvalidInput, NotFound
from domain.rulesets import get_ruleset
from domain.rulesets.base import Ruleset

MAX_NAME = 120


def check_name(name: str, what: str) -> str:
    cleaned = name.strip()
    if not cleaned:
        raise InvalidInput(f"{what} must not be empty")
    if len(cleaned) > MAX_NAME:
        raise InvalidInput(f"{what} is {len(cleaned)} characters long; at most {MAX_NAME}")
    return cleaned


class Campaign(Aggregate):
    @event("Created")
    def __init__(self, name: str, ruleset: str, options: dict[str, Any], by: str) -> None:
        self.name = name
        self.ruleset_id = ruleset
        self.options = options
        self.created_by = by
        self.day = 0
        self.characters: dict[str, dict[str, Any]] = {}
        self.encounters: dict[str, dict[str, Any]] = {}

    @classmethod
    def create(
        cls, name: str, ruleset_id: str, option_overrides: dict[str, Any] | None, by: str
    ) -> Campaign:
        ruleset = get_ruleset(ruleset_id)
        options = ruleset.validate_options(option_overrides)
        return cls(check_name(name, "campaign name"), ruleset.id, options, by)

    @property
    def rules(self) -> Ruleset:
        return get_ruleset(self.ruleset_id)

    def character(self, character_id: str) -> dict[str, Any]:
        try:
            return self.characters[character_id]
        except KeyError:
            raise NotFound(f"character '{character_id}' is not enrolled in this campaign") from None

    def enrol(self, name: str, sheet: dict[str, Any], by: str) -> str:
        valid = self.rules.validate_sheet(sheet)
        character_id = str(uuid4())
        self._enrolled(
            character_id,
            check_name(name, "character name"),
            valid,
            self.rules.track_maxima(valid),
            self.rules.start_state(valid),
            by,
        )
        return character_id

    @event("CharacterEnrolled")
    def _enrolled(
        self,
        character_id: str,
        name: str,
        sheet: dict[str, Any],
        tracks: dict[str, int],
        state: dict[str, Any],
        by: str,
    ) -> None:
        self.characters[character_id] = {
            "id": character_id,
            "name": name,
            "sheet": sheet,
            "tracks": tracks,
            "state": state,
            "enrolled_by": by,
            "in_encounter": None,
        }

    def conditions_of(self, character_id: str) -> tuple[str, ...]:
        character = self.character(character_id)
        return self.rules.conditions(character["sheet"], character["tracks"], character["state"])

    def open_encounter(self, encounter_id: str, name: str, character_ids: list[str]) -> None:
        for character_id in character_ids:
            busy = self.character(character_id)["in_encounter"]
            if busy is not None:
                raise ActionRefused(
                    f"{self.characters[character_id]['name']} is already in open encounter {busy}"
                )
        self._encounter_opened(encounter_id, name, character_ids)

    @event("EncounterOpened")
    def _encounter_opened(self, encounter_id: str, name: str, character_ids: list[str]) -> None:
        self.encounters[encounter_id] = {"id": encounter_id, "name": name, "open": True}
        for character_id in character_ids:
            self.characters[character_id]["in_encounter"] = encounter_id

    def carry_over(
        self,
        encounter_id: str,
        tracks: dict[str, dict[str, int]],
        state: dict[str, dict[str, Any]],
        by: str,
    ) -> None:
        """Take the encounter's final tracks and lasting state back onto the roster."""
        lasting = {cid: self.rules.state_after_encounter(values) for cid, values in state.items()}
        self._encounter_closed(encounter_id, tracks, lasting, by)

    @event("EncounterClosed")
    def _encounter_closed(
        self,
        encounter_id: str,
        tracks: dict[str, dict[str, int]],
        state: dict[str, dict[str, Any]],
        by: str,
    ) -> None:
        self.encounters[encounter_id]["open"] = False
        for character_id, values in tracks.items():
            character = self.characters[character_id]
            character["tracks"] = values
            character["state"] = state[character_id]
            character["in_encounter"] = None

    @property
    def open_encounters(self) -> list[str]:
        return [eid for eid, info in self.encounters.items() if info["open"]]
