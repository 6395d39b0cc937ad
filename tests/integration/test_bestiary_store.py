"""A campaign's bestiary as stored, on SQLite and PostgreSQL (issue 23).

tests/fixtures/compat/bestiary-issue23.jsonl holds every event class of the
CampaignBestiary aggregate as the code that introduced them wrote them (Opened, two
Added, Updated, Removed): inserted into a fresh store of each kind, they read back to
the same entries. Never regenerate the file with newer code. And a pack enrolled from
the bestiary reads back, from another process's application, as it was written."""

from __future__ import annotations

from pathlib import Path
from uuid import UUID

import orjson
from eventsourcing.persistence import StoredEvent

from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.bestiary import EnrolFromBestiary, SaveToBestiary
from skald_campaign.application.commands import CreateCampaign
from skald_campaign.domain.bestiary import BestiaryEntry, CampaignBestiary
from tests.integration.conftest import app_on

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "compat" / "bestiary-issue23.jsonl"
CAMPAIGN = UUID("11111111-2222-4333-8444-555555555555")
GOBLIN = {
    "st": 9,
    "con": 10,
    "parry": 9,
    "dodge": 9,
    "unarmed_skill": 10,
    "stamina_max": 10,
    "body_max": 8,
    "armour_resilience": 0,
    "shield_resilience": 0,
    "weapons": [{"name": "spear", "damage_class": 2, "damage_type": "piercing", "skill": 11}],
}


def test_the_stored_bestiary_reads_back_as_it_was_written(store_app: SkaldApplication) -> None:
    lines = [orjson.loads(line) for line in FIXTURE.read_bytes().splitlines()]
    assert [line["topic"] for line in lines] == [
        f"domain.bestiary:CampaignBestiary.{name}"
        for name in ("Opened", "Added", "Added", "Updated", "Removed")
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
    assert CampaignBestiary.create_id(CAMPAIGN) == UUID(lines[0]["originator_id"])
    assert store_app.bestiary_entries(CAMPAIGN) == [
        BestiaryEntry(id="b-1", name="Goblin chief", sheet={**GOBLIN, "st": 12})
    ]


def test_a_pack_enrolled_from_the_bestiary_reads_back_in_another_process(
    store_env: dict[str, str],
) -> None:
    writer = app_on(store_env)
    try:
        campaign = writer.create_campaign(
            CreateCampaign("Crown", "stamina-body", {}, "gm:GM", "k1", "h" * 64)
        )
        sheet = {k: v for k, v in GOBLIN.items() if k != "unarmed_skill"}  # a default
        goblin = writer.save_to_bestiary(SaveToBestiary(campaign.id, "Goblin", sheet, "gm:GM"))
        assert goblin.sheet == GOBLIN
        _, ids = writer.enrol_from_bestiary(EnrolFromBestiary(campaign.id, goblin.id, 3, "gm:GM"))
    finally:
        writer.close()
    reader = app_on(store_env)
    try:
        assert reader.bestiary_entries(campaign.id) == [goblin]
        characters = reader.campaign(campaign.id).characters
        assert [(c.name, c.npc, dict(c.sheet)) for c in characters.values()] == [
            ("Goblin 1", True, GOBLIN),
            ("Goblin 2", True, GOBLIN),
            ("Goblin 3", True, GOBLIN),
        ]
        assert list(characters) == ids
    finally:
        reader.close()
