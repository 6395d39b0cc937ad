"""What the rest of a resolution depends on, for the two rulesets whose trees are deep.

A key maps the rolls made so far to what the rules will still use of them. Two
paths with the same key lead to the same outcomes with the same probabilities,
so the explorer resolves the rest once. A key is a claim about the rules: the
unit tests (``test_odds_memo.py``) check every one against the unkeyed
enumeration, so a rules change that breaks a claim fails there, and a roll a key
does not know (``None``) is simply explored in full.
"""

from __future__ import annotations

from collections.abc import Hashable

from skald_campaign.domain.breakdowns import target_of
from skald_campaign.domain.odds.explore import Memo, Script
from skald_campaign.domain.odds.readers import Features, shift_luck
from skald_campaign.domain.rulesets.base import EncounterView, JsonMapping
from skald_campaign.domain.rulesets.margin.options import read_options
from skald_campaign.domain.rulesets.margin.pools import read_faces
from skald_campaign.domain.rulesets.stamina_body import rules as sb_rules
from skald_campaign.domain.rulesets.stamina_body.combat import armed_with
from skald_campaign.domain.rulesets.stamina_body.sheet import sheet_of


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


def stamina_body_attack_key(
    view: EncounterView, actor: str | None, params: JsonMapping
) -> Memo | None:
    """S3: once hit and defense are rolled, only two things matter: did it land, and
    does the shield count (with no defense declared, only whether it hit). The
    damage that follows is then explored once for each."""
    try:
        attacker = view.combatants[str(actor)]
        defender = view.combatants[str(target_of(params))]
        skill = armed_with(attacker, str(params.get("weapon", "unarmed"))).skill
        kind = str(params.get("defense", "none"))
        sheet = sheet_of(defender)
        score = sheet.parry if kind == "parry" else sheet.dodge if kind == "dodge" else 0
    except Exception:  # the resolver refuses such a request itself, with its own words
        return None

    def key(script: Script) -> Hashable | None:
        names = tuple(name for name, _ in script)
        if names == ("hit",) and kind == "none":
            return (names, sb_rules.check(sum(script[0][1]), skill).success)
        if names != ("hit", "defense"):
            return None
        hit = sb_rules.check(sum(script[0][1]), skill)
        defense = sb_rules.check(sum(script[1][1]), score)
        if defense.success and defense.margin >= hit.margin:
            return (names, "stopped")
        parried = kind == "parry" and defense.success
        shield = sb_rules.shield_decision(
            parried=parried,
            hit_score=hit.margin,
            parry_score=defense.margin if parried else None,
        )
        return (names, "landed", shield.counts)

    return Memo(key)


def stamina_body_damage_type(
    view: EncounterView, kind: str, actor: str | None, params: JsonMapping
) -> str | None:
    """The table an action's damage dice are read on, when it can be told before rolling."""
    try:
        if kind == "take_hit":
            return str(params["damage_type"])
        if kind == "attack":
            attacker = view.combatants[str(actor)]
            return armed_with(attacker, str(params.get("weapon", "unarmed"))).damage_type
    except Exception:  # the resolver refuses such a request itself, with its own words
        return None
    return None


def memo_for(
    ruleset_id: str,
    view: EncounterView,
    kind: str,
    actor: str | None,
    params: JsonMapping,
) -> Memo | None:
    if ruleset_id == "margin" and kind in ("attack", "cast") and actor is not None:
        return margin_memo(read_options(view.options).success_on, actor)
    if ruleset_id == "stamina-body" and kind == "attack":
        return stamina_body_attack_key(view, actor, params)
    return None
