"""The margin actions: their parameters and resolvers, one per combatant per round.

Roll names (supply faces under these to use a table's physical dice):

- ``attack`` (and ``attack.luck``): the attack or spell pool.
- ``defense.<target>.<evasion|guard|abjuration>`` (and ``....luck``): the target's defenses.
- ``ward.<dwarf>.<evasion|guard|abjuration>`` (and ``....luck``): a Ward's interception.

Postures roll nothing when declared; a Riposte's counter is never rolled.
"""

from __future__ import annotations

from pydantic import Field, StrictInt

from skald_campaign.domain.rulesets.margin.postures import declare
from skald_campaign.domain.rulesets.margin.sheet import FISTS_NAME
from skald_campaign.domain.rulesets.margin.strike import resolve_strike
from skald_campaign.ruleset_api import ActionType, DiceTray, EncounterView, Frozen, Outcome

EFFORT_FIELD = Field(
    default=0,
    ge=0,
    le=10,
    description="effort dice bought (0 to the campaign's max_effort); each adds fatigue",
)


class Attack(Frozen):
    target: str = Field(min_length=1, description="the one attacked: their combatant id")
    weapon: str = Field(
        default=FISTS_NAME, min_length=1, description="a weapon on the actor's sheet, or fists"
    )
    effort: StrictInt = EFFORT_FIELD


class Cast(Frozen):
    target: str = Field(
        min_length=1, description="the one the spell is cast at: their combatant id"
    )
    spell: str = Field(min_length=1, description="a spell on the actor's sheet")
    effort: StrictInt = EFFORT_FIELD


class Defend(Frozen):
    effort: StrictInt = EFFORT_FIELD


class Riposte(Frozen):
    effort: StrictInt = EFFORT_FIELD
    weapon: str | None = Field(
        default=None,
        min_length=1,
        description="M17: the weapon or spell (or fists) the elf counters with, and only "
        "it; left out, the first on her sheet that reaches, preferring one that spends "
        "no ammunition, then fists",
    )


class Ward(Frozen):
    effort: StrictInt = EFFORT_FIELD


def resolve_attack(
    view: EncounterView, actor: str | None, params: Attack, tray: DiceTray
) -> Outcome:
    return resolve_strike(
        view,
        actor,
        kind="attack",
        weapon_name=params.weapon,
        target_id=params.target,
        effort=params.effort,
        tray=tray,
    )


def resolve_cast(view: EncounterView, actor: str | None, params: Cast, tray: DiceTray) -> Outcome:
    return resolve_strike(
        view,
        actor,
        kind="cast",
        weapon_name=params.spell,
        target_id=params.target,
        effort=params.effort,
        tray=tray,
    )


def resolve_defend(
    view: EncounterView, actor: str | None, params: Defend, tray: DiceTray
) -> Outcome:
    return declare(view, actor, "defend", params.effort)


def resolve_riposte(
    view: EncounterView, actor: str | None, params: Riposte, tray: DiceTray
) -> Outcome:
    return declare(view, actor, "riposte", params.effort, params.weapon)


def resolve_ward(view: EncounterView, actor: str | None, params: Ward, tray: DiceTray) -> Outcome:
    return declare(view, actor, "ward", params.effort)


ACTIONS: dict[str, ActionType] = {
    "attack": ActionType(
        "attack",
        Attack,
        resolve_attack,
        "strike a target with a weapon (or fists): attribute + skill + effort against "
        "every defense the weapon allows; the margin becomes damage",
    ),
    "cast": ActionType(
        "cast",
        Cast,
        resolve_cast,
        "cast a spell at a target: a spell is a weapon with a non-physical damage type",
    ),
    "defend": ActionType(
        "defend",
        Defend,
        resolve_defend,
        "a posture for the rest of the round: every allowed defense rolls actively, "
        "effort on each, against every attacker",
    ),
    "riposte": ActionType(
        "riposte",
        Riposte,
        resolve_riposte,
        "elves only: a posture for the rest of the round; sharpened evasion, and a "
        "turned melee or reach blow comes back as a counter",
    ),
    "ward": ActionType(
        "ward",
        Ward,
        resolve_ward,
        "dwarves only: a posture for the rest of the round; he defends actively and "
        "intercepts every blow that beats an ally at his rank or behind",
    ),
}
