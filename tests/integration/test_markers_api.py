"""Markers with durations over HTTP (issue 23, RULINGS T2): put on, expiring by
themselves at the Nth boundary of a named combatant's turn as a recorded event, taken
off; brought back by a rewind to before the expiry and by a void of the turn change
that expired them; the end's reason on the record; the board and the audit show it."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.helpers import GM, ok
from tests.integration.test_d20_api import d20_sheet
from tests.integration.test_initiative_api import ROLL, Fight
from tests.integration.test_projections import caught_up
from tests.integration.test_table_api import MARGIN, SB


def ordered(client: TestClient, ruleset: str, sheet: Any) -> Fight:
    f = Fight(client, ruleset, {}, Ash=sheet, Bran=sheet, Cora=sheet)
    ok(client.put(f.base + "/order", json={"order": list(f.ids.values())}, headers=GM))
    return f


def markers(answer: Any) -> list[tuple[str, str, int | None]]:
    return [(m["target_name"], m["name"], m["rounds_left"]) for m in answer["markers"]]


def test_one_round_to_the_end_of_the_bearers_turn_placed_during_it_expires_as_it_ends(
    client: TestClient,
) -> None:
    f = ordered(client, "stamina-body", SB)
    a, b = f.ids["Ash"], f.ids["Bran"]
    placed = f.post("/markers", {"target": a, "name": "blessed", "note": "+1", "rounds": 1}, 201)
    assert placed["markers"] == [
        {
            "number": 1,
            "target": a,
            "target_name": "Ash",
            "name": "blessed",
            "note": "+1",
            "rounds": 1,
            "rounds_left": 1,
            "watch": a,
            "watch_name": "Ash",
            "at": "end",
        }
    ]
    assert placed["actions"][0]["summary"] == "Ash: blessed (1 round, to the end of Ash's turn): +1"
    hidden = f.post("/markers", {"target": b, "name": "hidden"}, 201)  # until removed
    assert markers(hidden) == [("Ash", "blessed", 1), ("Bran", "hidden", None)]
    moved = f.post("/turn")  # Ash's turn ends: the blessing expires, recorded
    assert markers(moved) == [("Bran", "hidden", None)]
    expiry = moved["actions"][-1]
    assert (expiry["number"], expiry["kind"], expiry["params"]) == (
        4,
        "expire",
        {"marker": 1, "cause": 3},
    )
    assert expiry["summary"] == "blessed on Ash expires (end of Ash's turn)"
    removed = ok(client.delete(f.base + "/markers/2", headers=GM))
    assert removed["markers"] == []
    assert removed["actions"][-1]["summary"] == "hidden taken off Bran"
    gone = client.delete(f.base + "/markers/2", headers=GM)
    assert gone.status_code == 404
    assert gone.json()["message"] == "no marker 2 stands in this encounter"


def test_placed_before_the_watched_turn_it_counts_its_coming_boundaries(
    client: TestClient,
) -> None:
    f = ordered(client, "margin", MARGIN)
    a, b, c = f.ids["Ash"], f.ids["Bran"], f.ids["Cora"]
    # During Ash's turn: on Cora, 2 rounds, to the start of Bran's turn.
    body = {"target": c, "name": "on fire", "rounds": 2, "watch": b, "at": "start"}
    f.post("/markers", body, 201)
    assert markers(f.post("/turn")) == [("Cora", "on fire", 1)]  # Bran's turn starts
    assert markers(f.post("/turn")) == [("Cora", "on fire", 1)]  # Cora's
    assert markers(f.post("/turn")) == [("Cora", "on fire", 1)]  # round 2, Ash's
    expired = f.post("/turn")  # Bran's turn starts again: the second boundary
    assert markers(expired) == []
    assert expired["actions"][-1]["summary"] == "on fire on Cora expires (start of Bran's turn)"
    assert a in f.ids.values()


def test_a_rewind_to_before_the_expiry_brings_the_marker_back(client: TestClient) -> None:
    f = ordered(client, "d20", d20_sheet())
    a = f.ids["Ash"]
    f.post("/markers", {"target": a, "name": "blessed", "rounds": 1}, 201)
    before = f.read()
    assert before["version"] == 3  # started, order set, marker
    moved = f.post("/turn")
    assert markers(moved) == []
    rewound = f.post("/rewind", {"to_version": 3, "reason": "Ash was not done"})
    encounter = rewound["encounter"]
    assert markers(encounter) == [("Ash", "blessed", 1)]
    assert f.current(encounter) == "Ash"  # the turn went back with it
    assert [(r["kind"], r["status"]) for r in encounter["actions"]] == [
        ("mark", "active"),
        ("turn", "superseded"),
        ("expire", "superseded"),
    ]


def test_voiding_the_turn_change_that_expired_a_marker_restores_it(client: TestClient) -> None:
    f = ordered(client, "stamina-body", SB)
    a, b = f.ids["Ash"], f.ids["Bran"]
    f.post("/markers", {"target": a, "name": "blessed", "rounds": 1}, 201)
    moved = f.post("/turn")
    assert (f.current(moved), markers(moved)) == ("Bran", [])
    voided = f.post("/actions/2/void", {"reason": "Ash still acts"})
    encounter = voided["encounter"]
    assert markers(encounter) == [("Ash", "blessed", 1)]
    assert f.current(encounter) == "Ash"
    assert voided["report"] == [
        {
            "number": 3,
            "kind": "expire",
            "before": "blessed on Ash expires (end of Ash's turn)",
            "after": None,
            "status": "voided",
            "why": "the turn change (action 2) that expired it was struck out",
        }
    ]
    # The next turn change expires it again, as a new record.
    again = f.post("/turn")
    assert markers(again) == []
    assert [r["status"] for r in again["actions"]] == [
        "active",
        "voided",
        "voided",
        "active",
        "active",
    ]
    assert b in f.ids.values()


def test_voiding_the_mark_takes_it_off_and_what_took_it_off_with_it(client: TestClient) -> None:
    f = ordered(client, "margin", MARGIN)
    a = f.ids["Ash"]
    f.post("/markers", {"target": a, "name": "hidden"}, 201)
    ok(client.delete(f.base + "/markers/1", headers=GM))
    voided = f.post("/actions/1/void", {"reason": "never hid"})
    assert voided["encounter"]["markers"] == []
    assert voided["report"][0]["why"] == "marker 1 no longer stands"


def test_marker_refusals(client: TestClient) -> None:
    f = ordered(client, "d20", d20_sheet())
    a = f.ids["Ash"]
    message = f.refused("/markers", {"target": a, "name": "Prone"}, 409)
    assert message.startswith("on d20, prone is the rules' own condition (D6, D9)")
    too_long = f.refused("/markers", {"target": a, "name": "x" * 41}, 422)
    assert "name" in too_long
    blank = f.refused("/markers", {"target": a, "name": "   "}, 422)
    assert blank == "a marker's name is 1 to 40 characters"
    assert f.refused("/markers", {"target": "nobody", "name": "hidden"}, 404) == (
        "'nobody' is not a combatant in this encounter"
    )
    watch = {"target": a, "name": "x", "rounds": 1, "watch": "nobody"}
    assert f.refused("/markers", watch, 404) == "'nobody' is not a combatant in this encounter"
    # Margin has no prone of its own: there it is a marker like any other.
    m = ordered(client, "margin", MARGIN)
    assert markers(m.post("/markers", {"target": m.ids["Ash"], "name": "prone"}, 201)) == [
        ("Ash", "prone", None)
    ]


def test_the_end_reason_is_on_the_record_the_board_and_the_audit(client: TestClient) -> None:
    f = ordered(client, "stamina-body", SB)
    f.post("/markers", {"target": f.ids["Ash"], "name": "hidden"}, 201)
    ended = f.post("/end", {"reason": "  the goblins fled  "})
    assert (ended["ended"], ended["end_reason"]) == (True, "the goblins fled")
    assert f.read()["end_reason"] == "the goblins fled"
    too_long = f.client.post(f.base + "/end", json={"reason": "x" * 501}, headers=GM)
    assert too_long.status_code == 422
    plain = ordered(client, "margin", MARGIN)
    assert plain.post("/end")["end_reason"] is None


def test_the_board_and_the_audit_show_the_table(live_client: TestClient) -> None:
    f = Fight(live_client, "stamina-body", {"initiative": ROLL}, Ash=SB, Bran=SB)
    a, b = f.ids["Ash"], f.ids["Bran"]
    f.post("/initiative", {"dice": {a: [4], b: [9]}})  # Ash 14, Bran 19
    f.post("/markers", {"target": a, "name": "blessed", "rounds": 2}, 201)
    f.post("/markers", {"target": b, "name": "hidden", "note": "in the reeds"}, 201)
    f.tracks("Ash", {"body": -1})
    f.post("/turn")  # Bran's turn ends; Ash is passed over (a boundary of his turn's end)
    f.post("/end", {"reason": "the goblins fled"})
    caught_up(live_client, f.cid)
    board = ok(live_client.get(f.base + "/board"))
    assert board["initiative"] == {a: 14, b: 19}
    assert board["skipped"] == [{"id": a, "name": "Ash", "why": "Ash is unconscious"}]
    assert [(m["name"], m["rounds_left"], m["note"]) for m in board["markers"]] == [
        ("blessed", 1, None),
        ("hidden", None, "in the reeds"),
    ]
    assert board["end_reason"] == "the goblins fled"
    assert [line["kind"] for line in board["last_actions"]] == [
        "initiative",
        "mark",
        "mark",
        "adjust_tracks",
        "bleed",
        "turn",
    ]
    audit = ok(live_client.get(f"/campaigns/{f.cid}/audit?offset=0&limit=100"))
    lines = [(e["type"], e["summary"]) for e in audit["entries"]][-9:]
    assert lines == [
        ("Encounter.TableRecorded", "Initiative (1d20 + dodge): Ash 14, Bran 19"),
        ("Encounter.TableRecorded", "Ash: blessed (2 rounds, to the end of Ash's turn)"),
        ("Encounter.TableRecorded", "Bran: hidden (until removed): in the reeds"),
        ("Encounter.GMChanged", "Ash: body 10→-1"),
        ("Encounter.RoundStarted", "Round 2 begins"),
        ("Encounter.ActionResolved", "Ash bleeds 1 Body"),
        ("Encounter.TableRecorded", "Bran's turn (round 2); passed over: Ash is unconscious"),
        ("Encounter.Ended", "Encounter ended: the goblins fled"),
        ("Campaign.EncounterClosed", "Encounter closed; tracks carried back to the roster"),
    ]


def test_a_correction_after_the_end_replays_the_table_records_too(client: TestClient) -> None:
    f = ordered(client, "stamina-body", SB)
    a, b = f.ids["Ash"], f.ids["Bran"]
    hit = {"kind": "take_hit", "actor": None, "dice": {"damage": [6]}}
    hit["params"] = {"target": a, "damage_type": "impact", "damage_class": 1}
    ok(client.post(f.base + "/actions", json=hit, headers=GM), 201)
    f.post("/markers", {"target": b, "name": "blessed", "rounds": 1, "watch": a}, 201)
    f.post("/turn")  # Ash's turn ends: the blessing expires
    f.post("/end", {"reason": "done"})
    voided = f.post("/actions/1/void", {"reason": "the hit missed"})
    encounter = voided["encounter"]
    assert [(r["kind"], r["status"]) for r in encounter["actions"]] == [
        ("take_hit", "voided"),
        ("mark", "active"),
        ("turn", "active"),
        ("expire", "active"),
    ]
    assert encounter["combatants"][0]["tracks"] == {"stamina": 12, "body": 10}
    assert (encounter["markers"], encounter["end_reason"]) == ([], "done")
