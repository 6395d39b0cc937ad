"""Wrestling: grapple, maintain, escape, throw (FR against FD) and letting go.

The armor table's notes that forbid a move (a shield cannot start a grapple,
plate cannot be thrown by a same-size foe) are recorded as refused attempts,
so the log shows what was tried and why it could not happen. A move that makes
no sense in the current state (escaping when nobody holds you) is refused with
an error and records nothing.
"""

from __future__ import annotations

from skald_campaign.domain.rulesets.d20 import rules
from skald_campaign.domain.rulesets.d20.actions.common import (
    GRAPPLED_BY,
    GRAPPLING,
    PRONE,
    Aimed,
    Contest,
    Params,
    end_holds,
    held_by,
    holding,
    opponent,
    options_of,
    refuse_a_third,
    released,
    require_actor,
    sheet_of,
    take_damage,
    target_number,
)
from skald_campaign.domain.rulesets.d20.ratings import Rating, Term, armor_value, fr_bonus
from skald_campaign.ruleset_api import (
    ActionRefused,
    CombatantView,
    DiceTray,
    EncounterView,
    JsonObject,
    Outcome,
)


class Grapple(Aimed):
    """Seize the target: d20 + FR against its FD (D8's terrain raising it)."""


class Maintain(Contest):
    """Keep the hold the actor has; the held character is read from the actor's state."""


class Escape(Contest):
    """Break free of whoever holds the actor; the terrain flags describe the holder."""


class Throw(Contest):
    """Throw the character the actor holds."""


class Release(Params):
    """No parameters: the actor lets go of whoever they hold."""


def _contest(
    view: EncounterView,
    actor: CombatantView,
    target: CombatantView,
    move: str,
    params: Contest,
    tray: DiceTray,
) -> tuple[rules.Check, JsonObject]:
    """The wrestling roll: d20 + FR + size penalty + armor and shield terms vs the target's FD."""
    options = options_of(view)
    mover, other = sheet_of(actor), sheet_of(target)
    fr = fr_bonus(mover)
    size = rules.size_penalty(mover, other)
    terms = [Term("FR bonus", fr.value), size.term(), *rules.wrestling_terms(mover, options, move)]
    if params.fr_modifier:
        terms.append(Term("situational modifier", params.fr_modifier))
    face = tray.roll(move, 1, 20).faces[0]
    check = rules.d20_check(face, Rating(tuple(terms)), "FD", target_number(target, view, params))
    breakdown: JsonObject = {
        "move": move,
        "refused": False,
        "roll": check.breakdown(),
        "fr_bonus": fr.as_dict(),
        "size_penalty": size.breakdown(),
    }
    return check, breakdown


def _refused(actor: CombatantView, move: str, target: CombatantView, why: str) -> Outcome:
    breakdown: JsonObject = {
        "move": move,
        "refused": True,
        "why": why,
        "rule": "Armor Wrestling Penalties",
    }
    return Outcome(f"{actor.name} cannot {move} {target.name}: {why}", breakdown)


def _the_hold(view: EncounterView, actor: CombatantView, move: str) -> CombatantView:
    held = holding(view, actor)
    if held is None:
        raise ActionRefused(
            f"{actor.name} holds nobody, so there is nothing to {move}; grapple first"
        )
    if move != "release":  # letting go is no act against anyone
        refuse_a_third(view, actor, held, move)
    return held


def resolve_grapple(
    view: EncounterView, actor_id: str | None, params: Grapple, tray: DiceTray
) -> Outcome:
    actor = require_actor(view, actor_id, "a grapple")
    target = opponent(view, params.target, actor, "grapple")
    already = holding(view, actor)
    if already is not None:
        raise ActionRefused(f"{actor.name} already holds {already.name}; release or throw first")
    holder = held_by(view, target)
    if holder is not None:
        raise ActionRefused(f"{target.name} is already held by {holder.name}")
    own_holder = held_by(view, actor)
    if own_holder is not None and own_holder.id == target.id:
        raise ActionRefused(
            f"{actor.name} is held by {target.name}, and two characters never hold each other "
            "(D11); escape instead"
        )
    # A third is refused by ``opponent`` (D11a), whatever the move.
    why = rules.grapple_refusal(sheet_of(actor))
    if why is not None:
        return _refused(actor, "grapple", target, why)
    check, breakdown = _contest(view, actor, target, "grapple", params, tray)
    if not check.success:
        summary = f"{actor.name} fails to grapple {target.name} ({check.comparison()})"
        return Outcome(summary, breakdown)
    state = {
        actor.id: {**actor.state, GRAPPLING: target.id},
        target.id: {**target.state, GRAPPLED_BY: actor.id},
    }
    breakdown["hold"] = "taken"
    return Outcome(
        f"{actor.name} grapples {target.name} ({check.comparison()})", breakdown, state=state
    )


def resolve_maintain(
    view: EncounterView, actor_id: str | None, params: Maintain, tray: DiceTray
) -> Outcome:
    actor = require_actor(view, actor_id, "maintaining a hold")
    target = _the_hold(view, actor, "maintain")
    check, breakdown = _contest(view, actor, target, "maintain", params, tray)
    if check.success:
        breakdown["hold"] = "kept"
        summary = f"{actor.name} keeps hold of {target.name} ({check.comparison()})"
        return Outcome(summary, breakdown)
    breakdown["hold"] = "broken"
    return Outcome(
        f"{actor.name} loses hold of {target.name} ({check.comparison()})",
        breakdown,
        state=released(actor, target),
    )


def resolve_escape(
    view: EncounterView, actor_id: str | None, params: Escape, tray: DiceTray
) -> Outcome:
    actor = require_actor(view, actor_id, "an escape")
    holder = held_by(view, actor)
    if holder is None:
        raise ActionRefused(f"{actor.name} is not held by anyone, so there is nothing to escape")
    check, breakdown = _contest(view, actor, holder, "escape", params, tray)
    if not check.success:
        breakdown["hold"] = "kept"
        summary = f"{actor.name} fails to escape {holder.name} ({check.comparison()})"
        return Outcome(summary, breakdown)
    breakdown["hold"] = "broken"
    return Outcome(
        f"{actor.name} escapes {holder.name} ({check.comparison()})",
        breakdown,
        state=released(holder, actor),
    )


def resolve_throw(
    view: EncounterView, actor_id: str | None, params: Throw, tray: DiceTray
) -> Outcome:
    actor = require_actor(view, actor_id, "a throw")
    target = _the_hold(view, actor, "throw")
    options = options_of(view)
    thrower, thrown = sheet_of(actor), sheet_of(target)
    why = rules.throw_refusal(thrower, thrown, options)
    if why is not None:
        return _refused(actor, "throw", target, why)
    check, breakdown = _contest(view, actor, target, "throw", params, tray)
    if not check.success:
        breakdown["hold"] = "kept"
        summary = f"{actor.name} fails to throw {target.name} ({check.comparison()})"
        return Outcome(summary, breakdown)
    states = released(actor, target)
    end_holds(view, target, states)  # D11: whoever else the thrown one held or was held by
    states[target.id][PRONE] = True
    breakdown.update(hold="broken", prone=True)
    tracks: dict[str, dict[str, int]] = {}
    shown: JsonObject = {"shove_dice": options.throw_damage_dice}
    hurt = ""
    if options.throw_damage_dice:
        die = rules.shove_die(thrown.size, fr_bonus(thrower).value)
        shown["shove_die"] = die.breakdown  # shown only when it is rolled
        roll = tray.roll("throw_damage", options.throw_damage_dice * die.die.count, die.die.sides)
        damage = rules.physical_damage(roll.total, armor_value(thrown))
        hp = take_damage(target, damage.dealt)
        tracks[target.id] = hp.tracks
        shown.update(faces=list(roll.faces), damage=damage.breakdown, hp=hp.breakdown())
        hurt = f", {damage.dealt} damage; HP {hp.before} -> {hp.after}"
    breakdown["throw_damage"] = shown
    return Outcome(
        f"{actor.name} throws {target.name} to the ground ({check.comparison()}){hurt}",
        breakdown,
        tracks=tracks,
        state=states,
    )


def resolve_release(
    view: EncounterView, actor_id: str | None, params: Release, tray: DiceTray
) -> Outcome:
    actor = require_actor(view, actor_id, "letting go")
    target = _the_hold(view, actor, "release")
    return Outcome(
        f"{actor.name} lets go of {target.name}",
        {"hold": "released"},
        state=released(actor, target),
    )
