"""Issue 38, "a campaign whose plugin is missing stays readable everywhere": a player's
and a viewer's GETs of the campaign, of its fight, of each character, the reads at an
instant and the fight's diff word an NPC's descriptor from what the events recorded
(the campaign's and each fight's kept readings, domain/reading/recorded.py: the word
its present tracks read as, its maxima), so they answer the same bytes with the
campaign's ruleset hidden (``RULESETS.removed``) as with it installed, for a fight in
which the NPC is hurt or downed; and no NPC number reaches them.

The story and the GETs are tests/integration/test_gets_without_rules.py's (one campaign
per built-in ruleset); the actions' narratives are set aside as there (told from parts:
tests/integration/test_told_recorded.py's).

The fight's replays at an earlier version (``?version=N``) too: the NPC's tracks then
are none the fights now hold, so the replayed fight's own kept readings word them
(application/queries.py ``Queries.redaction``'s ``replayed``).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from skald_campaign.application.store import Store
from skald_campaign.domain.play.standing import forget_all
from skald_campaign.domain.rulesets import RULESETS
from tests.helpers import act, ok, start
from tests.integration.test_gets_without_rules import paths, story, told_apart

# The NPC's word as its ruleset words it (installed or hidden): in the campaign, after
# the fight and a GM's adjustment of one track by -1, and in its fight as it ended.
WORDS = {
    "stamina-body": {"campaign": "hurt", "fight": "stunned"},
    "d20": {"campaign": "down", "fight": "down"},
    "margin": {"campaign": "down", "fight": "down"},
}
# What a player's or a viewer's NPC shows of its numbers: nothing.
NUMBERLESS: dict[str, Any] = {"tracks": {}, "maxima": {}, "state": {}}


def read(client: TestClient, path: str, key: str) -> bytes:
    got = client.get(path, headers={"authorization": f"Bearer {key}"})
    assert got.status_code == 200, (path, got.text)
    rest, _ = told_apart(got.json())
    return json.dumps(rest, sort_keys=False).encode()


def npc_in(answer: dict[str, Any], foe: str, where: str) -> dict[str, Any]:
    found = [c for c in answer[where] if c["id"] == foe]
    assert len(found) == 1
    only: dict[str, Any] = found[0]
    return only


@pytest.mark.parametrize("ruleset", ["stamina-body", "d20", "margin"])
def test_a_players_and_a_viewers_gets_answer_the_same_with_the_ruleset_hidden(
    live_client: TestClient, ruleset: str
) -> None:
    written = story(live_client, ruleset)
    cid, eid = written["id"], written["encounter"]
    pc, foe = written["characters"]
    keys = {
        role: ok(live_client.post(f"/campaigns/{cid}/keys", json=body), 201)["key"]
        for role, body in (
            ("player", {"role": "player", "characters": [pc]}),
            ("viewer", {"role": "viewer"}),
        )
    }
    asked = paths(live_client, written)  # after the keys: the versions they read
    assert len(asked) >= 20
    gm_fight = ok(live_client.get(f"/campaigns/{cid}/encounters/{eid}"))
    gm_npc = npc_in(gm_fight, foe, "combatants")
    assert gm_npc["tracks"] and any(v for v in gm_npc["tracks"].values())  # numbers, GM's
    forget_all()
    installed = {(role, p): read(live_client, p, key) for role, key in keys.items() for p in asked}
    with RULESETS.removed(ruleset) as hidden:
        assert hidden is not None
        forget_all()
        without = {
            (role, p): read(live_client, p, key) for role, key in keys.items() for p in asked
        }
    replays = f"/campaigns/{cid}/encounters/{eid}?version="
    assert sum(1 for _, p in installed if p.startswith(replays)) >= 2 * 4
    differing = [k for k in installed if installed[k] != without[k]]
    assert differing == []
    for role in keys:
        for answers in (installed, without):
            campaign = json.loads(answers[(role, f"/campaigns/{cid}")])
            fight = json.loads(answers[(role, f"/campaigns/{cid}/encounters/{eid}")])
            in_campaign = npc_in(campaign, foe, "characters")
            in_fight = npc_in(fight, foe, "combatants")
            assert in_campaign["descriptor"] == WORDS[ruleset]["campaign"], (role, in_campaign)
            assert in_fight["descriptor"] == WORDS[ruleset]["fight"], (role, in_fight)
            for shown in (in_campaign, in_fight):
                assert {k: shown[k] for k in NUMBERLESS} == NUMBERLESS, (role, shown)


def test_a_players_read_of_the_open_fight_reads_no_ended_fight(
    live_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The table's pages read the open fight on every change: its NPC's word is found in
    the open fights (application/redaction.py ``SeenOnce``), never by reading every fight
    the campaign ever had; and it reads the same with the ruleset hidden."""
    written = story(live_client, "stamina-body")  # one fight, ended
    cid, ended = written["id"], written["encounter"]
    pc, foe = written["characters"]
    lineup = [
        {"character_id": pc, "side": "party", "rank": 1},
        {"character_id": foe, "side": "foes", "rank": 1},
    ]
    eid = start(live_client, cid, lineup)
    act(
        live_client, cid, eid, "take_hit", None, {"damage": [6, 6]},
        target=foe, damage_type="impact", damage_class=2,
    )  # fmt: skip
    key = ok(live_client.post(f"/campaigns/{cid}/keys", json={"role": "viewer"}), 201)["key"]
    loaded: list[str] = []
    encounter = Store.encounter

    def counted(self: Store, campaign_id: Any, encounter_id: Any, version: Any = None) -> Any:
        loaded.append(str(encounter_id))
        return encounter(self, campaign_id, encounter_id, version)

    monkeypatch.setattr(Store, "encounter", counted)
    path = f"/campaigns/{cid}/encounters/{eid}"
    forget_all()
    installed = read(live_client, path, key)
    assert ended not in loaded and eid in loaded
    with RULESETS.removed("stamina-body"):
        forget_all()
        assert read(live_client, path, key) == installed
    shown = npc_in(json.loads(installed), foe, "combatants")
    assert {k: shown[k] for k in NUMBERLESS} == NUMBERLESS
    assert shown["descriptor"] == "winded"
