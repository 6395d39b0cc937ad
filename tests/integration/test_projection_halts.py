"""A stored event a view cannot apply (issue 26 item 2): however it got there, the view
stops just before it with one log line naming it, /health says so, the other views go
on, and `skald projections rebuild` refuses with what to do, leaving the views as
they were. Here the event is written straight through the recorder, as an old or
damaged store would hold it: a campaign of a ruleset this Skald does not play."""

from __future__ import annotations

import logging
import os
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from skald_campaign.domain.campaign.aggregate import Campaign
from skald_campaign.settings import Settings
from tests.helpers import act, enrol, new_campaign, ok, start
from tests.integration.test_export_import import BARE, OGRE, skald
from tests.patience import HANG_SECONDS


def store_a_campaign_of_an_unknown_ruleset(client: TestClient) -> tuple[str, int]:
    """Its enrolment is what the vitals cannot apply (its state not an object: a campaign
    whose ruleset is missing no longer stops a view, issue 38); the board takes no
    campaign event and the audit log only words them. Its position."""
    backend: Any = client.app.state.backend  # type: ignore[attr-defined]
    application = backend.application
    campaign = Campaign.create("Lost", "stamina-body", {}, "gm:GM", "k" * 16, "h" * 64)
    campaign.enrol("Bran", BARE, "gm:GM")
    events = campaign.collect_events()
    object.__setattr__(events[1], "state", "broken")
    application.recorder.insert_events([application.mapper.to_stored_event(e) for e in events])
    return str(campaign.id), int(application.recorder.max_notification_id())


def wait_for(what: str, check: Any) -> Any:
    deadline = time.monotonic() + HANG_SECONDS
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"{what} did not happen")


def test_a_view_stops_at_an_event_it_cannot_apply_and_the_others_go_on(
    live_client: TestClient, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="skald.projections")
    client = live_client
    lost, position = store_a_campaign_of_an_unknown_ruleset(client)
    # A campaign after it, played on: the board and the audit log follow it.
    cid = new_campaign(client, "stamina-body")
    ogre, bran = enrol(client, cid, "Ogre", OGRE), enrol(client, cid, "Bran", BARE)
    lineup = [{"character_id": ogre, "side": "foes"}, {"character_id": bran, "side": "party"}]
    eid = start(client, cid, lineup)
    act(client, cid, eid, "attack", ogre, {"hit": [1, 2, 2], "damage": [6, 6]},
        target=bran, weapon="spear", defense="none")  # fmt: skip
    board = wait_for(
        "the board to show the attack",
        lambda: (
            (b := ok(client.get(f"/campaigns/{cid}/encounters/{eid}/board")))["actions"] == 1 and b
        ),
    )
    assert [a["kind"] for a in board["last_actions"]] == ["attack"]
    audit = ok(client.get(f"/campaigns/{cid}/audit"))
    assert audit["total"] >= 5

    health = client.get("/health").json()
    assert health["status"] == "degraded"
    (halt,) = health["views"]["halted"]
    assert (halt["view"], halt["position"], halt["type"], halt["aggregate"]) == (
        "vitals",
        position,
        "Campaign.CharacterEnrolled",
        lost,
    )
    assert "broken" in halt["why"]
    assert health["views"]["ok"] is False
    # The vitals stay just before it: behind, not wrong.
    vitals = ok(client.get(f"/campaigns/{cid}/vitals"))["projection"]
    assert vitals["position"] == position - 1

    # More writes, more batches: still one line, no traceback, no restart.
    ok(client.post(f"/campaigns/{cid}/encounters/{eid}/round"))
    wait_for(
        "the board to take the round",
        lambda: ok(client.get(f"/campaigns/{cid}/encounters/{eid}/board"))["round"] == 2,
    )
    stopped = [r for r in caplog.records if "cannot apply" in r.getMessage()]
    assert [r.getMessage() for r in stopped] == [
        f"the vitals view stopped at event {position} (Campaign.CharacterEnrolled of "
        f"aggregate {lost}), which it cannot apply: {halt['why']}; the other views go on; "
        "run a Skald that can read it, then `skald projections rebuild`"
    ]
    assert not any(r.exc_info for r in caplog.records if r.name.startswith("skald"))
    backend: Any = client.app.state.backend  # type: ignore[attr-defined]
    assert not any("restart" in r.getMessage() for r in caplog.records)
    assert backend.background is not None

    # The rebuild says what is wrong and what to do, and leaves the views as they were.
    env = {
        "SKALD_DATA_DIR": str(settings.data_dir),
        "SKALD_REDIS_PREFIX": settings.redis_prefix,
        # The running server's Redis: with nothing configured, its embedded one, which
        # the rebuild may not start a second time on the same data directory.
        "SKALD_REDIS_URL": backend.redis_url,
    }
    rebuilt = skald("projections", "rebuild", env={**os.environ, **env})
    assert rebuilt.returncode == 1, rebuilt.stdout
    assert "Traceback" not in rebuilt.stderr
    assert rebuilt.stderr.splitlines()[-1] == (
        "skald: the views were not rebuilt, and were left as they were (generation g1 "
        f"still current): event {position} (Campaign.CharacterEnrolled "
        f"of aggregate {lost}) cannot be applied by the vitals view(s): {halt['why']}; "
        "this Skald cannot read that event: run a Skald that can (the one that wrote it, "
        "or a newer one), or restore the store from an export made before it"
    )
    assert ok(client.get(f"/campaigns/{cid}/encounters/{eid}/board"))["round"] == 2
    assert client.get("/health").json()["views"]["halted"] == [halt]
