"""Shared builders for the d20 tests: sheets and a table driving SkaldApplication.

This module holds no tests of its own; the other ``test_d20_*`` files import it.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.commands import (
    Combatant,
    CreateCampaign,
    EndEncounter,
    EnrolCharacter,
    NextRound,
    PerformAction,
    StartEncounter,
)

LONGSWORD = {"name": "Longsword", "damage": "1d8"}


def sheet(**overrides: Any) -> dict[str, Any]:
    """An average Medium level-1 human with a longsword; override what a test is about."""
    base: dict[str, Any] = {
        "strength": 10,
        "dexterity": 10,
        "constitution": 10,
        "wisdom": 10,
        "level": 1,
        "hp": 20,
        "save_vs_death_ray": 12,
        "weapons": [LONGSWORD],
    }
    return {**base, **overrides}


def fr_sheet(fr: int, **overrides: Any) -> dict[str, Any]:
    """A sheet whose FR bonus is ``fr`` (STR stated +0 unless overridden, FR skill slots ``fr``)."""
    return sheet(**{"strength": {"modifier": 0}, "fr_skill_slots": fr, **overrides})


class Table:
    """One campaign and one encounter in an in-memory SkaldApplication."""

    def __init__(self, options: dict[str, Any] | None = None) -> None:
        self.app = SkaldApplication()
        # These tests exercise each move's rules, one after another; the turn limit has
        # its own tests (tests/integration/test_table_*.py), so it is lifted here.
        options = {"actions_per_round": 10, **(options or {})}
        self.campaign_id: UUID = self.app.create_campaign(CreateCampaign("Test", "d20", options)).id
        self.encounter_id: UUID | None = None

    def enrol(self, name: str, character: dict[str, Any]) -> str:
        _, character_id = self.app.enrol_character(
            EnrolCharacter(self.campaign_id, name, character)
        )
        return character_id

    def start(self, *character_ids: str) -> None:
        sides = ("heroes", "foes")
        combatants = tuple(Combatant(cid, sides[n % 2]) for n, cid in enumerate(character_ids))
        self.encounter_id = self.app.start_encounter(
            StartEncounter(self.campaign_id, "Fight", combatants)
        ).id

    def fight(self, **characters: dict[str, Any]) -> dict[str, str]:
        """Enrol each named sheet and start one encounter with them all; returns name -> id."""
        ids = {name: self.enrol(name, character) for name, character in characters.items()}
        self.start(*ids.values())
        return ids

    def act(
        self,
        kind: str,
        actor: str | None,
        dice: dict[str, list[int]] | None = None,
        **params: Any,
    ) -> dict[str, Any]:
        assert self.encounter_id is not None
        _, record = self.app.perform_action(
            PerformAction(self.campaign_id, self.encounter_id, kind, params, actor, dice)
        )
        return record

    def next_round(self) -> None:
        assert self.encounter_id is not None
        self.app.next_round(NextRound(self.campaign_id, self.encounter_id))

    def end(self) -> None:
        assert self.encounter_id is not None
        self.app.end_encounter(EndEncounter(self.campaign_id, self.encounter_id))

    def combatant(self, character_id: str) -> dict[str, Any]:
        assert self.encounter_id is not None
        encounter = self.app.encounter(self.campaign_id, self.encounter_id)
        return dict(encounter.combatants[character_id].as_json())

    def hp(self, character_id: str) -> int:
        return int(self.combatant(character_id)["tracks"]["hp"])

    def state(self, character_id: str) -> dict[str, Any]:
        return dict(self.combatant(character_id)["state"])

    def conditions(self, character_id: str) -> tuple[str, ...]:
        assert self.encounter_id is not None
        return self.app.encounter(self.campaign_id, self.encounter_id).conditions_of(character_id)

    def ratings(self, character_id: str) -> dict[str, Any]:
        campaign = self.app.campaign(self.campaign_id)
        character = campaign.character(character_id)
        return campaign.rules.derived_ratings(character.sheet, character.state)


def terms(rating: dict[str, Any]) -> list[tuple[str, int]]:
    return [(term["name"], term["value"]) for term in rating["terms"]]


def assert_json_native(value: Any, where: str = "breakdown") -> None:
    """Only str, int, bool, None, lists and str-keyed dicts; never a float."""
    if isinstance(value, dict):
        for key, item in value.items():
            assert isinstance(key, str), f"{where}: key {key!r} is not a string"
            assert_json_native(item, f"{where}.{key}")
    elif isinstance(value, list):
        for n, item in enumerate(value):
            assert_json_native(item, f"{where}[{n}]")
    else:
        assert value is None or isinstance(value, str | int), f"{where}: {value!r}"
