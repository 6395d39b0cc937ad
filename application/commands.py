"""Commands: plain frozen values handed to one application method each."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from uuid import UUID

from skald_campaign.domain.rulesets.base import JsonObject


@dataclass(frozen=True)
class CreateCampaign:
    name: str
    ruleset: str
    options: JsonObject = field(default_factory=dict)
    by: str = "gm"
    gm_key_id: str = "gm"
    gm_key_hash: str = ""


@dataclass(frozen=True)
class EnrolCharacter:
    campaign_id: UUID
    name: str
    sheet: JsonObject
    by: str = "gm"
    npc: bool = False
    player: str | None = None


@dataclass(frozen=True)
class Combatant:
    character_id: str
    side: str | None  # None: the character's default, foes for an NPC (issue 36)
    rank: int = 1


@dataclass(frozen=True)
class StartEncounter:
    campaign_id: UUID
    name: str
    combatants: tuple[Combatant, ...]
    by: str = "gm"


@dataclass(frozen=True)
class PerformAction:
    campaign_id: UUID
    encounter_id: UUID
    kind: str
    params: JsonObject
    actor: str | None = None
    dice: dict[str, list[int]] | None = None
    by: str = "gm"
    role: str = "gm"
    override_reason: str | None = None  # the GM's, to act out of turn or again
    hidden: bool = False  # T3: the GM rolls this NPC's action hidden


@dataclass(frozen=True)
class NextRound:
    campaign_id: UUID
    encounter_id: UUID
    by: str = "gm"
    # The table's dice for the new round's each-round initiative (T1), by combatant id.
    dice: Mapping[str, list[int]] | None = None


@dataclass(frozen=True)
class EndEncounter:
    campaign_id: UUID
    encounter_id: UUID
    by: str = "gm"
    reason: str | None = None


@dataclass(frozen=True)
class VoidAction:
    campaign_id: UUID
    encounter_id: UUID
    number: int
    reason: str
    by: str = "gm"


@dataclass(frozen=True)
class RerollAction:
    campaign_id: UUID
    encounter_id: UUID
    number: int
    reason: str
    dice: dict[str, list[int]] | None = None
    by: str = "gm"


@dataclass(frozen=True)
class RewindEncounter:
    campaign_id: UUID
    encounter_id: UUID
    to_version: int
    reason: str
    by: str = "gm"


@dataclass(frozen=True)
class AdvanceDays:
    campaign_id: UUID
    days: int = 1
    default: JsonObject = field(default_factory=dict)
    characters: dict[str, JsonObject] = field(default_factory=dict)
    by: str = "gm"


@dataclass(frozen=True)
class HealThrough:
    campaign_id: UUID
    day: int


@dataclass(frozen=True)
class MarkWound:
    campaign_id: UUID
    character_id: str
    wound: str
    present: bool
    reason: str
    by: str = "gm"


@dataclass(frozen=True)
class IssueKey:
    campaign_id: UUID
    key_id: str
    key_hash: str
    role: str
    characters: tuple[str, ...] = ()
    label: str = ""
    by: str = "gm"


@dataclass(frozen=True)
class RevokeKey:
    campaign_id: UUID
    key_id: str
    by: str = "gm"


@dataclass(frozen=True)
class AmendSheet:
    campaign_id: UUID
    character_id: str
    changes: JsonObject
    reason: str
    by: str = "gm"


@dataclass(frozen=True)
class AdjustTracks:
    campaign_id: UUID
    character_id: str
    reason: str
    set: dict[str, int] | None = None
    adjust: dict[str, int] | None = None
    by: str = "gm"


@dataclass(frozen=True)
class AddCombatant:
    campaign_id: UUID
    encounter_id: UUID
    character_id: str
    side: str
    reason: str
    rank: int = 1
    by: str = "gm"


@dataclass(frozen=True)
class RemoveCombatant:
    campaign_id: UUID
    encounter_id: UUID
    character_id: str
    reason: str
    by: str = "gm"


@dataclass(frozen=True)
class MoveCombatant:
    campaign_id: UUID
    encounter_id: UUID
    character_id: str
    rank: int
    reason: str
    by: str = "gm"


@dataclass(frozen=True)
class CorrectEncounter:
    """A void, reroll or rewind, on an open or an ended encounter; previewed or committed."""

    campaign_id: UUID
    encounter_id: UUID
    kind: str  # void | reroll | rewind
    reason: str = ""
    number: int | None = None
    dice: dict[str, list[int]] | None = None
    to_version: int | None = None
    by: str = "gm"


@dataclass(frozen=True)
class CorrectDayPlan:
    campaign_id: UUID
    day: int
    character_id: str
    plan: JsonObject
    reason: str = ""
    by: str = "gm"


@dataclass(frozen=True)
class AcceptRulesetVersion:
    """The GM accepts the installed version of the campaign's ruleset (issue 38)."""

    campaign_id: UUID
    version: str
    by: str = "gm"
