"""GET /schema/events against real stored events: every event of the store written by
fe485e1 (tests/fixtures/compat: campaigns of every ruleset), read back through today's
code as the open feed publishes it, validates against its type's published schema."""

from __future__ import annotations

import os
import subprocess
from collections import Counter
from pathlib import Path

import jsonschema
from eventsourcing.domain import Aggregate
from fastapi.testclient import TestClient

from skald_campaign.api.app import create_app
from skald_campaign.application.event_log import logged
from skald_campaign.database import open_application
from skald_campaign.domain.event_catalog import PUBLISHED, catalog, type_name
from skald_campaign.domain.events import CampaignCreated
from skald_campaign.services import build_services
from skald_campaign.settings import Settings
from skald_campaign.workers.webhook_messages import discord_body
from tests.helpers import ok
from tests.integration.test_compat_fe485e1 import NEWER_THAN_FE485E1, RECORD, SKALD, STORE

PUBLISHED_NAMES = {type_name(cls) for cls in PUBLISHED}
# Discord's execute-webhook JSON body, the fields Skald sends, with Discord's documented
# limits (discord.com/developers/docs/resources/webhook#execute-webhook and the embed
# object): nothing else may be sent.
EMBED = {
    "type": "object",
    "additionalProperties": False,
    "required": ["title", "description", "color"],
    "properties": {
        "title": {"type": "string", "minLength": 1, "maxLength": 256},
        "description": {"type": "string", "minLength": 1, "maxLength": 4096},
        "color": {"type": "integer", "minimum": 0, "maximum": 0xFFFFFF},
        "timestamp": {"type": "string", "format": "date-time"},
        "footer": {
            "type": "object",
            "additionalProperties": False,
            "required": ["text"],
            "properties": {"text": {"type": "string", "maxLength": 2048}},
        },
    },
}
DISCORD = {
    "type": "object",
    "additionalProperties": False,
    "required": ["content", "username", "embeds"],
    "properties": {
        "content": {"type": "string", "minLength": 1, "maxLength": 2000},
        "username": {
            "type": "string",
            "minLength": 1,
            "maxLength": 80,
            "not": {"pattern": "(?i)discord"},
        },
        "embeds": {"type": "array", "minItems": 1, "maxItems": 10, "items": EMBED},
        "allowed_mentions": {"type": "object", "properties": {"parse": {"type": "array"}}},
    },
}


def test_every_stored_event_of_every_ruleset_validates_against_the_catalog(
    tmp_path: Path,
) -> None:
    env = {"SKALD_DATA_DIR": str(tmp_path / "data"), "SKALD_SECRET_KEY": RECORD["secret"]}
    env["SKALD_REDIS_URL"] = os.environ.get("SKALD_TEST_REDIS", "")
    if not env["SKALD_REDIS_URL"]:
        del env["SKALD_REDIS_URL"]
    done = subprocess.run(
        [SKALD, "import", str(STORE)],
        capture_output=True, text=True, timeout=300, env={**os.environ, **env}, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    schemas = {entry["type"]: entry["schema"] for entry in catalog()}
    application = open_application(Settings(data_dir=tmp_path / "data"))
    try:
        seen: Counter[str] = Counter()
        rulesets = set()
        for notification in application.recorder.select_notifications(start=1, limit=100_000):
            event = application.mapper.to_domain_event(notification)
            assert isinstance(event, Aggregate.Event)
            name = type_name(type(event))
            if name not in PUBLISHED_NAMES:
                continue  # the idempotency records: no campaign's story
            published = logged(notification.id, event)
            jsonschema.validate(published.payload, schemas[name])
            message = discord_body(published, {})
            jsonschema.validate(message, DISCORD)
            if name == "Encounter.TurnAdvanced":  # a turn change says whose turn it is
                assert str(message["content"]).endswith("'s turn**")
            seen[name] += 1
            if type(event) is CampaignCreated:
                rulesets.add(published.payload["ruleset"])
    finally:
        application.close()
    assert rulesets == {"margin", "stamina-body", "d20"}
    # The story holds every published type fe485e1 had (newer ones: their own tests).
    newer = {topic.split(":", 1)[1] for topic in NEWER_THAN_FE485E1}
    assert set(seen) == PUBLISHED_NAMES - newer


def test_a_payload_with_a_field_its_type_does_not_declare_is_refused(client: TestClient) -> None:
    entries = ok(client.get("/schema/events"))["events"]
    assert [e["type"] for e in entries] == [type_name(cls) for cls in PUBLISHED]
    issued = next(e for e in entries if e["type"] == "Campaign.KeyIssued")
    assert issued["version"] == 2  # issue 40's `via`
    payload = {"key_id": "k", "role": "viewer", "characters": [], "label": "", "by": "gm"}
    jsonschema.validate(payload, issued["schema"])
    try:
        jsonschema.validate({**payload, "key_hash": "secret"}, issued["schema"])
    except jsonschema.ValidationError as refused:
        assert "key_hash" in refused.message
    else:
        raise AssertionError("a key hash passed the published schema")
    try:
        jsonschema.validate({**payload, "role": "owner"}, issued["schema"])
    except jsonschema.ValidationError as refused:
        assert "owner" in refused.message
    else:
        raise AssertionError("an unknown role passed the published schema")


def test_the_catalog_is_served_without_a_key(settings: Settings) -> None:
    with TestClient(create_app(lambda: build_services(settings))) as anyone:
        assert anyone.get("/schema/events").status_code == 200
