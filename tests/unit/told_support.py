"""A table for the texts' tests: one campaign and one fight in an in-memory
SkaldApplication, characters by name (PCs and NPCs), every die supplied, and each
record read as the GM, a player and a viewer read it (RULINGS T3a).

This module holds no tests; tests/unit/test_told_*.py import it.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.commands import (
    AddCombatant,
    AdjustTracks,
    AmendSheet,
    Combatant,
    CreateCampaign,
    EnrolCharacter,
    MoveCombatant,
    NextRound,
    PerformAction,
    RemoveCombatant,
    StartEncounter,
)
from skald_campaign.application.redaction import redaction_for
from skald_campaign.application.table_commands import NextTurn, PlaceMarker, RollInitiative
from skald_campaign.domain.play.dice import Roller
from skald_campaign.domain.reading.narrators import narrate
from skald_campaign.domain.records import JSON

Read = tuple[str, list[str]]  # a record's summary and narrative, as one reader reads them


class NoRoller:
    """Every die of these tests is supplied: a die the server would roll fails the test."""

    def randint(self, a: int, b: int) -> int:
        raise AssertionError("this test must supply every die; an unsupplied roll was made")


class Sevens:
    """A server that rolls 7 on every die it rolls."""

    def randint(self, a: int, b: int) -> int:
        return 7


class Table:
    def __init__(self, ruleset: str, roller: Roller | None = None, **options: Any) -> None:
        self.app = SkaldApplication(
            env={"PERSISTENCE_MODULE": "eventsourcing.popo"}, roller=roller or NoRoller()
        )
        options = {"actions_per_round": 10, **options}
        self.campaign = self.app.create_campaign(CreateCampaign("Told", ruleset, options)).id
        self.ids: dict[str, str] = {}
        self.fight: UUID | None = None

    def enrol(self, name: str, sheet: dict[str, Any], npc: bool = False) -> str:
        enrolment = EnrolCharacter(self.campaign, name, sheet, npc=npc)
        _, self.ids[name] = self.app.enrol_character(enrolment)
        return self.ids[name]

    def start(self, *lineup: tuple[str, str, int]) -> None:
        """Each combatant as (name, side, rank)."""
        combatants = tuple(Combatant(self.ids[n], side, rank) for n, side, rank in lineup)
        self.fight = self.app.start_encounter(StartEncounter(self.campaign, "Ford", combatants)).id

    @property
    def eid(self) -> UUID:
        assert self.fight is not None, "start the fight first"
        return self.fight

    def named(self, text: str) -> str:
        """'defense.{Ogre}.guard' with the Ogre's id."""
        for name, cid in self.ids.items():
            text = text.replace("{" + name + "}", cid)
        return text

    def act(
        self,
        kind: str,
        actor: str | None,
        dice: dict[str, list[int]] | None = None,
        hidden: bool = False,
        **params: Any,
    ) -> dict[str, JSON]:
        """The action's record as stored; ``hidden``: the GM rolled it hidden (T3)."""
        for key in ("target",):
            if key in params:
                params[key] = self.ids[params[key]]
        supplied = {self.named(k): v for k, v in (dice or {}).items()}
        who = None if actor is None else self.ids[actor]
        command = PerformAction(
            self.campaign, self.eid, kind, params, actor=who, dice=supplied, hidden=hidden
        )
        _, record = self.app.perform_action(command)
        return dict(record)

    def next_round(self) -> None:
        self.app.next_round(NextRound(self.campaign, self.eid))

    def next_turn(self) -> None:
        self.app.next_turn(NextTurn(self.campaign, self.eid))

    def initiative(self, dice: dict[str, list[int]]) -> None:
        faces = {self.ids[name]: rolled for name, rolled in dice.items()}
        self.app.roll_initiative(RollInitiative(self.campaign, self.eid, faces))

    def mark(self, target: str, name: str, note: str | None = None, **lasting: Any) -> None:
        if "watch" in lasting:
            lasting["watch"] = self.ids[lasting["watch"]]
        marker = PlaceMarker(self.campaign, self.eid, self.ids[target], name, note, **lasting)
        self.app.place_marker(marker)

    def join(self, name: str, side: str, rank: int = 1) -> None:
        joining = AddCombatant(self.campaign, self.eid, self.ids[name], side, "late", rank)
        self.app.add_combatant(joining)

    def leave(self, name: str) -> None:
        self.app.remove_combatant(RemoveCombatant(self.campaign, self.eid, self.ids[name], "fled"))

    def move(self, name: str, rank: int) -> None:
        self.app.move_combatant(MoveCombatant(self.campaign, self.eid, self.ids[name], rank, "on"))

    def amend(self, name: str, **changes: Any) -> None:
        self.app.amend_sheet(AmendSheet(self.campaign, self.ids[name], changes, "errata"))

    def adjust(self, name: str, **changes: int) -> None:
        adjusting = AdjustTracks(self.campaign, self.ids[name], "a fall", adjust=changes)
        self.app.adjust_tracks(adjusting)

    def last(self) -> dict[str, JSON]:
        """The fight's last record, as stored."""
        return dict(self.app.encounter(self.campaign, self.eid).actions[-1].as_json())

    def read(self, record: dict[str, JSON]) -> dict[str, Read]:
        """The record's summary and narrative as the GM, a player and a viewer read them
        in an answer (the narrative derived when read, as api/views.py derives it)."""
        encounter = self.app.encounter(self.campaign, self.eid)
        shown = {**record, "narrative": narrate(encounter.ruleset_id, record, encounter.combatants)}
        reads: dict[str, Read] = {"gm": (str(shown["summary"]), list(shown["narrative"]))}
        campaign = self.app.campaign(self.campaign)
        for role in ("player", "viewer"):
            redaction = redaction_for(campaign, role)
            assert redaction is not None
            told = redaction.document(shown)
            assert isinstance(told, dict)
            summary, narrative = told["summary"], told["narrative"]
            assert isinstance(summary, str) and isinstance(narrative, list)
            reads[role] = (summary, [str(line) for line in narrative])
        return reads

    def told(self, record: dict[str, JSON]) -> tuple[Read, Read]:
        """(the GM's read, the others'): a player and a viewer read the same. The lines
        of conditions gained and lost that end a narrative come in the order of the
        characters' ids, random here: they are given sorted."""
        reads = self.read(record)
        assert reads["player"] == reads["viewer"]
        return settled(reads["gm"]), settled(reads["player"])


def settled(read: Read) -> Read:
    summary, lines = read
    changes = len(lines)
    while changes and (" gains: " in lines[changes - 1] or " loses: " in lines[changes - 1]):
        changes -= 1
    return summary, [*lines[:changes], *sorted(lines[changes:])]
