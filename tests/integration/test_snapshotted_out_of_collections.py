"""A long encounter's history out of the cyclic collector's sight once snapshotted
(issue 39): in a process that freezes its start-up heap (`skald serve`), every full
collection walked every action record of every encounter, holding the GIL, and a
command of another campaign waited for it (~300 ms beside an 11,000-action encounter on
a quiet machine). The snapshot thread freezes what lives once a snapshot is stored, so
a full collection walks what was allocated since; elsewhere it freezes nothing."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from skald_campaign.application.snapshotting import freeze_snapshotted
from skald_campaign.domain.play.actions import ActionRecord
from tests.integration.test_store import hit, open_app, setup_fight


@pytest.fixture
def collector_as_serve_leaves_it() -> Iterator[None]:
    """What `skald serve` does before it serves (cli.keep_out_of_collections): the heap
    so far frozen. Undone after the test: the rest of the session collects as usual."""
    gc.collect()
    gc.freeze()
    freeze_snapshotted(True)
    try:
        yield
    finally:
        freeze_snapshotted(False)
        gc.unfreeze()


def collected_records() -> list[ActionRecord]:
    """The action records a full collection would walk now."""
    return [o for o in gc.get_objects() if isinstance(o, ActionRecord)]


@pytest.mark.usefixtures("collector_as_serve_leaves_it")
def test_a_snapshotted_encounter_s_records_are_not_walked_by_full_collections(
    store_env: dict[str, str],
) -> None:
    app = open_app(store_env, snapshot_interval=10)
    app.start_group_commit()
    try:
        cid, hero, eid = setup_fight(app)
        for n in range(79):  # the encounter at version 80, one of its snapshot versions
            app.perform_action(hit(cid, eid, hero, 1 + n % 6))
        app.snapshots_stored()
        assert collected_records() == []  # all 79 were there before (old code)
        app.perform_action(hit(cid, eid, hero, 2))
        # What came after the last snapshot is walked until the next one is stored.
        assert [r.number for r in collected_records()] == [80]
        read = app.encounter(cid, eid)  # the records, frozen or not, are the encounter's
        assert [a.number for a in read.actions] == list(range(1, 81))
    finally:
        app.close()


def test_a_process_that_freezes_nothing_gets_nothing_frozen(store_env: dict[str, str]) -> None:
    app = open_app(store_env, snapshot_interval=10)
    app.start_group_commit()
    try:
        cid, hero, eid = setup_fight(app)
        for n in range(79):
            app.perform_action(hit(cid, eid, hero, 1 + n % 6))
        app.snapshots_stored()
        assert gc.get_freeze_count() == 0  # (the suite freezes nothing)
        assert len(collected_records()) >= 79
    finally:
        app.close()
