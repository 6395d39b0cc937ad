"""The margin test table, and the sheet and options it enrols.

``Table`` drives the real SkaldApplication (in-memory store) the way a GM would:
characters by name, actions by name, dice by roll name. Roll names may use a
character's table name in place of its id (``defense.orc.guard``); the table
swaps in the id. By default every die must be supplied: an unsupplied roll fails
the test, so an exact test can never pass on the server's luck.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any
from uuid import UUID

import pytest

from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.commands import (
    Combatant,
    CreateCampaign,
    EnrolCharacter,
    NextRound,
    PerformAction,
    StartEncounter,
)
from skald_campaign.domain.errors import DomainError, InvalidInput
from skald_campaign.domain.play.dice import Roller
from skald_campaign.domain.rulesets import get_ruleset
from skald_campaign.domain.rulesets.margin import Margin

# -- sheets ------------------------------------------------------------------------


def weapon(
    name: str,
    attribute: str,
    skill: str,
    category: str,
    base: int,
    per_margin: Any,
    damage_type: str,
    **extra: Any,
) -> dict[str, Any]:
    return {
        "name": name,
        "attribute": attribute,
        "skill": skill,
        "category": category,
        "base_damage": base,
        "per_margin": per_margin,
        "damage_type": damage_type,
        **extra,
    }


SWORD = weapon("sword", "might", "melee", "melee", 2, 1, "slash")
AXE = weapon("axe", "might", "melee", "melee", 1, 2, "slash")
CLUB = weapon("club", "might", "melee", "melee", 0, 1, "blunt")
SPEAR = weapon("spear", "might", "melee", "reach", 2, 1, "pierce")
HALBERD = weapon("halberd", "might", "melee", "reach", 3, 1, "slash")
BOW = weapon("bow", "grace", "marksmanship", "ranged", 1, 1, "pierce", ammunition=5)
SLING = weapon("sling", "grace", "marksmanship", "ranged", 1, 1, "blunt", ammunition=5)
FIREBOLT = weapon("firebolt", "aether", "abjuration", "ranged", 2, 1, "fire")
FROST_TOUCH = weapon("frost touch", "aether", "abjuration", "melee", 1, 1, "cold")


def sheet(**fields: Any) -> dict[str, Any]:
    """A plain character: 2 in every attribute, no skills, unless told otherwise."""
    return {"might": 2, "grace": 2, "vigor": 2, "aether": 2, **fields}


# -- the table ---------------------------------------------------------------------


class NoRoller:
    """The roller of an exact test: any die the test did not supply is a failure."""

    def randint(self, a: int, b: int) -> int:
        raise AssertionError("this test must supply every die; an unsupplied roll was made")


class Table:
    def __init__(self, options: dict[str, Any] | None = None, roller: Roller | None = None):
        self.app = SkaldApplication(
            env={"PERSISTENCE_MODULE": "eventsourcing.popo"},
            roller=roller or NoRoller(),
        )
        self.campaign = self.app.create_campaign(
            CreateCampaign("Margin table", "margin", options or {})
        ).id
        self.ids: dict[str, str] = {}
        self.encounter: UUID | None = None

    # setting up

    def enrol(self, name: str, character: dict[str, Any]) -> str:
        _, cid = self.app.enrol_character(EnrolCharacter(self.campaign, name, character))
        self.ids[name] = cid
        return cid

    def start(self, *lineup: tuple[str, str, int]) -> None:
        """Each combatant as (name, side, rank)."""
        combatants = tuple(Combatant(self.ids[n], side, rank) for n, side, rank in lineup)
        self.encounter = self.app.start_encounter(
            StartEncounter(self.campaign, "Fight", combatants)
        ).id

    # playing

    def roll_name(self, name: str) -> str:
        parts = name.split(".")
        if len(parts) >= 2 and parts[1] in self.ids:
            parts[1] = self.ids[parts[1]]
        return ".".join(parts)

    def act(
        self, kind: str, actor: str, dice: dict[str, list[int]] | None = None, **params: Any
    ) -> dict[str, Any]:
        assert self.encounter is not None, "start the encounter first"
        if "target" in params:
            params["target"] = self.ids.get(params["target"], params["target"])
        supplied = {self.roll_name(k): v for k, v in (dice or {}).items()}
        _, record = self.app.perform_action(
            PerformAction(
                self.campaign,
                self.encounter,
                kind,
                params,
                actor=self.ids.get(actor, actor),
                dice=supplied,
            )
        )
        return record

    def refused(
        self,
        error: type[DomainError],
        kind: str,
        actor: str,
        dice: dict[str, list[int]] | None = None,
        **params: Any,
    ) -> str:
        """Assert the action is refused with ``error``; return the message for the test."""
        before = self.app.encounter(self.campaign, self._eid()).version
        with pytest.raises(error) as raised:
            self.act(kind, actor, dice, **params)
        assert self.app.encounter(self.campaign, self._eid()).version == before
        return raised.value.message

    def next_round(self) -> None:
        self.app.next_round(NextRound(self.campaign, self._eid()))

    # reading

    def _eid(self) -> UUID:
        assert self.encounter is not None
        return self.encounter

    def combatant(self, name: str) -> dict[str, Any]:
        encounter = self.app.encounter(self.campaign, self._eid())
        return dict(encounter.combatants[self.ids[name]].as_json())

    def health(self, name: str) -> int:
        return int(self.combatant(name)["tracks"]["health"])

    def state(self, name: str) -> dict[str, Any]:
        return dict(self.combatant(name)["state"])

    def conditions(self, name: str) -> tuple[str, ...]:
        return self.app.encounter(self.campaign, self._eid()).conditions_of(self.ids[name])

    def rolls(self, record: dict[str, Any]) -> dict[str, list[int]]:
        """The recorded faces by roll name, with ids turned back into table names."""
        names = {cid: name for name, cid in self.ids.items()}
        out = {}
        for roll in record["rolls"]:
            parts = roll["name"].split(".")
            if len(parts) >= 2:
                parts[1] = names.get(parts[1], parts[1])
            out[".".join(parts)] = roll["faces"]
        return out


def seeded(seed: int) -> Roller:
    return random.Random(seed)


# -- the harness and the sheet ----------------------------------------------------


def test_the_table_refuses_to_roll_for_an_exact_test() -> None:
    table = Table()
    table.enrol("a", sheet(weapons=[SWORD]))
    table.enrol("b", sheet())
    table.start(("a", "pc", 1), ("b", "foe", 1))
    with pytest.raises(AssertionError, match="must supply every die"):
        table.act("attack", "a", target="b", weapon="sword")


def test_health_defaults_to_ten_plus_two_per_vigor() -> None:
    ruleset = get_ruleset("margin")
    assert ruleset.validate_sheet(sheet(vigor=3))["health"] == 16
    assert ruleset.validate_sheet(sheet(vigor=0))["health"] == 10
    assert ruleset.validate_sheet(sheet(vigor=3, health=25))["health"] == 25
    assert ruleset.track_maxima(ruleset.validate_sheet(sheet(vigor=4))) == {"health": 18}


def test_a_sheet_is_stored_with_every_default_written_out() -> None:
    stored = Margin().validate_sheet(sheet(race=" Dwarf ", weapons=[SWORD, FIREBOLT]))
    assert stored["race"] == "dwarf"
    assert stored["luck"] == 0
    assert stored["melee"] == stored["abjuration"] == 0
    sword, firebolt = stored["weapons"]
    assert sword["defenses"] == ["evasion", "guard"]
    assert sword["per_margin"] == "1"
    # Magic allows Aether and Abjuration "as well": all three by default.
    assert firebolt["defenses"] == ["evasion", "guard", "abjuration"]


def test_a_weapon_may_narrow_its_defenses_and_they_read_in_a_fixed_order() -> None:
    psychic = weapon(
        "scream",
        "aether",
        "abjuration",
        "ranged",
        1,
        1,
        "psychic",
        defenses=["abjuration", "evasion"],
    )
    stored = Margin().validate_sheet(sheet(spells=[psychic]))
    assert stored["spells"][0]["defenses"] == ["evasion", "abjuration"]


def test_damage_per_margin_is_exact_however_it_is_written() -> None:
    ruleset = Margin()
    for written, stored in [("1/2", "1/2"), ("0.5", "1/2"), (0.1, "1/10"), (3, "3")]:
        blade = weapon("blade", "might", "melee", "melee", 0, written, "slash")
        assert ruleset.validate_sheet(sheet(weapons=[blade]))["weapons"][0]["per_margin"] == stored


def test_starting_state_carries_fatigue_luck_and_ammunition() -> None:
    ruleset = Margin()
    valid = ruleset.validate_sheet(sheet(luck=2, weapons=[BOW, SWORD, FIREBOLT]))
    # Only a ranged weapon with a count carries ammunition; a spell needs none.
    assert ruleset.start_state(valid) == {
        "fatigue": 0,
        "luck": 2,
        "ammunition": {"bow": 5},
        "posture": None,
        "acted_round": None,
    }


@pytest.mark.parametrize(
    ("bad", "words"),
    [
        (sheet(weapons=[SWORD, SWORD]), "repeated: sword"),
        (sheet(weapons=[{**SWORD, "name": "Fists"}]), "always at hand"),
        (sheet(weapons=[{**SWORD, "ammunition": 3}]), "only ranged weapons carry ammunition"),
        (sheet(spells=[{**FIREBOLT, "damage_type": "slash"}]), "list it under weapons"),
        (sheet(weapons=[{**SWORD, "per_margin": "-1"}]), "cannot be negative"),
        (sheet(weapons=[{**SWORD, "per_margin": "lots"}]), "not an exact number"),
        (sheet(weapons=[{**SWORD, "damage_type": "slashing"}]), "weapons.0.damage_type"),
        (sheet(weapons=[{**SWORD, "defenses": ["guard", "guard"]}]), "repeated: guard"),
        (sheet(nature={"fire": "fond of"}), "nature.fire"),
        (sheet(armor=[{"name": "plate", "rating": -1}]), "armor.0.rating"),
        ({"might": 2}, "sheet.grace"),
    ],
)
def test_a_bad_sheet_is_refused_with_what_is_wrong(bad: dict[str, Any], words: str) -> None:
    with pytest.raises(InvalidInput) as raised:
        Margin().validate_sheet(bad)
    assert words in raised.value.message


def test_options_default_to_the_rulings() -> None:
    assert Margin().validate_options({}) == {
        "actions_per_round": 1,
        "initiative": {"mode": "manual"},  # T1
        "skip_unable": True,
        "show_npc_numbers": False,
        "success_on": 5,
        "max_effort": 3,
        "fatigue_per_effort_die": 1,
        "fatigue_per_exhaustion_die": 2,
        "wounded_penalty": 1,
        "wounded_at": "1/2",
        "base_health": 10,
        "health_per_vigor": 2,
        "light_day_fatigue_divisor": 2,
        "real_threat": 3,
        "weakness_multiplier": "2",
        "resistance_multiplier": "1/2",
        "armor_blunting": "1/10",
        "riposte_sharpening": 1,
        "melee_reaches": 1,
        "reach_reaches": 2,
    }


def test_options_are_exact_and_checked() -> None:
    ruleset = Margin()
    assert ruleset.validate_options({"armor_blunting": 0.2})["armor_blunting"] == "1/5"
    stored = ruleset.campaign_options_model.model_validate(ruleset.validate_options({}))
    assert stored.resistance_multiplier == Fraction(1, 2)
    for bad, words in [
        ({"armor_blunting": 1}, "below 1"),
        ({"weakness_multiplier": "1/2"}, "multiplies damage up"),
        ({"resistance_multiplier": 3}, "multiplies damage down"),
        ({"max_effort": -1}, "options.max_effort"),
        ({"made_up": 1}, "options.made_up"),
    ]:
        with pytest.raises(InvalidInput) as raised:
            ruleset.validate_options(bad)
        assert words in raised.value.message


def test_the_margin_ruleset_lists_its_actions() -> None:
    assert sorted(Margin().actions) == ["attack", "cast", "defend", "riposte", "ward"]
    with pytest.raises(InvalidInput, match="its actions are: attack, cast, defend"):
        Margin().action_type("take_hit")
