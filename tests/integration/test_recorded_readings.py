"""Issue 38, "a read side that needs no rules code": what the reads need of the rules
(each touched character's conditions, maxima and descriptor) is recorded with the event
that changed it (domain/reading/recorded.py), so the projections call no ruleset for an
event written on current code.

A store is written through the API: every kind of event that changes a character
(an enrolment, a fight's start, hits that bring conditions, a GM's change in the fight,
a void, the fight's end, a day's heal, an amendment, an adjustment, a correction carried
past a fight's end) in a stamina-body and a d20 campaign. Then:

- a rebuild, with the read side's port to the rules (domain/reading/installed.py)
  counting every call, calls the rules 0 times and builds the views the live runner
  built, key by key;
- a rebuild that ignores what the events recorded (as for events stored before they
  were) asks the rules and builds the same views again: the recorded values are what the
  rules say;
- a player and a viewer read the views (an NPC as its descriptor) with the rules asked
  for nothing: the word is the one the event recorded.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient

from skald_campaign.application import queries
from skald_campaign.domain.events import CAMPAIGN_EVENTS, ENCOUNTER_EVENTS
from skald_campaign.domain.reading import installed, recorded
from skald_campaign.projections import base
from tests.helpers import act, enrol, new_campaign, ok, start
from tests.integration.projection_support import (
    assert_same_views,
    current_root,
    snapshot,
    wait_until,
)
from tests.integration.test_d20_api import d20_sheet
from tests.integration.test_projections import caught_up, rebuilder, services

SHEET = {"st": 12, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10}
OGRE = {"st": 16, "con": 14, "parry": 9, "dodge": 8, "stamina_max": 14, "body_max": 12}


class Counting:
    """The rules the read side asks, each call counted by the method's name."""

    def __init__(self, rules: installed.ReadRules, calls: Counter[str]) -> None:
        self._rules, self._calls = rules, calls

    def track_maxima(self, sheet: Any) -> dict[str, int]:
        self._calls["track_maxima"] += 1
        return self._rules.track_maxima(sheet)

    def conditions(self, sheet: Any, tracks: Mapping[str, int], state: Mapping[str, Any]) -> Any:
        self._calls["conditions"] += 1
        return self._rules.conditions(sheet, tracks, state)

    def track_descriptor(self, tracks: Mapping[str, int], maxima: Mapping[str, int]) -> Any:
        self._calls["track_descriptor"] += 1
        return self._rules.track_descriptor(tracks, maxima)

    def derived_ratings(self, sheet: Any, state: Any) -> dict[str, Any]:
        self._calls["derived_ratings"] += 1
        return self._rules.derived_ratings(sheet, state)

    def equipment(self, sheet: Any) -> dict[str, Any]:
        self._calls["equipment"] += 1
        return self._rules.equipment(sheet)


@pytest.fixture
def counted() -> Iterator[Counter[str]]:
    """Every call the read side makes of the rules while the test runs, by method."""
    calls: Counter[str] = Counter()
    found = installed._find[0]

    def counting(ruleset_id: str, options: Mapping[str, Any] | None) -> Any:
        calls["rules"] += 1
        rules = found(ruleset_id, options)
        return None if rules is None else Counting(rules, calls)

    installed.provide(counting)
    try:
        yield calls
    finally:
        installed.provide(found)


def story(client: TestClient) -> dict[str, tuple[str, str]]:
    """Every kind of event that changes a character, in two rulesets' campaigns: each
    campaign's id and its GM's key."""
    cid = new_campaign(client, "stamina-body", name="Barrow")
    barrow = (cid, client.headers["authorization"])
    bran = enrol(client, cid, "Bran", SHEET)
    mira = enrol(client, cid, "Mira", SHEET)
    ogre = str(
        ok(
            client.post(
                f"/campaigns/{cid}/characters", json={"name": "Ogre", "sheet": OGRE, "npc": True}
            ),
            201,
        )["id"]
    )
    eid = start(
        client,
        cid,
        [{"character_id": bran, "side": "party"}, {"character_id": ogre, "side": "foes"}],
    )
    fight = f"/campaigns/{cid}/encounters/{eid}"
    for target, faces in ((ogre, [6, 6]), (bran, [6, 5]), (ogre, [6, 6]), (bran, [5, 5])):
        act(
            client, cid, eid, "take_hit", None, {"damage": faces},
            target=target, damage_type="impact", damage_class=2,
        )  # fmt: skip
    join = {"character_id": mira, "side": "party", "rank": 2, "reason": "arrives"}
    ok(client.post(f"{fight}/combatants", json=join), 201)
    ok(client.post(f"{fight}/actions/2/void", json={"reason": "wrong target"}))
    ok(client.post(f"{fight}/end"))
    ok(client.post(f"/campaigns/{cid}/days", json={"days": 1}), 201)
    wait_until(  # the healing worker heals the day, before the GM's changes below
        lambda: ok(client.get(f"/campaigns/{cid}/history?kind=CharacterHealed"))["total"] > 0,
        10,
        "the healing worker to heal the day",
    )
    amend = {"changes": {"stamina_max": 10}, "reason": "an old wound"}
    ok(client.post(f"/campaigns/{cid}/characters/{bran}/sheet", json=amend))
    adjust = {"set": {"stamina": 4}, "reason": "a fall"}
    ok(client.post(f"/campaigns/{cid}/characters/{mira}/tracks", json=adjust))
    # A correction past the fight's end, carried into the campaign.
    ok(client.post(f"{fight}/actions/1/void", json={"reason": "never landed"}))

    # A second fight, left open: the Ogre beaten down.
    again = start(
        client,
        cid,
        [{"character_id": bran, "side": "party"}, {"character_id": ogre, "side": "foes"}],
    )
    for _ in range(3):
        act(
            client, cid, again, "take_hit", None, {"damage": [6, 6]},
            target=ogre, damage_type="impact", damage_class=2,
        )  # fmt: skip

    d20 = new_campaign(client, "d20", name="Ruins")
    aldric = enrol(client, d20, "Aldric", d20_sheet())
    grimm = str(
        ok(
            client.post(
                f"/campaigns/{d20}/characters",
                json={"name": "Grimm", "sheet": d20_sheet(armor="chain_mail"), "npc": True},
            ),
            201,
        )["id"]
    )
    ruins = start(
        client,
        d20,
        [
            {"character_id": aldric, "side": "party", "rank": 1},
            {"character_id": grimm, "side": "foes", "rank": 1},
        ],
    )
    act(
        client, d20, ruins, "attack", aldric, {"hit": [11], "damage": [9]},
        target=grimm, weapon="Bastard Sword",
    )  # fmt: skip
    return {"stamina-body": barrow, "d20": (d20, client.headers["authorization"])}


def all_caught_up(client: TestClient, campaigns: dict[str, tuple[str, str]]) -> None:
    for cid, key in campaigns.values():
        client.headers["authorization"] = key
        caught_up(client, cid)


def test_a_rebuild_of_a_store_written_today_asks_the_rules_nothing(
    live_client: TestClient, counted: Counter[str]
) -> None:
    campaigns = story(live_client)
    all_caught_up(live_client, campaigns)
    s = services(live_client)
    # Every event that changes a character recorded its readings.
    kinds: Counter[str] = Counter()
    for notification in s.application.recorder.select_notifications(start=1, limit=10_000):
        event: Any = s.application.mapper.to_domain_event(notification)
        if type(event) in (*CAMPAIGN_EVENTS, *ENCOUNTER_EVENTS) and recorded.records_readings(
            type(event)
        ):
            assert event.readings is not None, type(event).__qualname__
            assert sorted(event.readings) == recorded.touched(vars(event))
            kinds[type(event).__qualname__] += 1
    assert set(kinds) == {
        "Campaign.CharacterEnrolled",
        "Campaign.EncounterClosed",
        "Campaign.CharacterHealed",
        "Campaign.SheetAmended",
        "Campaign.TracksAdjusted",
        "Campaign.CorrectionCarried",
        "Encounter.Started",
        "Encounter.ActionResolved",
        "Encounter.GMChanged",
        "Encounter.Corrected",
    }
    incremental = snapshot(s.redis, current_root(s.redis, s.redis_prefix))
    counted.clear()

    rebuilder(live_client).rebuild_all()

    assert counted == Counter()  # not one call of the rules, not even to find them
    assert_same_views(incremental, snapshot(s.redis, current_root(s.redis, s.redis_prefix)))


def test_what_the_events_recorded_is_what_the_rules_say(
    live_client: TestClient, counted: Counter[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    campaigns = story(live_client)
    all_caught_up(live_client, campaigns)
    s = services(live_client)
    incremental = snapshot(s.redis, current_root(s.redis, s.redis_prefix))
    # Conditions the rules worked out, on the views (the Ogre stunned, below 0 Stamina).
    cid, key = campaigns["stamina-body"]
    barrow = ok(live_client.get(f"/campaigns/{cid}/vitals", headers={"authorization": key}))
    assert {c["name"]: c["conditions"] for c in barrow["characters"]} == {
        "Bran": [],
        "Mira": [],
        "Ogre": ["stunned"],
    }
    counted.clear()
    # As for events stored before the readings were: the rules installed are asked.
    monkeypatch.setattr(base, "recorded_for", lambda readings, character_id: None)

    rebuilder(live_client).rebuild_all()

    assert counted["conditions"] > 0 and counted["track_maxima"] > 0
    assert_same_views(incremental, snapshot(s.redis, current_root(s.redis, s.redis_prefix)))


def test_a_player_and_a_viewer_read_an_npc_as_its_recorded_word_with_no_rule_asked(
    live_client: TestClient, counted: Counter[str]
) -> None:
    campaigns = story(live_client)
    all_caught_up(live_client, campaigns)
    cid, key = campaigns["stamina-body"]
    gm = {"authorization": key}
    vitals = ok(live_client.get(f"/campaigns/{cid}/vitals", headers=gm))
    ids = {c["name"]: c["id"] for c in vitals["characters"]}
    # The GM reads the numbers, and the word each character's tracks read as.
    assert {c["name"]: (c["tracks"], c["seen_as"]) for c in vitals["characters"]} == {
        "Bran": (bars((10, 10), (10, 10)), "unhurt"),
        "Mira": (bars((4, 12), (10, 10)), "winded"),
        "Ogre": (bars((-16, 14), (6, 12)), "stunned"),
    }
    encounter = vitals["encounters"][-1]["id"]
    keys = [
        ok(live_client.post(f"/campaigns/{cid}/keys", json=body, headers=gm), 201)["key"]
        for body in ({"role": "player", "characters": [ids["Bran"]]}, {"role": "viewer"})
    ]
    for reader in keys:
        seen = {"authorization": f"Bearer {reader}"}
        counted.clear()
        read = ok(live_client.get(f"/campaigns/{cid}/vitals", headers=seen))
        ogre = next(c for c in read["characters"] if c["name"] == "Ogre")
        assert (ogre["tracks"], ogre["descriptor"], "seen_as" in ogre) == ({}, "stunned", False)
        bran = next(c for c in read["characters"] if c["name"] == "Bran")
        assert (bran["tracks"], bran["seen_as"]) == (bars((10, 10), (10, 10)), "unhurt")
        asked = {k: v for k, v in counted.items() if k != "rules"}
        assert asked == {}  # not one condition, maximum or descriptor asked of the rules
        counted.clear()
        path = f"/campaigns/{cid}/encounters/{encounter}/board"
        board = ok(live_client.get(path, headers=seen))
        ogre = next(c for c in board["combatants"] if c["name"] == "Ogre")
        assert (ogre["tracks"], ogre["descriptor"], "seen_as" in ogre) == ({}, "stunned", False)
        # The combatants' words are recorded; so are the last actions' texts, told from
        # the parts their commands recorded with them (domain/reading/told_form.py), each
        # NPC's descriptor in them worded then: not one rule asked here either.
        asked = {k: v for k, v in counted.items() if k != "rules"}
        assert asked == {}


def bars(stamina: tuple[int, int], body: tuple[int, int]) -> dict[str, dict[str, int]]:
    return {
        "stamina": {"current": stamina[0], "max": stamina[1]},
        "body": {"current": body[0], "max": body[1]},
    }


def test_the_reads_at_an_instant_and_a_diff_take_what_the_events_recorded(
    live_client: TestClient, counted: Counter[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    campaigns = story(live_client)
    all_caught_up(live_client, campaigns)
    cid, key = campaigns["stamina-body"]
    gm = {"authorization": key}
    fight = ok(live_client.get(f"/campaigns/{cid}/vitals", headers=gm))["encounters"][-1]["id"]
    at = f"/campaigns/{cid}/vitals/at"
    diff = f"/campaigns/{cid}/encounters/{fight}/diff?from=1"
    now = {"at": datetime.now(UTC).isoformat()}

    def reads() -> tuple[Any, Any]:
        return (
            ok(live_client.get(at, params=now, headers=gm)),
            ok(live_client.get(diff, headers=gm)),
        )

    counted.clear()
    recorded_reads = reads()
    # No maximum asked of the rules; the conditions asked are the encounter's own, as it
    # is replayed to the version read (domain/encounter/applying.py conditions_after
    # applies each stored action), none the reads' (fewer than below, where they ask).
    assert counted["track_maxima"] == counted["track_descriptor"] == 0
    replayed = counted["conditions"]
    standing, changed = recorded_reads
    assert {c["name"]: (c["tracks"], c["conditions"]) for c in standing["characters"]} == {
        "Bran": (bars((10, 10), (10, 10)), []),
        "Mira": (bars((4, 12), (10, 10)), []),
        "Ogre": (bars((-16, 14), (6, 12)), ["stunned"]),
    }
    ogre = next(c for c in changed["combatants"].values() if c["name"] == "Ogre")
    assert ogre["conditions"] == {"from": [], "to": ["stunned"]}
    # As for events stored before the readings were: the rules installed say the same.
    monkeypatch.setattr(queries, "recorded_for", lambda readings, character_id: None)
    counted.clear()
    assert reads() == recorded_reads
    assert counted["conditions"] > replayed and counted["track_maxima"] > 0
