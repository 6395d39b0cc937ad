"""The table's options, the engine's for every ruleset (RULINGS T1, T3, issue 38):
initiative, skipping, actions per round, NPC numbers.

No seed defines initiative, so it is a campaign option: ``{"mode": "manual"}`` (the
GM orders the combatants) or ``{"mode": "roll", "dice": "1d20", "add": FIELD,
"each_round": false}``. ``add`` names a field of the ruleset's own sheet, so each
ruleset declares its roll model with its fields (``roll_model``); the OpenAPI then
publishes each ruleset's choices. ``skip_unable`` (default true) passes over a
combatant who cannot act at all under its ruleset.

Campaigns recorded before these options existed carry neither; reading them gives
the defaults (``table_options``), so an old campaign keeps its meaning.

A ruleset declares only its own rules' options (``RulesetOf.options_model``) and the
sheet fields an initiative roll may add (``initiative_adds``); the options a campaign
takes are the engine's table options and the ruleset's together
(``campaign_options_model``), built here, so no ruleset copies them and one that
declares none still gets them all (issue 38).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar, Literal, Protocol, cast

from pydantic import Field, StrictBool, StrictInt, StrictStr, create_model, field_validator

from skald_campaign.domain.play.turns import actions_per_round_field
from skald_campaign.domain.reading.visibility import show_npc_numbers_field
from skald_campaign.domain.records import JSON
from skald_campaign.domain.validation import Frozen

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


class EngineTableOptions(Frozen):
    """The table options every campaign takes, whatever its ruleset (the engine's).

    ``initiative``'s roll model is the ruleset's (its ``add`` names the ruleset's sheet
    fields), so ``campaign_options_model`` narrows it per ruleset.
    """

    actions_per_round: StrictInt = actions_per_round_field()
    initiative: ManualInitiative | RollInitiative = initiative_field()
    skip_unable: StrictBool = skip_unable_field()
    show_npc_numbers: StrictBool = show_npc_numbers_field()


TABLE_OPTION_NAMES = frozenset(EngineTableOptions.model_fields)
DEFAULT_ADD_DESCRIPTION = "T1: the sheet field added to each roll"


class OptionsOwner(Protocol):
    """What the campaign's options model reads of a ruleset's class: its own options
    and what its initiative roll may add (domain/rulesets/base.py ``Ruleset``)."""

    options_model: ClassVar[type[Frozen]]
    initiative_adds: ClassVar[tuple[str, ...]]
    initiative_add_description: ClassVar[str]


def campaign_options_model(ruleset: OptionsOwner) -> type[Frozen]:
    """The options a campaign of this ruleset takes: the engine's table options first,
    then the ruleset's own (``options_model``), as one model named after the ruleset's
    class (``MarginOptions``), its initiative roll ``MarginInitiativeRoll``: the names
    the OpenAPI has always published."""
    kind = type(ruleset)
    return _campaign_options_model(
        kind.__name__,
        kind.options_model,
        tuple(kind.initiative_adds),
        kind.initiative_add_description,
    )


@cache
def _campaign_options_model(
    name: str, own: type[Frozen], adds: tuple[str, ...], add_description: str
) -> type[Frozen]:
    clash = sorted(TABLE_OPTION_NAMES & set(own.model_fields))
    if clash:
        raise TypeError(
            f"{own.__name__} declares the engine's table options {', '.join(clash)}: a "
            "ruleset's options model holds only its own rules' options"
        )
    # No field to add: a roll is its dice alone (``add`` is null).
    add: Any = Literal[adds] | None if adds else None
    roll: type[RollInitiative] = create_model(
        f"{name}InitiativeRoll",
        __base__=RollInitiative,
        __module__=own.__module__,
        add=(add, Field(default=None, description=add_description)),
    )
    initiative: Any = ManualInitiative | roll
    model = create_model(
        f"{name}Options",
        __base__=(own, EngineTableOptions),
        __module__=own.__module__,
        __doc__=own.__doc__,
        initiative=(initiative, initiative_field()),
    )
    # Both bases are Frozen, so the model is one (create_model types a tuple of bases loosely).
    return cast(type[Frozen], model)


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
