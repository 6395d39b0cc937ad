"""Request bodies of the table's routes (RULINGS T1, T2): initiative, turns, markers,
the end's reason. The answers are the encounter (api/schemas.py EncounterOut)."""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field, StrictInt

from skald_campaign.api.schemas import Body, Dice

MAX_END_REASON = 500
EXAMPLE_ID = "3f0c1d2e-0000-4000-8000-000000000001"


class RoundDiceBody(Body):
    """``POST .../round`` and ``POST .../turn``: the table's dice for the new round's
    initiative (option ``initiative`` with ``each_round``), so a table rolling its own
    dice starts a round in one request."""

    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"dice": {EXAMPLE_ID: [14]}}]}
    )
    dice: Dice | None = Field(
        default=None,
        description="the table's initiative dice by combatant id for the round this starts "
        "(each_round initiative only; refused with 422 when it rolls none); combatants not "
        "given are rolled by the server",
    )


class InitiativeBody(Body):
    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"dice": {EXAMPLE_ID: [14]}}]}
    )
    dice: Dice | None = Field(
        default=None,
        description="the table's physical dice by combatant id (the campaign's initiative "
        "dice, e.g. one d20 each); combatants not given are rolled by the server",
    )
    combatants: list[str] | None = Field(
        default=None,
        min_length=1,
        max_length=50,
        description="roll for these only (one who joined mid-fight), placed into the order "
        "by total; default: every present combatant, the whole order rolled again",
    )


class DelayBody(Body):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"after": None}]})
    after: str | None = Field(
        default=None,
        max_length=64,
        description="act right after this combatant (one still to act this round); "
        "default: last in the order",
    )


class OrderMoveBody(Body):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"combatant": EXAMPLE_ID, "direction": "up"}]},
    )
    combatant: str = Field(max_length=64, description="the combatant to move in the order")
    direction: Literal["up", "down"] = Field(description="up: one place earlier; down: later")


class MarkerBody(Body):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {"target": EXAMPLE_ID, "name": "blessed", "note": "+1 to hit", "rounds": 3},
                {"target": EXAMPLE_ID, "name": "hidden"},
            ]
        },
    )
    target: str = Field(max_length=64, description="the combatant who bears the marker")
    name: str = Field(min_length=1, max_length=40, description="e.g. prone, hidden, on fire")
    note: str | None = Field(default=None, max_length=200)
    rounds: StrictInt | None = Field(
        default=None, ge=1, le=100, description="lasts N rounds; default: until removed"
    )
    watch: str | None = Field(
        default=None,
        max_length=64,
        description="whose turn's boundaries count the rounds; default: the target's own",
    )
    at: Literal["start", "end"] = Field(
        default="end", description="count the start or the end of the watched turn"
    )


class EndBody(Body):
    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"reason": "the goblins fled"}]}
    )
    reason: str | None = Field(
        default=None, max_length=MAX_END_REASON, description="why the fight ended; on the record"
    )
