"""The ``stamina-body`` ruleset (seed 001): 3d6, Stamina and Body, d6 damage tables."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from domain.rulesets.base import ActionType, DailyOutcome, Ruleset
from domain.rulesets.stamina_body.actions import TakeHit, resolve_take_hit
from domain.rulesets.stamina_body.care import (
    MarkWound,
    Recover,
    TreatWound,
    resolve_mark_wound,
    resolve_recover,
    resolve_treat_wound,
)
from domain.rulesets.stamina_body.combat import Attack, resolve_attack
from domain.rulesets.stamina_body.healing import DayPlan, daily_heal
from domain.rulesets.stamina_body.sheet import StaminaBodyOptions, StaminaBodySheet


class StaminaBody(Ruleset):
    id = "stamina-body"
    title = "Stamina and Body (seed 001)"
    sheet_model = StaminaBodySheet
    options_model = StaminaBodyOptions
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
        )
    }
    incapacitating = frozenset({"unconscious", "cannot_act"})
    day_plan_model = DayPlan
    wound_flags = frozenset({"piercing_wound", "broken_bones", "severe_bruising"})

    def daily(
        self,
        sheet: Mapping[str, Any],
        tracks: Mapping[str, int],
        state: Mapping[str, Any],
        plan: Any,
    ) -> DailyOutcome:
        heal = daily_heal(sheet, tracks, state, plan)
        wounds = {flag: bool(state.get(flag)) for flag in sorted(self.wound_flags)}
        breakdown = {
            "inputs": {"plan": plan.model_dump(mode="json"), "con": sheet["con"], **wounds},
            "before": dict(tracks),
            **heal.breakdown(),
        }
        return DailyOutcome(heal.tracks, dict(state), breakdown)

    def track_maxima(self, sheet: Mapping[str, Any]) -> dict[str, int]:
        return {"stamina": int(sheet["stamina_max"]), "body": int(sheet["body_max"])}

    def conditions(
        self, sheet: Mapping[str, Any], tracks: Mapping[str, int], state: Mapping[str, Any]
    ) -> tuple[str, ...]:
        found: list[str] = []
        if tracks["stamina"] < 0:
            found.append("stunned")
        if tracks["body"] < 0:
            found.append("unconscious")
        if tracks["body"] <= 0:
            found.append("cannot_act")
        for flag in ("piercing_wound", "broken_bones", "severe_bruising"):
            if state.get(flag):
                found.append(flag)
        return tuple(found)
