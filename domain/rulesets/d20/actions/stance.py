"""Defensive Stance (mastery bonus to FD until the round ends) and standing up from prone."""

from __future__ import annotations

from skald_campaign.domain.rulesets.d20.actions.common import (
    PRONE,
    STANCE_ROUND,
    Params,
    require_actor,
    sheet_of,
)
from skald_campaign.domain.rulesets.d20.ratings import force_defense
from skald_campaign.ruleset_api import ActionRefused, DiceTray, EncounterView, JsonObject, Outcome


class DefensiveStance(Params):
    """No parameters: the actor takes the stance for the rest of the current round."""


class StandUp(Params):
    """No parameters: the actor gets up from prone."""


def resolve_defensive_stance(
    view: EncounterView, actor_id: str | None, params: DefensiveStance, tray: DiceTray
) -> Outcome:
    actor = require_actor(view, actor_id, "a defensive stance")
    sheet = sheet_of(actor)
    before, during = force_defense(sheet), force_defense(sheet, in_defensive_stance=True)
    state = {**actor.state, STANCE_ROUND: view.round}
    breakdown: JsonObject = {
        "mastery_bonus": sheet.defensive_stance_mastery,
        "fd_before": before.value,
        "fd_in_stance": during.as_dict(),
        "until": f"the end of round {view.round}",
    }
    summary = (
        f"{actor.name} takes a Defensive Stance: FD {before.value} -> {during.value} "
        f"until round {view.round} ends"
    )
    return Outcome(summary, breakdown, state={actor.id: state})


def resolve_stand_up(
    view: EncounterView, actor_id: str | None, params: StandUp, tray: DiceTray
) -> Outcome:
    actor = require_actor(view, actor_id, "standing up")
    if not actor.state.get(PRONE):
        raise ActionRefused(f"{actor.name} is not prone, so there is nothing to stand up from")
    state = {k: v for k, v in actor.state.items() if k != PRONE}
    return Outcome(
        f"{actor.name} stands up",
        {"prone": {"before": True, "after": False}},
        state={actor.id: state},
    )
