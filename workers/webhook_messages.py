"""What a webhook sends for an event: the open feed's JSON (Standard Webhooks' shape:
type, timestamp, data), or a Discord message (a narrative line, the actor's name as
the username, an embed coloured by the outcome; a turn change says whose turn it is).

Discord's execute-webhook fields and limits (content 2,000 characters, username 80,
an embed's title 256 and description 4,096) are kept: longer text is cut short."""

from __future__ import annotations

from collections.abc import Mapping

import msgspec
import orjson

from skald_campaign.application.event_log import LoggedEvent
from skald_campaign.domain.event_catalog import PUBLISHED, type_name
from skald_campaign.domain.records import JSON
from skald_campaign.domain.webhooks import Format
from skald_campaign.projections.audit import SUMMARIES

CLASSES = {type_name(cls): cls for cls in PUBLISHED}
TEST_TYPE = "webhook.test"

GREY, RED, GREEN, BLUE, ORANGE, PURPLE, SLATE = (
    0x95A5A6, 0xE74C3C, 0x2ECC71, 0x3498DB, 0xE67E22, 0x9B59B6, 0x607D8B,
)  # fmt: skip
COLOURS = {
    "Encounter.TurnAdvanced": BLUE,
    "Encounter.RoundStarted": BLUE,
    "Encounter.OrderSet": BLUE,
    "Encounter.Started": PURPLE,
    "Encounter.Ended": PURPLE,
    "Campaign.EncounterOpened": PURPLE,
    "Campaign.EncounterClosed": PURPLE,
    "Encounter.Corrected": ORANGE,
    "Encounter.Recomputed": ORANGE,
    "Campaign.CorrectionCarried": ORANGE,
    "Campaign.CharacterHealed": GREEN,
}
MENDING = ("recover", "heal", "rest", "first_aid")


def narrative(event: LoggedEvent) -> str:
    """The event's one line, as the live log says it."""
    own = event.payload.get("summary")
    if isinstance(own, str) and own:
        return own
    cls = CLASSES.get(event.type)
    summary = SUMMARIES(cls) if cls is not None else None
    return summary(event.payload) if summary is not None else event.type


def colour(event: LoggedEvent) -> int:
    if event.type != "Encounter.ActionResolved":
        return COLOURS.get(event.type, SLATE)
    breakdown = event.payload.get("breakdown")
    result = breakdown.get("result") if isinstance(breakdown, Mapping) else None
    if result in ("missed", "miss", "failed"):
        return GREY
    kind = event.payload.get("kind")
    return GREEN if isinstance(kind, str) and kind.startswith(MENDING) else RED


def _cut(text: str, most: int) -> str:
    return text if len(text) <= most else text[: most - 1] + "…"


def discord_body(event: LoggedEvent, names: Mapping[str, str]) -> dict[str, JSON]:
    actor = event.payload.get("actor")
    username = names.get(actor, "Skald") if isinstance(actor, str) else "Skald"
    line = narrative(event)
    title = event.type.split(".", 1)[-1]
    kind = event.payload.get("kind")
    if isinstance(kind, str):
        title = f"{title}: {kind.replace('_', ' ')}"
    content = f"**{line}**" if event.type == "Encounter.TurnAdvanced" else line
    return {
        "username": _cut(username.replace("discord", "d1scord"), 80) or "Skald",
        "content": _cut(content, 2000),
        "embeds": [
            {
                "title": _cut(title, 256),
                "description": _cut(line, 4096),
                "color": colour(event),
                "timestamp": event.time,
                "footer": {"text": f"Skald · position {event.position}"},
            }
        ],
        "allowed_mentions": {"parse": []},  # a name like '@everyone' pings no one
    }


def json_body(campaign_id: str, event: LoggedEvent) -> dict[str, JSON]:
    data: dict[str, JSON] = {"campaign_id": campaign_id}
    data.update(msgspec.to_builtins(event))
    return {"type": event.type, "timestamp": event.time, "data": data}


def body(format: Format, campaign_id: str, event: LoggedEvent, names: Mapping[str, str]) -> bytes:
    message = discord_body(event, names) if format == "discord" else json_body(campaign_id, event)
    return orjson.dumps(message)


def test_event(campaign_id: str, message_id: str, time: str) -> LoggedEvent:
    """What "send a test event" sends: no event of the campaign's story."""
    return LoggedEvent(
        position=0, type=TEST_TYPE, type_version=1, aggregate_id=campaign_id,
        aggregate_version=0, time=time, by="gm",
        payload={"summary": "Skald test event: this webhook is set up", "message_id": message_id},
    )  # fmt: skip
