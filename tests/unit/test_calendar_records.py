"""The calendar's records (domain/campaign/calendar.py): each day's plans as a ``Day``, stored as
the JSON version 1 wrote (``{"1": {character id: plan}}``), and an old snapshot's calendar read
back into days."""

from __future__ import annotations

import json
from uuid import UUID

import pytest

from skald_campaign.domain.campaign.aggregate import Campaign
from skald_campaign.domain.campaign.calendar import Day, calendar_as_json, calendar_from_json
from tests.unit.test_snapshot_upcast import SNAPSHOTS, loaded

FULL = {"rest": "full", "care": True, "healer": False}
LIGHT = {"rest": "light", "care": False, "healer": False}


def test_a_day_reads_and_writes_the_stored_json() -> None:
    stored = {"bran": FULL, "ulf": LIGHT}
    day = Day.from_json("3", stored)
    assert day == Day(3, {"bran": FULL, "ulf": LIGHT})
    assert day.number == 3
    assert day.as_json() == {"bran": FULL, "ulf": LIGHT}
    assert list(day.as_json()) == ["bran", "ulf"]


def test_a_day_refuses_a_plan_that_is_not_an_object() -> None:
    with pytest.raises(TypeError, match="a JSON object was stored here, not 'full'"):
        Day.from_json("1", {"bran": "full"})
    with pytest.raises(TypeError, match=r"a JSON object was stored here, not \['bran'\]"):
        Day.from_json("1", ["bran"])


def test_a_corrected_plan_is_laid_over_the_day_and_the_day_is_not_changed() -> None:
    day = Day(1, {"bran": FULL, "ulf": FULL})
    corrected = day.with_plans({"ulf": LIGHT})
    assert corrected == Day(1, {"bran": FULL, "ulf": LIGHT})
    assert list(corrected.plans) == ["bran", "ulf"]
    assert day == Day(1, {"bran": FULL, "ulf": FULL})


def test_the_calendar_round_trips_to_the_stored_json_in_its_order() -> None:
    stored = {"1": {"bran": FULL}, "2": {"bran": LIGHT}, "10": {}}
    calendar = calendar_from_json(stored)
    assert calendar == {1: Day(1, {"bran": FULL}), 2: Day(2, {"bran": LIGHT}), 10: Day(10, {})}
    assert json.dumps(calendar_as_json(calendar)) == json.dumps(stored)


def test_an_old_snapshots_calendar_loads_as_days_and_is_stored_as_it_was() -> None:
    # The campaign's snapshot at version 16, after two days advanced and healed.
    (row,) = [
        r
        for r in SNAPSHOTS
        if r["originator_version"] == 16 and "keys" in json.loads(r["state"])["state"]
    ]
    then = json.loads(row["state"])["state"]["calendar"]
    campaign = loaded(True).repository.get(UUID(row["originator_id"]), version=16)
    assert isinstance(campaign, Campaign)
    assert sorted(campaign.calendar) == [1, 2]
    ids = list(then["1"])
    assert len(ids) == 3
    assert campaign.calendar[1] == Day(1, {cid: FULL for cid in ids})
    assert campaign.calendar[2] == Day(2, {cid: FULL for cid in ids})
    assert campaign.plans_on(2) == {cid: FULL for cid in ids}
    assert campaign.plans_on(3) == {}
    assert Campaign.Snapshot.take(campaign).state["calendar"] == then
