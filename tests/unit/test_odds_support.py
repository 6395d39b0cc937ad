"""Shared builders for the odds tests: frozen encounter views and plain explorations.

This module holds no tests of its own; the other ``test_odds_*`` files import it.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from skald_campaign.domain.odds import action_odds
from skald_campaign.domain.odds.explore import Explorer, Memo
from skald_campaign.domain.odds.faces import FaceModel
from skald_campaign.domain.odds.memo import memo_for
from skald_campaign.domain.odds.models import face_model
from skald_campaign.domain.odds.readers import Features, reader
from skald_campaign.domain.play.dice import DiceTray
from skald_campaign.domain.play.resolution import Resolved, build_view, resolve
from skald_campaign.domain.records import Combatant
from skald_campaign.domain.rulesets import get_ruleset
from skald_campaign.domain.rulesets.base import EncounterView, Ruleset

SWORD = {
    "name": "sword",
    "attribute": "might",
    "skill": "melee",
    "category": "melee",
    "base_damage": 2,
    "per_margin": 1,
    "damage_type": "slash",
}


def margin_sheet(**fields: Any) -> dict[str, Any]:
    return {"might": 2, "grace": 2, "vigor": 2, "aether": 2, **fields}


def sb_sheet(**fields: Any) -> dict[str, Any]:
    return {"st": 12, "con": 12, "stamina_max": 20, "body_max": 12, **fields}


def d20_sheet(**fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "strength": {"modifier": 0},
        "dexterity": {"modifier": 0},
        "constitution": {"modifier": 0},
        "wisdom": {"modifier": 0},
        "level": 1,
        "hp": 20,
        "save_vs_death_ray": 12,
        "weapons": [{"name": "longsword", "damage": "1d8"}],
    }
    return {**base, **fields}


Lineup = Mapping[str, tuple[str, int, dict[str, Any]]]


def encounter(
    ruleset: str,
    lineup: Lineup,
    *,
    options: dict[str, Any] | None = None,
    states: Mapping[str, dict[str, Any]] | None = None,
    tracks: Mapping[str, dict[str, int]] | None = None,
    round: int = 1,
) -> tuple[Ruleset, EncounterView]:
    """A view of an encounter: each combatant as id -> (side, rank, sheet)."""
    rules = get_ruleset(ruleset)
    combatants = {}
    for cid, (side, rank, sheet) in lineup.items():
        valid = rules.validate_sheet(sheet)
        combatants[cid] = Combatant(
            name=cid.capitalize(),
            side=side,
            rank=rank,
            sheet=valid,
            tracks={**rules.track_maxima(valid), **(tracks or {}).get(cid, {})},
            state={**rules.start_state(valid), **(states or {}).get(cid, {})},
        )
    return rules, build_view(rules, round, rules.validate_options(options or {}), combatants)


def odds(
    rules: Ruleset, view: EncounterView, kind: str, actor: str | None, **params: Any
) -> dict[str, Any]:
    return action_odds(rules, view, kind, actor, params)


def result(report: Mapping[str, Any], name: str) -> str:
    """The probability of one result, as its fraction string; "0" when it cannot happen."""
    found = [r["probability"] for r in report["results"] if r["result"] == name]
    return found[0] if found else "0"


def damage(report: Mapping[str, Any], cid: str, track: str) -> dict[int, str]:
    for row in report["damage"]:
        if row["combatant"] == cid and row["track"] == track:
            return {int(d["value"]): d["probability"] for d in row["distribution"]}
    raise AssertionError(f"no damage to {cid}'s {track} in the report")


def gained(report: Mapping[str, Any], cid: str, condition: str) -> str:
    for row in report["conditions"]:
        if row["combatant"] == cid and row["condition"] == condition:
            return str(row["gained"]["probability"])
    return "0"


def distribution(
    rules: Ruleset,
    view: EncounterView,
    kind: str,
    actor: str | None,
    params: Mapping[str, Any],
    *,
    model: FaceModel | None = None,
    memo: bool = True,
    budget: int = 200_000,
) -> dict[Features, Fraction]:
    """The exact distribution of outcome features, with or without the shortcuts."""

    def run(tray: DiceTray) -> Resolved:
        return resolve(rules, view, kind, actor, params, tray)

    table = rules.odds_damage_type(view, kind, actor, params)

    def model_for(roll: str) -> FaceModel:
        return model or face_model(rules.id, view.options, roll, table)

    keyed: Memo | None = memo_for(rules.id, view, kind, actor, params) if memo else None
    tree = Explorer(run, reader(rules, view, kind), model_for, memo=keyed, budget=budget)
    found = tree.explore().distribution.probabilities()
    return {f: p for f, p in found.items() if isinstance(f, Features)}
