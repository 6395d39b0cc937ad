"""Hypothesis properties of the d20 resolvers, run on frozen views without an application."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from skald_campaign.domain.play.dice import DiceTray, replay_tray, seeded_roller
from skald_campaign.domain.rulesets import get_ruleset
from skald_campaign.domain.rulesets.base import CombatantView, EncounterView, Outcome
from skald_campaign.domain.rulesets.d20.tables import ARMOR, SIZE_ORDER
from tests.unit.test_d20_support import fr_sheet, sheet

RULES = get_ruleset("d20")
ARMORS = sorted(ARMOR)
WEAPONS = [
    {"name": "Axe", "damage": "1d8"},
    {"name": "Bow", "damage": "1d8", "delivery": "missile"},
]


def combatant(
    cid: str, character: dict[str, Any], state: dict[str, Any] | None = None
) -> CombatantView:
    valid = RULES.validate_sheet(character)
    tracks = RULES.track_maxima(valid)
    state = state or {}
    return CombatantView(
        id=cid,
        name=cid.title(),
        side=cid,
        rank=1,
        sheet=valid,
        tracks=tracks,
        state=state,
        conditions=RULES.conditions(valid, tracks, state),
    )


def view(a: dict[str, Any], b: dict[str, Any], **options: Any) -> EncounterView:
    return EncounterView(
        round=1,
        options=RULES.validate_options(options),
        combatants={"a": combatant("a", a), "b": combatant("b", b)},
    )


def resolve(
    encounter: EncounterView, kind: str, params: dict[str, Any], dice: dict[str, list[int]]
) -> tuple[Outcome, list[dict[str, Any]]]:
    tray = DiceTray(seeded_roller(0), dice)
    outcome = RULES.action_type(kind).resolve(
        encounter, "a", RULES.validate_params(kind, params), tray
    )
    return outcome, tray.close()


@settings(max_examples=200, deadline=None)
@given(
    armor=st.sampled_from(ARMORS),
    weapon=st.sampled_from(["Axe", "Bow"]),
    hit=st.integers(1, 20),
    damage=st.integers(1, 8),
)
def test_a_physical_hit_deals_between_1_and_the_raw_damage(
    armor: str, weapon: str, hit: int, damage: int
) -> None:
    encounter = view(sheet(weapons=WEAPONS), sheet(armor=armor))
    dice = {"hit": [hit]} | ({"damage": [damage]} if hit >= 11 else {})
    outcome, _ = resolve(encounter, "attack", {"target": "b", "weapon": weapon}, dice)
    if hit < 11:
        assert outcome.tracks == {}
        return
    dealt = outcome.breakdown["damage"]["dealt"]
    assert 1 <= dealt <= damage
    assert outcome.tracks == {"b": {"hp": 20 - dealt}}


@given(
    lighter=st.sampled_from(ARMORS),
    heavier=st.sampled_from(ARMORS),
    missile=st.booleans(),
    damage=st.integers(1, 8),
)
def test_higher_av_never_increases_damage(
    lighter: str, heavier: str, missile: bool, damage: int
) -> None:
    def av(armor: str) -> int:
        return ARMOR[armor].av_vs_missiles if missile else ARMOR[armor].av

    if av(lighter) > av(heavier):
        lighter, heavier = heavier, lighter
    weapon = "Bow" if missile else "Axe"
    dealt = [
        resolve(
            view(sheet(weapons=WEAPONS), sheet(armor=armor)),
            "attack",
            {"target": "b", "weapon": weapon},
            {"hit": [20], "damage": [damage]},
        )[0].breakdown["damage"]["dealt"]
        for armor in (lighter, heavier)
    ]
    assert dealt[1] <= dealt[0]


@settings(max_examples=200, deadline=None)
@given(
    attacker_fr=st.integers(0, 12),
    defender_fr=st.integers(0, 12),
    face=st.integers(1, 20),
    attacker_size=st.sampled_from(SIZE_ORDER),
    defender_size=st.sampled_from(SIZE_ORDER),
)
def test_forceful_defense_never_lets_the_shover_lay_the_defender_prone(
    attacker_fr: int, defender_fr: int, face: int, attacker_size: str, defender_size: str
) -> None:
    encounter = view(
        fr_sheet(attacker_fr, size=attacker_size), fr_sheet(defender_fr, size=defender_size)
    )
    outcome, _ = resolve(encounter, "shove", {"target": "b"}, {"shove": [face]})
    if defender_fr > attacker_fr:
        assert outcome.state == {}
    if outcome.state:
        assert outcome.state["b"]["prone"] is True
        assert outcome.breakdown["roll"]["total"] >= outcome.breakdown["roll"]["target"] + 10


@settings(max_examples=200, deadline=None)
@given(
    fr=st.integers(-3, 12),
    face=st.integers(1, 20),
    wall=st.one_of(st.none(), st.integers(0, 15)),
    hazard=st.one_of(st.none(), st.integers(0, 15)),
    slippery=st.booleans(),
)
def test_a_push_never_carries_the_target_past_what_stops_it(
    fr: int, face: int, wall: int | None, hazard: int | None, slippery: bool
) -> None:
    if wall is not None and wall == hazard:
        return
    encounter = view(fr_sheet(max(fr, 0), strength={"modifier": min(fr, 0)}), fr_sheet(0))
    params = {"target": "b", "wall_at_feet": wall, "hazard_at_feet": hazard, "slippery": slippery}
    outcome, _ = resolve(encounter, "shove", params, {"shove": [face]})
    displacement = outcome.breakdown.get("displacement")
    if displacement is None:
        assert outcome.breakdown["roll"]["success"] is False
        return
    in_the_way = [at for at in (wall, hazard) if at is not None and at < displacement["value"]]
    expected = min(in_the_way) if in_the_way else displacement["value"]
    assert displacement["moved_feet"] == expected


@settings(max_examples=100, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    kind=st.sampled_from(["attack", "shove", "grapple"]),
    armor=st.sampled_from(ARMORS),
)
def test_replaying_the_recorded_dice_gives_the_same_outcome(
    seed: int, kind: str, armor: str
) -> None:
    encounter = view(fr_sheet(4, weapons=WEAPONS), fr_sheet(2, armor=armor))
    params: dict[str, Any] = {"target": "b"}
    if kind == "attack":
        params["weapon"] = "Axe"
    if kind == "shove":
        params["wall_at_feet"] = 1
    action = RULES.action_type(kind)
    valid = RULES.validate_params(kind, params)
    tray = DiceTray(seeded_roller(seed))
    first = action.resolve(encounter, "a", valid, tray)
    replay = replay_tray(tray.close())
    again = action.resolve(encounter, "a", valid, replay)
    replay.close()
    assert again == first


EXTREME_DAMAGE = ["100d1000+1000", "100d1000-1000", "1d2-1000", "1d2+1000"]


@st.composite
def extreme_sheets(draw: st.DrawFn) -> dict[str, Any]:
    """Sheets at the edges of what is accepted (every bound, every table row)."""

    def ability() -> Any:
        return draw(st.sampled_from([3, 30, {"modifier": -5}, {"modifier": 10}]))

    level = draw(st.sampled_from([1, 40]))
    return {
        "strength": ability(),
        "dexterity": ability(),
        "constitution": ability(),
        "wisdom": ability(),
        **draw(st.sampled_from([{"level": level}, {"hit_dice": level}])),
        "hr_skill_slots": draw(st.sampled_from([0, 20])),
        "fr_skill_slots": draw(st.sampled_from([0, 20])),
        "hr_magic_bonus": draw(st.sampled_from([-5, 10])),
        "fr_magic_bonus": draw(st.sampled_from([-5, 10])),
        "ac_technique_bonus": draw(st.sampled_from([-10, 10])),
        "size": draw(st.sampled_from(SIZE_ORDER)),
        "armor": draw(st.sampled_from(ARMORS)),
        "shield": draw(st.sampled_from(["none", "tower"])),
        "hp": draw(st.sampled_from([1, 1000])),
        "save_vs_death_ray": draw(st.sampled_from([1, 20])),
        "defensive_stance_mastery": draw(st.sampled_from([0, 10])),
        "size_penalty_mastery_reduction": draw(st.sampled_from([0, 28])),
        "weapons": [
            {
                "name": f"W{n}",
                "damage": draw(st.sampled_from(EXTREME_DAMAGE)),
                "delivery": draw(st.sampled_from(["melee", "missile"])),
                "damage_kind": draw(st.sampled_from(["physical", "magic"])),
                "magic_bonus": draw(st.sampled_from([-5, 10])),
            }
            for n in range(draw(st.integers(0, 2)))
        ],
    }


EXTREME_OPTIONS = st.fixed_dictionaries(
    {
        "natural_20_hits": st.booleans(),
        "natural_1_misses": st.booleans(),
        "magic_minimum_damage": st.sampled_from([0, 10]),
        "double_success_margin": st.sampled_from([1, 40]),
        "double_success_distance": st.sampled_from(["twice_max_displacement", "seed_ten_feet"]),
        "wall_damage_minimum_dice": st.sampled_from([0, 10]),
        "throw_damage_dice": st.sampled_from([0, 10]),
        "unarmed_damage": st.sampled_from(EXTREME_DAMAGE),
        "shield_bash_damage": st.sampled_from(EXTREME_DAMAGE),
    }
)


@settings(max_examples=300, deadline=None)
@given(
    a=extreme_sheets(),
    b=extreme_sheets(),
    options=EXTREME_OPTIONS,
    kind=st.sampled_from(["attack", "shove", "trip", "grapple"]),
    seed=st.integers(0, 2**16),
    extreme=st.booleans(),
)
def test_extreme_accepted_values_always_compute(
    a: dict[str, Any],
    b: dict[str, Any],
    options: dict[str, Any],
    kind: str,
    seed: int,
    extreme: bool,
) -> None:
    encounter = view(a, b, **options)
    bound = 20 if extreme else 0
    params: dict[str, Any] = {"target": "b"}
    if kind == "attack":
        weapons = [w["name"] for w in a["weapons"]] + ["Unarmed Strike"]
        params |= {
            "weapon": weapons[seed % len(weapons)],
            "hit_modifier": bound,
            "ac_modifier": -bound,
        }
    else:
        params |= {"fr_modifier": bound, "difficult_terrain": extreme}
    if kind == "shove":
        params |= {"wall_at_feet": 0 if extreme else 200, "slippery": True}
    outcome, rolls = resolve(encounter, kind, params, {})
    for changed in outcome.tracks.values():
        assert -(2**62) < changed["hp"] <= 1000
    assert all(len(roll["faces"]) <= 100 for roll in rolls)
