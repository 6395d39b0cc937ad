"""Snapshots taken apart from the writer (issue 39), on each store: stored where the
library stores them (on PostgreSQL by a plain insert of their own, application/
snapshotting.py), a large one packed, and read back by a process that did not take them."""

from __future__ import annotations

from typing import Any

from skald_campaign.application.application import SkaldApplication
from skald_campaign.domain.encounter.aggregate import Encounter
from skald_campaign.transcoder import PACKED
from tests.integration.test_store import hit, open_app, setup_fight


def test_snapshots_taken_apart_are_stored_and_read_back_by_another_process(
    store_env: dict[str, str],
) -> None:
    app = open_app(store_env, snapshot_interval=10)
    app.start_group_commit()
    try:
        cid, hero, eid = setup_fight(app)
        for n in range(120):
            app.perform_action(hit(cid, eid, hero, 1 + n % 6))
        app.snapshots_stored()
        written = app.encounter(cid, eid)
        assert app.snapshots is not None
        snapshots = list(app.snapshots.get(eid))
        assert [s.originator_version for s in snapshots] == [10, 20, 40, 80]
        # The ones at 40 and 80 (over 64 KiB of JSON: each action's record carries its
        # texts' parts since issue 38's told) are stored packed, the others as they are.
        packed = [bytes(s.state[:1]) == PACKED for s in app.snapshots.recorder.select_events(eid)]
        assert packed == [False, False, True, True]
        for snapshot in snapshots:
            expected = app.repository.get(eid, version=snapshot.originator_version)
            state: Any = snapshot.state
            assert state == Encounter.Snapshot.take(expected).state
    finally:
        app.close()
    again: SkaldApplication = open_app(store_env, snapshot_interval=10)
    try:
        read = again.encounter(cid, eid)  # from the snapshot at 80, then 81 to 121
        assert read.version == written.version == 121
        assert read.actions == written.actions
        assert read.combatants == written.combatants
        assert again.snapshots is not None
        newest = next(iter(again.snapshots.get(eid, desc=True, limit=1)))
        assert newest.originator_version == 80
    finally:
        again.close()
