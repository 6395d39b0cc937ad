"""A ruleset's version on record (issue 38; docs/rulesets.md, "Versions").

A campaign records its ruleset's distribution and version when it is created. Here d20
is upgraded between a fight and its correction: its version bumped and a rule changed
(chain mail's armor value, 4 -> 2), as a new release of it would be installed. The
operator's `skald rulesets check` lists the action that now comes out differently, every
write to the campaign is refused with a 409 naming both versions and the command, until
the GM accepts the version (one event on record); the correction then resolves under
it. A version bumped with no rule changed is recorded by the writer, once. A campaign
whose ruleset is not installed is readable and refuses writes; other campaigns write on.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any
from uuid import UUID, uuid4

import msgspec
import pytest
import redis
from eventsourcing.domain import Aggregate
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from skald_campaign.api import views
from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.commands import (
    AdvanceDays,
    CreateCampaign,
    EnrolCharacter,
    HealThrough,
)
from skald_campaign.application.event_log import logged
from skald_campaign.cli import app as cli
from skald_campaign.domain.campaign.aggregate import Campaign
from skald_campaign.domain.campaign.ruleset_versions import RulesetNotCurrent
from skald_campaign.domain.errors import ActionRefused
from skald_campaign.domain.rulesets import RULESETS
from skald_campaign.domain.rulesets.d20 import D20
from skald_campaign.domain.rulesets.d20.tables import ARMOR, Armor
from skald_campaign.settings import Settings
from skald_campaign.workers.healing import HealingWorker
from tests.helpers import GM, act, enrol, new_campaign, ok, start
from tests.integration.test_d20_api import d20_sheet
from tests.integration.test_heal_race import SHEET, heals, hurt
from tests.integration.test_projections import caught_up

BEFORE = "Aldric hits Grimm with Bastard Sword (11 >= AC 11): 9 rolled, 5 dealt; HP 20 -> 15"
AFTER = "Aldric hits Grimm with Bastard Sword (11 >= AC 11): 9 rolled, 7 dealt; HP 20 -> 13"


def a_fight(client: TestClient) -> tuple[str, str, dict[str, str]]:
    """A d20 campaign and its ended fight: Aldric's one hit on Grimm, in chain mail."""
    cid = new_campaign(client, "d20", name="Ruins")
    ids = {
        "Aldric": enrol(client, cid, "Aldric", d20_sheet()),
        "Grimm": enrol(client, cid, "Grimm", d20_sheet(armor="chain_mail")),
    }
    combatants = [
        {"character_id": ids["Aldric"], "side": "party", "rank": 1},
        {"character_id": ids["Grimm"], "side": "foes", "rank": 1},
    ]
    eid = start(client, cid, combatants)
    hit = act(
        client, cid, eid, "attack", ids["Aldric"], {"hit": [11], "damage": [9]},
        target=ids["Grimm"], weapon="Bastard Sword",
    )  # fmt: skip
    assert hit["action"]["summary"] == BEFORE
    ok(client.post(f"/campaigns/{cid}/encounters/{eid}/end", headers=GM))
    return cid, eid, ids


def upgrade_d20(monkeypatch: pytest.MonkeyPatch, version: str, rule_changed: bool) -> None:
    """Install another version of d20: bumped, and with chain mail's AV 2 if a rule changed."""
    monkeypatch.setattr(D20, "version", version)
    if rule_changed:
        monkeypatch.setitem(ARMOR, "chain_mail", Armor("Chain Mail", 2, 2, 40, 400, 2))


@pytest.fixture
def until_the_end() -> Iterator[ExitStack]:
    """Context managers entered in a test, left as it ends (on every path)."""
    with ExitStack() as stack:
        yield stack


def uninstall(until_the_end: ExitStack, ruleset_id: str) -> None:
    """The registry as discovery finds it once the ruleset's distribution is gone, for
    the rest of the test (``RULESETS.removed``)."""
    until_the_end.enter_context(RULESETS.removed(ruleset_id))


def standing(cid: str, status: str, recorded: str, installed: str | None) -> dict[str, Any]:
    return {
        "campaign_id": cid,
        "campaign": "Ruins",
        "ruleset": "d20",
        "distribution": "skald-campaign",
        "recorded_version": recorded,
        "installed_distribution": None if installed is None else "skald-campaign",
        "installed_version": installed,
        "status": status,
        "read_only": status in ("differs", "missing"),
        "differing": [],
        "accept": None,
        "command": "skald rulesets check",
    }


def check(settings: Settings) -> tuple[int, list[str]]:
    """`skald rulesets check` on the test's store, in this process (so it sees the d20
    this test installed); its exit status and lines."""
    done = CliRunner().invoke(cli, ["rulesets", "check", "--data-dir", str(settings.data_dir)])
    return done.exit_code, done.output.splitlines()


def events_of(client: TestClient, cid: str) -> list[dict[str, Any]]:
    """The campaign's events from the store, as the event log publishes them."""
    application: SkaldApplication = client.app.state.backend.application  # type: ignore[attr-defined]
    return [
        msgspec.structs.asdict(logged(0, event))
        for event in application.events.get(UUID(cid))
        if isinstance(event, Aggregate.Event)
    ]


def test_a_campaign_records_its_ruleset_s_distribution_and_version(client: TestClient) -> None:
    cid, _, _ = a_fight(client)
    assert ok(client.get(f"/campaigns/{cid}/ruleset")) == standing(cid, "current", "1.0.0", "1.0.0")
    created = events_of(client, cid)[0]
    assert created["type"] == "Campaign.Created"
    assert created["type_version"] == 3  # v3: `via` (issue 40)
    payload = created["payload"]
    assert (payload["ruleset_distribution"], payload["ruleset_version"]) == (
        "skald-campaign",
        "1.0.0",
    )


def test_an_upgrade_that_changes_an_action_holds_writes_until_the_gm_accepts_it(
    client: TestClient, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    cid, eid, _ids = a_fight(client)
    upgrade_d20(monkeypatch, "1.1.0", rule_changed=True)

    # The operator's check lists the action, and fails: a campaign is read-only.
    status, lines = check(settings)
    assert status == 1
    assert lines == [
        f"{cid}  Ruins: ruleset d20, version 1.0.0 of skald-campaign on record, 1.1.0 of "
        "skald-campaign installed: 1 recorded action(s) come out differently; read-only "
        f"until the GM accepts version 1.1.0 (POST /campaigns/{cid}/ruleset/accept)",
        f"  encounter Fight ({eid}), action 1 attack, changed:",
        f"    was: {BEFORE}",
        f"    now: {AFTER}",
    ]
    # The GM reads the same.
    differing = {
        "encounter_id": eid,
        "encounter": "Fight",
        "number": 1,
        "kind": "attack",
        "before": BEFORE,
        "after": AFTER,
        "status": "changed",
        "new_rolls": [],
        "refitted_rolls": {},
        "unused_rolls": [],
    }
    accept = {"method": "POST", "path": f"/campaigns/{cid}/ruleset/accept"}
    assert ok(client.get(f"/campaigns/{cid}/ruleset")) == {
        **standing(cid, "differs", "1.0.0", "1.1.0"),
        "differing": [differing],
        "accept": {**accept, "body": {"version": "1.1.0"}},
    }

    # The correction is refused, as is every other write; the reads answer.
    written = len(events_of(client, cid))
    reroll = f"/campaigns/{cid}/encounters/{eid}/actions/1/reroll"
    body = {"reason": "Grimm's mail was counted wrong", "dice": {"hit": [11], "damage": [9]}}
    refused = client.post(reroll, json=body, headers=GM)
    assert refused.status_code == 409
    assert refused.headers["content-type"] == "application/problem+json"
    message = (
        f"campaign {cid} is read-only: its ruleset 'd20' is installed at version 1.1.0 of "
        "skald-campaign, but the campaign has version 1.0.0 of skald-campaign on record, "
        "and 1 of its recorded actions come out differently under the installed one; run "
        f"`skald rulesets check` (or GET /campaigns/{cid}/ruleset) to see them, then the GM "
        f'accepts the installed version with POST /campaigns/{cid}/ruleset/accept {{"version": '
        '"1.1.0"}, or keep version 1.0.0 installed'
    )
    assert refused.json() == {
        "type": "urn:skald:problem:ruleset-not-current",
        "title": "the campaign is read-only until its ruleset's version is settled",
        "status": 409,
        "detail": message,
        "instance": f"/campaigns/{cid}",
        "error": "ruleset_not_current",
        "message": message,
        "ruleset": "d20",
        "distribution": "skald-campaign",
        "recorded_version": "1.0.0",
        "installed_distribution": "skald-campaign",
        "installed_version": "1.1.0",
        "differing": 1,
        "command": "skald rulesets check",
        "accept": f"/campaigns/{cid}/ruleset/accept",
    }
    for path, json in (
        (f"/campaigns/{cid}/encounters/{eid}/actions/1/void", {"reason": "no"}),
        (f"/campaigns/{cid}/characters", {"name": "Mira", "sheet": d20_sheet()}),
        (f"/campaigns/{cid}/days", {"days": 1}),
    ):
        answer = client.post(path, json=json, headers=GM)
        assert (answer.status_code, answer.json()["error"]) == (409, "ruleset_not_current"), path
    assert ok(client.get(f"/campaigns/{cid}"))["ruleset"] == "d20"
    assert len(events_of(client, cid)) == written

    # Accepting a version that is not the one installed is refused.
    wrong = client.post(f"/campaigns/{cid}/ruleset/accept", json={"version": "1.0.0"}, headers=GM)
    assert (wrong.status_code, wrong.json()["message"]) == (
        409,
        "the installed version of the ruleset 'd20' is 1.1.0, not 1.0.0: accept the version "
        "installed",
    )
    accept_path = f"/campaigns/{cid}/ruleset/accept"
    accepted = client.post(accept_path, json={"version": "1.1.0"}, headers=GM)
    assert ok(accepted) == standing(cid, "current", "1.1.0", "1.1.0")
    # The acceptance is one event on record, with what the GM was shown.
    (event,) = [e for e in events_of(client, cid) if e["type"].startswith("Campaign.Ruleset")]
    # With every character's readings under 1.1.0 (Grimm's armor value 2, not 4), as
    # the campaign's GET reads them now (test_the_version_on_record_gives_...).
    readings = event["payload"].pop("readings")
    assert sorted(readings) == sorted(_ids.values())
    assert readings[_ids["Grimm"]]["derived"]["av"]["melee"]["value"] == 2
    assert (event["type"], event["payload"]) == (
        "Campaign.RulesetVersionAccepted",
        {
            "distribution": "skald-campaign",
            "version": "1.1.0",
            "previous_distribution": "skald-campaign",
            "previous_version": "1.0.0",
            # Where each action is, not its texts: players' keys read the log too.
            "differing": [
                {
                    "encounter_id": eid,
                    "encounter": "Fight",
                    "number": 1,
                    "kind": "attack",
                    "status": "changed",
                }
            ],
            "by": "gm:GM",
            "via": None,  # accepted from the pages, not through the assistant (issue 40)
        },
    )
    again = client.post(f"/campaigns/{cid}/ruleset/accept", json={"version": "1.1.0"}, headers=GM)
    assert again.status_code == 409

    # The correction now resolves under 1.1.0: chain mail's AV is 2.
    corrected = ok(client.post(reroll, json=body, headers=GM))
    assert [(e["before"], e["after"], e["status"]) for e in corrected["report"]] == [
        (BEFORE, AFTER, "rerolled")
    ]
    status, lines = check(settings)
    assert (status, lines) == (
        0,
        [f"{cid}  Ruins: ruleset d20, version 1.1.0 of skald-campaign on record, installed: "
         "current"],
    )  # fmt: skip


def test_an_upgrade_that_changes_no_action_is_recorded_by_the_writer_once(
    client: TestClient, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    cid, eid, _ids = a_fight(client)
    upgrade_d20(monkeypatch, "1.0.1", rule_changed=False)
    assert ok(client.get(f"/campaigns/{cid}/ruleset")) == standing(
        cid, "same_outcomes", "1.0.0", "1.0.1"
    )
    status, lines = check(settings)
    assert (status, lines) == (
        0,
        [f"{cid}  Ruins: ruleset d20, version 1.0.0 of skald-campaign on record, 1.0.1 of "
         "skald-campaign installed: every recorded action comes out as it did; the next "
         "write records version 1.0.1"],
    )  # fmt: skip
    # Nothing written by reading; the first write records the version, the next do not.
    assert not [e for e in events_of(client, cid) if e["type"].startswith("Campaign.Ruleset")]
    enrol(client, cid, "Mira", d20_sheet())
    reroll = f"/campaigns/{cid}/encounters/{eid}/actions/1/reroll"
    body = {"reason": "a die fell off the table", "dice": {"hit": [11], "damage": [7]}}
    ok(client.post(reroll, json=body, headers=GM))
    enrol(client, cid, "Osric", d20_sheet())
    recorded = [e for e in events_of(client, cid) if e["type"].startswith("Campaign.Ruleset")]
    # With the readings of the characters it found (Mira's enrolment recorded it).
    assert [sorted(e["payload"].pop("readings")) for e in recorded] == [sorted(_ids.values())]
    assert [(e["type"], e["payload"]) for e in recorded] == [
        (
            "Campaign.RulesetVersionRecorded",
            {
                "distribution": "skald-campaign",
                "version": "1.0.1",
                "previous_distribution": "skald-campaign",
                "previous_version": "1.0.0",
                "via": None,  # the writer's own record (issue 40)
            },
        )
    ]
    assert ok(client.get(f"/campaigns/{cid}/ruleset")) == standing(cid, "current", "1.0.1", "1.0.1")


def test_the_first_of_two_processes_to_write_records_the_version(
    store_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = SkaldApplication(env=store_env), SkaldApplication(env=store_env)
    try:
        campaign = Campaign.create("Ruins", "d20", None, "gm:GM", "k1", "a" * 64)
        first.save(campaign)
        # Both processes have read the campaign at 1.0.0 before the upgrade.
        assert second.campaign(campaign.id).ruleset_version == "1.0.0"
        upgrade_d20(monkeypatch, "1.0.1", rule_changed=False)
        for process, name in ((second, "Mira"), (first, "Osric"), (second, "Tam")):
            process.enrol_character(EnrolCharacter(campaign.id, name, d20_sheet(), "gm:GM"))
        kinds = [type(e).__qualname__ for e in first.events.get(campaign.id)]
        assert kinds == [
            "Campaign.Created",
            "Campaign.RulesetVersionRecorded",
            *["Campaign.CharacterEnrolled"] * 3,
        ]
        assert first.campaign(campaign.id).ruleset_version == "1.0.1"
    finally:
        first.close()
        second.close()


def test_a_campaign_whose_ruleset_is_missing_reads_and_refuses_writes(
    client: TestClient, until_the_end: ExitStack, monkeypatch: pytest.MonkeyPatch
) -> None:
    cid, _eid, _ids = a_fight(client)
    gm_key = client.headers["authorization"]
    other = new_campaign(client, "margin", name="Elsewhere")
    other_key = client.headers["authorization"]
    client.headers["authorization"] = gm_key
    installed = ok(client.get(f"/campaigns/{cid}"))
    uninstall(until_the_end, "d20")

    # Every read answers without the rules: its standing, its history, the campaign
    # itself with its characters' tracks as recorded and what the rules worked out as
    # each event was recorded (maxima, conditions, ratings, gear: issue 38,
    # domain/reading/recorded.py), as read with the ruleset installed. Every GET route
    # is asked so in tests/integration/test_reads_without_rulesets.py.
    assert ok(client.get(f"/campaigns/{cid}/ruleset")) == standing(cid, "missing", "1.0.0", None)
    assert ok(client.get(f"/campaigns/{cid}/history"))["total"] == 5
    read = ok(client.get(f"/campaigns/{cid}"))
    assert read["characters"] == installed["characters"]
    grimm = next(c for c in read["characters"] if c["name"] == "Grimm")
    worked_out = ("maxima", "conditions", "derived", "equipment")
    assert (grimm["tracks"], grimm["maxima"], grimm["conditions"]) == ({"hp": 15}, {"hp": 20}, [])
    assert grimm["derived"] and grimm["equipment"]
    # A character whose last event recorded none (stored before they were recorded):
    # nothing the rules work out (domain/reading/installed.py).
    monkeypatch.setattr(views, "kept_for", lambda aggregate, character_id: None)
    read = ok(client.get(f"/campaigns/{cid}"))
    grimm = next(c for c in read["characters"] if c["name"] == "Grimm")
    assert (grimm["tracks"], *(grimm[k] for k in worked_out)) == ({"hp": 15}, {}, [], {}, {})
    monkeypatch.undo()
    refused = client.post(f"/campaigns/{cid}/characters", json={"name": "Mira", "sheet": {}})
    assert refused.status_code == 409
    assert refused.json()["message"] == (
        f"campaign {cid} is read-only: its ruleset 'd20' (version 1.0.0 of skald-campaign) "
        "is not installed; install it to write again (`skald rulesets check` lists every "
        "campaign it holds back)"
    )
    assert refused.json()["accept"] is None
    nothing = client.post(f"/campaigns/{cid}/ruleset/accept", json={"version": "1.0.0"})
    assert (nothing.status_code, nothing.json()["message"]) == (
        409,
        "the ruleset 'd20' is not installed: there is no version to accept",
    )
    # Its keys stay manageable: a leaked key can be revoked whatever the ruleset.
    issued = ok(client.post(f"/campaigns/{cid}/keys", json={"role": "viewer"}), 201)
    assert ok(client.delete(f"/campaigns/{cid}/keys/{issued['id']}"))["revoked"] is True
    # Another campaign writes on.
    client.headers["authorization"] = other_key
    sheet = {"might": 2, "grace": 2, "vigor": 2, "aether": 2, "evasion": 1, "luck": 2}
    ok(client.post(f"/campaigns/{other}/characters", json={"name": "Bran", "sheet": sheet}), 201)


def test_accepting_refuses_a_campaign_already_on_the_installed_version() -> None:
    campaign = Campaign.create("Ruins", "d20", None, "gm:GM", "k1", "a" * 64)
    with pytest.raises(ActionRefused, match=r"already has version 1\.0\.0"):
        campaign.accept_ruleset_version("1.0.0", [], "gm:GM")
    assert not issubclass(ActionRefused, RulesetNotCurrent)


def test_the_healing_worker_passes_over_a_read_only_campaign_s_day(
    store_app: SkaldApplication, redis_url: str, until_the_end: ExitStack
) -> None:
    app = store_app
    worker = HealingWorker(app, redis.Redis.from_url(redis_url), prefix=f"heal-{uuid4().hex[:8]}")
    held = app.create_campaign(CreateCampaign("Held", "d20"))
    app.enrol_character(EnrolCharacter(held.id, "Aldric", d20_sheet()))
    going = app.create_campaign(CreateCampaign("Going", "stamina-body"))
    _, hero = app.enrol_character(EnrolCharacter(going.id, "Hero", SHEET))
    hurt(app, going.id, hero)
    app.advance_days(AdvanceDays(held.id, 1))
    app.advance_days(AdvanceDays(going.id, 1))
    uninstall(until_the_end, "d20")
    with pytest.raises(RulesetNotCurrent):
        app.heal_through(HealThrough(held.id, 1))
    assert worker.run_once() == 2  # both days looked at: the held one passed over
    assert [(cid, day) for cid, day, _ in heals(app)] == [(hero, 1)]
    assert worker.run_once() == 0  # and it goes on from there
    assert worker.position() == app.recorder.max_notification_id()


class Hardier(D20):
    """d20 as a later release would install it: every character has 10 more hit points,
    and is "wounded" while short of them (its maxima, conditions and words change, and
    no action's outcome: it is recorded by the writer, unless a rule of the fight
    changed too)."""

    version = "1.1.0"

    def track_maxima(self, sheet: Any) -> dict[str, int]:
        return {"hp": super().track_maxima(sheet)["hp"] + 10}

    def conditions(self, sheet: Any, tracks: Any, state: Any) -> tuple[str, ...]:
        found = super().conditions(sheet, tracks, state)
        short = 0 < tracks.get("hp", 0) < self.track_maxima(sheet)["hp"]
        return (*found, "wounded") if short else found


def read_back(client: TestClient, cid: str) -> dict[str, Any]:
    """Each character's maxima, conditions and ratings in the campaign's GET, and its
    maxima, conditions and word in the vitals (caught up), by name."""
    caught_up(client, cid)
    campaign = ok(client.get(f"/campaigns/{cid}"))
    vitals = ok(client.get(f"/campaigns/{cid}/vitals"))
    return {
        "campaign": {
            c["name"]: (c["tracks"], c["maxima"], c["conditions"], c["derived"])
            for c in campaign["characters"]
        },
        "vitals": {
            c["name"]: (c["tracks"], c["conditions"], c["seen_as"]) for c in vitals["characters"]
        },
    }


@pytest.mark.parametrize("rule_changed", [False, True], ids=["recorded", "accepted"])
def test_the_version_on_record_gives_every_character_its_readings(
    live_client: TestClient,
    until_the_end: ExitStack,
    monkeypatch: pytest.MonkeyPatch,
    rule_changed: bool,
) -> None:
    """The event that records or accepts a version records every character's readings
    worked out under it (issue 38): the campaign's GET and the vitals read the new
    version's maxima, conditions, words and ratings without another event touching the
    character, and read them still with the ruleset missing."""
    client = live_client
    cid, _eid, ids = a_fight(client)
    before = read_back(client, cid)
    bar = {"current": 15, "max": 20}
    assert before["vitals"]["Grimm"] == ({"hp": bar}, [], "hurt")
    assert before["campaign"]["Grimm"][:3] == ({"hp": 15}, {"hp": 20}, [])
    assert before["campaign"]["Grimm"][3]["av"]["melee"]["value"] == 4  # chain mail's

    until_the_end.enter_context(RULESETS.added(Hardier()))
    if rule_changed:  # chain mail's AV 2: the fight's one hit comes out differently
        monkeypatch.setitem(ARMOR, "chain_mail", Armor("Chain Mail", 2, 2, 40, 400, 2))
        ok(client.post(f"/campaigns/{cid}/ruleset/accept", json={"version": "1.1.0"}))
        kind = "Campaign.RulesetVersionAccepted"
    else:  # the next write records it: an enrolment, which touches none of the others
        assert ok(client.get(f"/campaigns/{cid}/ruleset"))["status"] == "same_outcomes"
        enrol(client, cid, "Mira", d20_sheet())
        kind = "Campaign.RulesetVersionRecorded"
    (event,) = [e for e in events_of(client, cid) if e["type"].startswith("Campaign.Ruleset")]
    assert (event["type"], event["type_version"]) == (kind, 3)
    assert sorted(event["payload"]["readings"]) == sorted(ids.values())
    # Nothing else touched Aldric and Grimm since the fight's end.
    kinds = [e["type"] for e in events_of(client, cid)]
    since = kinds[len(kinds) - kinds[::-1].index("Campaign.EncounterClosed") :]
    assert since == ([kind] if rule_changed else [kind, "Campaign.CharacterEnrolled"])

    after = read_back(client, cid)
    grimm = after["campaign"]["Grimm"]
    assert grimm[:3] == ({"hp": 15}, {"hp": 30}, ["wounded"])
    assert grimm[3]["av"]["melee"]["value"] == (2 if rule_changed else 4)
    assert after["campaign"]["Aldric"][:3] == ({"hp": 20}, {"hp": 30}, ["wounded"])
    assert after["vitals"]["Grimm"] == ({"hp": {"current": 15, "max": 30}}, ["wounded"], "bloodied")
    assert after["vitals"]["Aldric"] == ({"hp": {"current": 20, "max": 30}}, ["wounded"], "hurt")
    assert event["payload"]["readings"][ids["Grimm"]] == {
        "conditions": ["wounded"],
        "maxima": {"hp": 30},
        "descriptor": "bloodied",
        "derived": grimm[3],
        "equipment": event["payload"]["readings"][ids["Grimm"]]["equipment"],
    }

    # With the ruleset missing, the same.
    uninstall(until_the_end, "d20")
    assert read_back(client, cid) == after
