"""Optional capabilities of a ruleset, each its own protocol (API 1.0).

Every ruleset is a ``RulesetOf[Sheet]``; beyond what that base class asks, a ruleset
may offer any of these. Each protocol states the shape the engine's built-ins have
today (the methods, their arguments and what they return); the engine asks a ruleset
for one with ``isinstance(ruleset, Capability)`` (they are runtime checkable: a method
of that name is enough at run time, mypy checks the signatures).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar, Protocol, runtime_checkable

from skald_campaign.domain.reading.texts import Text
from skald_campaign.domain.records import JSONObject
from skald_campaign.domain.rulesets.base import (
    CombatantView,
    DailyOutcome,
    EncounterView,
    Frozen,
    JsonMapping,
    SheetLike,
)

if TYPE_CHECKING:  # the odds engine imports the rulesets; its types are for annotations
    from skald_campaign.domain.odds.encounter import Choice
    from skald_campaign.domain.odds.explore import Memo
    from skald_campaign.domain.odds.faces import FaceModel
    from skald_campaign.ruleset_api.narrative import Roster


@runtime_checkable
class Narration(Protocol):
    """The words of "The table a GM trusts": a stored action record told as typed text
    parts (``ruleset_api.texts``), each reader's rendering left to the engine. Each
    answers None for a record it does not tell; the engine then uses its plain lines."""

    def narrative(self, record: JSONObject, combatants: Roster) -> Sequence[Text] | None:
        """The record, line by line, in the order things happened."""
        ...

    def summary(self, record: JSONObject, combatants: Roster) -> Text | None:
        """The record in one line (the feed's, the log's)."""
        ...

    def outcome(self, record: JSONObject, combatants: Roster) -> Text | None:
        """What came of it, in one sentence (a hidden roll's outcome)."""
        ...

    def standing(self, tracks: Mapping[str, int]) -> str:
        """A combatant's tracks in words ("12 health")."""
        ...


@runtime_checkable
class NpcDescriptors(Protocol):
    """T3: the word a player's and a viewer's key read for an NPC's tracks when the
    campaign hides NPC numbers."""

    def track_descriptor(self, tracks: Mapping[str, int], maxima: Mapping[str, int]) -> str | None:
        """The ruleset's own word ("bloodied"), or None: the engine says hurt or unhurt."""
        ...


@runtime_checkable
class OddsHelpers(Protocol):
    """What the exact odds (docs/odds.md) need of the rules to enumerate an action's
    dice: how each roll's faces are read, which rolls the outcome depends on only
    through a running value, and the attacks a combatant can make."""

    def face_model(
        self, options: JsonMapping, roll_name: str, damage_type: str | None
    ) -> FaceModel:
        """How the rules read one roll's faces (its total, a table reading, ...)."""
        ...

    def odds_memo(
        self, view: EncounterView, kind: str, actor: str | None, params: JsonMapping
    ) -> Memo | None:
        """The key that tells apart the paths of dice the rules can tell apart, or None."""
        ...

    def attack_choices(self, attacker: CombatantView, target: str, effort: int) -> list[Choice]:
        """Every attack the attacker can make on the target, as the action it would be."""
        ...


@runtime_checkable
class DailyRules(Protocol):
    """Rules between fights: how a character spent the day (``day_plan_model``) and what
    the day does to its tracks and state. A ruleset without them leaves
    ``day_plan_model`` None (``has_daily_rules``)."""

    day_plan_model: ClassVar[type[Frozen] | None]
    wound_flags: ClassVar[frozenset[str]]

    def daily(
        self, sheet: SheetLike, tracks: Mapping[str, int], state: JsonMapping, plan: Frozen
    ) -> DailyOutcome: ...


def has_daily_rules(ruleset: object) -> bool:
    """Whether the ruleset has rules between fights (a day plan model of its own)."""
    return isinstance(ruleset, DailyRules) and ruleset.day_plan_model is not None


@runtime_checkable
class PagePresentation(Protocol):
    """What the pages show of a ruleset, as ``/rulesets`` publishes it: its title, the
    counters its state keeps beside the tracks, the sheet fields an initiative roll
    may add, and its presentation (its buttons' words, the panel's order, starter
    sheets: plain data in the fields of api/schemas.py ``RulesetPresentation``)."""

    title: ClassVar[str]
    counters: ClassVar[Mapping[str, str]]
    initiative_adds: ClassVar[tuple[str, ...]]

    def presentation(self) -> JsonMapping: ...


__all__ = [
    "DailyRules",
    "Narration",
    "NpcDescriptors",
    "OddsHelpers",
    "PagePresentation",
    "has_daily_rules",
]
