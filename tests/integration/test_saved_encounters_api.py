"""What GMs of other trackers expect (issue 36), over HTTP: the bestiary's foes come to a
fight as NPCs on the foes' side by default, and a saved encounter (a named group of the
bestiary's foes with counts and ranks) is saved, listed, removed, and set up again in one
request: its foes enrolled, numbered on, and put with the party in a new encounter, all in
one write; a retry with the same Idempotency-Key enrols no one again."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.helpers import enrol, event_count, new_campaign, ok
from tests.integration.test_bestiary_api import GOBLIN

PC = {"st": 13, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10}
OGRE = {**GOBLIN, "st": 16, "stamina_max": 30, "body_max": 24}


def shelf(client: TestClient, cid: str) -> dict[str, str]:
    """A goblin and an ogre in the campaign's bestiary: name -> entry id."""
    path = f"/campaigns/{cid}/bestiary"
    return {
        name: ok(client.post(path, json={"name": name, "sheet": sheet}), 201)["id"]
        for name, sheet in (("Goblin", GOBLIN), ("Ogre", OGRE))
    }


def sides(encounter: dict[str, Any]) -> dict[str, tuple[str, int]]:
    return {c["name"]: (c["side"], c["rank"]) for c in encounter["combatants"]}


def test_foes_from_the_bestiary_are_npcs_on_the_foes_side_by_default(client: TestClient) -> None:
    cid = new_campaign(client, "stamina-body")
    goblin = shelf(client, cid)["Goblin"]
    bran = enrol(client, cid, "Bran", PC)
    pack = ok(client.post(f"/campaigns/{cid}/bestiary/{goblin}/enrol", json={"count": 2}), 201)
    assert [(c["name"], c["npc"]) for c in pack] == [("Goblin 1", True), ("Goblin 2", True)]
    # No side given: the NPCs are foes, the PC is of the party; a side given is kept.
    combatants = [{"character_id": bran}, *({"character_id": c["id"]} for c in pack)]
    combatants[2]["side"] = "turncoats"
    fight = ok(
        client.post(
            f"/campaigns/{cid}/encounters", json={"name": "Ford", "combatants": combatants}
        ),
        201,
    )
    assert sides(fight) == {
        "Bran": ("party", 1),
        "Goblin 1": ("foes", 1),
        "Goblin 2": ("turncoats", 1),
    }


def test_a_saved_encounter_is_saved_listed_and_removed(client: TestClient) -> None:
    cid = new_campaign(client, "stamina-body")
    beasts = shelf(client, cid)
    path = f"/campaigns/{cid}/saved-encounters"
    assert ok(client.get(path)) == []
    body = {
        "name": "Goblin ambush",
        "foes": [
            {"entry_id": beasts["Goblin"], "count": 3},
            {"entry_id": beasts["Ogre"], "rank": 2},
        ],
    }
    saved = ok(client.post(path, json=body), 201)
    assert saved == {
        "id": saved["id"],
        "name": "Goblin ambush",
        "foes": [
            {"entry_id": beasts["Goblin"], "name": "Goblin", "count": 3, "rank": 1, "side": "foes"},
            {"entry_id": beasts["Ogre"], "name": "Ogre", "count": 1, "rank": 2, "side": "foes"},
        ],
    }
    lair = ok(client.post(path, json={"name": "Ogre lair", "foes": body["foes"][1:]}), 201)
    assert [s["name"] for s in ok(client.get(path))] == ["Goblin ambush", "Ogre lair"]

    # Refused, naming what is wrong, and nothing written.
    before = event_count(client)
    taken = client.post(path, json={**body, "name": "goblin AMBUSH"})
    assert (taken.status_code, taken.json()["message"]) == (
        409,
        "the bestiary already has a saved encounter named Goblin ambush",
    )
    unknown = client.post(path, json={"name": "Ghosts", "foes": [{"entry_id": "nope"}]})
    assert (unknown.status_code, unknown.json()["message"]) == (
        422,
        "foes[0]: no bestiary entry nope in this campaign",
    )
    # An entry a saved encounter uses stays until that encounter goes.
    held = client.delete(f"/campaigns/{cid}/bestiary/{beasts['Goblin']}")
    assert (held.status_code, held.json()["message"]) == (
        409,
        "Goblin is in the saved encounter Goblin ambush: remove that encounter first "
        "(or save it without them)",
    )
    assert event_count(client) == before

    assert ok(client.delete(f"{path}/{saved['id']}")) == {"deleted": saved["id"]}
    assert [s["id"] for s in ok(client.get(path))] == [lair["id"]]
    assert client.delete(f"{path}/{saved['id']}").status_code == 404
    ok(client.delete(f"/campaigns/{cid}/bestiary/{beasts['Goblin']}"))


def test_a_saved_encounter_is_set_up_in_one_request_once_per_key(client: TestClient) -> None:
    cid = new_campaign(client, "stamina-body")
    beasts = shelf(client, cid)
    bran = enrol(client, cid, "Bran", PC)
    # A goblin already on the roster: the saved encounter's are numbered beside it.
    ok(client.post(f"/campaigns/{cid}/bestiary/{beasts['Goblin']}/enrol", json={"count": 1}), 201)
    lines = [
        {"entry_id": beasts["Goblin"], "count": 2},
        {"entry_id": beasts["Ogre"], "rank": 2},
    ]
    saved = ok(
        client.post(f"/campaigns/{cid}/saved-encounters", json={"name": "Ambush", "foes": lines}),
        201,
    )
    setup = f"/campaigns/{cid}/saved-encounters/{saved['id']}/setup"
    body = {"combatants": [{"character_id": bran}]}
    key = {"Idempotency-Key": "set-up-the-ambush"}
    before = event_count(client)
    fight = ok(client.post(setup, json=body, headers=key), 201)
    assert fight["name"] == "Ambush"
    assert sides(fight) == {
        "Bran": ("party", 1),
        "Goblin 1": ("foes", 1),
        "Goblin 2": ("foes", 1),
        "Ogre": ("foes", 2),
    }
    roster = ok(client.get(f"/campaigns/{cid}"))["characters"]
    assert [(c["name"], c.get("npc", False)) for c in roster] == [
        ("Bran", False),
        ("Goblin", True),
        ("Goblin 1", True),
        ("Goblin 2", True),
        ("Ogre", True),
    ]
    written = event_count(client)
    # A retry (a double-click, a lost answer) gets the same encounter and enrols no one.
    again = ok(client.post(setup, json=body, headers=key), 201)
    assert again == fight
    assert event_count(client) == written
    assert len(ok(client.get(f"/campaigns/{cid}"))["characters"]) == 5
    # One write: the enrolments, the opening and the encounter, with the request's record.
    assert written - before == 6  # 3 enrolments, EncounterOpened, Started, the request's record
    # The campaign's encounter is open with them; the sheets are the bestiary's.
    campaign = ok(client.get(f"/campaigns/{cid}"))
    assert [e["id"] for e in campaign["encounters"] if e["open"]] == [fight["id"]]

    # Set up again (a new key): a second pack, numbered on, under another name.
    second = ok(client.post(setup, json={"name": "Second wave"}), 201)
    assert (second["name"], sorted(sides(second))) == (
        "Second wave",
        ["Goblin 3", "Goblin 4", "Ogre 1"],
    )


def test_a_set_up_that_cannot_be_done_writes_nothing(client: TestClient) -> None:
    cid = new_campaign(client, "stamina-body")
    beasts = shelf(client, cid)
    bran = enrol(client, cid, "Bran", PC)
    lines = [{"entry_id": beasts["Goblin"], "count": 2}]
    saved = ok(
        client.post(f"/campaigns/{cid}/saved-encounters", json={"name": "Pair", "foes": lines}),
        201,
    )
    setup = f"/campaigns/{cid}/saved-encounters/{saved['id']}/setup"
    ok(client.post(f"/campaigns/{cid}/encounters", json={"name": "Busy", "combatants": [
        {"character_id": bran}]}), 201)  # fmt: skip
    before = event_count(client)
    busy = client.post(setup, json={"combatants": [{"character_id": bran}]})
    assert busy.status_code == 409, busy.text
    missing = client.post(f"/campaigns/{cid}/saved-encounters/nope/setup", json={})
    assert (missing.status_code, missing.json()["message"]) == (
        404,
        f"no saved encounter nope in campaign {cid}",
    )
    assert event_count(client) == before
    assert [c["name"] for c in ok(client.get(f"/campaigns/{cid}"))["characters"]] == ["Bran"]
