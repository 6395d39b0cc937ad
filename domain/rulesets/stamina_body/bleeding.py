"""Bleeding out (RULINGS S10) and the stabilising that stops it.

At the start of each new round every unconscious combatant who is not
stabilised loses ``bleed_per_round`` Body. The encounter records that loss as
an action of kind ``bleed`` with no actor, so corrections replay it like any
other action; another combatant spends their action to ``stabilise``.
"""

from __future__ import annotations

from pydantic import Field, JsonValue

from skald_campaign.domain.rulesets.stamina_body.sheet import options_of
from skald_campaign.domain.rulesets.stamina_body.tracks import Pools, pools_of
from skald_campaign.ruleset_api import (
    ActionRefused,
    CombatantView,
    DiceTray,
    EncounterView,
    Frozen,
    InvalidInput,
    JsonObject,
    Outcome,
    StateObject,
)

STABILISED = "stabilised"
BLED_ROUND = "bled_round"  # the round whose bleeding was taken: at most once a round


def bleeding(view: EncounterView) -> list[CombatantView]:
    """Who loses Body now: unconscious, not stabilised, not yet bled this round."""
    if options_of(view).bleed_per_round <= 0:
        return []
    return [
        c
        for c in view.combatants.values()
        if "unconscious" in c.conditions
        and not c.state.get(STABILISED)
        and c.state.get(BLED_ROUND) != view.round
    ]


class Bleed(Frozen):
    """This round's bleeding; the server records it as each new round starts."""


def resolve_bleed(view: EncounterView, actor: str | None, params: Bleed, tray: DiceTray) -> Outcome:
    loss = options_of(view).bleed_per_round
    who = bleeding(view)
    if not who:
        raise ActionRefused(
            f"nobody bleeds in round {view.round}: no unconscious, unstabilised combatant "
            "has yet to bleed this round"
        )
    tracks: dict[str, dict[str, int]] = {}
    state: dict[str, StateObject] = {}
    lines: list[JsonValue] = []
    for c in who:
        pools = pools_of(c)
        before = pools.body
        tracks[c.id] = Pools(pools.stamina, before - loss).as_json()
        state[c.id] = {**c.state, BLED_ROUND: view.round}
        lines.append({"combatant": c.id, "body": {"before": before, "after": before - loss}})
    names = ", ".join(c.name for c in who)
    breakdown: JsonObject = {
        "round": view.round,
        "bleed_per_round": loss,
        "why": "unconscious and not stabilised (S10)",
        "bled": lines,
    }
    verb = "bleeds" if len(who) == 1 else "bleed"
    return Outcome(f"{names} {verb} {loss} Body", breakdown, tracks, state)


class Stabilise(Frozen):
    """Spend the action to stop an unconscious combatant's bleeding (no roll)."""

    target: str = Field(max_length=64, description="the unconscious one: their combatant id")


def resolve_stabilise(
    view: EncounterView, actor: str | None, params: Stabilise, tray: DiceTray
) -> Outcome:
    if actor is None:
        raise InvalidInput("stabilising needs an actor: the combatant spending their action")
    helper = view.combatant(actor, "actor")
    target = view.combatant(params.target, "target")
    if target.id == helper.id:
        raise InvalidInput(f"{helper.name} cannot stabilise themself; another combatant must")
    if "unconscious" not in target.conditions:
        raise ActionRefused(f"{target.name} is not unconscious: only the unconscious bleed")
    if target.state.get(STABILISED):
        raise ActionRefused(f"{target.name} is already stabilised")
    state = {**target.state, STABILISED: True}
    breakdown: JsonObject = {"target": target.id, "by": helper.id, "stabilised": True}
    return Outcome(f"{helper.name} stabilises {target.name}", breakdown, state={target.id: state})
