"""The ``stamina-body`` ruleset (seed 001): 3d6, Stamina and Body, d6 damage tables."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from skald_campaign.domain.rulesets.stamina_body import odds, texts
from skald_campaign.domain.rulesets.stamina_body.actions import TakeHit, resolve_take_hit
from skald_campaign.domain.rulesets.stamina_body.bleeding import (
    BLED_ROUND,
    STABILISED,
    Bleed,
    Stabilise,
    bleeding,
    resolve_bleed,
    resolve_stabilise,
)
from skald_campaign.domain.rulesets.stamina_body.care import (
    MarkWound,
    Recover,
    TreatWound,
    refuse_ending_an_absent_wound,
    resolve_mark_wound,
    resolve_recover,
    resolve_treat_wound,
)
from skald_campaign.domain.rulesets.stamina_body.combat import Attack, resolve_attack
from skald_campaign.domain.rulesets.stamina_body.declarations import awaiting_defense
from skald_campaign.domain.rulesets.stamina_body.healing import DayPlan, daily_heal
from skald_campaign.domain.rulesets.stamina_body.presentation import PRESENTATION
from skald_campaign.domain.rulesets.stamina_body.sheet import (
    INITIATIVE_ADDS,
    StaminaBodyOptions,
    StaminaBodySheet,
)
from skald_campaign.domain.rulesets.stamina_body.tracks import Pools
from skald_campaign.ruleset_api import (
    ActionRefused,
    ActionType,
    Awaiting,
    CombatantView,
    DailyOutcome,
    DiceTray,
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
from skald_campaign.ruleset_api.odds import TOTAL, Choice, FaceModel, Memo, RunCost
from skald_campaign.ruleset_api.texts import render


class StaminaBody(RulesetOf[StaminaBodySheet]):
    id = "stamina-body"
    title = "Stamina and Body (seed 001)"
    version = "1.0.0"  # bumped only when a rule changes (docs/rulesets.md, "Versions")
    distribution = "skald-campaign"
    sheet_model = StaminaBodySheet
    options_model = StaminaBodyOptions
    initiative_adds = INITIATIVE_ADDS

    # Narration (RULINGS T3a): its texts' builders (texts.py), and its plain narrative.
    summaries = (texts.summary,)
    narratives = (texts.narrative,)
    outcomes = (texts.outcome,)

    # The odds (docs/odds.md); a player may read the chance to hit an NPC with hidden
    # numbers: 3d6 against the attacker's own skill.
    odds_run_cost = RunCost(base=120, per_die=15)
    odds_public_hit_or_miss = frozenset({"attack"})

    def face_model(
        self, options: JsonMapping, roll_name: str, damage_type: str | None
    ) -> FaceModel | None:
        return odds.stamina_damage_model(damage_type) if roll_name == "damage" else TOTAL

    def odds_damage_type(
        self, view: EncounterView, kind: str, actor: str | None, params: JsonMapping
    ) -> str | None:
        return odds.stamina_body_damage_type(view, kind, actor, params)

    def odds_memo(
        self, view: EncounterView, kind: str, actor: str | None, params: JsonMapping
    ) -> Memo | None:
        return odds.stamina_body_attack_key(view, actor, params) if kind == "attack" else None

    def attack_choices(self, attacker: CombatantView, target: str, effort: int) -> list[Choice]:
        return odds.attack_choices(attacker, target)

    def odds_result(self, kind: str, breakdown: JsonMapping) -> str | None:
        return odds.result(kind, breakdown)

    def standing(self, tracks: Mapping[str, int]) -> str:
        return texts.standing(tracks)

    def narrate(self, record: JSONObject, combatants: Roster) -> list[str] | None:
        lines = self.narrative(record, combatants)
        return None if lines is None else [render(line) for line in lines]

    narrate_is_narrative = True  # `narrate` above: its narrative rendered, nothing else

    actions: ClassVar[Mapping[str, ActionType]] = {
        action.kind: action
        for action in (
            ActionType(
                "attack",
                Attack,
                resolve_attack,
                "hit roll, the defender's parry or dodge, and damage if it lands",
            ),
            ActionType(
                "take_hit",
                TakeHit,
                resolve_take_hit,
                "the Take-hit panel: a landed hit's damage dice read and soaked",
                gm_only=True,
            ),
            ActionType(
                "recover",
                Recover,
                resolve_recover,
                "3d6 against CON to win back Stamina (never Body, never past max)",
            ),
            ActionType(
                "treat_wound",
                TreatWound,
                resolve_treat_wound,
                "treat a piercing wound so it no longer slows Body's healing",
            ),
            ActionType(
                "mark_wound",
                MarkWound,
                resolve_mark_wound,
                "the GM records or ends a piercing wound, broken bones or severe bruising",
                gm_only=True,
            ),
            ActionType(
                "stabilise",
                Stabilise,
                resolve_stabilise,
                "spend the action to stop an unconscious combatant bleeding (no roll)",
            ),
            ActionType(
                "bleed",
                Bleed,
                resolve_bleed,
                "the round's bleeding: recorded by the server as each round starts",
                gm_only=True,
            ),
        )
    }
    incapacitating = frozenset({"unconscious", "cannot_act"})
    # T1 (amended): unconscious, and at 0 Body ("At 0 Body a character can't act until
    # they're back up to at least 1", seed 001); a stunned combatant with Body above 0
    # is not passed over: it may still Recover (S9).
    cannot_act_at_all = frozenset({"unconscious", "cannot_act"})
    # S9: a stunned combatant's only action is Recovery (the GM's tools are not actions).
    stunned_actions = frozenset({"recover"})
    day_plan_model = DayPlan
    wound_flags = frozenset({"piercing_wound", "broken_bones", "severe_bruising"})

    def awaiting(
        self,
        view: EncounterView,
        kind: str,
        actor: str | None,
        params: JsonMapping,
        tray: DiceTray,
    ) -> Awaiting | None:
        return awaiting_defense(view, kind, actor, params, tray)

    def daily(
        self,
        sheet: SheetLike,
        tracks: Mapping[str, int],
        state: JsonMapping,
        plan: Frozen,
    ) -> DailyOutcome:
        if not isinstance(plan, DayPlan):
            raise TypeError(f"a stamina-body day plan is a DayPlan, not {type(plan).__name__}")
        typed = self.sheet(sheet)
        heal = daily_heal(typed, tracks, state, plan)
        wounds = {flag: bool(state.get(flag)) for flag in sorted(self.wound_flags)}
        breakdown: JsonObject = {
            "inputs": {"plan": plan.model_dump(mode="json"), "con": typed.con, **wounds},
            "before": {**tracks},
            **heal.breakdown(),
        }
        return DailyOutcome(heal.tracks, dict(state), breakdown)

    def cannot_act_words(self, conditions: Sequence[str]) -> str | None:
        # Below 0 Body is both conditions; the one word says it (as before the ruling).
        if "unconscious" in conditions:
            return "is unconscious"
        if "cannot_act" in conditions:
            return "is at 0 Body and cannot act until back up to at least 1"
        return None

    def refuse_if_cannot_act(self, actor: CombatantView, kind: str) -> None:
        super().refuse_if_cannot_act(actor, kind)
        if "stunned" not in actor.conditions or kind in self.stunned_actions:
            return
        if self.action_type(kind).gm_only:
            return
        raise ActionRefused(
            f"{actor.name} cannot {kind.replace('_', ' ')}: stunned, and a stunned "
            "combatant's only action is recover (S9)"
        )

    def round_start_actions(self, view: EncounterView) -> tuple[str, ...]:
        return ("bleed",) if bleeding(view) else ()

    def refuse_wound_mark(self, name: str, state: JsonMapping, wound: str, present: bool) -> None:
        refuse_ending_an_absent_wound(name, state, wound, present)

    def state_after_encounter(self, state: JsonMapping) -> StateObject:
        # Bleeding stops when the encounter ends (S10): whoever bled in it leaves it
        # stabilised (until they take Body damage again); a stabilised one stays so.
        lasting = {key: value for key, value in state.items() if key != BLED_ROUND}
        if BLED_ROUND in state:
            lasting[STABILISED] = True
        return lasting

    def track_descriptor(self, tracks: Mapping[str, int], maxima: Mapping[str, int]) -> str | None:
        """T3: unconscious (Body < 0), stunned (Stamina < 0), winded (Stamina <= a third
        of its maximum)."""
        body, stamina = tracks.get("body", 0), tracks.get("stamina", 0)
        if body < 0:
            return "unconscious"
        if stamina < 0:
            return "stunned"
        if "stamina" in maxima and 3 * stamina <= maxima["stamina"]:
            return "winded"
        return None

    def track_maxima(self, sheet: SheetLike) -> dict[str, int]:
        typed = self.sheet(sheet)
        return {"stamina": typed.stamina_max, "body": typed.body_max}

    def conditions(
        self, sheet: SheetLike, tracks: Mapping[str, int], state: JsonMapping
    ) -> tuple[str, ...]:
        pools = Pools.from_json(tracks)
        found: list[str] = []
        if pools.stamina < 0:
            found.append("stunned")
        if pools.body < 0:
            found.append("unconscious")
        if pools.body <= 0:
            found.append("cannot_act")
        if not state:  # no flags to look up (their state is mostly empty)
            return tuple(found)
        if pools.body < 0 and state.get(STABILISED):
            found.append(STABILISED)
        for flag in ("piercing_wound", "broken_bones", "severe_bruising"):
            if state.get(flag):
                found.append(flag)
        return tuple(found)

    def presentation(self) -> JsonMapping:
        return PRESENTATION
