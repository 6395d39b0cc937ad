"""Copies of an encounter share their action records, and stay independent."""

from __future__ import annotations

import copy
import random

from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.commands import (
    Combatant,
    CreateCampaign,
    EnrolCharacter,
    PerformAction,
    StartEncounter,
)

SHEET = {"st": 10, "con": 10, "stamina_max": 20, "body_max": 20}


def test_a_copy_shares_records_yet_never_sees_the_others_new_actions() -> None:
    app = SkaldApplication()
    campaign = app.create_campaign(CreateCampaign("c", "stamina-body"))
    _, hero = app.enrol_character(EnrolCharacter(campaign.id, "Hero", SHEET))
    fight = app.start_encounter(StartEncounter(campaign.id, "f", (Combatant(hero, "a"),)))
    hit = {"target": hero, "damage_type": "impact", "damage_class": 1}
    app.perform_action(PerformAction(campaign.id, fight.id, "take_hit", hit, dice={"damage": [3]}))
    original = app.encounter(campaign.id, fight.id)
    clone = copy.deepcopy(original)
    assert clone.actions is original.actions
    assert clone.combatants is not original.combatants

    clone.act("take_hit", None, hit, {"damage": [6]}, random.Random(0), "gm")

    assert len(clone.actions) == 2
    assert len(original.actions) == 1
    assert original.combatants[hero].tracks == {"stamina": 18, "body": 20}
    assert clone.combatants[hero].tracks == {"stamina": 13, "body": 19}
