"""What a GM reads under an action form's target (session 20's evening): the forms draw a
target as a list of names and show the parameter's description beneath it
(api/static/skald.js ``schemaFields``), which read "combatant id of the one attacked", an
id the GM never sees. Each now says first who to pick, then what the API takes: the
description is the OpenAPI's and /rulesets' too."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from skald_campaign.domain.rulesets import RULESETS

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "hitpoints" / "skald_hitpoints"


def hitpoints() -> ModuleType:
    """examples/hitpoints, read from its folder (tests/integration installs it)."""
    spec = importlib.util.spec_from_file_location("skald_hitpoints", EXAMPLE / "__init__.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    known = sys.modules.setdefault("skald_hitpoints", module)  # for its annotations
    try:
        spec.loader.exec_module(module)
    finally:
        if known is module:
            del sys.modules["skald_hitpoints"]
    return module


def targets(rules: Any) -> dict[str, str | None]:
    found = {}
    for kind, action in sorted(rules.actions.items()):
        target = action.params.model_json_schema().get("properties", {}).get("target")
        if target is not None:
            found[kind] = target.get("description")
    return found


def test_a_target_says_who_to_pick_then_that_it_is_their_combatant_id() -> None:
    said = {rid: targets(rules) for rid, rules in sorted(RULESETS.items())}
    said["hitpoints"] = targets(hitpoints().HitPoints())
    assert said == {
        "d20": {
            "attack": "the one attacked: their combatant id",
            "grapple": "the one shoved, tripped or grappled: their combatant id",
            "shove": "the one shoved, tripped or grappled: their combatant id",
            "trip": "the one shoved, tripped or grappled: their combatant id",
        },
        "hitpoints": {
            "attack": "the one attacked: their combatant id",
            "take_damage": "the one hurt: their combatant id",
        },
        "margin": {
            "attack": "the one attacked: their combatant id",
            "cast": "the one the spell is cast at: their combatant id",
        },
        "stamina-body": {
            "attack": "the one attacked: their combatant id",
            "mark_wound": "the one whose wound is marked or ended: their combatant id",
            "stabilise": "the unconscious one: their combatant id",
            "take_hit": "the one who was hit: their combatant id",
            "treat_wound": "the one treated: their combatant id",
        },
    }
