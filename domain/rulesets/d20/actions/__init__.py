"""The d20 actions, one module per family; each resolver is a pure function of the view."""

from __future__ import annotations

from collections.abc import Mapping

from skald_campaign.domain.rulesets.d20.actions.attack import Attack, resolve_attack
from skald_campaign.domain.rulesets.d20.actions.shove import Shove, resolve_shove
from skald_campaign.domain.rulesets.d20.actions.stance import (
    DefensiveStance,
    StandUp,
    resolve_defensive_stance,
    resolve_stand_up,
)
from skald_campaign.domain.rulesets.d20.actions.trip import Trip, resolve_trip
from skald_campaign.domain.rulesets.d20.actions.wrestling import (
    Escape,
    Grapple,
    Maintain,
    Release,
    Throw,
    resolve_escape,
    resolve_grapple,
    resolve_maintain,
    resolve_release,
    resolve_throw,
)
from skald_campaign.ruleset_api import ActionType

ACTIONS: Mapping[str, ActionType] = {
    action.kind: action
    for action in (
        ActionType(
            "attack",
            Attack,
            resolve_attack,
            "d20 + HR bonus vs AC with a weapon, an Unarmed Strike or a Shield Bash; "
            "a hit rolls damage through AV",
        ),
        ActionType(
            "defensive_stance",
            DefensiveStance,
            resolve_defensive_stance,
            "Defensive Stance: mastery bonus to FD until the round ends",
        ),
        ActionType(
            "shove",
            Shove,
            resolve_shove,
            "d20 + FR bonus vs FD: displacement, prone, walls, hazards",
        ),
        ActionType(
            "trip",
            Trip,
            resolve_trip,
            "d20 + FR bonus vs FD: the target falls prone where it stands",
        ),
        ActionType("grapple", Grapple, resolve_grapple, "seize a foe: d20 + FR vs FD"),
        ActionType("maintain", Maintain, resolve_maintain, "keep a hold: d20 + FR vs FD"),
        ActionType("escape", Escape, resolve_escape, "break a hold: d20 + FR vs the holder's FD"),
        ActionType(
            "throw",
            Throw,
            resolve_throw,
            "throw the foe you hold: d20 + FR vs FD; prone and shove-die damage",
        ),
        ActionType("release", Release, resolve_release, "let go of the foe you hold"),
        ActionType("stand_up", StandUp, resolve_stand_up, "get up from prone"),
    )
}
