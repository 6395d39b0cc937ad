"""Request and response bodies of a campaign's bestiary (issue 23): the sheets the GM
saved, and "3 x Goblin" enrolled from one."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, JsonValue, StrictInt

from skald_campaign.api.schemas import NAME, Body, CombatantBody
from skald_campaign.domain.bestiary import MAX_ENROLLED_AT_ONCE, MAX_FOE_LINES, MAX_RANK

GOBLIN: dict[str, JsonValue] = {
    "st": 9,
    "con": 10,
    "parry": 9,
    "dodge": 9,
    "stamina_max": 10,
    "body_max": 8,
}


class BestiaryBody(Body):
    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"name": "Goblin", "sheet": GOBLIN}]}
    )
    name: str = NAME
    sheet: dict[str, Any] = Field(
        description="the ruleset's character sheet, validated as an enrolment's is"
    )


class BestiaryEnrolBody(Body):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"count": 3}]})
    count: StrictInt = Field(
        default=1, ge=1, le=MAX_ENROLLED_AT_ONCE, description="how many to enrol at once"
    )
    name: str | None = Field(
        default=None,
        min_length=1,
        max_length=110,
        description="their name, numbered on from the campaign's highest (Goblin 4, "
        "Goblin 5...); default: the entry's",
    )


class BestiaryEntryOut(BaseModel):
    id: str
    name: str
    sheet: dict[str, Any] = Field(description="as the ruleset validated it, defaults written out")


# -- saved encounters (issue 36): a named group of the bestiary's foes, set up in one action


class SavedFoesBody(Body):
    entry_id: str = Field(min_length=1, max_length=64, description="a bestiary entry's id")
    count: StrictInt = Field(
        default=1, ge=1, le=MAX_ENROLLED_AT_ONCE, description="how many of it (Goblin 1-3)"
    )
    rank: StrictInt = Field(default=1, ge=1, le=MAX_RANK, description="1 is the front rank")
    side: str = Field(default="foes", min_length=1, max_length=40, description="their side")


class SavedEncounterBody(Body):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "name": "Goblin ambush",
                    "foes": [
                        {"entry_id": "6c1f0b9e-0d5a-4f43-9a51-3b1f8e7d2c10", "count": 3},
                        {
                            "entry_id": "9a7e2c41-5b3d-4e8f-a0c6-1d2f3e4a5b6c",
                            "count": 1,
                            "rank": 2,
                        },
                    ],
                }
            ]
        },
    )
    name: str = NAME
    foes: list[SavedFoesBody] = Field(min_length=1, max_length=MAX_FOE_LINES)


class SetUpBody(Body):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "combatants": [
                        {"character_id": "5f0c8a52-3b1e-4f4e-9d62-0b8f2a6c1d37", "side": "party"}
                    ]
                }
            ]
        },
    )
    name: str | None = Field(
        default=None,
        min_length=1,
        max_length=120,
        description="the encounter's name; default: the saved encounter's",
    )
    combatants: list[CombatantBody] = Field(
        default_factory=list,
        max_length=50,
        description="who else takes part (the party), as when an encounter is started",
    )


class SavedFoesOut(BaseModel):
    entry_id: str
    name: str = Field(description="the bestiary entry's name now")
    count: int
    rank: int
    side: str


class SavedEncounterOut(BaseModel):
    id: str
    name: str
    foes: list[SavedFoesOut]
