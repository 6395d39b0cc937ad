"""A campaign's bestiary over HTTP (issue 23): the GM saves sheets (validated by the
campaign's ruleset: a bad field is refused with a 422 naming it, nothing written),
lists, changes and removes them, and enrols "3 x Goblin" from one as Goblin 1-3, NPCs
with the saved sheet; the bestiary is no part of the campaign's story."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.helpers import enrol, event_count, new_campaign, ok
from tests.integration.test_projections import caught_up
from tests.integration.test_table_api import D20, MARGIN

GOBLIN = {"st": 9, "con": 10, "parry": 9, "dodge": 9, "stamina_max": 10, "body_max": 8}
# The goblin as stamina-body validates it: every default written out.
GOBLIN_STORED = {
    "st": 9,
    "con": 10,
    "parry": 9,
    "dodge": 9,
    "unarmed_skill": 10,
    "stamina_max": 10,
    "body_max": 8,
    "armour_resilience": 0,
    "shield_resilience": 0,
    "weapons": [],
}


def bestiary(client: TestClient, cid: str) -> str:
    return f"/campaigns/{cid}/bestiary"


def names(answer: list[dict[str, Any]]) -> list[str]:
    return [entry["name"] for entry in answer]


def test_the_gm_saves_lists_changes_and_removes_sheets(client: TestClient) -> None:
    cid = new_campaign(client, "stamina-body")
    path = bestiary(client, cid)
    assert ok(client.get(path)) == []
    goblin = ok(client.post(path, json={"name": "Goblin", "sheet": GOBLIN}), 201)
    assert goblin == {"id": goblin["id"], "name": "Goblin", "sheet": GOBLIN_STORED}
    ogre = ok(client.post(path, json={"name": "  ogre ", "sheet": {**GOBLIN, "st": 16}}), 201)
    assert ogre["name"] == "ogre"
    archer = ok(client.post(path, json={"name": "Archer", "sheet": GOBLIN}), 201)
    # By name, whatever the case.
    assert names(ok(client.get(path))) == ["Archer", "Goblin", "ogre"]

    changed = {"name": "Goblin chief", "sheet": {**GOBLIN, "st": 12, "parry": 11}}
    chief = ok(client.put(f"{path}/{goblin['id']}", json=changed))
    assert chief == {
        "id": goblin["id"],
        "name": "Goblin chief",
        "sheet": {**GOBLIN_STORED, "st": 12, "parry": 11},
    }
    assert ok(client.delete(f"{path}/{archer['id']}")) == {"deleted": archer["id"]}
    assert ok(client.get(path)) == [chief, ogre]


def test_a_sheet_the_ruleset_refuses_is_a_422_naming_the_field_and_nothing_is_written(
    client: TestClient,
) -> None:
    cid = new_campaign(client, "stamina-body")
    path = bestiary(client, cid)
    saved = ok(client.post(path, json={"name": "Goblin", "sheet": GOBLIN}), 201)
    before = event_count(client)
    for method, where in (("POST", path), ("PUT", f"{path}/{saved['id']}")):
        refused = client.request(method, where, json={"name": "Bad", "sheet": {**GOBLIN, "st": 0}})
        assert refused.status_code == 422, refused.text
        assert refused.json()["problems"] == [
            {"field": "sheet.st", "problem": "Input should be greater than or equal to 1"}
        ]
        unknown = client.request(
            method, where, json={"name": "Bad", "sheet": {**GOBLIN, "wings": 2}}
        )
        assert unknown.status_code == 422, unknown.text
        assert unknown.json()["problems"][0]["field"] == "sheet.wings"
    assert event_count(client) == before
    assert ok(client.get(path)) == [saved]


@pytest.mark.parametrize(
    ("ruleset", "sheet", "bad", "field"),
    [
        ("margin", MARGIN, {"might": "strong"}, "sheet.might"),
        ("d20", D20, {"level": 0}, "sheet.level"),
    ],
)
def test_each_ruleset_keeps_the_sheet_as_an_enrolment_would_and_refuses_its_own_bad_fields(
    client: TestClient, ruleset: str, sheet: dict[str, Any], bad: dict[str, Any], field: str
) -> None:
    cid = new_campaign(client, ruleset)
    path = bestiary(client, cid)
    saved = ok(client.post(path, json={"name": "Foe", "sheet": sheet}), 201)
    enrolled = ok(client.get(f"/campaigns/{cid}/characters/{enrol(client, cid, 'Foe', sheet)}"))
    assert saved["sheet"] == enrolled["sheet"]
    before = event_count(client)
    refused = client.post(path, json={"name": "Bad", "sheet": {**sheet, **bad}})
    assert refused.status_code == 422, refused.text
    assert [p["field"] for p in refused.json()["problems"]] == [field]
    assert event_count(client) == before


def test_a_second_entry_of_the_same_name_is_refused(client: TestClient) -> None:
    cid = new_campaign(client, "stamina-body")
    path = bestiary(client, cid)
    ok(client.post(path, json={"name": "Goblin", "sheet": GOBLIN}), 201)
    orc = ok(client.post(path, json={"name": "Orc", "sheet": GOBLIN}), 201)
    before = event_count(client)
    for refused in (
        client.post(path, json={"name": "GOBLIN", "sheet": GOBLIN}),
        client.put(f"{path}/{orc['id']}", json={"name": "goblin", "sheet": GOBLIN}),
    ):
        assert refused.status_code == 409, refused.text
        assert refused.json()["message"] == "the bestiary already has an entry named Goblin"
    assert event_count(client) == before
    # An entry keeps its own name when its sheet changes.
    kept = ok(client.put(f"{path}/{orc['id']}", json={"name": "Orc", "sheet": GOBLIN}))
    assert kept["name"] == "Orc"


def test_three_goblins_from_the_bestiary_are_goblin_1_to_3_npcs_with_the_saved_sheet(
    client: TestClient,
) -> None:
    cid = new_campaign(client, "stamina-body")
    path = bestiary(client, cid)
    goblin = ok(client.post(path, json={"name": "Goblin", "sheet": GOBLIN}), 201)
    pack = ok(client.post(f"{path}/{goblin['id']}/enrol", json={"count": 3}), 201)
    assert [(c["name"], c["npc"], c["sheet"]) for c in pack] == [
        ("Goblin 1", True, GOBLIN_STORED),
        ("Goblin 2", True, GOBLIN_STORED),
        ("Goblin 3", True, GOBLIN_STORED),
    ]
    assert pack[0]["tracks"] == {"stamina": 10, "body": 8}
    campaign = ok(client.get(f"/campaigns/{cid}"))
    assert [(c["id"], c["name"]) for c in campaign["characters"]] == [
        (c["id"], c["name"]) for c in pack
    ]
    # A second pack numbers on; a name of the GM's choosing starts its own numbers.
    more = ok(client.post(f"{path}/{goblin['id']}/enrol", json={"count": 2}), 201)
    assert names(more) == ["Goblin 4", "Goblin 5"]
    scout = ok(client.post(f"{path}/{goblin['id']}/enrol", json={"name": "Scout"}), 201)
    assert names(scout) == ["Scout"]
    scouts = ok(client.post(f"{path}/{goblin['id']}/enrol", json={"name": "Scout"}), 201)
    assert names(scouts) == ["Scout 1"]


def test_characters_enrolled_from_an_entry_keep_their_sheet_when_it_changes_or_goes(
    client: TestClient,
) -> None:
    cid = new_campaign(client, "stamina-body")
    path = bestiary(client, cid)
    goblin = ok(client.post(path, json={"name": "Goblin", "sheet": GOBLIN}), 201)
    (one,) = ok(client.post(f"{path}/{goblin['id']}/enrol", json={"count": 1}), 201)
    assert one["name"] == "Goblin"
    ok(client.put(f"{path}/{goblin['id']}", json={"name": "Goblin", "sheet": {**GOBLIN, "st": 14}}))
    ok(client.delete(f"{path}/{goblin['id']}"))
    assert ok(client.get(f"/campaigns/{cid}/characters/{one['id']}"))["sheet"] == GOBLIN_STORED


def test_refusals_of_the_multi_add_write_nothing(client: TestClient) -> None:
    cid = new_campaign(client, "stamina-body")
    path = bestiary(client, cid)
    goblin = ok(client.post(path, json={"name": "Goblin", "sheet": GOBLIN}), 201)
    before = event_count(client)
    for count in (0, 21):
        refused = client.post(f"{path}/{goblin['id']}/enrol", json={"count": count})
        assert refused.status_code == 422, refused.text
        assert refused.json()["problems"][0]["field"] == "count"
    missing = client.post(f"{path}/nobody/enrol", json={"count": 3})
    assert missing.status_code == 404
    assert missing.json()["message"] == f"no bestiary entry nobody in campaign {cid}"
    for gone in (client.put(f"{path}/nobody", json={"name": "X", "sheet": GOBLIN}),
                 client.delete(f"{path}/nobody")):  # fmt: skip
        assert gone.status_code == 404, gone.text
    assert event_count(client) == before
    assert ok(client.get(f"/campaigns/{cid}"))["characters"] == []


def test_the_bestiary_is_no_part_of_the_campaigns_story(live_client: TestClient) -> None:
    client = live_client
    cid = new_campaign(client, "stamina-body")
    path = bestiary(client, cid)
    goblin = ok(client.post(path, json={"name": "Goblin", "sheet": GOBLIN}), 201)
    ok(client.put(f"{path}/{goblin['id']}", json={"name": "Gob", "sheet": GOBLIN}))
    ok(client.post(f"{path}/{goblin['id']}/enrol", json={"count": 2}), 201)
    ok(client.delete(f"{path}/{goblin['id']}"))
    caught_up(client, cid)
    logged = ok(client.get(f"/campaigns/{cid}/events?after=0&limit=50"))
    assert [e["type"] for e in logged["events"]] == [
        "Campaign.Created",
        "Campaign.CharacterEnrolled",
        "Campaign.CharacterEnrolled",
    ]
    audit = ok(client.get(f"/campaigns/{cid}/audit?offset=0&limit=50"))
    assert audit["total"] == 3
