"""One entry point for void, reroll and rewind, on SQLite and PostgreSQL: whether the fight
is open or ended is decided by the command itself, on the writer thread."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.commands import (
    CorrectEncounter,
    EndEncounter,
    MarkWound,
    VoidAction,
)
from tests.integration.test_store import hit, setup_fight, store_env
from tests.patience import HANG_SECONDS

__all__ = ["store_env"]  # the fixture, shared with test_store.py


def test_the_one_entry_point_corrects_an_open_and_an_ended_fight(
    store_env: dict[str, str],
) -> None:
    app = SkaldApplication(env=store_env, roller=random.Random(1))
    try:
        cid, hero, eid = setup_fight(app)
        app.perform_action(hit(cid, eid, hero, 6))
        app.perform_action(hit(cid, eid, hero, 2))
        open_fight, report = app.correct(CorrectEncounter(cid, eid, "void", "misread", 1))
        assert [entry["number"] for entry in report] == [2]  # what changed after it
        assert [a.status for a in open_fight.actions] == ["voided", "active"]
        assert "after_end" not in open_fight.corrections[-1].as_json()
        tracks_open = open_fight.combatants[hero].tracks

        app.end_encounter(EndEncounter(cid, eid))
        ended, report = app.correct(CorrectEncounter(cid, eid, "void", "never happened", 2))
        assert report == []  # nothing came after it
        assert [a.status for a in ended.actions] == ["voided", "voided"]
        assert ended.corrections[-1].as_json()["after_end"] is True
        assert ended.combatants[hero].tracks == {"stamina": 200, "body": 200}
        assert app.campaign(cid).characters[hero].tracks == {"stamina": 200, "body": 200}
        assert tracks_open != {"stamina": 200, "body": 200}  # the second hit had counted
    finally:
        app.close()


def test_a_fight_that_ends_while_the_void_waits_for_the_writer_is_voided_as_ended(
    store_env: dict[str, str],
) -> None:
    """The request finds the fight open; the end and a wound are queued before its command.
    The command sees the ended fight (the end not yet committed, in the same batch) and
    carries the correction through the campaign instead of refusing it."""
    app = SkaldApplication(env=store_env, roller=random.Random(1), write_attempts=1)
    app.start_group_commit()
    try:
        cid, hero, eid = setup_fight(app)
        app.perform_action(hit(cid, eid, hero, 6))
        assert app.writer is not None
        running, release = threading.Event(), threading.Event()

        def hold_the_writer() -> None:
            running.set()
            release.wait(HANG_SECONDS)

        blocker = app.writer.enqueue(hold_the_writer)
        assert running.wait(HANG_SECONDS)  # the writer is busy: what follows waits in its queue
        answers: dict[str, Any] = {}

        def run(name: str, command: Any) -> None:
            try:
                answers[name] = command()
            except Exception as error:  # the test inspects it
                answers[name] = error

        def queued(count: int) -> None:
            while app.writer is not None and app.writer._jobs.qsize() < count:
                time.sleep(0.001)

        end = threading.Thread(
            target=run, args=("end", lambda: app.end_encounter(EndEncounter(cid, eid)))
        )
        end.start()
        queued(1)
        wound = MarkWound(cid, hero, "broken_bones", True, "a fall after the fight")
        wounding = threading.Thread(target=run, args=("wound", lambda: app.mark_wound(wound)))
        wounding.start()
        queued(2)
        void = VoidAction(cid, eid, 1, "never happened")
        voiding = threading.Thread(target=run, args=("void", lambda: app.void_action(void)))
        voiding.start()
        queued(3)
        release.set()
        for thread in (end, wounding, voiding):
            thread.join(60)
        blocker.result(60)

        assert not isinstance(answers["end"], Exception), answers["end"]
        assert not isinstance(answers["wound"], Exception), answers["wound"]
        assert not isinstance(answers["void"], Exception), answers["void"]
        encounter, report = answers["void"]
        assert encounter.ended
        assert encounter.corrections[-1].as_json()["after_end"] is True
        assert [a.status for a in encounter.actions] == ["voided"]
        assert report == []  # nothing came after it
        stored = app.encounter(cid, eid)
        assert [a.status for a in stored.actions] == ["voided"]
        character = app.campaign(cid).characters[hero]
        assert character.tracks == {"stamina": 200, "body": 200}
        # The wound was not committed yet when the correction was worked out (one batch):
        # the walk still reads it, so the carried correction keeps it.
        assert character.state == {"broken_bones": True}
    finally:
        app.close()
