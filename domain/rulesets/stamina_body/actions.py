"""Stamina-body actions: each resolves over frozen state and recorded dice."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from domain.dice import DiceTray
from domain.rulesets.base import CombatantView, EncounterView, Frozen, Outcome
from domain.rulesets.stamina_body import rules


class TakeHit(Frozen):
    """The seed's Take-hit panel: a hit has landed on ``target``; work out what it does."""

    target: str = Field(description="combatant id of the character who was hit")
    damage_type: Literal["impact", "piercing"]
    damage_class: int = Field(ge=1, le=20, description="d6 read on the damage table")
    set_weapon: bool = False
    charge: bool = False
    extra_strength: bool = False
    parried: bool = Field(default=False, description="the target parried successfully")
    hit_score: int | None = Field(default=None, ge=-30, le=30)
    parry_score: int | None = Field(default=None, ge=-30, le=30)
    ignore_armour: bool = False
    ignore_shield: bool = False


def apply_damage(
    target: CombatantView,
    faces_roll_name: str,
    tray: DiceTray,
    *,
    damage_type: str,
    dice: int,
    shield: rules.ShieldDecision,
    ignore_armour: bool,
    ignore_shield: bool,
) -> tuple[dict[str, Any], dict[str, int], dict[str, Any]]:
    """Roll and read the damage dice, soak them, and return breakdown, tracks and state."""
    roll = tray.roll(faces_roll_name, dice, 6)
    reading = rules.read_damage(roll.faces, damage_type)
    resilience = rules.effective_resilience(
        armour=int(target.sheet["armour_resilience"]),
        shield=int(target.sheet["shield_resilience"]),
        shield_counts=shield.counts,
        ignore_armour=ignore_armour,
        ignore_shield=ignore_shield,
    )
    absorption = rules.absorb(reading.stamina, reading.body, resilience.total)
    tracks = {
        "stamina": target.tracks["stamina"] - absorption.stamina,
        "body": target.tracks["body"] - absorption.body,
    }
    state = dict(target.state)
    wounded = damage_type == "piercing" and absorption.body > 0
    if wounded:
        state["piercing_wound"] = True
    breakdown = {
        "damage_dice": {"count": dice, "faces": list(roll.faces)},
        "reading": reading.breakdown(),
        "shield": {"counts": shield.counts, "why": shield.reason},
        "resilience": {
            "armour": resilience.armour,
            "shield": resilience.shield,
            "total": resilience.total,
            "notes": list(resilience.notes),
        },
        "absorption": absorption.breakdown(),
        "tracks": {
            "stamina": {"before": target.tracks["stamina"], "after": tracks["stamina"]},
            "body": {"before": target.tracks["body"], "after": tracks["body"]},
        },
        "piercing_wound": wounded,
    }
    return breakdown, tracks, state


def resolve_take_hit(
    view: EncounterView, actor: str | None, params: TakeHit, tray: DiceTray
) -> Outcome:
    target = view.combatant(params.target, "target")
    per_option = int(view.options["extra_dice_per_option"])
    extras = per_option * (int(params.set_weapon) + int(params.charge) + int(params.extra_strength))
    dice = params.damage_class + extras
    shield = rules.shield_decision(
        parried=params.parried, hit_score=params.hit_score, parry_score=params.parry_score
    )
    breakdown, tracks, state = apply_damage(
        target,
        "damage",
        tray,
        damage_type=params.damage_type,
        dice=dice,
        shield=shield,
        ignore_armour=params.ignore_armour,
        ignore_shield=params.ignore_shield,
    )
    breakdown["damage_dice"]["class"] = params.damage_class
    breakdown["damage_dice"]["options"] = {
        "set_weapon": params.set_weapon,
        "charge": params.charge,
        "extra_strength": params.extra_strength,
        "dice_added": extras,
    }
    net = breakdown["absorption"]["net"]
    summary = (
        f"{target.name} takes {net['stamina']} Stamina and {net['body']} Body "
        f"({breakdown['reading']['raw']['stamina']}/{breakdown['reading']['raw']['body']} raw)"
    )
    return Outcome(summary, breakdown, {target.id: tracks}, {target.id: state})
