"""What every d20 action needs: sheets and options from the view, the actor, HP changes."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import Field

from skald_campaign.domain.rulesets.d20.ratings import Rating, force_defense, terrain_terms
from skald_campaign.domain.rulesets.d20.sheet import D20Options, D20Sheet, Strict
from skald_campaign.domain.rulesets.d20.tracks import hp_of
from skald_campaign.ruleset_api import (
    GM_CALL,
    ActionRefused,
    CombatantView,
    EncounterView,
    InvalidInput,
    JsonObject,
    StateObject,
    read_own_options,
    read_sheet,
)

# Per-character state keys (all JSON-native):
STANCE_ROUND = "stance_round"  # the round a Defensive Stance was taken; it ends with it
PRONE = "prone"  # True after a double-success shove, a throw or a trip, until one stands
GRAPPLING = "grappling"  # the combatant id this character holds
GRAPPLED_BY = "grappled_by"  # the combatant id holding this character


class Contest(Strict):
    """Parameters every FR contest shares: the situational modifier and D8's terrain."""

    fr_modifier: int = Field(
        default=0,
        ge=-20,
        le=20,
        description="GM call: situational modifiers",
        json_schema_extra=GM_CALL,
    )
    defender_higher_ground: bool = Field(
        default=False, description="D8: defender uphill, +2 to the target number"
    )
    difficult_terrain: bool = Field(
        default=False, description="D8: difficult terrain, +2 to the target number"
    )


class Aimed(Contest):
    target: str = Field(
        min_length=1,
        max_length=100,
        description="the one shoved, tripped or grappled: their combatant id",
    )


class Params(Strict):
    """Strict parameters for an action with nothing situational to say."""


def sheet_of(combatant: CombatantView) -> D20Sheet:
    """The combatant's typed sheet (read once from its stored JSON)."""
    return read_sheet(D20Sheet, combatant.sheet)


def options_of(view: EncounterView) -> D20Options:
    """The encounter's options, typed (read once per recorded options object)."""
    return read_own_options(D20Options, view.options)


def require_actor(view: EncounterView, actor: str | None, doing: str) -> CombatantView:
    if actor is None:
        raise InvalidInput(f"{doing} needs an actor: the combatant id of who does it")
    return view.combatant(actor, "actor")


def opponent(
    view: EncounterView, target_id: str, actor: CombatantView, doing: str
) -> CombatantView:
    target = view.combatant(target_id, "target")
    if target.id == actor.id:
        raise InvalidInput(f"{actor.name} cannot {doing} themself; name another combatant")
    refuse_a_third(view, actor, target, doing)
    return target


def refuse_a_third(
    view: EncounterView, actor: CombatantView, target: CombatantView, doing: str
) -> None:
    """D11a: a held character may escape or act against the holder, and only the holder."""
    holder = held_by(view, actor)
    if holder is not None and holder.id != target.id:
        raise ActionRefused(
            f"{actor.name} is held by {holder.name} and may escape or act against them, "
            f"never {doing} a third (D11)"
        )


def in_defensive_stance(combatant: CombatantView, round_number: int) -> bool:
    return combatant.state.get(STANCE_ROUND) == round_number


def force_defense_now(combatant: CombatantView, view: EncounterView) -> Rating:
    return force_defense(sheet_of(combatant), in_defensive_stance(combatant, view.round))


def target_number(defender: CombatantView, view: EncounterView, params: Contest) -> Rating:
    """FD now (with Defensive Stance) + D8's uphill and difficult terrain terms."""
    fd = force_defense_now(defender, view)
    terrain = terrain_terms(params.defender_higher_ground, params.difficult_terrain)
    # Only the terms are shown with a roll; a stance not taken has no place beside it.
    return Rating((*fd.terms, *terrain))


def is_down(combatant: CombatantView) -> bool:
    return hp_of(combatant) <= 0


def holding(view: EncounterView, combatant: CombatantView) -> CombatantView | None:
    """Whom this combatant holds, when both sides of the hold agree and are in this fight.

    D11: a holder who is down holds nobody, however it went down (an attack
    clears the hold in its own event; a GM's track adjustment does not).
    """
    held = view.combatants.get(str(combatant.state.get(GRAPPLING)))
    if held is not None and held.state.get(GRAPPLED_BY) == combatant.id and not is_down(combatant):
        return held
    return None


def held_by(view: EncounterView, combatant: CombatantView) -> CombatantView | None:
    holder = view.combatants.get(str(combatant.state.get(GRAPPLED_BY)))
    if holder is not None and holding(view, holder) is combatant:
        return holder
    return None


def released(holder: CombatantView, held: CombatantView) -> dict[str, StateObject]:
    """New full states of both sides of a hold that has ended."""
    holder_state = {k: v for k, v in holder.state.items() if k != GRAPPLING}
    held_state = {k: v for k, v in held.state.items() if k != GRAPPLED_BY}
    return {holder.id: holder_state, held.id: held_state}


@dataclass(frozen=True)
class HpChange:
    """What damage did to a combatant's HP: the new tracks, and before and after."""

    tracks: dict[str, int]
    before: int
    after: int

    @property
    def down(self) -> bool:
        return self.after <= 0

    def breakdown(self) -> JsonObject:
        return {"before": self.before, "after": self.after, "down": self.down}


def take_damage(target: CombatantView, dealt: int) -> HpChange:
    """Lower HP by ``dealt``."""
    before = hp_of(target)
    after = before - dealt
    return HpChange({**target.tracks, "hp": after}, before, after)


def _new_state(view: EncounterView, states: dict[str, StateObject], cid: str) -> StateObject:
    if cid not in states:
        states[cid] = dict(view.combatants[cid].state)
    return states[cid]


def end_holds(view: EncounterView, who: CombatantView, states: dict[str, StateObject]) -> list[str]:
    """D11: end every hold ``who`` is party to; ``states`` gets the new full states.

    Returns the names of the other parties, for the summary.
    """
    ended: list[str] = []
    held = holding(view, who)
    if held is not None:
        _new_state(view, states, who.id).pop(GRAPPLING, None)
        _new_state(view, states, held.id).pop(GRAPPLED_BY, None)
        ended.append(held.name)
    holder = held_by(view, who)
    if holder is not None:
        _new_state(view, states, who.id).pop(GRAPPLED_BY, None)
        _new_state(view, states, holder.id).pop(GRAPPLING, None)
        ended.append(holder.name)
    return ended


def release_if_down(
    view: EncounterView, who: CombatantView, hp_after: int, states: dict[str, StateObject]
) -> str:
    """D11: a holder who goes down lets go; returns a note for the summary ('' if nothing)."""
    held = holding(view, who)
    if hp_after > 0 or held is None:
        return ""
    _new_state(view, states, who.id).pop(GRAPPLING, None)
    _new_state(view, states, held.id).pop(GRAPPLED_BY, None)
    return f"; {who.name} goes down and lets go of {held.name}"
