"""A correction's preview says what moved, never "X -> X" (issue 39, the GM screen's
rewind preview: "after The Ford, Lia: health 14 -> health 14").

A step is listed when the character's values differ (domain/timeline.py), but its row
showed only tracks and conditions (domain/walk.py ``diff``): a margin reroll that keeps
Lia's luck point (M8: a defense of 0 or less is rolled once more, spending one) changes
nothing but her luck in every step after it. The row now carries the counters the
ruleset publishes (margin: fatigue and luck); a step whose tracks, counters and
conditions are all as before is not listed. An NPC's counters are its numbers (RULINGS
T3, T3a): the GM reads them, a player's key never does."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.fixtures.the_bridge import LIA, ORC
from tests.helpers import act, enrol, new_campaign, ok, start

BOW = {
    "name": "bow",
    "attribute": "grace",
    "skill": "marksmanship",
    "category": "ranged",
    "base_damage": 1,
    "per_margin": 1,
    "damage_type": "pierce",
    "ammunition": 10,
}
# Orc's attack: 5 dice, no 5 or 6: 0 successes (not "below nothing": not every die a 1).
NOTHING = [2, 2, 2, 2, 2]


class Table:
    def __init__(
        self, client: TestClient, lia: dict[str, Any] = LIA, orc: dict[str, Any] = ORC
    ) -> None:
        self.client = client
        self.cid = new_campaign(client, "margin")
        self.lia = enrol(client, self.cid, "Lia", lia)
        body = {"name": "Orc", "sheet": orc, "npc": True}
        made = client.post(f"/campaigns/{self.cid}/characters", json=body)
        self.orc = str(ok(made, 201)["id"])

    def fight(self, name: str) -> str:
        sides = [
            {"character_id": self.lia, "side": "party"},
            {"character_id": self.orc, "side": "foes"},
        ]
        return start(self.client, self.cid, sides, name)

    def end(self, eid: str) -> None:
        ok(self.client.post(f"/campaigns/{self.cid}/encounters/{eid}/end"))

    def preview(self, eid: str, number: int, dice: dict[str, list[int]]) -> Any:
        path = f"/campaigns/{self.cid}/encounters/{eid}/actions/{number}/reroll/preview"
        return ok(self.client.post(path, json={"reason": "she kept her nerve", "dice": dice}))

    def reroll(self, eid: str, number: int, dice: dict[str, list[int]]) -> Any:
        path = f"/campaigns/{self.cid}/encounters/{eid}/actions/{number}/reroll"
        return ok(self.client.post(path, json={"reason": "the orc kept its nerve", "dice": dice}))

    def carried(self, key: dict[str, str] | None = None) -> Any:
        path = f"/campaigns/{self.cid}/history"
        (entry,) = ok(self.client.get(path, params={"kind": "CorrectionCarried"}, headers=key))[
            "entries"
        ]
        return entry["correction"]["carried"]

    def player(self) -> dict[str, str]:
        body = {"role": "player", "characters": [self.lia]}
        key = ok(self.client.post(f"/campaigns/{self.cid}/keys", json=body), 201)["key"]
        return {"authorization": f"Bearer {key}"}


def rows(preview: Any) -> list[tuple[Any, ...]]:
    return [
        (s["kind"], s.get("encounter"), s["name"], s["before"], s["after"])
        for s in preview["steps"]
    ]


def test_a_reroll_that_keeps_a_luck_point_says_so_in_every_later_step(
    client: TestClient,
) -> None:
    table = Table(client)
    bridge = table.fight("The Bridge")
    # Lia's evasion comes up 1, 1 (below nothing): her luck point rolls it again, 2, 2
    # (0); her guard 5, 2 (1). The blow misses either way.
    dice = {
        "Orc's attack": NOTHING,
        "Lia's evasion": [1, 1],
        "Lia's evasion (luck)": [2, 2],
        "Lia's guard": [5, 2],
    }
    act(client, table.cid, bridge, "attack", table.orc, dice, target=table.lia, weapon="axe")
    table.end(bridge)
    ford = table.fight("The Ford")  # nothing happens at the ford
    table.end(ford)
    lia = ok(client.get(f"/campaigns/{table.cid}/characters/{table.lia}"))
    assert (lia["tracks"], lia["state"]["luck"]) == ({"health": 14}, 0)

    # The evasion rerolled onto 5, 2 (1 success): no luck spent, the blow still misses.
    again = {"Orc's attack": NOTHING, "Lia's evasion": [5, 2], "Lia's guard": [5, 2]}
    preview = table.preview(bridge, 1, again)

    spent = {"tracks": {"health": 14}, "conditions": [], "counters": {"fatigue": 0, "luck": 0}}
    kept = {"tracks": {"health": 14}, "conditions": [], "counters": {"fatigue": 0, "luck": 1}}
    assert rows(preview) == [
        ("encounter", "The Bridge", "Lia", spent, kept),
        ("encounter", "The Ford", "Lia", spent, kept),
    ]
    assert preview["message"] == "2 step(s) and 1 action(s) change"
    assert preview["changes_nothing"] is False
    assert preview["characters"] == {
        table.lia: {
            "name": "Lia",
            "before": {"tracks": {"health": 14}, "counters": {"fatigue": 0, "luck": 0}},
            "after": {"tracks": {"health": 14}, "counters": {"fatigue": 0, "luck": 1}},
        }
    }


def test_the_gm_reads_an_npcs_luck_in_the_carried_steps_a_player_never_does(
    client: TestClient,
) -> None:
    table = Table(client, lia={**LIA, "luck": 0}, orc={**ORC, "luck": 1})
    bridge = table.fight("The Bridge")
    # Lia's fists (Might 2: 2 dice) come up 2, 2: 0. The Orc's evasion (Grace 1: 1 die)
    # comes up 1 (below nothing): its luck point rolls it again, 2 (0); its guard 5, 2 (1).
    dice = {
        "Lia's attack": [2, 2],
        "Orc's evasion": [1],
        "Orc's evasion (luck)": [2],
        "Orc's guard": [5, 2],
    }
    act(client, table.cid, bridge, "attack", table.lia, dice, target=table.orc, weapon="fists")
    table.end(bridge)
    ford = table.fight("The Ford")
    table.end(ford)

    # The Orc's evasion rerolled onto 5 (1): its luck point kept, through the Ford.
    again = {"Lia's attack": [2, 2], "Orc's evasion": [5], "Orc's guard": [5, 2]}
    spent = {"tracks": {"health": 14}, "conditions": [], "counters": {"fatigue": 0, "luck": 0}}
    kept = {"tracks": {"health": 14}, "conditions": [], "counters": {"fatigue": 0, "luck": 1}}
    expected = [
        ("encounter", "The Bridge", "Orc", spent, kept),
        ("encounter", "The Ford", "Orc", spent, kept),
    ]
    assert rows(table.preview(bridge, 1, again)) == expected
    table.reroll(bridge, 1, again)
    assert rows(table.carried()) == expected  # the GM's history: as the preview said

    # A player's key reads the same steps without the Orc's numbers (T3, T3a): no
    # tracks, no counters, no conditions' numbers; its name and the steps stay.
    seen = table.carried(table.player())
    assert rows(seen) == [
        ("encounter", "The Bridge", "Orc", {}, {}),
        ("encounter", "The Ford", "Orc", {}, {}),
    ]
    assert seen["characters"][table.orc] == {"name": "Orc", "before": {}, "after": {}}
    assert "luck" not in str(seen)


def test_a_step_where_only_ammunition_moved_is_not_listed(client: TestClient) -> None:
    # Margin publishes fatigue and luck, not the arrows left: a voided shot gives Lia an
    # arrow back in every later step, and nothing there that a row could say moved.
    table = Table(client, lia={**LIA, "luck": 0, "weapons": [BOW]})
    bridge = table.fight("The Bridge")
    dice = {"Lia's attack": [2, 2], "Orc's evasion": [5], "Orc's guard": [5, 2]}  # a miss
    act(client, table.cid, bridge, "attack", table.lia, dice, target=table.orc, weapon="bow")
    table.end(bridge)
    ford = table.fight("The Ford")
    table.end(ford)
    lia = ok(client.get(f"/campaigns/{table.cid}/characters/{table.lia}"))
    assert lia["state"]["ammunition"] == {"bow": 9}

    path = f"/campaigns/{table.cid}/encounters/{bridge}/actions/1/void/preview"
    preview = ok(client.post(path, json={"reason": "she never drew"}))
    assert (preview["steps"], preview["characters"], preview["actions"]) == ([], {}, [])
    # The void still changes something (the shot, the arrow): it may be recorded, and
    # says what it lists, as a void of a miss that moves nothing later always did.
    assert (preview["changes_nothing"], preview["message"]) == (
        False,
        "0 step(s) and 0 action(s) change",
    )
    ok(client.post(path.removesuffix("/preview"), json={"reason": "she never drew"}))
    lia = ok(client.get(f"/campaigns/{table.cid}/characters/{table.lia}"))
    assert lia["state"]["ammunition"] == {"bow": 10}
