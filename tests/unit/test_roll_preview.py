"""Roll preview (issue 13): for random states, the preview's rolls are exactly the rolls
recorded when the action then resolves: every needed roll is made, and every roll
made was either needed or announced as one that may follow, with the same dice."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from skald_campaign.domain.play.dice import DiceTray
from skald_campaign.domain.play.resolution import apply_outcome, build_view, resolve
from skald_campaign.domain.play.roll_preview import human_name, preview
from skald_campaign.domain.records import Combatant, replace
from skald_campaign.domain.rulesets import get_ruleset
from skald_campaign.domain.rulesets.base import EncounterView, Ruleset
from tests.unit.test_d20_support import fr_sheet
from tests.unit.test_d20_support import sheet as d20_sheet
from tests.unit.test_margin_properties import sheets as margin_sheets

seeds = st.integers(min_value=0, max_value=2**32)


def lineup(rules: Ruleset, *people: tuple[str, str, int, dict[str, Any]]) -> dict[str, Combatant]:
    return {
        cid: Combatant(
            name=cid.title(),
            side=side,
            rank=rank,
            sheet=rules.validate_sheet(sheet),
            tracks=rules.track_maxima(rules.validate_sheet(sheet)),
            state=rules.start_state(rules.validate_sheet(sheet)),
        )
        for cid, side, rank, sheet in people
    }


def posture(rules: Ruleset, combatants: dict[str, Combatant], actor: str, kind: str) -> None:
    view = build_view(rules, 1, rules.validate_options({}), combatants)
    resolved = resolve(rules, view, kind, actor, {}, DiceTray(random.Random(0)))
    apply_outcome(combatants, resolved.outcome)


def check(
    rules: Ruleset,
    view: EncounterView,
    kind: str,
    actor: str,
    params: dict[str, Any],
    seed: int,
    resolve_with: dict[str, Any] | None = None,
) -> None:
    shown = preview(rules, view, kind, actor, params)
    needed = {r["name"]: r["dice"] for r in shown["rolls"]}
    follow = {r["name"]: r["dice"] for r in shown["may_follow"]}
    final = resolve_with or params
    resolved = resolve(rules, view, kind, actor, final, DiceTray(random.Random(seed)))
    made = {human_name(r.name, view, actor, final): r.dice for r in resolved.rolls}
    assert set(needed) <= set(made), (needed, made)
    for name, dice in made.items():
        assert name in needed or name in follow, (name, shown)
        assert dice == {**follow, **needed}[name]


@settings(max_examples=60, deadline=None)
@given(
    attacker=margin_sheets(),
    target=margin_sheets(race="elf"),
    dwarf=margin_sheets(race="dwarf"),
    target_posture=st.sampled_from([None, "defend", "riposte"]),
    warding=st.booleans(),
    dwarf_rank=st.integers(min_value=1, max_value=2),
    weapon=st.sampled_from(["sword", "halberd", "bow", "club", "fists"]),
    seed=seeds,
)
def test_margin_preview_matches_the_resolved_rolls(
    attacker: dict[str, Any],
    target: dict[str, Any],
    dwarf: dict[str, Any],
    target_posture: str | None,
    warding: bool,
    dwarf_rank: int,
    weapon: str,
    seed: int,
) -> None:
    rules = get_ruleset("margin")
    combatants = lineup(
        rules,
        ("orc", "foes", 1, attacker),
        ("ally", "keep", 1, target),
        ("thrain", "keep", dwarf_rank, dwarf),
    )
    if target_posture:
        posture(rules, combatants, "ally", target_posture)
    if warding:
        posture(rules, combatants, "thrain", "ward")
    view = build_view(rules, 1, rules.validate_options({}), combatants)
    check(rules, view, "attack", "orc", {"target": "ally", "weapon": weapon}, seed)


@settings(max_examples=60, deadline=None)
@given(
    skill=st.integers(min_value=3, max_value=18),
    parry=st.integers(min_value=0, max_value=18),
    stamina=st.integers(min_value=-3, max_value=12),
    body=st.integers(min_value=-1, max_value=10),
    declared=st.sampled_from(["parry", "dodge", "none"]),
    named=st.booleans(),
    seed=seeds,
)
def test_stamina_body_preview_matches_the_resolved_rolls(
    skill: int, parry: int, stamina: int, body: int, declared: str, named: bool, seed: int
) -> None:
    rules = get_ruleset("stamina-body")
    base = {"st": 12, "con": 12, "parry": parry, "dodge": 9, "stamina_max": 12, "body_max": 10}
    sword = {"name": "sword", "damage_class": 2, "damage_type": "piercing", "skill": skill}
    combatants = lineup(
        rules, ("goblin", "foes", 1, {**base, "weapons": [sword]}), ("hero", "party", 1, base)
    )
    combatants["hero"] = replace(combatants["hero"], tracks={"stamina": stamina, "body": body})
    view = build_view(rules, 1, rules.validate_options({}), combatants)
    params: dict[str, Any] = {"target": "hero", "weapon": "sword"}
    if named:
        params["defense"] = declared
    check(rules, view, "attack", "goblin", params, seed, {**params, "defense": declared})


@settings(max_examples=40, deadline=None)
@given(
    fr=st.integers(min_value=0, max_value=9),
    kind=st.sampled_from(["attack", "shove"]),
    wall=st.sampled_from([None, 5, 10]),
    hazard=st.sampled_from([None, 7, 15]),
    seed=seeds,
)
def test_d20_preview_matches_the_resolved_rolls(
    fr: int, kind: str, wall: int | None, hazard: int | None, seed: int
) -> None:
    rules = get_ruleset("d20")
    combatants = lineup(rules, ("ogre", "foes", 1, fr_sheet(fr)), ("hero", "party", 1, d20_sheet()))
    view = build_view(rules, 1, rules.validate_options({}), combatants)
    params: dict[str, Any] = {"target": "hero"}
    if kind == "attack":
        params["weapon"] = rules.validate_sheet(fr_sheet(fr))["weapons"][0]["name"]
    else:
        params.update({"wall_at_feet": wall, "hazard_at_feet": hazard})
    check(rules, view, kind, "ogre", params, seed)
