"""Group commit on SQLite and PostgreSQL: one writer per process, commands that arrive
together saved in one transaction; nothing refused within a process, nothing lost,
nothing done twice, and a refused command does not take its batch down with it."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import Any

from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.idempotency import current_claim
from skald_campaign.domain.errors import ActionRefused, DomainError
from skald_campaign.domain.idempotency import AlreadyDone, Claim, Replayed
from tests.integration.test_store import hit, open_app, setup_fight, store_env
from tests.patience import HANG_SECONDS

__all__ = ["store_env"]  # the fixture, shared with test_store.py
WRITERS = 16


def together(count: int, run: Callable[[int], Any]) -> list[Any]:
    """Start ``count`` threads at one instant; each result, or the exception it raised."""
    results: list[Any] = [None] * count
    start = threading.Barrier(count)

    def one(n: int) -> None:
        start.wait()
        try:
            results[n] = run(n)
        except Exception as error:  # the test inspects it
            results[n] = error

    threads = [threading.Thread(target=one, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def grouped(store_env: dict[str, str]) -> SkaldApplication:
    """No second attempt allowed: within one process, commands queue, they never race."""
    app = SkaldApplication(env=store_env, roller=random.Random(1), write_attempts=1)
    app.start_group_commit()
    return app


def test_sixteen_writers_on_one_encounter_are_all_recorded_in_order(
    store_env: dict[str, str],
) -> None:
    app = grouped(store_env)
    try:
        cid, hero, eid = setup_fight(app)
        rounds = 5
        answers = together(
            WRITERS, lambda n: [app.perform_action(hit(cid, eid, hero, 1)) for _ in range(rounds)]
        )
        assert all(isinstance(a, list) for a in answers), answers  # nothing refused
        numbers = sorted(record["number"] for a in answers for _, record in a)
        assert numbers == list(range(1, WRITERS * rounds + 1))
        # Each caller got the encounter as it stood right after its own action.
        for answer in answers:
            for encounter, record in answer:
                assert encounter.actions[-1].number == record["number"]
                assert encounter.version == record["version"]
        fresh = open_app(store_env)
        final = fresh.encounter(cid, eid)
        assert final.combatants[hero].tracks["stamina"] == 200 - WRITERS * rounds
        assert [a.number for a in final.actions] == list(range(1, WRITERS * rounds + 1))
        fresh.close()
    finally:
        app.close()


def test_a_refused_command_leaves_the_others_of_its_batch_recorded(
    store_env: dict[str, str],
) -> None:
    app = grouped(store_env)
    try:
        cid, hero, eid = setup_fight(app)

        def command(n: int) -> Any:
            if n % 2:  # a face of 7 on a d6: refused before anything changes
                return app.perform_action(hit(cid, eid, hero, 7))
            return app.perform_action(hit(cid, eid, hero, 1))

        answers = together(WRITERS, command)
        refused = [a for a in answers if isinstance(a, DomainError)]
        assert len(refused) == WRITERS // 2
        assert all("7" in str(a) for a in refused)
        final = open_app(store_env)
        assert len(final.encounter(cid, eid).actions) == WRITERS // 2
        final.close()
    finally:
        app.close()


def test_the_same_request_twice_at_once_is_done_once(store_env: dict[str, str]) -> None:
    app = grouped(store_env)
    try:
        cid, hero, eid = setup_fight(app)
        claim = Claim("gm:test|POST /actions|same-key", "hash-of-the-body")

        def command(_: int) -> Any:
            token = current_claim.set(claim)
            try:
                return app.idempotent(claim, lambda: app.perform_action(hit(cid, eid, hero, 2)))
            finally:
                current_claim.reset(token)

        answers = together(8, command)
        done = [a for a in answers if isinstance(a, tuple)]
        replays = [a for a in answers if isinstance(a, Replayed)]
        assert len(done) == 1 and len(replays) == 7, answers
        assert not [a for a in answers if isinstance(a, AlreadyDone | ActionRefused)]
        final = open_app(store_env)
        assert len(final.encounter(cid, eid).actions) == 1
        final.close()
    finally:
        app.close()


def test_a_command_that_fails_half_way_in_a_batch_leaves_nothing_of_itself(
    store_env: dict[str, str],
) -> None:
    """Sixteen commands on one encounter queue while the writer is held, so they run as
    one batch; every other one acts and then fails. Each of those changed the encounter
    the batch's earlier commands had changed too: seen, the batch is run again one by
    one, and only the eight whole actions are recorded."""
    app = grouped(store_env)
    try:
        cid, hero, eid = setup_fight(app)
        release = threading.Event()
        holding = app.run_command_later(lambda: release.wait(HANG_SECONDS))

        def half_then_fail() -> None:
            encounter = app.encounter(cid, eid)
            encounter.act("take_hit", None, hit(cid, eid, hero, 5).params, {"damage": [5]},
                          app.roller, "gm")  # fmt: skip
            raise ActionRefused("refused after changing the encounter")

        queued = [
            app.run_command_later(half_then_fail)
            if n % 2
            else app.perform_action_later(hit(cid, eid, hero, 1))
            for n in range(WRITERS)
        ]
        release.set()
        holding.result(HANG_SECONDS)
        refused = [f.exception(HANG_SECONDS) for f in queued[1::2]]
        assert all(isinstance(error, ActionRefused) for error in refused)
        assert [f.result(HANG_SECONDS)[1]["number"] for f in queued[::2]] == list(
            range(1, WRITERS // 2 + 1)
        )
        final = open_app(store_env)
        encounter = final.encounter(cid, eid)
        assert [a.number for a in encounter.actions] == list(range(1, WRITERS // 2 + 1))
        assert encounter.combatants[hero].tracks["stamina"] == 200 - WRITERS // 2
        final.close()
    finally:
        app.close()
