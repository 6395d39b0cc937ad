"""Margin's odds helpers (docs/odds.md): a pool is read as its total, a blow depends on
its rolls only through the running margin, and the attacks a combatant can make."""

from __future__ import annotations

from collections.abc import Hashable
from functools import lru_cache

from skald_campaign.domain.rulesets.margin.pools import read_faces
from skald_campaign.domain.rulesets.margin.sheet import MarginSheet
from skald_campaign.ruleset_api import CombatantView, JsonMapping, read_sheet
from skald_campaign.ruleset_api.odds import (
    Choice,
    FaceKey,
    Faces,
    Features,
    Memo,
    Script,
    object_at,
    shift_luck,
)


@lru_cache(maxsize=8)
def pool_total(success_on: int) -> FaceKey:
    """M1 and M8: a margin pool is read as its total (successes, or -1 below nothing)."""

    def key(faces: Faces) -> Hashable:
        return read_faces(faces, success_on).total

    return key


def _luck_owner(roll: str, attacker: str) -> str | None:
    """Whose luck a margin roll spent: ``attack.luck`` the attacker's, the rest by name."""
    parts = roll.split(".")
    if parts[-1] != "luck":
        return None
    return attacker if parts[0] == "attack" else parts[1]


def _shift_luck(features: Hashable, by: dict[str, int]) -> Hashable:
    """readers.shift_luck on the explorer's features (which the margin reader made)."""
    if not isinstance(features, Features):
        raise TypeError(f"margin's memo shifts a reader's Features, not {type(features).__name__}")
    return shift_luck(features, by)


def margin_memo(success_on: int, attacker: str) -> Memo:
    """M8, M9, M13: a margin blow depends on its rolls only through the running margin.

    The attack adds its total, each defense takes its total off, and so does each of a
    Ward's rolls, counted as max(0, total) (what remains after them is all the
    interception uses); a roll superseded by luck's second look no longer counts. The
    last roll stays apart while it is blank (0 or less): luck may still look again.
    The key also holds which rolls were made and the luck its roller has spent (the
    rolls of one combatant come together, so nobody else's luck can matter again);
    the luck spent is carried beside the key as the path's past.
    """
    read: dict[tuple[int, ...], int] = {}

    def pool_total(faces: tuple[int, ...]) -> int:
        if faces not in read:
            read[faces] = read_faces(faces, success_on).total
        return read[faces]

    def spent(script: Script) -> dict[str, int]:
        luck: dict[str, int] = {}
        for name, _ in script:
            owner = _luck_owner(name, attacker)
            if owner is not None:
                luck[owner] = luck.get(owner, 0) + 1
        return luck

    def owner_of(roll: str) -> str:
        parts = roll.split(".")
        return attacker if parts[0] == "attack" else parts[1]

    def key(script: Script) -> Hashable | None:
        totals = {name: pool_total(faces) for name, faces in script}
        last = script[-1][0] if script else None
        made: list[str] = []
        margin = 0
        pending: int | None = None
        for name, total in totals.items():
            parts = name.split(".")
            if parts[-1] != "luck":
                made.append(name)
            if f"{name}.luck" in totals:
                continue
            if name == last and total <= 0 and parts[-1] != "luck":
                pending = total
            elif parts[0] == "attack":
                margin += total
            elif parts[0] == "defense":
                margin -= total
            elif parts[0] == "ward":
                margin -= max(0, total)
            else:
                return None
        rolling = spent(script).get(owner_of(last), 0) if last is not None else 0
        return (tuple(made), rolling, margin, pending)

    return Memo(key, spent, _shift_luck)


def result(kind: str, b: JsonMapping) -> str:
    if kind not in ("attack", "cast"):
        return "declared"
    ward, riposte = object_at(b, "ward"), object_at(b, "riposte")
    if ward.get("stopped"):
        return "stopped_by_ward"
    if ward.get("dwarf") is not None:
        return "intercepted"
    if b.get("damage") is not None:
        return "hit"
    if riposte.get("answered"):
        return "countered"
    return "miss"


def attack_choices(attacker: CombatantView, target: str, effort: int) -> list[Choice]:
    """Each weapon (fists too), then each spell, at the given effort; each label says the
    effort (M6: effort dice join the pool), "sword (effort 0)", so a reader of the odds
    (the player's page asks at effort 0) knows they are not those of a harder swing."""
    sheet = read_sheet(MarginSheet, attacker.sheet)
    weapons = [w.name for w in sheet.weapons]
    strikes = [*weapons, *(["fists"] if "fists" not in weapons else [])]
    return [
        Choice(
            f"{name} (effort {effort})",
            "attack",
            {"target": target, "weapon": name, "effort": effort},
        )
        for name in strikes
    ] + [
        Choice(
            f"{name} (effort {effort})", "cast", {"target": target, "spell": name, "effort": effort}
        )
        for name in (s.name for s in sheet.spells)
    ]
