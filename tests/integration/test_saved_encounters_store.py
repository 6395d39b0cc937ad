"""A campaign's saved encounters as stored, on SQLite and PostgreSQL (issue 36).

tests/fixtures/compat/saved-encounters-issue36.jsonl holds the bestiary's events as the
code that introduced saved encounters wrote them (Opened, two Added, two EncounterSaved,
EncounterUnsaved): inserted into a fresh store of each kind, they read back to the same
saved encounter. Never regenerate the file with newer code. And a saved encounter set up
reads back, from another process's application, as it was written."""

from __future__ import annotations

from pathlib import Path
from uuid import UUID

import orjson
from eventsourcing.persistence import StoredEvent

from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.bestiary import SaveEncounter, SaveToBestiary, SetUpSavedEncounter
from skald_campaign.application.commands import CreateCampaign
from skald_campaign.domain.bestiary import SavedEncounter, SavedFoes
from tests.integration.conftest import app_on

FIXTURE = (
    Path(__file__).resolve().parents[1] / "fixtures" / "compat" / "saved-encounters-issue36.jsonl"
)
CAMPAIGN = UUID("11111111-2222-4333-8444-555555555555")
GOBLIN = {"st": 9, "con": 10, "parry": 9, "dodge": 9, "stamina_max": 10, "body_max": 8}


def test_the_stored_saved_encounters_read_back_as_they_were_written(
    store_app: SkaldApplication,
) -> None:
    lines = [orjson.loads(line) for line in FIXTURE.read_bytes().splitlines()]
    stored = ["Opened", "Added", "Added", "EncounterSaved", "EncounterSaved", "EncounterUnsaved"]
    assert [line["topic"] for line in lines] == [
        f"domain.bestiary:CampaignBestiary.{name}" for name in stored
    ]
    store_app.recorder.insert_events(
        [
            StoredEvent(
                UUID(line["originator_id"]),
                line["originator_version"],
                line["topic"],
                line["state"].encode(),
            )
            for line in lines
        ]
    )
    assert store_app.saved_encounters(CAMPAIGN) == [
        SavedEncounter(
            id="s-1",
            name="Ambush",
            foes=(SavedFoes("b-1", 3, 1, "foes"), SavedFoes("b-2", 1, 2, "foes")),
        )
    ]
    assert [e.name for e in store_app.bestiary_entries(CAMPAIGN)] == ["Goblin", "Ogre"]


def test_a_set_up_reads_back_in_another_process(store_env: dict[str, str]) -> None:
    writer = app_on(store_env)
    try:
        campaign = writer.create_campaign(
            CreateCampaign("Crown", "stamina-body", {}, "gm:GM", "k1", "h" * 64)
        )
        goblin = writer.save_to_bestiary(SaveToBestiary(campaign.id, "Goblin", GOBLIN, "gm:GM"))
        lines = (SavedFoes(goblin.id, 2, 1, "foes"),)
        saved = writer.save_encounter(SaveEncounter(campaign.id, "Pair", lines, "gm:GM"))
        fight = writer.set_up_saved_encounter(SetUpSavedEncounter(campaign.id, saved.id, "gm:GM"))
    finally:
        writer.close()
    reader = app_on(store_env)
    try:
        assert reader.saved_encounters(campaign.id) == [saved]
        characters = reader.campaign(campaign.id).characters
        assert [(c.name, c.npc, c.in_encounter) for c in characters.values()] == [
            ("Goblin 1", True, str(fight.id)),
            ("Goblin 2", True, str(fight.id)),
        ]
        read = reader.encounter(campaign.id, fight.id)
        assert [(c.name, c.side, c.rank) for c in read.combatants.values()] == [
            ("Goblin 1", "foes", 1),
            ("Goblin 2", "foes", 1),
        ]
    finally:
        reader.close()
