"""The ``margin`` ruleset (seed 000): dice pools, every defense at once, margin into damage.

Sheet and options: :mod:`.sheet`, :mod:`.options`. Dice: :mod:`.pools`. Pure rules:
:mod:`.rules`. Actions: :mod:`.actions` (attack, cast, defend, riposte, ward), built
on :mod:`.strike`, :mod:`.defense`, :mod:`.riposte` and :mod:`.postures`. Between
fights: :mod:`.daily`. The rules as implemented: ``RULES.md`` beside this module.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from typing import ClassVar

from skald_campaign.domain.rulesets.margin import narrator, odds, texts
from skald_campaign.domain.rulesets.margin.actions import ACTIONS
from skald_campaign.domain.rulesets.margin.daily import Rest, apply_day
from skald_campaign.domain.rulesets.margin.options import (
    DEFAULT_OPTIONS,
    INITIATIVE_ADDS,
    MarginOptions,
    read_options,
)
from skald_campaign.domain.rulesets.margin.presentation import PRESENTATION
from skald_campaign.domain.rulesets.margin.ratings import derived_ratings
from skald_campaign.domain.rulesets.margin.sheet import MarginSheet
from skald_campaign.domain.rulesets.margin.state import CharacterState, is_down
from skald_campaign.domain.rulesets.margin.tracks import Health
from skald_campaign.domain.rulesets.margin.turn import m5_refusal
from skald_campaign.ruleset_api import (
    ActionType,
    CombatantView,
    DailyOutcome,
    EncounterView,
    Frozen,
    JsonMapping,
    JSONObject,
    JsonObject,
    RulesetOf,
    SheetLike,
    StateObject,
)
from skald_campaign.ruleset_api.narrative import Roster
from skald_campaign.ruleset_api.odds import Choice, FaceModel, Memo, RunCost


class MarginDayPlan(Frozen):
    """How a character spent the day: full rest, light activity or none."""

    rest: Rest = "full"


class Margin(RulesetOf[MarginSheet]):
    id = "margin"
    title = "Margin (seed 000)"
    version = "1.0.0"  # bumped only when a rule changes (docs/rulesets.md, "Versions")
    distribution = "skald-campaign"
    sheet_model = MarginSheet
    options_model = MarginOptions
    initiative_adds = INITIATIVE_ADDS

    # Narration (RULINGS T3a): its texts' builders (texts.py), and its plain narrative.
    summaries = (texts.summary,)
    narratives = (texts.narrative,)
    outcomes = (texts.outcome,)
    party_finders = (texts.parties,)

    # The odds (docs/odds.md): a run costs pools, postures, luck and Wards.
    odds_run_cost = RunCost(base=450, per_die=5)

    def face_model(
        self, options: JsonMapping, roll_name: str, damage_type: str | None
    ) -> FaceModel | None:
        success_on = read_options(options).success_on
        return FaceModel(f"pool total (success on {success_on}+)", key=odds.pool_total(success_on))

    def odds_memo(
        self, view: EncounterView, kind: str, actor: str | None, params: JsonMapping
    ) -> Memo | None:
        if kind in ("attack", "cast") and actor is not None:
            return odds.margin_memo(read_options(view.options).success_on, actor)
        return None

    def attack_choices(self, attacker: CombatantView, target: str, effort: int) -> list[Choice]:
        return odds.attack_choices(attacker, target, effort)

    def odds_result(self, kind: str, breakdown: JsonMapping) -> str | None:
        return odds.result(kind, breakdown)

    def standing(self, tracks: Mapping[str, int]) -> str:
        return texts.standing(tracks)

    def narrate(self, record: JSONObject, combatants: Roster) -> list[str] | None:
        return narrator.margin(record, combatants)

    actions: ClassVar[Mapping[str, ActionType]] = ACTIONS
    # M7: a character who is down cannot act; the aggregate refuses before resolving.
    incapacitating = frozenset({"down"})
    cannot_act_at_all = frozenset({"down"})  # T1 (M7)
    # M6, M8: what the state counts beside health, and what a day between fights restores.
    counters: ClassVar[Mapping[str, str]] = {
        "fatigue": "effort paid: fatigue // fatigue_per_exhaustion_die exhaustion dice come "
        "off attacks and active defenses (M6); a full-rest day clears it, a light day divides "
        "it by light_day_fatigue_divisor",
        "luck": "luck points left: a roll of 0 or less is rolled once more, spending one "
        "(M8); a full-rest day refills them to the sheet's luck",
    }

    def __init__(self, options: MarginOptions = DEFAULT_OPTIONS) -> None:
        # The campaign's options (M18): health default, wounded threshold, light day.
        self.campaign_options = options

    def under(self, options: JsonMapping) -> Margin:
        # Options are JSON (the initiative option an object): their canonical text is
        # the cache's key.
        return _configured(json.dumps(options, sort_keys=True))

    def complete_sheet(self, typed: Frozen, given: JsonMapping) -> Frozen:
        if isinstance(typed, MarginSheet) and given.get("health") is None:
            # M18: a sheet that states no health gets the campaign's default.
            health = self.campaign_options.default_health(typed.vigor)
            return typed.model_copy(update={"health": health})
        return typed

    def track_maxima(self, sheet: SheetLike) -> dict[str, int]:
        return {"health": self.sheet(sheet).max_health}

    def state_counters(self, sheet: SheetLike) -> dict[str, int | None]:
        # M6, M8: fatigue has no maximum; luck refills to the sheet's value, its maximum.
        return {"fatigue": None, "luck": self.sheet(sheet).luck}

    def start_state(self, sheet: SheetLike) -> StateObject:
        return {**CharacterState.start(self.sheet(sheet)).as_json()}

    def conditions(
        self, sheet: SheetLike, tracks: Mapping[str, int], state: JsonMapping
    ) -> tuple[str, ...]:
        health = Health.from_json(tracks).health
        found: list[str] = []
        if self.campaign_options.is_wounded(health, self.sheet(sheet).max_health):
            found.append("wounded")
        if is_down(health):
            found.append("down")
        return tuple(found)

    def track_descriptor(self, tracks: Mapping[str, int], maxima: Mapping[str, int]) -> str | None:
        """T3: down (health <= 0), wounded (M7, M18: health <= the campaign's
        ``wounded_at`` x maximum, compared exactly)."""
        health = tracks.get("health", 0)
        if health <= 0:
            return "down"
        if "health" in maxima and health <= self.campaign_options.wounded_at * maxima["health"]:
            return "wounded"
        return None

    def turn_refusal(self, name: str, state: JsonMapping, round: int) -> str | None:
        return m5_refusal(name, CharacterState.from_json(state), round)

    def derived_ratings(self, sheet: SheetLike, state: JsonMapping) -> JsonObject:
        return derived_ratings(self.sheet(sheet), CharacterState.from_json(state))

    day_plan_model = MarginDayPlan

    def daily(
        self,
        sheet: SheetLike,
        tracks: Mapping[str, int],
        state: JsonMapping,
        plan: Frozen,
    ) -> DailyOutcome:
        if not isinstance(plan, MarginDayPlan):
            raise TypeError(f"a margin day plan is a MarginDayPlan, not {type(plan).__name__}")
        day = apply_day(self.sheet(sheet), state, plan.rest, self.campaign_options)
        breakdown: JsonObject = {
            "inputs": plan.model_dump(mode="json"),
            **day.breakdown,
            "health": "seed 000 has no healing rule; health is the GM's call",
        }
        return DailyOutcome(dict(tracks), day.state, breakdown)

    def state_after_encounter(self, state: JsonMapping) -> StateObject:
        """The state a character carries out of an encounter: round marks forgotten.

        A posture and the "has acted" mark name a round number, and the next encounter
        counts rounds from 1 again; the caller that closes an encounter should pass each
        combatant's state through this so they do not leak into the next fight.
        """
        return {**state, **CharacterState.from_json(state).without_round_marks().as_json()}

    def presentation(self) -> JsonMapping:
        return PRESENTATION


@lru_cache(maxsize=64)
def _configured(options: str) -> Margin:
    return Margin(read_options(json.loads(options)))
