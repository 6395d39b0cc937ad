"""A correction of an ended fight carried into a fight still open (docs/corrections.md,
step 5): its preview says each character's tracks now as the open fight holds them, the
owner of their tracks from joining to its end, not the roster's entry it keeps for their
return (found by the d20 evening, issue 36: a void's preview said "Brannoc now: hp 22 ->
hp 24" while he stood at 18 in the second fight, and came to 20 on the board)."""

from __future__ import annotations

from pathlib import Path

from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.commands import (
    Combatant,
    CorrectEncounter,
    CreateCampaign,
    EndEncounter,
    EnrolCharacter,
    PerformAction,
    StartEncounter,
)
from skald_campaign.domain.play.dice import seeded_roller
from skald_campaign.settings import Settings
from skald_campaign.store import persistence_env

SHEET = {
    "strength": 12, "dexterity": 12, "constitution": 12, "wisdom": 10, "level": 1, "hp": 24,
    "save_vs_death_ray": 12, "weapons": [{"name": "sword", "damage": "1d8"}],
}  # fmt: skip


def test_the_preview_says_the_open_fights_tracks(tmp_path: Path) -> None:
    env = persistence_env(Settings(data_dir=tmp_path / "data"))
    app = SkaldApplication(env=env, roller=seeded_roller(7))
    try:
        cid = app.create_campaign(CreateCampaign("Carry", "d20")).id
        hero = app.enrol_character(EnrolCharacter(cid, "Hero", SHEET))[1]
        foe = app.enrol_character(EnrolCharacter(cid, "Foe", SHEET))[1]
        blow = {"target": hero, "weapon": "sword"}
        lineup = (Combatant(hero, "party"), Combatant(foe, "foes"))
        first = app.start_encounter(StartEncounter(cid, "First", lineup)).id
        dice = {"hit": [15], "damage": [5]}  # 15 >= AC 11; no armor: 5 dealt, 24 -> 19
        app.perform_action(PerformAction(cid, first, "attack", blow, foe, dice))
        app.end_encounter(EndEncounter(cid, first))
        second = app.start_encounter(StartEncounter(cid, "Second", lineup)).id
        dice = {"hit": [15], "damage": [3]}  # 19 -> 16
        app.perform_action(PerformAction(cid, second, "attack", blow, foe, dice))
        assert app.encounter(cid, second).combatants[hero].tracks == {"hp": 16}

        void = CorrectEncounter(cid, first, "void", "never reached him", 1)
        preview = app.preview_correction(void)
        now = {"name": "Hero", "before": {"tracks": {"hp": 16}}, "after": {"tracks": {"hp": 21}}}
        assert preview["characters"] == {hero: now}
        # The step of the first fight's end is the roster's, as it was handed back then.
        assert [(s["kind"], s["before"], s["after"]) for s in preview["steps"]] == [
            ("encounter", {"tracks": {"hp": 19}, "conditions": []},
             {"tracks": {"hp": 24}, "conditions": []}),
        ]  # fmt: skip
        committed = app.commit_correction(void)[1]
        assert committed["characters"] == preview["characters"]
        assert app.encounter(cid, second).combatants[hero].tracks == {"hp": 21}
    finally:
        app.close()
