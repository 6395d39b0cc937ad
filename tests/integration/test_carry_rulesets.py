"""A correction carried past the end of a fight, in every ruleset, with the server's dice:
after the commit the roster is what the last fight handed back, and the same correction
previewed again (a reroll on the same faces) changes nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.commands import (
    AdvanceDays,
    Combatant,
    CorrectEncounter,
    CreateCampaign,
    EndEncounter,
    EnrolCharacter,
    HealThrough,
    NextRound,
    PerformAction,
    StartEncounter,
)
from skald_campaign.domain.play.dice import seeded_roller
from skald_campaign.settings import Settings
from skald_campaign.store import persistence_env

SWORD = {
    "name": "sword",
    "attribute": "might",
    "skill": "melee",
    "category": "melee",
    "base_damage": 2,
    "per_margin": 1,
    "damage_type": "slash",
}
RULESETS: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "stamina-body": (
        {
            "st": 12,
            "con": 12,
            "stamina_max": 30,
            "body_max": 20,
            "weapons": [{"name": "axe", "damage_class": 2, "damage_type": "impact", "skill": 13}],
        },
        # The GM names the defense (table speed): an attack that names none waits for
        # the defender's declaration (issue 13) and is no action until then.
        {"weapon": "axe", "defense": "none"},
    ),
    "margin": (
        {"might": 3, "grace": 2, "vigor": 2, "aether": 2, "melee": 2, "weapons": [SWORD]},
        {},
    ),
    "d20": (
        {
            "strength": {"modifier": 0},
            "dexterity": 10,
            "constitution": 10,
            "wisdom": 10,
            "level": 1,
            "hp": 40,
            "save_vs_death_ray": 12,
            "weapons": [{"name": "Sword", "damage": "1d8"}],
        },
        {"weapon": "Sword"},
    ),
}


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_a_carried_void_leaves_the_roster_as_the_last_fight_handed_it_back(
    ruleset: str, tmp_path: Path
) -> None:
    sheet, attack = RULESETS[ruleset]
    env = persistence_env(Settings(data_dir=tmp_path / "data"))
    app = SkaldApplication(env=env, roller=seeded_roller(7))
    try:
        cid = app.create_campaign(CreateCampaign("Carry", ruleset)).id
        a = app.enrol_character(EnrolCharacter(cid, "A", sheet))[1]
        b = app.enrol_character(EnrolCharacter(cid, "B", sheet))[1]
        fights = []
        for n in range(3):
            if n:
                app.advance_days(AdvanceDays(cid, 1))
                app.heal_through(HealThrough(cid, n))
            lineup = (Combatant(a, "x"), Combatant(b, "y"))
            eid = app.start_encounter(StartEncounter(cid, f"F{n}", lineup)).id
            for attacker, target in ((a, b), (b, a), (a, b), (b, a)):
                params = {"target": target, **attack}
                app.perform_action(PerformAction(cid, eid, "attack", params, attacker))
                app.next_round(NextRound(cid, eid))  # margin: one action each per round
            app.end_encounter(EndEncounter(cid, eid))
            fights.append(eid)

        # The first action of the first fight whose void changes something (a miss's
        # does not, and says so).
        voids = [CorrectEncounter(cid, fights[0], "void", "dispute", n) for n in range(1, 5)]
        void = next(v for v in voids if not app.preview_correction(v)["changes_nothing"])
        app.commit_correction(void)
        campaign = app.campaign(cid)
        last = app.encounter(cid, fights[-1])
        rules = campaign.rules
        for cid_ in (a, b):
            assert campaign.characters[cid_].tracks == last.combatants[cid_].tracks
            assert campaign.characters[cid_].state == rules.state_after_encounter(
                last.combatants[cid_].state
            )
        second = app.encounter(cid, fights[1])
        first_of_second = second.action(1)
        same = {r.name: list(r.faces) for r in first_of_second.rolls}
        again = CorrectEncounter(cid, fights[1], "reroll", "same", 1, same)
        assert app.preview_correction(again)["changes_nothing"] is True
    finally:
        app.close()
