"""Hypothesis strategies for margin sheets and options at the edges of what is accepted."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

edge_points = st.sampled_from([0, 1, 20])
exact_rates = st.sampled_from([0, "1/1000", "0.001", "997/999", 1000, 0.5])
damage_types = st.sampled_from(["slash", "blunt", "pierce", "fire"])
natures = st.dictionaries(
    st.sampled_from(["slash", "blunt", "pierce", "fire"]),
    st.sampled_from(["weak", "resistant", "immune"]),
    max_size=2,
)


@st.composite
def extreme_weapons(draw: st.DrawFn, name: str) -> dict[str, Any]:
    category = draw(st.sampled_from(["melee", "reach", "ranged"]))
    weapon: dict[str, Any] = {
        "name": name,
        "attribute": "might",
        "skill": "melee",
        "category": category,
        "base_damage": draw(st.sampled_from([0, 1, 1000])),
        "per_margin": draw(exact_rates),
        "damage_type": draw(damage_types),
    }
    if category == "ranged":
        weapon["ammunition"] = draw(st.sampled_from([None, 0, 1, 10_000]))
    return weapon


@st.composite
def extreme_sheets(draw: st.DrawFn, race: str = "human") -> dict[str, Any]:
    items = draw(st.integers(min_value=0, max_value=20))
    rating = draw(st.sampled_from([0, 1, 50]))
    found: dict[str, Any] = {
        **{a: draw(edge_points) for a in ("might", "grace", "vigor", "aether")},
        **{s: draw(edge_points) for s in ("melee", "evasion", "guard", "abjuration")},
        "race": race,
        "luck": draw(st.sampled_from([0, 20])),
        "armor": [{"name": f"piece {n}", "rating": rating} for n in range(items)],
        "weapons": [draw(extreme_weapons("one")), draw(extreme_weapons("two"))],
        "nature": draw(natures),
    }
    health = draw(st.sampled_from([None, 1, 1000]))
    if health is not None:
        found["health"] = health
    return found


extreme_options = st.fixed_dictionaries(
    {},
    optional={
        "success_on": st.sampled_from([2, 6]),
        "max_effort": st.sampled_from([0, 10]),
        "fatigue_per_effort_die": st.sampled_from([0, 10]),
        "fatigue_per_exhaustion_die": st.sampled_from([1, 20]),
        "wounded_penalty": st.sampled_from([0, 10]),
        "wounded_at": st.sampled_from([0, 1, "1/3"]),
        "weakness_multiplier": st.sampled_from([1, 100, "1001/1000"]),
        "resistance_multiplier": st.sampled_from([0, "1/1000", 1]),
        "armor_blunting": st.sampled_from([0, "1/997", "1/1000", "999/1000"]),
        "real_threat": st.sampled_from([1, 1_000_000]),
        "riposte_sharpening": st.sampled_from([0, 10]),
        "melee_reaches": st.sampled_from([1, 20]),
        "reach_reaches": st.sampled_from([1, 20]),
    },
)
