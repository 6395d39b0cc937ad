"""The working copy one action writes to: sheets read once, health and state as they change.

An action can touch several combatants (the attacker's fatigue, the target's
luck, a warding dwarf's health, an attacker hurt by a riposte); the ledger keeps
each one's latest values and hands the touched ones to the Outcome in full.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from skald_campaign.domain.rulesets.margin.options import MarginOptions, read_options
from skald_campaign.domain.rulesets.margin.sheet import MarginSheet
from skald_campaign.domain.rulesets.margin.state import CharacterState, Posture
from skald_campaign.domain.rulesets.margin.tracks import health_of
from skald_campaign.ruleset_api import (
    CombatantView,
    EncounterView,
    JsonObject,
    Outcome,
    read_sheet,
)


@dataclass(frozen=True)
class Harm:
    """A combatant's health before and after a blow."""

    before: int
    after: int

    def as_json(self) -> JsonObject:
        return {"before": self.before, "after": self.after}


@dataclass
class Ledger:
    view: EncounterView
    options: MarginOptions = field(init=False)
    _sheets: dict[str, MarginSheet] = field(default_factory=dict)
    _states: dict[str, CharacterState] = field(default_factory=dict)
    _health: dict[str, int] = field(default_factory=dict)
    _luck_spent: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.options = read_options(self.view.options)

    def combatant(self, cid: str, role: str) -> CombatantView:
        return self.view.combatant(cid, role)

    def name(self, cid: str) -> str:
        return self.view.combatants[cid].name

    def sheet(self, cid: str) -> MarginSheet:
        if cid not in self._sheets:
            self._sheets[cid] = read_sheet(MarginSheet, self.view.combatants[cid].sheet)
        return self._sheets[cid]

    def state(self, cid: str) -> CharacterState:
        if cid in self._states:
            return self._states[cid]
        return CharacterState.from_json(self.view.combatants[cid].state)

    def set_state(self, cid: str, state: CharacterState) -> None:
        self._states[cid] = state

    def health(self, cid: str) -> int:
        if cid in self._health:
            return self._health[cid]
        return health_of(self.view.combatants[cid])

    def harm(self, cid: str, amount: int) -> Harm:
        """Take ``amount`` off health (it may go below 0) and say before and after."""
        before = self.health(cid)
        self._health[cid] = before - amount
        return Harm(before, before - amount)

    def has_luck(self, cid: str) -> bool:
        return self.state(cid).luck > 0

    def spend_luck(self, cid: str) -> None:
        self.set_state(cid, self.state(cid).spend_luck())
        self._luck_spent[cid] = self._luck_spent.get(cid, 0) + 1

    # -- conditions as they stood when the action began --------------------------

    def is_down(self, cid: str) -> bool:
        return "down" in self.view.combatants[cid].conditions

    def wounded_penalty(self, cid: str) -> int:
        wounded = "wounded" in self.view.combatants[cid].conditions
        return self.options.wounded_penalty if wounded else 0

    def exhaustion(self, cid: str) -> int:
        return self.state(cid).exhaustion(self.options.fatigue_per_exhaustion_die)

    def posture(self, cid: str) -> Posture | None:
        """The posture that counts now: declared this round, and its holder still standing."""
        if self.is_down(cid):
            return None
        return self.state(cid).posture_in(self.view.round)

    # -- the result ---------------------------------------------------------------

    @property
    def luck_spent(self) -> dict[str, int]:
        return dict(self._luck_spent)

    def outcome(self, summary: str, breakdown: JsonObject) -> Outcome:
        tracks = {
            cid: {**self.view.combatants[cid].tracks, "health": health}
            for cid, health in self._health.items()
        }
        states = {
            cid: {**self.view.combatants[cid].state, **state.as_json()}
            for cid, state in self._states.items()
        }
        return Outcome(summary, breakdown, tracks=tracks, state=states)
