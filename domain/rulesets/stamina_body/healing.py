"""A day between fights (seed 001, RULINGS S8), as one pure function with its arithmetic."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from pydantic import StrictBool

from skald_campaign.domain.rulesets.stamina_body.sheet import StaminaBodySheet
from skald_campaign.domain.rulesets.stamina_body.tracks import Pools
from skald_campaign.ruleset_api import (
    Frozen,
    JsonMapping,
    JsonObject,
    SheetLike,
    read_sheet,
)

Rest = Literal["full", "light", "none"]


class DayPlan(Frozen):
    """How one character spent the day; the defaults are what a GM usually means."""

    rest: Rest = "full"
    care: StrictBool = True
    healer: StrictBool = False


@dataclass(frozen=True)
class DailyHeal:
    stamina_gain: int
    body_gain: int
    tracks: dict[str, int]
    steps: tuple[str, ...]

    def breakdown(self) -> JsonObject:
        return {
            "stamina_gain": self.stamina_gain,
            "body_gain": self.body_gain,
            "tracks": {**self.tracks},
            "steps": list(self.steps),
        }


def stamina_for_rest(lost: int, rest: Rest) -> tuple[int, str]:
    if rest == "full":
        return lost, f"full rest: all {lost} lost Stamina back"
    if rest == "light":
        return lost // 2, f"light activity: {lost} lost // 2 = {lost // 2}"
    return 0, "no rest: no Stamina back"


def body_rate(
    con: int, plan: DayPlan, *, piercing_wound: bool, slowed: bool
) -> tuple[int, list[str]]:
    """The Body rate before the cap, step by step in the ruling's order."""
    steps: list[str] = []
    rate = con // 5
    if plan.care:
        steps.append(f"with care: CON {con} // 5 = {rate}")
    else:
        steps.append(f"without care: (CON {con} // 5) // 2 = {rate} // 2 = {rate // 2}")
        rate //= 2
    if piercing_wound:
        steps.append(f"untreated piercing wound: {rate} - 1 = {rate - 1}")
        rate -= 1
        # S8 as amended: clamp here, before halving and the healer, so that the
        # healer's point always counts (CON 4: 0 - 1 -> 0, // 2 = 0, + 1 = 1).
        if rate < 0:
            steps.append(f"never below 0 from here on: {rate} -> 0")
            rate = 0
    if slowed:
        steps.append(f"broken bones or severe bruising: {rate} // 2 = {rate // 2}")
        rate //= 2
    if plan.healer:
        steps.append(f"healer: {rate} + 1 = {rate + 1}")
        rate += 1
    return rate, steps


def daily_heal(
    stored: SheetLike,
    tracks: Mapping[str, int],
    state: JsonMapping,
    plan: DayPlan,
) -> DailyHeal:
    sheet = read_sheet(StaminaBodySheet, stored)
    stamina_max, body_max = sheet.stamina_max, sheet.body_max
    pools = Pools.from_json(tracks)
    stamina, body = pools.stamina, pools.body
    lost = max(0, stamina_max - stamina)
    stamina_gain, stamina_step = stamina_for_rest(lost, plan.rest)
    steps = [stamina_step]
    body_gain = 0
    if plan.rest == "none":
        steps.append("no rest: Body does not heal")
    else:
        rate, rate_steps = body_rate(
            sheet.con,
            plan,
            piercing_wound=bool(state.get("piercing_wound")),
            slowed=bool(state.get("broken_bones") or state.get("severe_bruising")),
        )
        steps.extend(rate_steps)
        body_gain = max(0, min(rate, body_max - body))
        if body_gain < rate:
            steps.append(f"never past max {body_max}: +{body_gain}")
    new_tracks = {"stamina": stamina + stamina_gain, "body": body + body_gain}
    return DailyHeal(stamina_gain, body_gain, new_tracks, tuple(steps))
