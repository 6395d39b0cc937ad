"""Shove: d20 + FR bonus against FD, with size, Forceful Defense, terrain, walls and hazards."""

from __future__ import annotations

from pydantic import Field, model_validator

from skald_campaign.domain.rulesets.d20 import rules
from skald_campaign.domain.rulesets.d20.actions.common import (
    PRONE,
    Aimed,
    HpChange,
    end_holds,
    opponent,
    options_of,
    release_if_down,
    require_actor,
    sheet_of,
    take_damage,
    target_number,
)
from skald_campaign.domain.rulesets.d20.ratings import (
    Rating,
    Term,
    armor_value,
    fr_bonus,
    shove_resist,
)
from skald_campaign.domain.rulesets.d20.sheet import D20Options, D20Sheet
from skald_campaign.domain.rulesets.d20.tables import SLIPPERY_EXTRA_FEET
from skald_campaign.ruleset_api import (
    CombatantView,
    DiceTray,
    EncounterView,
    JsonObject,
    Outcome,
    StateObject,
)


class Shove(Aimed):
    attacker_higher_ground: bool = Field(default=False, description="+1 step to the shove die")
    slippery: bool = Field(default=False, description="+2 ft to the displacement")
    wall_at_feet: int | None = Field(
        default=None, ge=0, le=200, description="a wall or solid object this far behind the target"
    )
    hazard_at_feet: int | None = Field(
        default=None, ge=0, le=200, description="a hazard's edge this far behind the target"
    )
    hazard: str = Field(default="the hazard", min_length=1, max_length=80)

    @model_validator(mode="after")
    def _consistent_ground(self) -> Shove:
        if self.attacker_higher_ground and self.defender_higher_ground:
            raise ValueError("only one of attacker and defender can be on the higher ground")
        if self.wall_at_feet is not None and self.wall_at_feet == self.hazard_at_feet:
            raise ValueError("a wall and a hazard cannot be at the same distance; which is first?")
        return self


def _distance(attacker: D20Sheet, double: bool, slippery: bool, options: D20Options) -> Rating:
    terms = [rules.success_distance(attacker.size, double, options)]
    if slippery:
        terms.append(Term("slippery surface", SLIPPERY_EXTRA_FEET))
    return Rating(tuple(terms))


def _obstacle(params: Shove, feet: int) -> tuple[str, int] | None:
    """The nearest wall or hazard the push would carry the target past, if any."""
    in_the_way = [
        (at, kind)
        for kind, at in (("wall", params.wall_at_feet), ("hazard", params.hazard_at_feet))
        if at is not None and at < feet
    ]
    if not in_the_way:
        return None
    at, kind = min(in_the_way)
    return kind, at


def _into_wall(
    defender: CombatantView,
    attacker_fr: int,
    shove_die: rules.ShoveDie,
    unused: int,
    options: D20Options,
    tray: DiceTray,
) -> tuple[JsonObject, HpChange | None]:
    """The wall's damage: shown, and the HP change (None when no die is rolled)."""
    dice = rules.wall_damage_dice(attacker_fr, options.wall_damage_minimum_dice)
    shown: JsonObject = {"unused_feet": unused, "shove_dice": dice}
    if dice == 0:
        # Nothing is rolled, so no die is named (the summary and breakdown stay true).
        shown["why"] = (
            f"no shove die: FR {attacker_fr:+d} has no full 2 points and the minimum is 0"
        )
        return shown, None
    die = shove_die.die
    shown["why"] = (
        f"one {die} per full 2 points of FR {attacker_fr:+d}, "
        f"at least {options.wall_damage_minimum_dice}"
    )
    roll = tray.roll("wall_damage", dice * die.count, die.sides)
    damage = rules.physical_damage(roll.total, armor_value(sheet_of(defender)))
    hp = take_damage(defender, damage.dealt)
    shown.update(faces=list(roll.faces), damage=damage.breakdown, hp=hp.breakdown())
    return shown, hp


def _into_hazard(defender: CombatantView, params: Shove, tray: DiceTray) -> tuple[bool, JsonObject]:
    """Whether the target saved and stops at the edge, and the save as shown."""
    save = sheet_of(defender).save_vs_death_ray
    face = tray.roll("hazard_save", 1, 20).faces[0]
    saved = face >= save
    return saved, {
        "hazard": params.hazard,
        "save_vs_death_ray": save,
        "d20": face,
        "comparison": f"{face} {'>=' if saved else '<'} {save}",
        "saved": saved,
        "result": "stops at the very edge"
        if saved
        else f"goes into {params.hazard}; its own effects and saves follow",
    }


def _forceful_note(reached: bool, forceful: bool) -> str:
    if reached and forceful:
        return "; Forceful Defense denies the double success"
    return ""


def resolve_shove(
    view: EncounterView, actor_id: str | None, params: Shove, tray: DiceTray
) -> Outcome:
    attacker_view = require_actor(view, actor_id, "a shove")
    defender_view = opponent(view, params.target, attacker_view, "shove")
    options = options_of(view)
    attacker, defender = sheet_of(attacker_view), sheet_of(defender_view)
    attacker_fr, defender_fr = fr_bonus(attacker), fr_bonus(defender)
    size = rules.size_penalty(attacker, defender)
    terms = [Term("FR bonus", attacker_fr.value), size.term()]
    if params.fr_modifier:
        terms.append(Term("situational modifier", params.fr_modifier))
    fd = target_number(defender_view, view, params)
    face = tray.roll("shove", 1, 20).faces[0]
    check = rules.d20_check(face, Rating(tuple(terms)), "FD", fd)

    threshold = fd.value + options.double_success_margin
    reached = check.success and check.total >= threshold
    forceful = rules.forceful_defense(attacker_fr.value, defender_fr.value)
    double = reached and not forceful
    breakdown: JsonObject = {
        "roll": check.breakdown(),
        "fr_bonus": {"attacker": attacker_fr.as_dict(), "defender": defender_fr.as_dict()},
        "size_penalty": size.breakdown(),
        "double_success": {
            "threshold": threshold,
            "reached": reached,
            "forceful_defense": forceful,
            "forceful_defense_why": (
                f"defender FR {defender_fr.value:+d} "
                f"{'exceeds' if forceful else 'does not exceed'} attacker FR "
                f"{attacker_fr.value:+d}"
            ),
            "result": double,
        },
        "shove_resist": shove_resist(
            defender,
            uphill=params.defender_higher_ground,
            difficult_terrain=params.difficult_terrain,
        ).as_dict(),
        "terrain": params.model_dump(exclude={"target", "fr_modifier"}),  # JSON values
    }
    if not check.success:
        summary = f"{attacker_view.name} fails to shove {defender_view.name} ({check.comparison()})"
        return Outcome(summary, breakdown)

    distance = _distance(attacker, double, params.slippery, options)
    moved, stopped_by = distance.value, None
    tracks: dict[str, dict[str, int]] = {}
    states: dict[str, StateObject] = {}
    if double:
        states[defender_view.id] = {**defender_view.state, PRONE: True}
    let_go = ""
    obstacle = _obstacle(params, distance.value)
    if obstacle is not None:
        kind, at = obstacle
        moved, stopped_by = at, kind
        if kind == "wall":
            die = rules.shove_die(defender.size, attacker_fr.value, params.attacker_higher_ground)
            wall, hurt = _into_wall(
                defender_view, attacker_fr.value, die, distance.value - at, options, tray
            )
            breakdown["wall"] = wall
            if hurt is not None:
                breakdown["shove_die"] = die.breakdown  # shown only when it is rolled
                tracks[defender_view.id] = hurt.tracks
                let_go = release_if_down(view, defender_view, hurt.after, states)
        else:
            saved, breakdown["hazard"] = _into_hazard(defender_view, params, tray)
            stopped_by = "edge" if saved else "hazard"
    breakdown["displacement"] = {
        **distance.as_dict(),
        "moved_feet": moved,
        "stopped_by": stopped_by,
    }
    breakdown["prone"] = double
    if moved > 0:
        ended = end_holds(view, defender_view, states)
        if ended:
            breakdown["hold"] = "broken: moved by a shove (D11)"
            let_go = f"; the hold with {' and '.join(ended)} ends"
    summary = (
        f"{attacker_view.name} shoves {defender_view.name} {moved} ft"
        + (" and knocks them prone" if double else "")
        + f" ({check.comparison()}{', double success' if double else ''}"
        + _forceful_note(reached, forceful)
        + ")"
        + {
            None: "",
            "wall": ", into the wall",
            "edge": f"; saves and stops at the edge of {params.hazard}",
            "hazard": f"; fails the save and goes into {params.hazard}",
        }[stopped_by]
        + let_go
    )
    return Outcome(summary, breakdown, tracks=tracks, state=states)
