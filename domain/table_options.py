"""The table's options, shared by every ruleset (RULINGS T1): initiative and skipping.

No seed defines initiative, so it is a campaign option: ``{"mode": "manual"}`` (the
GM orders the combatants) or ``{"mode": "roll", "dice": "1d20", "add": FIELD,
"each_round": false}``. ``add`` names a field of the ruleset's own sheet, so each
ruleset declares its roll model with its fields (``roll_model``); the OpenAPI then
publishes each ruleset's choices. ``skip_unable`` (default true) passes over a
combatant who cannot act at all under its ruleset.

Campaigns recorded before these options existed carry neither; reading them gives
the defaults (``table_options``), so an old campaign keeps its meaning.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from pydantic import Field, StrictBool, StrictStr, field_validator

from skald_campaign.domain.records import JSON
from skald_campaign.domain.rulesets.base import Frozen

MAX_INITIATIVE_DICE = 10
MAX_INITIATIVE_SIDES = 100
DICE = re.compile(r"^([1-9][0-9]?)d([1-9][0-9]{0,2})$")


class ManualInitiative(Frozen):
    """The GM orders the combatants (the default)."""

    mode: Literal["manual"] = "manual"


class RollInitiative(Frozen):
    """Every combatant rolls ``dice`` plus a sheet field; the highest total goes first."""

    mode: Literal["roll"]
    dice: StrictStr = Field(
        default="1d20",
        # The bounds in the pattern too, so the published schema refuses what we refuse.
        pattern=r"^([1-9]|10)d([2-9]|[1-9][0-9]|100)$",
        description=f"NdS: N dice (1-{MAX_INITIATIVE_DICE}) of S sides (2-{MAX_INITIATIVE_SIDES})",
    )
    add: StrictStr | None = Field(
        default=None, description="a sheet field whose value is added to each roll"
    )
    each_round: StrictBool = Field(default=False, description="roll again every new round")

    @field_validator("dice")
    @classmethod
    def _bounded(cls, dice: str) -> str:
        count, sides = dice_of(dice)
        if not 1 <= count <= MAX_INITIATIVE_DICE:
            raise ValueError(f"'{dice}': between 1 and {MAX_INITIATIVE_DICE} dice")
        if not 2 <= sides <= MAX_INITIATIVE_SIDES:
            raise ValueError(f"'{dice}': a die has between 2 and {MAX_INITIATIVE_SIDES} sides")
        return dice


def dice_of(dice: str) -> tuple[int, int]:
    match = DICE.match(dice)
    if match is None:
        raise ValueError(f"'{dice}' is not NdS dice notation (e.g. 1d20)")
    return int(match.group(1)), int(match.group(2))


def initiative_field() -> ManualInitiative:
    """The ``initiative`` option: manual, or the ruleset's own roll model."""
    return Field(
        default=ManualInitiative(),
        discriminator="mode",
        description="T1: manual (the GM orders the combatants) or rolled "
        "(dice + an optional sheet field; highest first, ties in enrolment order)",
    )


def skip_unable_field() -> bool:
    return Field(
        default=True,
        description="T1: pass over a combatant who cannot act at all under the ruleset, saying why",
    )


@dataclass(frozen=True)
class TableOptions:
    """The two options as a command reads them from a campaign's recorded options."""

    roll: bool
    dice: str
    add: str | None
    each_round: bool
    skip_unable: bool


def table_options(options: Mapping[str, JSON]) -> TableOptions:
    """Recorded options (validated when the campaign was created); absent ones default."""
    initiative = options.get("initiative")
    skip = options.get("skip_unable", True) is not False
    if not isinstance(initiative, Mapping) or initiative.get("mode") != "roll":
        return TableOptions(False, "1d20", None, False, skip)
    dice, add = initiative.get("dice", "1d20"), initiative.get("add")
    return TableOptions(
        roll=True,
        dice=dice if isinstance(dice, str) else "1d20",
        add=add if isinstance(add, str) else None,
        each_round=initiative.get("each_round") is True,
        skip_unable=skip,
    )
