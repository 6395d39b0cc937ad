"""Request and response bodies of a campaign's bestiary (issue 23): the sheets the GM
saved, and "3 x Goblin" enrolled from one."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, JsonValue, StrictInt

from api.schemas import NAME, Body
from domain.bestiary import MAX_ENROLLED_AT_ONCE

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
