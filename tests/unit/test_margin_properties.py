"""Properties of whole margin exchanges, resolved purely over frozen views with seeded dice."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import event, given, settings
from hypothesis import strategies as st

from skald_campaign.domain.play.dice import DiceTray
from skald_campaign.domain.rulesets.base import CombatantView, EncounterView, Outcome
from skald_campaign.domain.rulesets.margin import Margin
from skald_campaign.domain.rulesets.margin.actions import (
    Attack,
    Cast,
    Defend,
    Riposte,
    Ward,
    resolve_attack,
    resolve_cast,
)
from tests.unit.test_margin_table import BOW, FIREBOLT, HALBERD, SWORD, weapon

RULES = Margin()
OPTIONS = RULES.validate_options({})
points = st.integers(min_value=0, max_value=5)
seeds = st.integers(min_value=0, max_value=2**32)
CLUB = weapon("club", "might", "melee", "melee", 0, "1/2", "blunt")
attack_weapons = st.sampled_from([SWORD, HALBERD, BOW, CLUB, FIREBOLT])


@st.composite
def sheets(draw: st.DrawFn, race: str = "human") -> dict[str, Any]:
    return RULES.validate_sheet(
        {
            "might": draw(points),
            "grace": draw(points),
            "vigor": draw(points),
            "aether": draw(points),
            "melee": draw(points),
            "marksmanship": draw(points),
            "evasion": draw(points),
            "guard": draw(points),
            "abjuration": draw(points),
            "race": race,
            "luck": draw(st.integers(min_value=0, max_value=2)),
            "armor": [{"name": "armor", "rating": draw(st.integers(min_value=0, max_value=8))}],
            "weapons": [SWORD, HALBERD, BOW, CLUB],
        }
    )


def combatant(
    cid: str,
    side: str,
    rank: int,
    sheet: dict[str, Any],
    state: dict[str, Any] | None = None,
    health: int | None = None,
) -> CombatantView:
    tracks = {"health": sheet["health"] if health is None else health}
    state = state if state is not None else RULES.start_state(sheet)
    return CombatantView(
        cid, cid, side, rank, sheet, tracks, state, RULES.conditions(sheet, tracks, state)
    )


def view(*combatants: CombatantView) -> EncounterView:
    return EncounterView(1, {c.id: c for c in combatants}, OPTIONS)


def after(v: EncounterView, outcome: Outcome) -> EncounterView:
    """The view once an outcome has been applied, as the aggregate would apply it."""
    changed = {}
    for cid, c in v.combatants.items():
        tracks = outcome.tracks.get(cid, c.tracks)
        state = outcome.state.get(cid, c.state)
        changed[cid] = CombatantView(
            cid,
            c.name,
            c.side,
            c.rank,
            c.sheet,
            tracks,
            state,
            RULES.conditions(c.sheet, tracks, state),
        )
    return EncounterView(v.round, changed, v.options)


def strike(v: EncounterView, arms: dict[str, Any], seed: int, target: str = "target") -> Outcome:
    tray = DiceTray(random.Random(seed))
    if arms["name"] == FIREBOLT["name"]:
        return resolve_cast(v, "attacker", Cast(target=target, spell=arms["name"]), tray)
    return resolve_attack(v, "attacker", Attack(target=target, weapon=arms["name"]), tray)


def armed(sheet: dict[str, Any]) -> dict[str, Any]:
    return RULES.validate_sheet({**sheet, "spells": [FIREBOLT]})


@settings(max_examples=150, deadline=None)
@given(sheets(), sheets(), attack_weapons, seeds, st.booleans())
def test_a_margin_of_zero_or_less_never_harms_the_target(
    attacker: dict[str, Any],
    target: dict[str, Any],
    arms: dict[str, Any],
    seed: int,
    defending: bool,
) -> None:
    v = view(combatant("attacker", "a", 1, armed(attacker)), combatant("target", "b", 1, target))
    if defending:
        v = after(v, RULES.actions["defend"].resolve(v, "target", Defend(effort=1), DiceTray(None)))
    outcome = strike(v, arms, seed)
    value = outcome.breakdown["margin"]["value"]
    event("margin > 0" if value > 0 else "margin <= 0")
    if value <= 0:
        assert outcome.breakdown["damage"] is None
        assert outcome.tracks == {}
    else:
        assert outcome.breakdown["damage"]["margin"] == value


@settings(max_examples=150, deadline=None)
@given(sheets(), sheets(), sheets(race="dwarf"), attack_weapons, seeds)
def test_a_ward_never_makes_a_blow_land_or_grow(
    attacker: dict[str, Any],
    ally: dict[str, Any],
    dwarf: dict[str, Any],
    arms: dict[str, Any],
    seed: int,
) -> None:
    v = view(
        combatant("attacker", "a", 1, armed(attacker)),
        combatant("target", "b", 1, ally),
        combatant("dwarf", "b", 1, dwarf),
    )
    v = after(v, RULES.actions["ward"].resolve(v, "dwarf", Ward(effort=1), DiceTray(None)))
    outcome = strike(v, arms, seed)
    value = outcome.breakdown["margin"]["value"]
    event("margin > 0" if value > 0 else "margin <= 0")
    ward = outcome.breakdown["ward"]
    if value <= 0:
        assert ward is None and outcome.tracks == {}
    else:
        assert ward is not None and value - ward["remaining"] >= 0  # never worse
        assert all(total >= 0 for total in ward["totals"])
        assert "target" not in outcome.tracks  # the ally takes nothing
        if ward["stopped"]:
            assert outcome.breakdown["damage"] is None
        else:
            assert outcome.breakdown["damage"]["margin"] == ward["remaining"] <= value


@settings(max_examples=150, deadline=None)
@given(sheets(), sheets(), attack_weapons, seeds, st.integers(min_value=1, max_value=6))
def test_more_armor_on_the_target_never_lets_more_through(
    attacker: dict[str, Any],
    target: dict[str, Any],
    arms: dict[str, Any],
    seed: int,
    more: int,
) -> None:
    heavier = RULES.validate_sheet(
        {**target, "armor": [*target["armor"], {"name": "shield", "rating": more, "shield": True}]}
    )
    hurt = []
    for worn in (target, heavier):
        v = view(combatant("attacker", "a", 1, armed(attacker)), combatant("target", "b", 1, worn))
        outcome = strike(v, arms, seed)  # the same seed: the same faces on both sides
        hurt.append(
            worn["health"] - outcome.tracks.get("target", {"health": worn["health"]})["health"]
        )
    if arms["damage_type"] in {"blunt", "slash", "pierce"}:
        assert hurt[1] <= hurt[0]
    else:
        assert hurt[1] == hurt[0]


@settings(max_examples=100, deadline=None)
@given(sheets(race="elf"), sheets(), attack_weapons, seeds)
def test_a_riposte_answers_only_turned_melee_and_reach_blows(
    elf: dict[str, Any],
    attacker: dict[str, Any],
    arms: dict[str, Any],
    seed: int,
) -> None:
    v = view(combatant("attacker", "a", 1, armed(attacker)), combatant("elf", "b", 1, elf))
    v = after(v, RULES.actions["riposte"].resolve(v, "elf", Riposte(effort=1), DiceTray(None)))
    outcome = strike(v, arms, seed, target="elf")
    value = outcome.breakdown["margin"]["value"]
    event("margin > 0" if value > 0 else "margin <= 0")
    counter = outcome.breakdown["riposte"]
    if value >= 0:
        assert counter is None
    elif arms["category"] == "ranged":
        assert counter["answered"] is False and "attacker" not in outcome.tracks
    else:
        assert counter["answered"] is True  # fists reach anyone at distance 1
        assert counter["counter_margin"] == -value
