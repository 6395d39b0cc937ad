"""Trip (RULINGS D9): d20 + FR bonus - 4 per size category larger against FD; prone, not moved.

D9 names the size penalty but no mastery reduction (the seed gives that to the
Wrestling and Shove sections), and no double success. D8's terrain raises the
target number as in every FR contest; Defensive Stance counts, as FD includes it.
"""

from __future__ import annotations

from skald_campaign.domain.rulesets.d20 import rules
from skald_campaign.domain.rulesets.d20.actions.common import (
    PRONE,
    Aimed,
    opponent,
    require_actor,
    sheet_of,
    target_number,
)
from skald_campaign.domain.rulesets.d20.ratings import Rating, Term, fr_bonus
from skald_campaign.ruleset_api import ActionRefused, DiceTray, EncounterView, JsonObject, Outcome


class Trip(Aimed):
    """Knock the target prone where it stands."""


def resolve_trip(
    view: EncounterView, actor_id: str | None, params: Trip, tray: DiceTray
) -> Outcome:
    actor = require_actor(view, actor_id, "a trip")
    target = opponent(view, params.target, actor, "trip")
    if target.state.get(PRONE):
        raise ActionRefused(f"{target.name} is already prone, so there is nothing to trip")
    tripper, tripped = sheet_of(actor), sheet_of(target)
    fr = fr_bonus(tripper)
    size = rules.SizePenalty(
        tripper.size, tripped.size, rules.size_penalty(tripper, tripped).categories_larger, 0
    )
    terms = [Term("FR bonus", fr.value), size.term()]
    if params.fr_modifier:
        terms.append(Term("situational modifier", params.fr_modifier))
    face = tray.roll("trip", 1, 20).faces[0]
    check = rules.d20_check(face, Rating(tuple(terms)), "FD", target_number(target, view, params))
    breakdown: JsonObject = {
        "roll": check.breakdown(),
        "fr_bonus": fr.as_dict(),
        "size_penalty": size.breakdown(),
        "prone": check.success,
    }
    if not check.success:
        return Outcome(
            f"{actor.name} fails to trip {target.name} ({check.comparison()})", breakdown
        )
    return Outcome(
        f"{actor.name} trips {target.name}, who falls prone ({check.comparison()})",
        breakdown,
        state={target.id: {**target.state, PRONE: True}},
    )
