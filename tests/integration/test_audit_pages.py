"""Audit and history pages in O(page) (issue 28): a page of a long encounter reads no
more of its events, and makes no more Redis round trips, than a page of a short one;
and every page is what the whole trail, filtered and sliced, was before."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any
from uuid import UUID

import pytest
from fastapi.testclient import TestClient

from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.commands import (
    AdvanceDays,
    Combatant,
    CreateCampaign,
    EndEncounter,
    EnrolCharacter,
    NextRound,
    PerformAction,
    StartEncounter,
    VoidAction,
)
from skald_campaign.application.history import action_kind, mentions
from tests.helpers import enrol, new_campaign, ok
from tests.integration.test_view_reader import CountingRedis

SHEET = {"st": 10, "con": 10, "stamina_max": 200, "body_max": 200}
OPTIONS: dict[str, Any] = {}  # take_hit is the GM's: no turn limits it


def hit(app: SkaldApplication, campaign_id: UUID, encounter_id: UUID, target: str) -> None:
    params = {"target": target, "damage_type": "impact", "damage_class": 1}
    app.perform_action(
        PerformAction(campaign_id, encounter_id, "take_hit", params, dice={"damage": [1]})
    )


def fight(app: SkaldApplication, campaign_id: UUID, heroes: Sequence[str], hits: int) -> UUID:
    started = app.start_encounter(
        StartEncounter(campaign_id, f"{hits} hits", tuple(Combatant(h, "party") for h in heroes))
    )
    for n in range(hits):
        hit(app, campaign_id, started.id, heroes[n % len(heroes)])
    return started.id


class Reads:
    """Counts the rows the store reads of one aggregate and the client's Redis round trips."""

    def __init__(self, app: SkaldApplication, client: CountingRedis) -> None:
        self.app, self.client = app, client
        self.rows: dict[UUID, int] = {}
        recorder = app.events.recorder
        select = recorder.select_events

        def counting(originator_id: UUID, *args: Any, **kwargs: Any) -> Any:
            found = select(originator_id, *args, **kwargs)
            self.rows[originator_id] = self.rows.get(originator_id, 0) + len(found)
            return found

        recorder.select_events = counting  # type: ignore[method-assign]

    def of(self, http: TestClient, path: str, aggregate_id: UUID) -> tuple[int, int, Any]:
        """The rows of the aggregate read and the round trips made to answer one GET."""
        self.rows.clear()
        self.client.round_trips = 0
        page = ok(http.get(path))
        return self.rows.get(aggregate_id, 0), self.client.round_trips, page


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch, client: TestClient) -> Iterator[Reads]:
    """The API's app with its store reads and its Redis round trips counted."""
    backend = client.app.state.backend  # type: ignore[attr-defined]
    counting = CountingRedis(connection_pool=backend.views.client.connection_pool)
    monkeypatch.setattr(backend.views, "client", counting)
    yield Reads(backend.application, counting)


def test_a_page_at_2000_actions_reads_no_more_than_at_10(
    client: TestClient, counted: Reads
) -> None:
    app = counted.app
    app.known_position.fresh_seconds = 600  # the store's position known fresh throughout
    cid = new_campaign(client, "stamina-body", OPTIONS)
    party = [enrol(client, cid, f"Hero {n}", SHEET) for n in range(4)]
    short = fight(app, UUID(cid), party[:2], 10)
    long = fight(app, UUID(cid), party[2:], 2000)
    base = f"/campaigns/{cid}/encounters"

    def audit(eid: UUID, query: str) -> tuple[int, int, Any]:
        return counted.of(client, f"{base}/{eid}/audit?{query}", eid)

    # The first page of the short fight, the last of the long one (a cold process: no
    # index of either yet), then page 20 of the long one.
    short_rows, short_trips, short_page = audit(short, "limit=50")
    last_rows, last_trips, last_page = audit(long, "limit=50&offset=1951")
    mid_rows, mid_trips, mid_page = audit(long, "limit=50&offset=950")
    assert short_page["total"] == 11 and len(short_page["entries"]) == 11
    assert last_page["total"] == 2001 and len(last_page["entries"]) == 50
    assert [e["version"] for e in mid_page["entries"]] == list(range(951, 1001))
    # Cold: the first event (what the aggregate is), the newest version, the page.
    assert short_rows == 1 + 1 + 11
    assert last_rows == 1 + 1 + 50
    assert mid_rows == 1 + 50  # the first event is known from then on
    assert last_trips == mid_trips == short_trips

    # A filtered page: the first read of a filter indexes the events once (and keeps
    # their entries); from then on a page reads the newest version and the events the
    # index has not seen, however long the fight.
    audit(short, f"character={party[1]}&limit=5")
    audit(long, f"character={party[3]}&limit=5")
    short_rows, short_trips, _ = audit(short, f"character={party[1]}&limit=5")
    hit(app, UUID(cid), long, party[3])  # one event the index has not seen
    long_rows, long_trips, long_page = audit(long, f"character={party[3]}&limit=5&offset=997")
    assert long_page["total"] == 1 + 1000 + 1  # the start, the hero's hits, the new one
    assert len(long_page["entries"]) == 5
    assert long_page["entries"][-1]["version"] == 2002
    # The newest version; the page's entries were kept when its events were indexed, and
    # the new event's when it is indexed (1 row).
    assert short_rows == 1
    assert long_rows == 1 + 1
    assert long_trips == short_trips
    # The last unfiltered page again: its entries were kept on its first read, and its
    # newest version stands (nothing written since the filtered page read it): no row
    # (api/read_path.py answers it from memory).
    assert audit(long, "limit=50&offset=1951")[0] == 0

    # The campaign's history: the same at any length.
    history = f"/campaigns/{cid}/history?limit=2"
    rows, _, page = counted.of(client, history, UUID(cid))
    assert page["total"] == app.campaign(UUID(cid)).version
    assert rows == 1 + 1 + 2


# -- every page as the whole trail, filtered and sliced, answered before ---------------


def reference_page(
    trail: list[dict[str, Any]],
    kind: str | None,
    character: str | None,
    offset: int,
    limit: int,
    day: int | None = None,
) -> dict[str, Any]:
    """The pages as they were read before issue 28: the whole trail, every time."""
    entries = []
    for record in trail:
        entry = {k: v for k, v in record.items() if k not in ("actions", "key_hash", "gm_key_hash")}
        if day is not None:
            entry.setdefault("day", day)
        if kind is not None and kind not in (action_kind(entry), entry["event"]):
            continue
        if character is not None and not mentions(entry, character):
            continue
        entries.append(entry)
    return {
        "total": len(entries),
        "offset": offset,
        "limit": limit,
        "entries": entries[offset : offset + limit],
    }


def filters(heroes: Sequence[str], kinds: Mapping[str, int]) -> Iterator[tuple[Any, ...]]:
    for kind in (None, "take_hit", "void", "ActionVoided", "Acted", "CharacterEnrolled", "x"):
        for character in (None, *heroes, heroes[0][:4], "nobody"):
            for offset, limit in ((0, 100), (0, 1), (2, 3), (kinds.get("all", 0) - 1, 5), (99, 5)):
                yield kind, character, max(offset, 0), limit


def test_every_page_is_the_trail_filtered_and_sliced(store_app: SkaldApplication) -> None:
    app = store_app
    campaign = app.create_campaign(CreateCampaign("Pages", "stamina-body", OPTIONS))
    heroes = [app.enrol_character(EnrolCharacter(campaign.id, f"H{n}", SHEET))[1] for n in range(3)]
    app.advance_days(AdvanceDays(campaign.id, 1))  # the encounter's day: 1
    eid = fight(app, campaign.id, heroes, 7)
    app.void_action(VoidAction(campaign.id, eid, 2, "wrong target"))
    app.next_round(NextRound(campaign.id, eid))
    hit(app, campaign.id, eid, heroes[2])
    app.end_encounter(EndEncounter(campaign.id, eid))
    day = app.encounter(campaign.id, eid).day
    assert day == 1

    for aggregate, found_day, read in (
        (eid, day, lambda *a: app.queries.encounter_audit(campaign.id, eid, *a)),
        (campaign.id, None, lambda *a: app.queries.campaign_history(campaign.id, *a)),
    ):
        trail = app.history(aggregate)
        for kind, character, offset, limit in filters(heroes, {"all": len(trail)}):
            expected = reference_page(trail, kind, character, offset, limit, found_day)
            assert read(kind, character, offset, limit) == expected, (kind, character, offset)
