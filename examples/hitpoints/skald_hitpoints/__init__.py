"""Hit points: a plain ruleset for Skald (examples/hitpoints/RULES.md).

An attack rolls NdS + the attacker's bonus against the target's defense; a hit rolls
the weapon's damage dice, taken off the target's hit points. At half hit points or
less a character is bloodied, at 0 down. A short rest, the daily rule, gives back a
quarter of the character's maximum hit points (at least 1), up to the maximum.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar, Literal

from pydantic import Field, StrictInt, StrictStr, field_validator
from skald_campaign.ruleset_api import (
    ActionType,
    DailyOutcome,
    DiceError,
    DiceExpression,
    DiceTray,
    EncounterView,
    Frozen,
    InvalidInput,
    JsonMapping,
    JsonObject,
    Outcome,
    RulesetOf,
    SheetLike,
    read_sheet,
)

__version__ = "0.1.0"


def _dice(text: str) -> str:
    try:
        return str(DiceExpression.parse(text))
    except DiceError as error:
        raise ValueError(str(error)) from None


class Sheet(Frozen):
    """A character: hit points, defense, attack dice and bonus, damage, initiative."""

    hp: StrictInt = Field(ge=1, le=999, description="maximum hit points")
    defense: StrictInt = Field(ge=1, le=99, description="what an attack total must reach")
    attack: StrictStr = Field(default="1d20", description="the attack dice, NdS")
    attack_bonus: StrictInt = Field(default=0, ge=-20, le=50, description="added to the attack")
    damage: StrictStr = Field(default="1d6", description="damage dice, NdS+K")
    initiative: StrictInt = Field(default=0, ge=-10, le=20, description="added to initiative")

    @field_validator("attack", "damage")
    @classmethod
    def _notation(cls, text: str) -> str:
        return _dice(text)


class Options(Frozen):
    """This ruleset's one rule; the table's options (initiative, actions per round,
    skipping, NPC numbers) are Skald's and come with every ruleset."""

    natural_max_hits: bool = Field(
        default=True, description="the highest face on every attack die hits whatever the total"
    )


class AttackParams(Frozen):
    target: StrictStr = Field(description="the one attacked: their combatant id")


class DamageParams(Frozen):
    target: StrictStr = Field(description="the one hurt: their combatant id")
    damage: StrictStr = Field(description="damage dice, NdS+K (a trap, a fall)")

    @field_validator("damage")
    @classmethod
    def _notation(cls, text: str) -> str:
        return _dice(text)


class ShortRest(Frozen):
    """The day's plan: a short rest, or none."""

    rest: Literal["short", "none"] = "short"


def _sheet(sheet: SheetLike) -> Sheet:
    return read_sheet(Sheet, sheet)


def _hurt(view: EncounterView, target: str, damage: int) -> tuple[int, int]:
    before = int(view.combatant(target, "target").tracks["hp"])
    return before, max(0, before - damage)


def attack(view: EncounterView, actor: str | None, params: AttackParams, tray: DiceTray) -> Outcome:
    if actor is None:
        raise InvalidInput("an attack names its attacker (actor)")
    attacker = view.combatant(actor, "attacker")
    target = view.combatant(params.target, "target")
    own, theirs = _sheet(attacker.sheet), _sheet(target.sheet)
    dice = DiceExpression.parse(own.attack)
    roll = tray.roll("attack", dice.count, dice.sides, dice.modifier + own.attack_bonus)
    natural = dice.count > 0 and all(face == dice.sides for face in roll.faces)
    lucky = natural and view.options.get("natural_max_hits", True) is True
    hit = roll.total >= theirs.defense or lucky
    breakdown: JsonObject = {
        "attack": {"dice": str(roll.expression), "faces": list(roll.faces), "total": roll.total},
        "defense": theirs.defense,
        "hit": hit,
    }
    if not hit:
        summary = f"{attacker.name} misses {target.name} ({roll.total} vs {theirs.defense})"
        return Outcome(summary, breakdown)
    damage = tray.roll_expression("damage", DiceExpression.parse(own.damage))
    taken = max(0, damage.total)
    before, after = _hurt(view, target.id, taken)
    breakdown["damage"] = {
        "dice": str(damage.expression),
        "faces": list(damage.faces),
        "total": taken,
        "hp": {"before": before, "after": after},
    }
    summary = f"{attacker.name} hits {target.name} for {taken} ({roll.total} vs {theirs.defense})"
    return Outcome(summary, breakdown, tracks={target.id: {"hp": after}})


def take_damage(
    view: EncounterView, actor: str | None, params: DamageParams, tray: DiceTray
) -> Outcome:
    target = view.combatant(params.target, "target")
    damage = tray.roll_expression("damage", DiceExpression.parse(params.damage))
    taken = max(0, damage.total)
    before, after = _hurt(view, target.id, taken)
    breakdown: JsonObject = {
        "damage": {
            "dice": str(damage.expression),
            "faces": list(damage.faces),
            "total": taken,
            "hp": {"before": before, "after": after},
        }
    }
    summary = f"{target.name} takes {taken} damage"
    return Outcome(summary, breakdown, tracks={target.id: {"hp": after}})


# How the pages show it (Skald's docs/rulesets.md, "Optional capabilities"): plain data.
PRESENTATION: JsonMapping = {
    "labels": {"attack": "Attack", "take_damage": "Take damage"},
    "panel": ["attack", "take_damage"],
    # The GM screen's keys: h opens the attack for whoever's turn it is, d the GM's damage.
    "shortcuts": {"h": "attack", "d": "take_damage"},
    "templates": {
        "Fighter (template)": {
            "hp": 12,
            "defense": 14,
            "attack": "1d20",
            "attack_bonus": 3,
            "damage": "1d8",
            "initiative": 2,
        },
        "Goblin (template)": {
            "hp": 7,
            "defense": 12,
            "attack": "1d20",
            "attack_bonus": 1,
            "damage": "1d6",
            "initiative": 1,
        },
    },
}


class HitPoints(RulesetOf[Sheet]):
    id = "hitpoints"
    title = "Hit points (example)"
    # Bumped only when a rule changes what an action, a day, a sheet or a condition comes
    # to; a campaign records it (Skald's docs/rulesets.md, "Versions").
    version = "0.1.0"
    distribution = "skald-hitpoints"
    sheet_model = Sheet
    options_model = Options
    initiative_adds = ("initiative", "attack_bonus")
    actions: ClassVar[Mapping[str, ActionType]] = {
        "attack": ActionType("attack", AttackParams, attack, "roll to hit, then damage"),
        "take_damage": ActionType(
            "take_damage", DamageParams, take_damage, "the GM's damage: a trap, a fall", True
        ),
    }
    incapacitating = frozenset({"down"})
    cannot_act_at_all = frozenset({"down"})
    day_plan_model = ShortRest

    def presentation(self) -> JsonMapping:
        """What the GM screen shows of it (published at /rulesets): its buttons' words,
        its keys and two starter sheets."""
        return PRESENTATION

    def track_descriptor(self, tracks: Mapping[str, int], maxima: Mapping[str, int]) -> str | None:
        """The word players read for an NPC's hit points: its condition, as the
        conditions below say it (else Skald's hurt or unhurt)."""
        hp = tracks.get("hp", 0)
        if hp <= 0:
            return "down"
        if "hp" in maxima and 2 * hp <= maxima["hp"]:
            return "bloodied"
        return None

    def track_maxima(self, sheet: SheetLike) -> dict[str, int]:
        return {"hp": self.sheet(sheet).hp}

    def conditions(
        self, sheet: SheetLike, tracks: Mapping[str, int], state: JsonMapping
    ) -> tuple[str, ...]:
        hp, most = tracks["hp"], self.sheet(sheet).hp
        if hp <= 0:
            return ("down",)
        return ("bloodied",) if 2 * hp <= most else ()

    def daily(
        self, sheet: SheetLike, tracks: Mapping[str, int], state: JsonMapping, plan: Frozen
    ) -> DailyOutcome:
        if not isinstance(plan, ShortRest):
            raise TypeError(f"a hit-points day plan is a ShortRest, not {type(plan).__name__}")
        most, before = self.sheet(sheet).hp, int(tracks["hp"])
        healed = max(1, most // 4) if plan.rest == "short" else 0
        after = min(most, before + healed)
        breakdown: JsonObject = {
            "rest": plan.rest,
            "hp": {"before": before, "healed": after - before, "after": after, "max": most},
        }
        return DailyOutcome({"hp": after}, dict(state), breakdown)
