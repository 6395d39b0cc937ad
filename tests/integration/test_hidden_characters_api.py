"""Every name, label and reason refuses control and bidirectional characters with a
422 that names the field, and nothing is written."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.helpers import act, enrol, event_count, new_campaign, start

SHEET = {"st": 12, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10}
RLO, NUL, ISOLATE = "\u202e", "\x00", "\u2066"
AXE = {"name": f"axe{ISOLATE}", "damage_class": 2, "damage_type": "cutting", "skill": 12}


@pytest.fixture
def fight(client: TestClient) -> dict[str, str]:
    cid = new_campaign(client, "stamina-body")
    hero = enrol(client, cid, "Hero", SHEET)
    eid = start(client, cid, [{"character_id": hero, "side": "party"}])
    act(client, cid, eid, "take_hit", None, {"damage": [3, 3]},
        target=hero, damage_type="impact", damage_class=2)  # fmt: skip
    return {"cid": cid, "hero": hero, "eid": eid}


def refusals(ids: dict[str, str]) -> list[tuple[str, dict[str, Any], str]]:
    cid, hero, eid = ids["cid"], ids["hero"], ids["eid"]
    fight = f"/campaigns/{cid}/encounters/{eid}"
    return [
        ("/campaigns", {"name": f"Crown{RLO}", "ruleset": "stamina-body"}, "name"),
        ("/campaigns", {"name": f"Crown{NUL}", "ruleset": "stamina-body"}, "name"),
        (f"/campaigns/{cid}/characters", {"name": f"gpj.{RLO}exe", "sheet": SHEET}, "name"),
        (
            f"/campaigns/{cid}/characters",
            {"name": "Mira", "sheet": {**SHEET, "weapons": [AXE]}},
            "sheet.weapons.0.name",
        ),
        (
            f"/campaigns/{cid}/encounters",
            {"name": f"Ford{ISOLATE}", "combatants": [{"character_id": hero, "side": "a"}]},
            "name",
        ),
        (
            f"/campaigns/{cid}/encounters",
            {"name": "Ford", "combatants": [{"character_id": hero, "side": f"a{NUL}"}]},
            "combatants.0.side",
        ),
        (f"/campaigns/{cid}/keys", {"role": "viewer", "label": f"Ana{RLO}"}, "label"),
        (f"{fight}/actions/1/void", {"reason": f"misread{NUL}"}, "reason"),
        (f"{fight}/actions/1/reroll", {"reason": f"misread{RLO}"}, "reason"),
        (f"{fight}/rewind", {"reason": "oops\u2069", "to_version": 1}, "reason"),
        (
            f"/campaigns/{cid}/characters/{hero}/wounds",
            {"wound": "broken_bones", "reason": f"fell{RLO}"},
            "reason",
        ),
    ]


def test_every_name_label_and_reason_refuses_hidden_characters(
    client: TestClient, fight: dict[str, str]
) -> None:
    before = event_count(client)
    for path, body, field in refusals(fight):
        refused = client.post(path, json=body)
        assert refused.status_code == 422, (path, refused.text)
        answer = refused.json()
        assert answer["error"] == "invalid_input", answer
        assert [p["field"] for p in answer["problems"]] == [field], answer
        assert f"{field}: contains U+" in answer["message"]
        assert "control and bidirectional characters are not allowed" in answer["message"]
    assert event_count(client) == before
    keys = client.get(f"/campaigns/{fight['cid']}/keys").json()
    assert [k["label"] for k in keys] == ["GM"]


@pytest.mark.parametrize(
    ("name", "named"),
    [
        ("\U000e0041Bran", "U+E0041 TAG LATIN CAPITAL LETTER A"),
        ("Bra\u2064n", "U+2064 INVISIBLE PLUS"),
        ("Bra\u180en", "U+180E MONGOLIAN VOWEL SEPARATOR"),
        ("Bra\ufeffn", "U+FEFF ZERO WIDTH NO-BREAK SPACE"),
        ("Bran\uffff", "U+FFFF"),
        ("Bran\ufe0f", "U+FE0F VARIATION SELECTOR-16"),
        ("Bran\ue000", "U+E000"),
    ],
)
def test_a_name_that_looks_like_another_is_refused_naming_the_code_point(
    client: TestClient, name: str, named: str
) -> None:
    cid = new_campaign(client, "stamina-body")
    before = event_count(client)
    refused = client.post(f"/campaigns/{cid}/characters", json={"name": name, "sheet": SHEET})
    assert refused.status_code == 422, refused.text
    answer = refused.json()
    assert [p["field"] for p in answer["problems"]] == ["name"]
    assert answer["problems"][0]["problem"].startswith(f"contains {named} (")
    assert answer["problems"][0]["problem"].endswith(
        "; characters that are invisible or pass for others are not allowed"
    )
    assert event_count(client) == before


def test_two_characters_named_alike_after_nfc_are_refused_as_a_duplicate(
    client: TestClient,
) -> None:
    cid = new_campaign(client, "stamina-body")
    enrol(client, cid, "Zo\u00eb", SHEET)  # composed: e with diaeresis
    flag = "\U0001f3f4\U000e0067\U000e0062\U000e0077\U000e006c\U000e0073\U000e007f"
    enrol(client, cid, f"Gwen {flag}", SHEET)  # a flag's tag sequence is fine
    before = event_count(client)
    # decomposed, exact, padded, and with a direction mark or a joiner (kept in text, but
    # invisible: the names would look the same)
    for alike in ("Zoe\u0308", "Zo\u00eb", " Zo\u00eb ", "Zo\u00eb\u200e", "Z\u200do\u00eb"):
        refused = client.post(f"/campaigns/{cid}/characters", json={"name": alike, "sheet": SHEET})
        assert refused.status_code == 409, (alike, refused.text)
        assert refused.json() == {
            "error": "action_refused",
            "message": "the campaign already has a character named Zo\u00eb",
        }
    assert event_count(client) == before
    enrol(client, cid, "Zoe", SHEET)  # another name: no diaeresis
    other = new_campaign(client, "stamina-body")
    enrol(client, other, "Zoe\u0308", SHEET)  # another campaign
