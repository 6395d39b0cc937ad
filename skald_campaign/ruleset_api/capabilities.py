"""Optional capabilities of a ruleset, each its own protocol (API 1.1).

Every ruleset is a ``RulesetOf[Sheet]``; beyond what that base class asks, a ruleset
may offer any of these. Together they list every optional member the engine reads of a
ruleset: ``RulesetOf`` gives each a default (nothing told, no help, the engine's own
words), and a ruleset offers a capability by defining its members with the signatures
stated here (``offered`` says which a ruleset's class defines). They are runtime
checkable (a member of that name is enough at run time); mypy checks at the end of
this module that ``RulesetOf`` satisfies every one of them, so a ruleset whose
overrides type-check against ``RulesetOf`` satisfies them too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar, Protocol, runtime_checkable

from skald_campaign.domain.play.dice import DiceTray
from skald_campaign.domain.reading.texts import Text
from skald_campaign.domain.records import JSONObject
from skald_campaign.domain.rulesets.base import (
    Awaiting,
    CombatantView,
    DailyOutcome,
    EncounterView,
    Frozen,
    JsonMapping,
    JsonObject,
    RulesetOf,
    SheetLike,
    StateObject,
)

if TYPE_CHECKING:  # the odds engine imports the rulesets; its types are for annotations
    from skald_campaign.domain.odds.choices import Choice
    from skald_campaign.domain.odds.cost import RunCost
    from skald_campaign.domain.odds.explore import Memo
    from skald_campaign.domain.odds.faces import FaceModel
    from skald_campaign.ruleset_api.narrative import Roster


@runtime_checkable
class Narration(Protocol):
    """The words of "The table a GM trusts": a stored action record told as typed text
    parts (``ruleset_api.texts``), each reader's rendering left to the engine. Each
    answers None for a record it does not tell; the engine then uses its plain lines."""

    # True: ``narrate`` is ``narrative`` with each line rendered for the GM, nothing else;
    # a command's texts then build the narrative once and ask no ``narrate`` (declared in
    # the class that defines ``narrate``; False by default).
    narrate_is_narrative: ClassVar[bool]

    def summary(self, record: JSONObject, combatants: Roster) -> Text | None:
        """The record in one line (the feed's, the log's)."""
        ...

    def narrative(self, record: JSONObject, combatants: Roster) -> list[Text] | None:
        """The record, line by line, in the order things happened."""
        ...

    def outcome(self, record: JSONObject, combatants: Roster) -> Text | None:
        """What came of it, in one sentence (a hidden roll's outcome)."""
        ...

    def parties(self, record: JSONObject, combatants: Roster) -> set[str]:
        """The characters the record's texts speak of beyond its actor, its parameters
        and its changes (their numbers are in its lines)."""
        ...

    def standing(self, tracks: Mapping[str, int]) -> str | None:
        """A combatant's tracks in words ("12 health"), or None: listed by name."""
        ...

    def narrate(self, record: JSONObject, combatants: Roster) -> list[str] | None:
        """The record's plain narrative (the action view's ``narrative``), or None."""
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
    through a running value, the attacks a combatant can make, what one run of the
    resolver costs, and how an outcome is reported."""

    # A resolver run's measured cost (domain/odds/cost.py); None: the dearest.
    odds_run_cost: ClassVar[RunCost | None]
    # Kinds whose chance to hit or miss a player may read against a hidden NPC (T3a).
    odds_public_hit_or_miss: ClassVar[frozenset[str]]

    def face_model(
        self, options: JsonMapping, roll_name: str, damage_type: str | None
    ) -> FaceModel | None:
        """How the rules read one roll's faces (its total, a table reading, ...)."""
        ...

    def odds_damage_type(
        self, view: EncounterView, kind: str, actor: str | None, params: JsonMapping
    ) -> str | None:
        """The table an action's damage dice are read on, when known before rolling."""
        ...

    def odds_memo(
        self, view: EncounterView, kind: str, actor: str | None, params: JsonMapping
    ) -> Memo | None:
        """The key that tells apart the paths of dice the rules can tell apart, or None."""
        ...

    def attack_choices(self, attacker: CombatantView, target: str, effort: int) -> list[Choice]:
        """Every attack the attacker can make on the target, as the action it would be."""
        ...

    def odds_result(self, kind: str, breakdown: JsonMapping) -> str | None:
        """An outcome's one-word result as the odds report it ("hit"), or None."""
        ...

    def odds_extras(self, kind: str, breakdown: JsonMapping) -> tuple[tuple[str, int | str], ...]:
        """What else the odds report of an outcome (a shove's distance), by name."""
        ...


@runtime_checkable
class DailyRules(Protocol):
    """Rules between fights: how a character spent the day (``day_plan_model``) and what
    the day does to its tracks and state, and the wound marks the GM may set between
    fights. A ruleset without them leaves ``day_plan_model`` None (``has_daily_rules``)."""

    day_plan_model: ClassVar[type[Frozen] | None]
    wound_flags: ClassVar[frozenset[str]]

    def daily(
        self, sheet: SheetLike, tracks: Mapping[str, int], state: JsonMapping, plan: Frozen
    ) -> DailyOutcome: ...

    def refuse_wound_mark(self, name: str, state: JsonMapping, wound: str, present: bool) -> None:
        """Raise to refuse a between-fight wound mark the rules reject."""
        ...


def has_daily_rules(ruleset: object) -> bool:
    """Whether the ruleset has rules between fights (a day plan model of its own)."""
    return isinstance(ruleset, DailyRules) and ruleset.day_plan_model is not None


@runtime_checkable
class TurnRules(Protocol):
    """The rules' say in the table's turns (RULINGS T1, T2): who cannot act, what the
    rules refuse or take by themselves in a round, an attack that waits for its
    defender's answer, and what of a combatant's state outlasts the fight."""

    # Conditions under which a combatant may not act (refused), and may not act at all
    # (its turn passed over, T1); markers the ruleset keeps as its own conditions (T2).
    incapacitating: ClassVar[frozenset[str]]
    cannot_act_at_all: ClassVar[frozenset[str]]
    own_markers: ClassVar[Mapping[str, str]]

    def refuse_if_cannot_act(self, actor: CombatantView, kind: str) -> None: ...

    def cannot_act_words(self, conditions: Sequence[str]) -> str | None: ...

    def turn_refusal(self, name: str, state: JsonMapping, round: int) -> str | None: ...

    def round_start_actions(self, view: EncounterView) -> tuple[str, ...]: ...

    def awaiting(
        self,
        view: EncounterView,
        kind: str,
        actor: str | None,
        params: JsonMapping,
        tray: DiceTray,
    ) -> Awaiting | None: ...

    def state_after_encounter(self, state: JsonMapping) -> StateObject: ...


@runtime_checkable
class CharacterRatings(Protocol):
    """What the character view shows beside a sheet: the state a character starts
    with, counters kept in it that the GM sets like a track, ratings derived from the
    sheet (each with its terms) and its gear."""

    def start_state(self, sheet: SheetLike) -> StateObject: ...

    def state_counters(self, sheet: SheetLike) -> dict[str, int | None]: ...

    def derived_ratings(self, sheet: SheetLike, state: JsonMapping) -> JsonObject: ...

    def equipment(self, sheet: SheetLike) -> JsonObject: ...


@runtime_checkable
class PagePresentation(Protocol):
    """What the pages show of a ruleset, as ``/rulesets`` publishes it: its title, the
    counters its state keeps beside the tracks, the sheet fields an initiative roll
    may add (and what adding one means), and its presentation (its buttons' words, the
    panel's order, starter sheets: plain data in the fields of api/schemas.py
    ``RulesetPresentation``)."""

    title: ClassVar[str]
    counters: ClassVar[Mapping[str, str]]
    initiative_adds: ClassVar[tuple[str, ...]]
    initiative_add_description: ClassVar[str]

    def presentation(self) -> JsonMapping: ...


CAPABILITIES: tuple[type, ...] = (
    Narration,
    NpcDescriptors,
    OddsHelpers,
    DailyRules,
    TurnRules,
    CharacterRatings,
    PagePresentation,
)


def members(capability: type) -> tuple[str, ...]:
    """The names a capability asks for, in the order it declares them."""
    own = [n for n in vars(capability) if not n.startswith("_") and callable(vars(capability)[n])]
    return (*capability.__annotations__, *own)


def offered(ruleset: object) -> tuple[type, ...]:
    """The capabilities a ruleset offers: those of which its class defines a member
    itself, rather than taking ``RulesetOf``'s default."""
    mro = [k for k in type(ruleset).__mro__ if k not in RulesetOf.__mro__]
    return tuple(
        capability
        for capability in CAPABILITIES
        if any(name in vars(k) for k in mro for name in members(capability))
    )


if TYPE_CHECKING:  # mypy: RulesetOf, and so every ruleset, satisfies every capability

    def _satisfies(
        ruleset: RulesetOf[Frozen],
    ) -> tuple[
        Narration,
        NpcDescriptors,
        OddsHelpers,
        DailyRules,
        TurnRules,
        CharacterRatings,
        PagePresentation,
    ]:
        return (ruleset, ruleset, ruleset, ruleset, ruleset, ruleset, ruleset)


__all__ = [
    "CAPABILITIES",
    "CharacterRatings",
    "DailyRules",
    "Narration",
    "NpcDescriptors",
    "OddsHelpers",
    "PagePresentation",
    "TurnRules",
    "has_daily_rules",
    "members",
    "offered",
]
