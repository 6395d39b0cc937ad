"""A read side that needs no rules code (issue 38): with the rulesets' entry points
removed from the environment, the projections, a rebuild and every GET route still
answer for every campaign.

A store is written with the three built-in rulesets installed: a campaign of each, with
PCs and an NPC, a fight with an action in each (a hidden roll of an NPC's in
stamina-body), a correction, the keys of a player and a viewer, a webhook. Then another
process, in which importlib.metadata finds no ``skald.rulesets`` entry point (as once
the rulesets' distributions are uninstalled), rebuilds the views with `skald projections
rebuild`, serves the API, lets the projections take a new event (a key issued: a
campaign whose ruleset is missing keeps its keys manageable), and asks every GET route
of the OpenAPI, with the story's real ids, as the GM, a player and a viewer. Every one
answers 2xx but the rules' own reads, which answer what they answer for a ruleset that
is not installed (listed below). No module of a built-in ruleset is ever imported.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from skald_campaign.cli import app as cli
from skald_campaign.settings import Settings
from tests.helpers import act, enrol, new_campaign, ok, start
from tests.integration.test_d20_api import d20_sheet
from tests.integration.test_hidden_rolls_api import OGRE, SHEET
from tests.integration.test_margin_api import sheet as margin_sheet

ROOT = Path(__file__).resolve().parents[2]
# The process that reads: no ruleset's entry point, then the rebuild and the reads.
READER = textwrap.dedent(
    """
    import importlib.metadata, json, sys

    found = importlib.metadata.entry_points

    def entry_points(**params):
        if params.get("group") == "skald.rulesets":
            return importlib.metadata.EntryPoints(())
        return found(**params)

    importlib.metadata.entry_points = entry_points

    from fastapi.testclient import TestClient
    from typer.testing import CliRunner

    from skald_campaign.api.app import create_app
    from skald_campaign.cli import app as cli
    from skald_campaign.domain.rulesets import RULESETS
    from skald_campaign.services import build_services
    from skald_campaign.settings import Settings
    from tests.integration.projection_support import wait_until

    story = json.loads(sys.argv[1])
    out = {"rulesets": sorted(RULESETS)}
    rebuilt = CliRunner().invoke(cli, ["projections", "rebuild"])
    out["rebuild"] = [rebuilt.exit_code, rebuilt.output[-2000:]]
    answers = []
    served = create_app(lambda: build_services(Settings(), workers=True))
    with TestClient(served) as client:
        for key, path in story["issue"]:
            issued = client.post(path, json={"role": "viewer"}, headers=key)
            answers.append(["POST", path, issued.status_code, issued.text[:300]])
        # The projections take the new events (the vitals count every event).
        for key, path in story["issue"]:
            vitals = path.removesuffix("/keys") + "/vitals"
            wait_until(
                lambda: client.get(vitals, headers=key).json()["projection"]["behind"] == 0,
                60,
                "the projections to take the keys issued",
            )
        for key, path in story["reads"]:
            got = client.get(path, headers=key)
            answers.append(["GET", path, got.status_code, got.text[:3000]])
        key, path = story["vitals"]
        out["vitals"] = client.get(path, headers=key).json()
    out["answers"] = answers
    out["loaded"] = sorted(
        m for m in sys.modules
        if m.split(".")[:4] in (
            ["skald_campaign", "domain", "rulesets", name]
            for name in ("margin", "stamina_body", "d20")
        )
    )
    print(json.dumps(out))
    """
)


def story(client: TestClient) -> dict[str, Any]:
    """Three campaigns, one of each ruleset, each with a fight; their ids and keys."""
    found: dict[str, Any] = {"campaigns": []}

    def keys(cid: str, player_of: str) -> dict[str, str]:
        """The GM's key, a player's, a viewer's; a webhook of the campaign's."""
        made = {"gm": client.headers["authorization"].removeprefix("Bearer ")}
        hook = {"url": "https://93.184.215.14/hook"}  # public: no lookup
        made["webhook"] = ok(client.post(f"/campaigns/{cid}/webhooks", json=hook), 201)["id"]
        for role, body in (
            ("player", {"role": "player", "characters": [player_of]}),
            ("viewer", {"role": "viewer"}),
        ):
            made[role] = ok(client.post(f"/campaigns/{cid}/keys", json=body), 201)["key"]
        return made

    # stamina-body: an NPC's hidden roll on a PC, then a void of it (a correction).
    cid = new_campaign(client, "stamina-body", name="Barrow")
    bran = enrol(client, cid, "Bran", SHEET)
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
    maul = {
        "kind": "attack",
        "actor": ogre,
        "hidden": True,
        "dice": {"hit": [3, 3, 3]},
        "params": {"target": bran, "weapon": "maul"},
    }
    ok(client.post(f"{fight}/actions", json=maul), 202)  # waits for Bran's defense
    declared = {"choice": "none", "dice": {"damage": [4, 4]}}
    ok(client.post(f"{fight}/exchanges/1/declare", json=declared), 201)
    ok(client.post(f"{fight}/round"), 200)
    ok(client.post(f"{fight}/actions", json=maul), 202)  # the second waits on
    found["campaigns"].append(
        {
            "id": cid,
            "ruleset": "stamina-body",
            "encounter": eid,
            "exchange": 2,
            "pc": bran,
            "npc": ogre,
            **keys(cid, bran),
        }
    )
    # d20: a hit; the fight ended.
    cid = new_campaign(client, "d20", name="Ruins")
    aldric = enrol(client, cid, "Aldric", d20_sheet())
    grimm = str(
        ok(
            client.post(
                f"/campaigns/{cid}/characters",
                json={"name": "Grimm", "sheet": d20_sheet(armor="chain_mail"), "npc": True},
            ),
            201,
        )["id"]
    )
    eid = start(
        client,
        cid,
        [
            {"character_id": aldric, "side": "party", "rank": 1},
            {"character_id": grimm, "side": "foes", "rank": 1},
        ],
    )
    act(
        client,
        cid,
        eid,
        "attack",
        aldric,
        {"hit": [11], "damage": [9]},
        target=grimm,
        weapon="Bastard Sword",
    )
    ok(client.post(f"/campaigns/{cid}/encounters/{eid}/end"))
    found["campaigns"].append(
        {
            "id": cid,
            "ruleset": "d20",
            "encounter": eid,
            "exchange": 1,
            "pc": aldric,
            "npc": grimm,
            **keys(cid, aldric),
        }
    )
    # margin: a campaign of two, a fight begun.
    cid = new_campaign(client, "margin", name="Marches")
    mira = enrol(client, cid, "Mira", margin_sheet())
    wolf = str(
        ok(
            client.post(
                f"/campaigns/{cid}/characters",
                json={"name": "Wolf", "sheet": margin_sheet(), "npc": True},
            ),
            201,
        )["id"]
    )
    eid = start(
        client,
        cid,
        [
            {"character_id": mira, "side": "party", "rank": 1},
            {"character_id": wolf, "side": "foes", "rank": 1},
        ],
    )
    found["campaigns"].append(
        {
            "id": cid,
            "ruleset": "margin",
            "encounter": eid,
            "exchange": 1,
            "pc": mira,
            "npc": wolf,
            **keys(cid, mira),
        }
    )
    return found


# The live feed is a stream that never ends: what it sends is the event log's
# (GET .../events, asked here), redacted by the same policy.
STREAMS = {"/campaigns/{campaign_id}/feed"}


def get_paths(client: TestClient) -> list[str]:
    spec = ok(client.get("/openapi.json"))
    return sorted(p for p, ops in spec["paths"].items() if "get" in ops and p not in STREAMS)


def requests(paths: list[str], found: dict[str, Any]) -> list[tuple[dict[str, str], str]]:
    """Every GET path with each campaign's ids (and the queries it requires), as its GM,
    its player and its viewer."""
    made = []
    for c in found["campaigns"]:
        ids = {
            "{campaign_id}": c["id"],
            "{encounter_id}": c["encounter"],
            "{character_id}": c["pc"],
            "{ruleset_id}": c["ruleset"],
            "{webhook_id}": c["webhook"],
        }
        for path in paths:
            filled = path.replace("exchanges/{number}", f"exchanges/{c['exchange']}")
            filled = filled.replace("{number}", "1")
            for name, value in ids.items():
                filled = filled.replace(name, value)
            filled += QUERIES.get(path, "").format(npc=c["npc"])
            for who in ("gm", "player", "viewer"):
                made.append(({"authorization": f"Bearer {c[who]}"}, filled))
    return made


# The queries a route requires.
QUERIES = {
    "/campaigns/{campaign_id}/encounters/{encounter_id}/diff": "?from=1",
    "/campaigns/{campaign_id}/vitals/at": "?at=1",
    "/campaigns/{campaign_id}/encounters/{encounter_id}/combatants/{character_id}/odds": (
        "?against={npc}"
    ),
}


def test_every_read_answers_with_no_ruleset_installed(
    client: TestClient, settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    found = story(client)
    env = {
        "SKALD_DATA_DIR": str(settings.data_dir),
        "SKALD_REDIS_PREFIX": settings.redis_prefix,
        # The running server's Redis: with nothing configured, its embedded one, which
        # neither the rebuild nor the reader may start a second time on one data directory.
        "SKALD_REDIS_URL": client.app.state.backend.redis_url,  # type: ignore[attr-defined]
    }
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    rebuilt = CliRunner().invoke(cli, ["projections", "rebuild"])  # with the rulesets
    assert rebuilt.exit_code == 0, rebuilt.output
    paths = get_paths(client)
    assert len(paths) == 26
    asked = requests(paths, found)
    # What answers 2xx with the rulesets installed (a player's key may not list the
    # keys, an ended fight has no exchange to see the odds of, a viewer's no odds...).
    with_rules = [(key, path) for key, path in asked if ok_status(client.get(path, headers=key))]
    assert (len(asked), len(with_rules)) == (234, 169)
    issue = [
        ({"authorization": f"Bearer {c['gm']}"}, f"/campaigns/{c['id']}/keys")
        for c in found["campaigns"]
    ]
    d20 = found["campaigns"][1]
    vitals = ({"authorization": f"Bearer {d20['gm']}"}, f"/campaigns/{d20['id']}/vitals")
    with_rules_vitals = ok(client.get(vitals[1], headers=vitals[0]))
    program = tmp_path / "reader.py"
    program.write_text(READER)
    done = subprocess.run(
        [
            sys.executable,
            str(program),
            json.dumps({"reads": asked, "issue": issue, "vitals": vitals}),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, **env, "PYTHONPATH": str(ROOT)},
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    out = json.loads(done.stdout.splitlines()[-1])
    assert out["rulesets"] == []
    assert out["rebuild"][0] == 0, out["rebuild"][1]
    issued = [(method, status) for method, _, status, _ in out["answers"][:3]]
    assert issued == [("POST", 201)] * 3
    answered = zip(asked, out["answers"][3:], strict=True)
    without = {
        (key["authorization"], path): (status, body)
        for (key, path), (_, _, status, body) in answered
    }
    refused = {c["id"]: read_only(c) for c in found["campaigns"]}
    failed = []
    for key, path in with_rules:
        status, body = without[key["authorization"], path]
        if path.startswith("/rulesets/"):  # what is installed: not the campaign's ruleset
            expected = (422, NOT_INSTALLED[path.removeprefix("/rulesets/")])
        elif RULES_OWN.search(path):  # the rules' own reads prepare a write: refused as one
            expected = (409, refused[path.split("/")[2]])
        else:
            if not 200 <= status < 300:
                failed.append((path, status, body))
            continue
        said = json.loads(body)
        if (status, {"error": said.get("error"), "message": said.get("message")}) != expected:
            failed.append((path, status, body))
    assert failed == [], f"{len(failed)} of {len(with_rules)}: {failed[:10]}"
    assert out["loaded"] == []
    # What the GM reads of a character with no ruleset installed, from a store written
    # today: the tracks, and what the rules worked out when each event was recorded
    # (issue 38, domain/reading/recorded.py), as read with the ruleset installed.
    characters = {c["name"]: (c["tracks"], c["conditions"]) for c in out["vitals"]["characters"]}
    assert characters == {
        "Aldric": ({"hp": {"current": 20, "max": 20}}, []),
        "Grimm": ({"hp": {"current": 15, "max": 20}}, []),
    }
    assert out["vitals"]["characters"] == with_rules_vitals["characters"]
    assert out["vitals"]["projection"]["behind"] == 0


# The reads that run the rules: the odds of an action, the rolls a reroll takes.
RULES_OWN = re.compile(r"/odds|/reroll/rolls")
NOT_INSTALLED = {
    ruleset: {
        "error": "invalid_input",
        "message": f"unknown ruleset '{ruleset}'; choose one of: ",
    }
    for ruleset in ("stamina-body", "d20", "margin")
}


def read_only(campaign: dict[str, Any]) -> dict[str, Any]:
    """A write's answer (and an odds read's) for a campaign whose ruleset is missing."""
    return {
        "error": "ruleset_not_current",
        "message": f"campaign {campaign['id']} is read-only: its ruleset '{campaign['ruleset']}' "
        "(version 1.0.0 of skald-campaign) is not installed; install it to write again "
        "(`skald rulesets check` lists every campaign it holds back)",
    }


def ok_status(response: Any) -> bool:
    return 200 <= int(response.status_code) < 300
