"""The ruleset seam: what a built-in ruleset provides to the aggregates and the API.

A ruleset is a plug-in. It validates sheets and options, says which tracks a
character has, derives conditions, and resolves actions as pure functions of
the encounter's frozen state, the validated parameters and the dice tray.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

from domain.dice import DiceTray
from domain.errors import ActionRefused, InvalidInput, NotFound
from domain.validation import validate


class Frozen(BaseModel):
    """Base for sheets, options and action parameters: immutable, no unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


@dataclass(frozen=True)
class CombatantView:
    """One combatant as the rules see it at the moment an action resolves."""

    id: str
    name: str
    side: str
    rank: int
    sheet: Mapping[str, Any]
    tracks: Mapping[str, int]
    state: Mapping[str, Any]
    conditions: tuple[str, ...]


@dataclass(frozen=True)
class EncounterView:
    round: int
    combatants: Mapping[str, CombatantView]
    options: Mapping[str, Any]
    # The GM overrode the turn check for the action resolving now (a TurnOverridden
    # event, or a replayed record that carries one). Only the encounter sets it, and
    # only after checking the override came from the GM key, so a ruleset's own
    # once-a-round rule (margin's M5) may yield to it without trusting the caller.
    turn_overridden: bool = False

    def combatant(self, combatant_id: str, role: str) -> CombatantView:
        try:
            return self.combatants[combatant_id]
        except KeyError:
            raise NotFound(
                f"{role} '{combatant_id}' is not a combatant in this encounter"
            ) from None


@dataclass(frozen=True)
class Outcome:
    """What an action did: the full breakdown and each touched combatant's new values."""

    summary: str
    breakdown: dict[str, Any]
    tracks: dict[str, dict[str, int]] = field(default_factory=dict)
    state: dict[str, dict[str, Any]] = field(default_factory=dict)


@dataclass(frozen=True)
class DailyOutcome:
    """One character's day between fights: new tracks and state, and the arithmetic."""

    tracks: dict[str, int]
    state: dict[str, Any]
    breakdown: dict[str, Any]


@dataclass(frozen=True)
class Awaiting:
    """An action that waits for a declaration by its target (the defender's choice).

    ``param`` is the action parameter the declaration fills; ``shown`` is what the
    defender may know when choosing (the rolls made so far stay in the tray).
    """

    defender: str
    param: str
    choices: tuple[str, ...]
    shown: dict[str, Any]


Resolver = Callable[[EncounterView, str | None, Any, DiceTray], Outcome]


@dataclass(frozen=True)
class ActionType:
    kind: str
    params: type[Frozen]
    resolve: Resolver
    description: str
    gm_only: bool = False  # a GM's tool (the Take-hit panel), not a character's action


class Ruleset(ABC):
    id: ClassVar[str]
    title: ClassVar[str]
    sheet_model: ClassVar[type[Frozen]]
    options_model: ClassVar[type[Frozen]]
    actions: ClassVar[Mapping[str, ActionType]]

    def validate_options(self, overrides: Mapping[str, Any] | None) -> dict[str, Any]:
        options = validate(self.options_model, overrides or {}, "options")
        return options.model_dump(mode="json")

    def under(self, options: Mapping[str, Any]) -> Ruleset:
        """This ruleset as a campaign with these validated options plays it.

        Sheets, conditions and days read the options through the ruleset this returns
        (margin's health default, wounded threshold and light day are options: M18). A
        ruleset whose sheets, conditions and days use no option is returned as it is.
        """
        return self

    def validate_sheet(self, sheet: Mapping[str, Any]) -> dict[str, Any]:
        return validate(self.sheet_model, sheet, "sheet").model_dump(mode="json")

    def action_type(self, kind: str) -> ActionType:
        try:
            return self.actions[kind]
        except KeyError:
            known = ", ".join(sorted(self.actions))
            raise InvalidInput(
                f"the {self.id} ruleset has no action '{kind}'; its actions are: {known}"
            ) from None

    def validate_params(self, kind: str, params: Mapping[str, Any]) -> Frozen:
        return validate(self.action_type(kind).params, params, kind)

    def start_state(self, sheet: Mapping[str, Any]) -> dict[str, Any]:
        """Ruleset-specific per-character state carried between encounters."""
        return {}

    def state_after_encounter(self, state: Mapping[str, Any]) -> dict[str, Any]:
        """What of a combatant's state outlasts the encounter (postures and holds do not)."""
        return dict(state)

    def refuse_if_cannot_act(self, actor: CombatantView, kind: str) -> None:
        blocking = [c for c in actor.conditions if c in self.incapacitating]
        if blocking:
            raise ActionRefused(
                f"{actor.name} cannot {kind.replace('_', ' ')}: {' and '.join(blocking)}"
            )

    incapacitating: ClassVar[frozenset[str]] = frozenset()

    def turn_refusal(self, name: str, state: Mapping[str, Any], round: int) -> str | None:
        """Why this ruleset's own rules refuse the combatant another action this round
        (margin's M5), or None. The encounter puts it to the GM's override beside its
        own turn check, and tells the resolver through ``EncounterView.turn_overridden``."""
        return None

    def round_start_actions(self, view: EncounterView) -> tuple[str, ...]:
        """Actions the rules take by themselves as a new round starts (stamina-body's
        bleeding); the encounter records each as an action with no actor."""
        return ()

    def refuse_wound_mark(
        self, name: str, state: Mapping[str, Any], wound: str, present: bool
    ) -> None:
        """Refuse a between-fight wound mark the rules reject (none by default)."""
        return None

    def awaiting(
        self,
        view: EncounterView,
        kind: str,
        actor: str | None,
        params: Mapping[str, Any],
        tray: DiceTray,
    ) -> Awaiting | None:
        """Whether this action must wait for its defender's declaration.

        A ruleset where the defender chooses how to answer an attack rolls what comes
        before the choice (the hit) in ``tray`` and says who declares what. Rulesets
        whose defenses are declared on the defender's own turn never wait.
        """
        return None

    def derived_ratings(self, sheet: Mapping[str, Any], state: Mapping[str, Any]) -> dict[str, Any]:
        """Ratings the character view shows beside the sheet, each with its terms."""
        return {}

    def equipment(self, sheet: Mapping[str, Any]) -> dict[str, Any]:
        """What the character view shows of the gear the sheet names (none by default)."""
        return {}

    # The calendar: a ruleset with between-fight rules names its day plan (how a
    # character spent the day) and applies it; one without leaves both unset.
    day_plan_model: ClassVar[type[Frozen] | None] = None
    wound_flags: ClassVar[frozenset[str]] = frozenset()

    def daily(
        self,
        sheet: Mapping[str, Any],
        tracks: Mapping[str, int],
        state: Mapping[str, Any],
        plan: Any,
    ) -> DailyOutcome:
        raise NotImplementedError(f"the {self.id} ruleset has no between-fight rules")

    @abstractmethod
    def track_maxima(self, sheet: Mapping[str, Any]) -> dict[str, int]: ...

    @abstractmethod
    def conditions(
        self, sheet: Mapping[str, Any], tracks: Mapping[str, int], state: Mapping[str, Any]
    ) -> tuple[str, ...]: ...
