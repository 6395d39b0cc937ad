"""Roll preview: which rolls an action about to happen will need, under human names.

A table rolling physical dice must know in advance each roll's name, pool size and
die, and which rolls may follow (a luck re-roll, a Ward's interception, a hazard
save, damage if the blow lands). The preview resolves the action on a scratch copy
of the encounter's state, exploring low, high and middling faces for every roll in
turn, so every branch the dice can take is walked; rolls made on every branch are
needed, the others may follow. Nothing is recorded and nothing is rolled for real.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from skald_campaign.domain.errors import DiceError, DomainError
from skald_campaign.domain.play.dice import DiceTray, Roll
from skald_campaign.domain.play.resolution import resolve
from skald_campaign.domain.rulesets.base import (
    Awaiting,
    EncounterView,
    JsonMapping,
    JsonObject,
    Ruleset,
)

OWNED_BY_TARGET = {"defense", "hazard_save"}
WHEN = (
    (".luck", "if the roll before it totals 0 or less and they still have a luck point"),
    ("ward.", "if the blow still has margin after the ally's own defense"),
    ("hazard_save", "if the push reaches the hazard"),
    ("wall_damage", "if the push meets the wall"),
    ("throw_damage", "if the throw succeeds"),
    ("damage", "if the blow lands"),
    ("defense", "if the hit succeeds and the defender parries or dodges"),
)


def _strategy(choice: int, count: int, sides: int) -> list[int]:
    if choice == 0:
        return [1] * count
    if choice == 1:
        return [sides] * count
    pattern = [max(1, sides // 2), min(sides, sides // 2 + 2)]  # some hits, some misses
    return [pattern[i % 2] for i in range(count)]


class _ExploringTray(DiceTray):
    """Feeds the n-th roll the faces its strategy picks; remembers what each roll was."""

    def __init__(self, choose: Callable[[int], int]) -> None:
        super().__init__(None)
        self.choose = choose

    def roll(self, name: str, count: int, sides: int, modifier: int = 0) -> Roll:
        self._supplied[name] = _strategy(self.choose(len(self.rolls)), count, sides)
        return super().roll(name, count, sides, modifier)


@dataclass(frozen=True)
class _Strategy:
    """Faces for the n-th roll: ``first`` for the actor's first roll, ``single`` for roll
    number ``k``, ``rest`` for every other one (0 low, 1 high, 2 middling)."""

    first: int
    rest: int
    k: int = -1
    single: int = 0

    def __call__(self, index: int) -> int:
        if index == 0:
            return self.first
        return self.single if index == self.k else self.rest


def _strategies(rolls_seen: int) -> list[_Strategy]:
    """The first roll against all the rest, each low, high or middling; then each single
    roll low, high or middling against the rest: every branch a roll's outcome opens (a
    luck re-roll, a Ward, damage, a hazard save) is walked."""
    picks = [_Strategy(a, b) for a in range(3) for b in range(3)]
    for k in range(1, rolls_seen):
        for single, rest in ((0, 1), (0, 2), (1, 0), (2, 0), (2, 1), (1, 2)):
            picks += [_Strategy(first, rest, k, single) for first in range(3)]
    return picks


def human_name(
    technical: str,
    view: EncounterView,
    actor: str | None,
    params: JsonMapping,
) -> str:
    """'Goblin's parry', 'Thrain's ward guard', 'Ally's evasion (luck)': stable, no ids."""
    parts = technical.split(".")
    luck = len(parts) > 1 and parts[-1] == "luck"
    if luck:
        parts = parts[:-1]
    owners = [p for p in parts if p in view.combatants]
    rest = [p for p in parts if p not in view.combatants and p != "defense"]
    target = params.get("target")
    if owners:
        owner: str | None = owners[0]
        what = " ".join(rest)
    elif technical in OWNED_BY_TARGET or actor is None:
        owner = str(target) if target is not None else actor
        declared = params.get("defense")
        what = str(declared) if technical == "defense" and declared else technical
        what = "save" if technical == "hazard_save" else what
    else:
        owner, what = actor, technical
    known = owner is not None and owner in view.combatants
    who = view.combatants[owner].name if known and owner is not None else "the GM"
    return f"{who}'s {what.replace('_', ' ')}" + (" (luck)" if luck else "")


def _explore(
    rules: Ruleset, view: EncounterView, kind: str, actor: str | None, params: JsonMapping
) -> list[list[Roll]]:
    runs: list[list[Roll]] = []
    tried = 0
    most = 1
    while tried < len(_strategies(most)):
        choose = _strategies(most)[tried]
        tried += 1
        tray = _ExploringTray(choose)
        # Only the rolls are read: what the outcome would bring on is not worked out.
        resolve(rules, view, kind, actor, params, tray, strict_dice=False, note_conditions=False)
        runs.append(list(tray.rolls))
        most = max(most, len(tray.rolls))
    return runs


@dataclass(frozen=True)
class PreviewRoll:
    """One roll as the preview names it: the table's name and the rule's, and its dice."""

    name: str  # the human name ("Goblin's parry")
    roll: str  # the rule's name ("defense")
    dice: str
    count: int
    sides: int

    def as_json(self) -> JsonObject:
        return {
            "name": self.name,
            "roll": self.roll,
            "dice": self.dice,
            "count": self.count,
            "sides": self.sides,
        }


@dataclass(frozen=True)
class Preview:
    rolls: tuple[PreviewRoll, ...]  # made on every branch of the dice
    may_follow: tuple[PreviewRoll, ...]  # made on some

    def as_json(self) -> JsonObject:
        return {
            "rolls": [r.as_json() for r in self.rolls],
            "may_follow": [{**r.as_json(), "when": _when(r.roll)} for r in self.may_follow],
        }


def preview(
    rules: Ruleset, view: EncounterView, kind: str, actor: str | None, params: JsonMapping
) -> JsonObject:
    """The rolls this action needs now, and the rolls that may follow; refused as it would be."""
    return preview_rolls(rules, view, kind, actor, params).as_json()


def preview_rolls(
    rules: Ruleset, view: EncounterView, kind: str, actor: str | None, params: JsonMapping
) -> Preview:
    """``preview``, typed."""
    rules.validate_params(kind, params)
    if actor is not None and actor in view.combatants:
        rules.refuse_if_cannot_act(view.combatants[actor], kind)
    variants: list[JsonMapping] = [dict(params)]
    waiting = would_wait(rules, view, kind, actor, params)
    if waiting is not None:
        variants = [{**params, waiting.param: choice} for choice in waiting.choices]
    runs: list[tuple[JsonMapping, list[Roll]]] = []
    for variant in variants:
        runs += [(variant, run) for run in _explore(rules, view, kind, actor, variant)]
    return _summarise(view, actor, params, runs)


def would_wait(
    rules: Ruleset, view: EncounterView, kind: str, actor: str | None, params: JsonMapping
) -> Awaiting | None:
    """Would the action wait for a declaration (given a hit)? Then every choice is walked."""
    tray = _ExploringTray(lambda i: 0)  # all ones: a natural 3 always hits in 3d6
    return rules.awaiting(view, kind, actor, params, tray)


def _summarise(
    view: EncounterView,
    actor: str | None,
    params: JsonMapping,
    runs: list[tuple[JsonMapping, list[Roll]]],
) -> Preview:
    seen: dict[str, PreviewRoll] = {}
    counts: dict[str, int] = {}
    for variant, run in runs:
        for roll in run:
            human = human_name(roll.name, view, actor, variant)
            counts[human] = counts.get(human, 0) + 1
            if human not in seen:
                expression = roll.expression
                seen[human] = PreviewRoll(
                    human, roll.name, str(expression), expression.count, expression.sides
                )
    needed = tuple(r for name, r in seen.items() if counts[name] == len(runs))
    follow = tuple(r for name, r in seen.items() if counts[name] < len(runs))
    return Preview(needed, follow)


def _when(technical: str) -> str:
    for marker, why in WHEN:
        if marker in technical:
            return why
    return "depending on the dice before it"


def technical_dice(
    rules: Ruleset,
    view: EncounterView,
    kind: str,
    actor: str | None,
    params: JsonMapping,
    dice: Mapping[str, list[int]] | None,
) -> tuple[dict[str, list[int]] | None, dict[str, str]]:
    """Dice supplied under preview names, renamed to the rolls the rules make; and the
    names the caller used, by rule name, so a breakdown can speak the caller's words."""
    if not dice or not any("'s " in name for name in dice):
        return (dict(dice) if dice else None), {}
    try:
        shown = preview_rolls(rules, view, kind, actor, params)
    except DomainError:
        return dict(dice), {}  # the action itself will say what is wrong
    by_human = {r.name: r.roll for r in [*shown.rolls, *shown.may_follow]}
    renamed = {by_human.get(name, name): faces for name, faces in dice.items()}
    return renamed, {by_human[name]: name for name in dice if name in by_human}


def refuse_unknown_rolls(
    rules: Ruleset,
    view: EncounterView,
    kind: str,
    actor: str | None,
    params: JsonMapping,
    names: Iterable[str],
    aliases: Mapping[str, str] | None = None,
) -> None:
    """Refuse dice supplied under a name this action never rolls, on any branch of the
    dice ('Damage' for 'damage', a typo): left unused, the server would roll its own
    and the table would never know. Dice for a roll that may follow but did not (damage
    after a miss) stay allowed. The message names each unknown roll as the caller did,
    and the rolls the action takes."""
    unused = list(names)
    if not unused:
        return
    try:
        shown = preview_rolls(rules, view, kind, actor, params)
    except DomainError:
        return  # the action itself is refused, and says why
    rolls = [*shown.rolls, *shown.may_follow]
    # The roll named after the action (d20's moves: grapple, trip, shove...) is its own
    # even where the rules refuse it before any die (a grapple with a shield in hand):
    # the table may have rolled it, and it is noted as unused rather than refused. An
    # action that does roll knows its rolls by their names: dice for "attack" on a d20
    # attack (its roll is "hit") are refused, not left unused while the server rolls.
    own = set() if rolls else {kind}
    known = {r.roll for r in rolls} | {r.name for r in rolls} | own
    unknown = [name for name in unused if name not in known]
    if not unknown:
        return
    said = ", ".join(f"'{(aliases or {}).get(name, name)}'" for name in unknown)
    named = (f"{r.roll} ({r.name})" for r in rolls)  # the rule's name, the table's
    takes = ", ".join(dict.fromkeys(named)) or "none"
    raise DiceError(
        f"dice were supplied for {said}, which this {kind.replace('_', ' ')} never rolls; "
        f"the rolls it takes: {takes}"
    )
