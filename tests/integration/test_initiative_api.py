"""Initiative, skipping, previous turn, delay and moves in the order over HTTP (issue 23,
RULINGS T1), for each ruleset where the rules differ: every roll recorded, table dice
accepted and refused by name, each turn change a record the correction path replays."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.helpers import GM, enrol, event_count, new_campaign, ok, start
from tests.integration.test_d20_api import d20_sheet
from tests.integration.test_table_api import MARGIN, SB

ROLL = {"mode": "roll", "dice": "1d20", "add": "dodge"}


class Fight:
    """A campaign of one ruleset with named combatants in one encounter."""

    def __init__(
        self, client: TestClient, ruleset: str, options: dict[str, Any], **sheets: Any
    ) -> None:
        self.client = client
        self.cid = new_campaign(client, ruleset, options)
        self.ids = {name: enrol(client, self.cid, name, sheet) for name, sheet in sheets.items()}
        side = [{"character_id": cid, "side": "party"} for cid in self.ids.values()]
        self.eid = start(client, self.cid, side)
        self.base = f"/campaigns/{self.cid}/encounters/{self.eid}"

    def post(self, path: str, body: Any = None, status: int = 200) -> Any:
        return ok(self.client.post(self.base + path, json=body, headers=GM), status)

    def refused(self, path: str, body: Any, status: int) -> str:
        before = event_count(self.client)
        message = self.post(path, body, status)["message"]
        assert event_count(self.client) == before
        return str(message)

    def names(self, ids: list[str]) -> list[str]:
        by_id = {cid: name for name, cid in self.ids.items()}
        return [by_id[cid] for cid in ids]

    def order(self, answer: Any) -> list[str]:
        return self.names([c["id"] for c in answer["turn"]["order"]])

    def current(self, answer: Any) -> str:
        return self.names([answer["turn"]["current"]])[0]

    def tracks(self, name: str, values: dict[str, int]) -> None:
        path = f"/campaigns/{self.cid}/characters/{self.ids[name]}/tracks"
        ok(self.client.post(path, json={"set": values, "reason": "test"}, headers=GM))

    def read(self) -> Any:
        return ok(self.client.get(self.base, headers=GM))


def test_stamina_body_initiative_with_table_dice_highest_first_ties_in_enrolment_order(
    client: TestClient,
) -> None:
    f = Fight(
        client,
        "stamina-body",
        {"initiative": ROLL},
        Ash={**SB, "dodge": 10},
        Bran={**SB, "dodge": 12},
        Cora={**SB, "dodge": 10},
    )
    a, b, c = f.ids["Ash"], f.ids["Bran"], f.ids["Cora"]
    rolled = f.post("/initiative", {"dice": {a: [5], b: [3], c: [10]}})
    # Ash 5 + 10 = 15, Bran 3 + 12 = 15, Cora 10 + 10 = 20: Cora, then the tie in
    # enrolment order.
    assert f.order(rolled) == ["Cora", "Ash", "Bran"]
    assert rolled["turn"]["initiative"] == {a: 15, b: 15, c: 20}
    assert f.current(rolled) == "Cora"
    record = rolled["actions"][-1]
    assert record["kind"] == "initiative"
    assert record["summary"] == "Initiative (1d20 + dodge): Ash 15, Bran 15, Cora 20"
    assert [(r["name"], r["faces"], r["supplied"]) for r in record["rolls"]] == [
        (f"initiative.{a}", [5], True),
        (f"initiative.{b}", [3], True),
        (f"initiative.{c}", [10], True),
    ]
    assert record["breakdown"]["entries"][1] == {
        "id": b,
        "name": "Bran",
        "roll": 3,
        "add": "dodge",
        "bonus": 12,
        "total": 15,
    }
    # A bad roll is refused by name, and nothing is written.
    message = f.refused("/initiative", {"dice": {a: [21]}}, 422)
    assert message == f"roll 'initiative.{a}': a face of 21 is not on a d20 (faces run 1 to 20)"
    assert f.refused("/initiative", {"combatants": ["nobody"]}, 404) == (
        "not combatants in this fight: nobody"
    )
    assert f.refused("/initiative", {"combatants": [a, a]}, 422) == (
        "a combatant rolls initiative once"
    )
    message = f.refused("/initiative", {"dice": {"nobody": [3]}}, 422)
    assert message.startswith(
        "dice were supplied for roll(s) this action does not make: initiative.nobody"
    )


def test_d20_initiative_adds_the_abilitys_d1_modifier(client: TestClient) -> None:
    f = Fight(
        client,
        "d20",
        {"initiative": {"mode": "roll", "dice": "1d20", "add": "dexterity"}},
        Ash=d20_sheet(dexterity=16),  # D1: 16-17 is +2
        Bran=d20_sheet(dexterity={"modifier": -1}),  # stated
    )
    rolled = f.post("/initiative", {"dice": {f.ids["Ash"]: [7], f.ids["Bran"]: [11]}})
    assert rolled["turn"]["initiative"] == {f.ids["Ash"]: 9, f.ids["Bran"]: 10}
    assert f.order(rolled) == ["Bran", "Ash"]


def test_manual_initiative_refuses_a_roll_and_old_options_mean_manual(client: TestClient) -> None:
    f = Fight(client, "margin", {}, Ash=MARGIN, Bran=MARGIN)
    message = f.refused("/initiative", {}, 409)
    assert message == (
        "this campaign's initiative is manual (option initiative): the GM sets the order"
    )


def test_bad_initiative_options_are_refused_per_ruleset(client: TestClient) -> None:
    for ruleset, options, where in (
        ("margin", {"initiative": {"mode": "roll", "add": "dodge"}}, "add"),  # not margin's
        ("stamina-body", {"initiative": {"mode": "roll", "dice": "0d20"}}, "dice"),
        ("stamina-body", {"initiative": {"mode": "roll", "dice": "1d101"}}, "dice"),
        ("d20", {"initiative": {"mode": "roll", "each_round": 1}}, "each_round"),
        ("d20", {"initiative": {"mode": "sometimes"}}, "initiative"),
        ("margin", {"skip_unable": "no"}, "skip_unable"),
    ):
        body = {"name": "Bad", "ruleset": ruleset, "options": options}
        answer = client.post("/campaigns", json=body)
        assert answer.status_code == 422, (options, answer.text)
        assert where in answer.json()["message"], answer.json()["message"]


def test_each_round_rolls_again_at_the_new_round(client: TestClient) -> None:
    each = {**ROLL, "each_round": True}
    f = Fight(client, "stamina-body", {"initiative": each}, Ash=SB, Bran=SB)
    a, b = f.ids["Ash"], f.ids["Bran"]
    f.post("/initiative", {"dice": {a: [20], b: [1]}})
    f.post("/turn")
    new_round = f.post("/turn")  # past Bran: round 2 rolls again (the server's dice)
    assert new_round["round"] == 2
    kinds = [r["kind"] for r in new_round["actions"]]
    assert kinds == ["initiative", "turn", "initiative", "turn"]
    assert new_round["actions"][3]["params"]["with"] == [3]
    assert len(new_round["actions"][2]["rolls"]) == 2


def test_unconscious_is_passed_over_stunned_is_not_stamina_body(client: TestClient) -> None:
    f = Fight(client, "stamina-body", {}, Ash=SB, Bran=SB, Cora=SB)
    a, b, c = f.ids["Ash"], f.ids["Bran"], f.ids["Cora"]
    ok(client.put(f.base + "/order", json={"order": [a, b, c]}, headers=GM))
    f.tracks("Bran", {"body": -1})  # unconscious
    f.tracks("Cora", {"stamina": -2})  # stunned: may still Recover (S9)
    moved = f.post("/turn")
    assert f.current(moved) == "Cora"
    assert moved["turn"]["skipped"] == [{"id": b, "name": "Bran", "why": "Bran is unconscious"}]
    assert moved["actions"][-1]["summary"] == (
        "Cora's turn (round 1); passed over: Bran is unconscious"
    )
    nxt = f.post("/turn")
    assert (nxt["round"], f.current(nxt), nxt["turn"]["skipped"]) == (2, "Ash", [])


def test_down_is_passed_over_in_margin_and_d20_unless_skip_unable_is_off(
    client: TestClient,
) -> None:
    for ruleset, sheet, track in (("margin", MARGIN, "health"), ("d20", d20_sheet(), "hp")):
        f = Fight(client, ruleset, {}, Ash=sheet, Bran=sheet)
        ok(client.put(f.base + "/order", json={"order": list(f.ids.values())}, headers=GM))
        f.tracks("Bran", {track: 0})
        moved = f.post("/turn")
        assert (moved["round"], f.current(moved)) == (2, "Ash"), ruleset
        assert moved["turn"]["skipped"][0]["why"] == "Bran is down"
    f = Fight(client, "margin", {"skip_unable": False}, Ash=MARGIN, Bran=MARGIN)
    ok(client.put(f.base + "/order", json={"order": list(f.ids.values())}, headers=GM))
    f.tracks("Bran", {"health": 0})
    assert f.current(f.post("/turn")) == "Bran"


def test_previous_turn_delay_and_moves_in_the_order(client: TestClient) -> None:
    f = Fight(client, "margin", {}, Ash=MARGIN, Bran=MARGIN, Cora=MARGIN)
    a, b, c = f.ids["Ash"], f.ids["Bran"], f.ids["Cora"]
    ok(client.put(f.base + "/order", json={"order": [a, b, c]}, headers=GM))
    message = f.refused("/turn/previous", None, 409)
    assert message == "it is the first turn of round 1: there is no turn before it"
    moved = f.post("/order/move", {"combatant": c, "direction": "up"})
    assert f.order(moved) == ["Ash", "Cora", "Bran"]
    moved = f.post("/order/move", {"combatant": a, "direction": "down"})
    assert f.order(moved) == ["Cora", "Ash", "Bran"]
    message = f.refused("/order/move", {"combatant": c, "direction": "up"}, 409)
    assert message == "Cora is first in the order already"
    delayed = f.post("/turn/delay", {})  # Cora acts after Bran
    assert (f.order(delayed), f.current(delayed)) == (["Ash", "Bran", "Cora"], "Ash")
    assert delayed["actions"][-1]["summary"] == "Cora delays; Ash's turn (round 1)"
    delayed = f.post("/turn/delay", {"after": b})
    assert (f.order(delayed), f.current(delayed)) == (["Bran", "Ash", "Cora"], "Bran")
    assert f.refused("/turn/delay", {"after": "nobody"}, 422) == (
        "delay after one who acts later this round: Ash, Cora"
    )
    f.post("/turn")
    f.post("/turn")
    top = f.post("/turn")
    assert (top["round"], f.current(top)) == (2, "Bran")
    back = f.post("/turn/previous")
    assert (back["round"], f.current(back)) == (1, "Cora")
    assert back["actions"][-1]["summary"] == "Cora's turn again (previous turn) (round 1)"


def test_voiding_a_turn_change_puts_the_turn_back(client: TestClient) -> None:
    f = Fight(client, "stamina-body", {}, Ash=SB, Bran=SB)
    ok(client.put(f.base + "/order", json={"order": list(f.ids.values())}, headers=GM))
    f.post("/turn")
    f.tracks("Ash", {"body": -1})  # Ash bleeds at the next round's start (S10)
    top = f.post("/turn")
    numbers = [(r["number"], r["kind"]) for r in top["actions"]]
    assert numbers == [(1, "turn"), (2, "adjust_tracks"), (3, "bleed"), (4, "turn")]
    assert top["actions"][3]["params"]["with"] == [3]
    # Ash is unconscious, so the new round passed over Ash to Bran.
    assert (top["round"], f.current(top), top["combatants"][0]["tracks"]["body"]) == (
        2,
        "Bran",
        -2,
    )
    message = f.refused("/actions/1/void", {"reason": "too early"}, 409)
    assert message.startswith("action 4 (Bran's turn (round 2); passed over: Ash is")
    voided = f.post("/actions/4/void", {"reason": "not yet"})
    encounter = voided["encounter"]
    assert (encounter["round"], f.current(encounter)) == (1, "Bran")
    assert [r["status"] for r in encounter["actions"]] == ["active", "active", "voided", "voided"]
    assert encounter["combatants"][0]["tracks"]["body"] == -1  # the bleeding went with it


def test_one_who_joins_mid_fight_rolls_on_joining_or_is_placed_last(client: TestClient) -> None:
    f = Fight(client, "stamina-body", {"initiative": ROLL}, Ash=SB, Bran={**SB, "dodge": 12})
    a, b = f.ids["Ash"], f.ids["Bran"]
    f.post("/initiative", {"dice": {a: [8], b: [1]}})  # Ash 18, Bran 13
    f.post("/turn")  # Bran's turn
    dara = enrol(client, f.cid, "Dara", {**SB, "dodge": 5})
    f.ids["Dara"] = dara
    body = {"character_id": dara, "side": "party", "reason": "late"}
    joined = ok(client.post(f.base + "/combatants", json=body, headers=GM), 201)
    record = joined["actions"][-1]
    assert (record["kind"], record["params"]["only"]) == ("initiative", [dara])
    total = record["breakdown"]["entries"][0]["total"]
    assert total == record["rolls"][0]["total"] + 5
    expected = ["Dara", "Ash", "Bran"] if total > 18 else ["Ash", "Dara", "Bran"]
    expected = expected if total > 13 else ["Ash", "Bran", "Dara"]
    assert f.order(joined) == expected
    assert f.current(joined) == "Bran"  # the turn stays with whoever has it
    assert joined["turn"]["initiative"] == {a: 18, b: 13, dara: total}
    # Manual initiative: placed last, the GM may move them.
    m = Fight(client, "margin", {}, Ash=MARGIN, Bran=MARGIN)
    ok(client.put(m.base + "/order", json={"order": [m.ids["Bran"], m.ids["Ash"]]}, headers=GM))
    cora = enrol(client, m.cid, "Cora", MARGIN)
    m.ids["Cora"] = cora
    body = {"character_id": cora, "side": "party", "reason": "late"}
    joined = ok(client.post(m.base + "/combatants", json=body, headers=GM), 201)
    assert m.order(joined) == ["Bran", "Ash", "Cora"]
    assert joined["actions"][-1]["summary"] == "Cora joins the turn order, last"


def test_voiding_an_initiative_roll_puts_the_order_back(client: TestClient) -> None:
    f = Fight(client, "d20", {"initiative": {"mode": "roll"}}, Ash=d20_sheet(), Bran=d20_sheet())
    a, b = f.ids["Ash"], f.ids["Bran"]
    ok(client.put(f.base + "/order", json={"order": [a, b]}, headers=GM))
    f.post("/turn")  # Bran's turn
    rolled = f.post("/initiative", {"dice": {a: [2], b: [15]}})
    assert (f.order(rolled), f.current(rolled)) == (["Bran", "Ash"], "Bran")
    voided = f.post(f"/actions/{rolled['actions'][-1]['number']}/void", {"reason": "misread"})
    encounter = voided["encounter"]
    assert (f.order(encounter), f.current(encounter)) == (["Ash", "Bran"], "Bran")
    assert encounter["turn"]["initiative"] == {}


def test_at_exactly_0_body_is_passed_over_stunned_above_0_is_not_stamina_body(
    client: TestClient,
) -> None:
    # Seed 001: "At 0 Body a character can't act until they're back up to at least 1"
    # (RULINGS T1 amended); a stunned one with Body above 0 may still Recover (S9).
    f = Fight(client, "stamina-body", {}, Ash=SB, Bran=SB, Cora=SB)
    a, b, c = f.ids["Ash"], f.ids["Bran"], f.ids["Cora"]
    ok(client.put(f.base + "/order", json={"order": [a, b, c]}, headers=GM))
    f.tracks("Bran", {"body": 0})
    f.tracks("Cora", {"stamina": -1, "body": 1})  # stunned, Body above 0
    moved = f.post("/turn")
    why = "Bran is at 0 Body and cannot act until back up to at least 1"
    assert (moved["round"], f.current(moved)) == (1, "Cora")
    assert moved["turn"]["skipped"] == [{"id": b, "name": "Bran", "why": why}]
    assert moved["actions"][-1]["summary"] == f"Cora's turn (round 1); passed over: {why}"
    f.tracks("Bran", {"body": 1})  # back up to 1: his turn comes again
    top = f.post("/turn")
    assert (top["round"], f.current(top), top["turn"]["skipped"]) == (2, "Ash", [])
    assert f.current(f.post("/turn")) == "Bran"


def test_a_new_round_takes_the_tables_dice_for_each_round_initiative_in_one_request(
    client: TestClient,
) -> None:
    each = {**ROLL, "each_round": True}
    f = Fight(client, "stamina-body", {"initiative": each}, Ash=SB, Bran={**SB, "dodge": 12})
    a, b = f.ids["Ash"], f.ids["Bran"]
    f.post("/initiative", {"dice": {a: [20], b: [1]}})  # Ash 30, Bran 13
    # POST .../round with the table's dice: the new round's initiative is theirs.
    new_round = f.post("/round", {"dice": {a: [1], b: [20]}})
    assert (new_round["round"], f.order(new_round)) == (2, ["Bran", "Ash"])
    assert new_round["turn"]["initiative"] == {a: 11, b: 32}
    rolled = new_round["actions"][-1]
    assert [(r["name"], r["faces"], r["supplied"]) for r in rolled["rolls"]] == [
        (f"initiative.{a}", [1], True),
        (f"initiative.{b}", [20], True),
    ]
    # So does the turn that starts a round (Bran, Ash, then round 3).
    f.post("/turn")
    top = f.post("/turn", {"dice": {a: [15]}})  # Bran's die is the server's
    assert (top["round"], top["turn"]["initiative"][a]) == (3, 25)
    assert [r["supplied"] for r in top["actions"][-2]["rolls"]] == [True, False]
    # Dice nothing would take are refused, naming them, and nothing is written.
    assert f.refused("/turn", {"dice": {a: [3]}}, 422) == (
        f"dice were supplied for initiative.{a}, which this turn never rolls: it starts no "
        "new round (the table's initiative dice go with the turn that starts one)"
    )
    assert f.refused("/round", {"dice": {a: [21]}}, 422) == (
        f"roll 'initiative.{a}': a face of 21 is not on a d20 (faces run 1 to 20)"
    )


def test_a_new_round_refuses_dice_when_initiative_is_not_rolled_each_round(
    client: TestClient,
) -> None:
    for options, why in (
        ({"initiative": ROLL}, "initiative is rolled once, not every round"),
        ({}, "this campaign's initiative is manual (option initiative)"),
    ):
        f = Fight(client, "stamina-body", options, Ash=SB, Bran=SB)
        a = f.ids["Ash"]
        ok(client.put(f.base + "/order", json={"order": list(f.ids.values())}, headers=GM))
        message = f.refused("/round", {"dice": {a: [7]}}, 422)
        assert message.startswith(
            f"dice were supplied for initiative.{a}, which this new round never rolls: {why}"
        ), message
        assert f.post("/round", {})["round"] == 2  # an empty body is no dice
