"""Corrections lift what they undo (issue 36, RULINGS T1 amended): a void of the blow
that downed Kara re-derives the turn change that passed her over, so the board no
longer says she is down, the turn is hers again when that change is the current one,
and her conditions go with the blow. Stored events keep their bytes."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.helpers import GM, ok
from tests.integration.test_d20_api import d20_sheet
from tests.integration.test_initiative_api import Fight
from tests.integration.test_table_api import MARGIN, SB

CLUB = {"name": "club", "damage_class": 3, "damage_type": "impact", "skill": 11}
OGRE = {**SB, "st": 16, "weapons": [CLUB]}
KARA = {**SB, "stamina_max": 14, "body_max": 2}


def down_kara(f: Fight) -> Any:
    """The Ogre's club: a natural 3, no defense, 6s on the damage table: Kara is out."""
    body = {
        "kind": "attack",
        "actor": f.ids["Ogre"],
        "params": {"target": f.ids["Kara"], "weapon": "club"},
        "dice": {"hit": [1, 1, 1]},
    }
    opened = f.post("/actions", body, 202)
    number = opened["exchange"]["number"]
    declared = {"choice": "none", "dice": {"damage": [6, 6, 6]}}
    return f.post(f"/exchanges/{number}/declare", declared, 201)


def kara(f: Fight, encounter: Any) -> Any:
    return next(c for c in encounter["combatants"] if c["id"] == f.ids["Kara"])


def test_voiding_the_blow_gives_kara_her_turn_back_within_the_round(client: TestClient) -> None:
    f = Fight(client, "stamina-body", {}, Ogre=OGRE, Kara=KARA, Bran=SB)
    ok(client.put(f.base + "/order", json={"order": list(f.ids.values())}, headers=GM))
    struck = down_kara(f)
    assert "unconscious" in kara(f, struck["encounter"])["conditions"]
    moved = f.post("/turn")
    assert (moved["round"], f.current(moved)) == (1, "Bran")
    assert moved["turn"]["skipped"][0]["why"] == "Kara is unconscious"
    events = client.get(f"/campaigns/{f.cid}/audit", headers=GM).json()
    voided = f.post("/actions/1/void", {"reason": "the club missed, we agree"})
    encounter = voided["encounter"]
    assert (encounter["round"], f.current(encounter)) == (1, "Kara")
    assert encounter["turn"]["skipped"] == []
    assert kara(f, encounter)["tracks"] == {"stamina": 14, "body": 2}
    assert kara(f, encounter)["conditions"] == []
    turn = encounter["actions"][1]
    assert (turn["kind"], turn["status"], turn["summary"]) == (
        "turn",
        "active",
        "Kara's turn (round 1)",
    )
    assert turn["breakdown"]["skipped"] == []
    report = {e["number"]: (e["status"], e["after"]) for e in voided["report"]}
    assert report[2] == ("changed", "Kara's turn (round 1)")
    board = ok(client.get(f.base + "/board", headers=GM))
    assert board["skipped"] == []
    # The stored events keep their bytes: the audit before the void is a prefix of after.
    after = client.get(f"/campaigns/{f.cid}/audit", headers=GM).json()
    assert after["entries"][: len(events["entries"])] == events["entries"]
    # Kara acts in her turn; the next turn goes on to Bran.
    assert f.current(f.post("/turn")) == "Bran"


def test_voiding_the_blow_undoes_the_new_round_the_skip_began(client: TestClient) -> None:
    f = Fight(client, "stamina-body", {}, Bran=SB, Ogre=OGRE, Kara=KARA)
    ok(client.put(f.base + "/order", json={"order": list(f.ids.values())}, headers=GM))
    f.post("/turn")  # the Ogre's turn
    down_kara(f)
    top = f.post("/turn")  # Kara is passed over: round 2 begins, and she bleeds (S10)
    assert (top["round"], f.current(top)) == (2, "Bran")
    kinds = [(r["number"], r["kind"]) for r in top["actions"]]
    assert kinds == [(1, "turn"), (2, "attack"), (3, "bleed"), (4, "turn")]
    voided = f.post("/actions/2/void", {"reason": "wrong target"})
    encounter = voided["encounter"]
    assert (encounter["round"], f.current(encounter)) == (1, "Kara")
    statuses = [(r["kind"], r["status"]) for r in encounter["actions"]]
    assert statuses == [
        ("turn", "active"),
        ("attack", "voided"),
        ("bleed", "voided"),
        ("turn", "active"),
    ]
    assert encounter["actions"][2]["voided_because"] == (
        "the turn change (action 4) no longer begins round 2: it is Kara's turn in round 1"
    )
    assert "with" not in encounter["actions"][3]["params"]
    assert kara(f, encounter)["tracks"] == {"stamina": 14, "body": 2}
    # Round 2 comes when the turn passes Kara, as it would have.
    top = f.post("/turn")
    assert (top["round"], f.current(top)) == (2, "Bran")


def test_an_earlier_turn_change_stops_naming_her_but_keeps_its_place(client: TestClient) -> None:
    f = Fight(client, "stamina-body", {}, Ogre=OGRE, Kara=KARA, Bran=SB, Cora=SB)
    ok(client.put(f.base + "/order", json={"order": list(f.ids.values())}, headers=GM))
    down_kara(f)
    f.post("/turn")  # Bran's turn, Kara passed over
    f.post("/turn")  # Cora's turn
    voided = f.post("/actions/1/void", {"reason": "no"})
    encounter = voided["encounter"]
    assert (encounter["round"], f.current(encounter)) == (1, "Cora")
    assert encounter["actions"][1]["summary"] == "Bran's turn (round 1)"
    assert encounter["actions"][1]["breakdown"]["skipped"] == []


def test_voiding_the_change_that_put_her_down_lifts_the_skip_in_margin_and_d20(
    client: TestClient,
) -> None:
    for ruleset, sheet, track, full in (
        ("margin", MARGIN, "health", 14),
        ("d20", d20_sheet(), "hp", 20),
    ):
        f = Fight(client, ruleset, {}, Ogre=sheet, Kara=sheet, Bran=sheet)
        ok(client.put(f.base + "/order", json={"order": list(f.ids.values())}, headers=GM))
        f.tracks("Kara", {track: 0})  # down (M7, D5): a GM record among the actions
        moved = f.post("/turn")
        assert (f.current(moved), moved["turn"]["skipped"][0]["why"]) == ("Bran", "Kara is down")
        voided = f.post("/actions/1/void", {"reason": "wrong character"})["encounter"]
        assert (voided["round"], f.current(voided), voided["turn"]["skipped"]) == (
            1,
            "Kara",
            [],
        ), ruleset
        assert (kara(f, voided)["tracks"], kara(f, voided)["conditions"]) == ({track: full}, [])
