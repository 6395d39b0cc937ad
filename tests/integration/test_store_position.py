"""The views' lag says where the store is without a query per read (issue 28: it was 36%
of the server's time under vitals reads), on SQLite and PostgreSQL: this process's own
commits count at once (a command's answer never outruns its position), another
process's once the position is stale."""

from __future__ import annotations

import time

from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.commands import CreateCampaign


class CountedReads:
    def __init__(self, app: SkaldApplication) -> None:
        self.reads = 0
        self.read = app.known_position._read

        def counted() -> int | None:
            self.reads += 1
            return self.read()

        app.known_position._read = counted


def test_reads_of_the_position_ask_the_store_once_while_fresh(
    store_env: dict[str, str],
) -> None:
    app = SkaldApplication(env=store_env)
    try:
        app.known_position.fresh_seconds = 60
        app.create_campaign(CreateCampaign("One", "stamina-body"))
        counted = CountedReads(app)
        first = app.store_position()
        assert [app.store_position() for _ in range(100)] == [first] * 100
        assert counted.reads <= 1
        assert first == app.recorder.max_notification_id()
    finally:
        app.close()


def test_a_commit_here_moves_the_position_at_once(store_env: dict[str, str]) -> None:
    app = SkaldApplication(env=store_env)
    try:
        app.known_position.fresh_seconds = 60
        app.create_campaign(CreateCampaign("One", "stamina-body"))
        app.store_position()
        counted = CountedReads(app)
        app.create_campaign(CreateCampaign("Two", "stamina-body"))
        assert app.store_position() == app.recorder.max_notification_id()
        assert counted.reads == 0
    finally:
        app.close()


def test_another_process_commit_shows_once_the_position_is_stale(
    store_env: dict[str, str],
) -> None:
    here, there = SkaldApplication(env=store_env), SkaldApplication(env=store_env)
    try:
        here.known_position.fresh_seconds = 0.2
        here.create_campaign(CreateCampaign("One", "stamina-body"))
        before = here.store_position()
        there.create_campaign(CreateCampaign("Two", "stamina-body"))
        after = there.recorder.max_notification_id()
        assert after is not None and after > before
        deadline = time.monotonic() + 10
        while here.store_position() != after:
            assert time.monotonic() < deadline, "the other process's commit never showed"
            time.sleep(0.05)
    finally:
        here.close()
        there.close()
