"""Corrections that strike out a mid-fight join (issue 26 item 4): a rewind to before
the join, a void of the join, on an open and on an ended encounter. Each used to
answer a text/plain 500 (a KeyError applying the correction); now the joiner is out
of the fight again with the values they joined with, and what happened to them
after the join is undone with the rest."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.helpers import act, encounter, enrol, event_count, new_campaign, ok, start
from tests.integration.test_projections import caught_up

SHEET = {"st": 12, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10}
OGRE = {
    **SHEET,
    "st": 20,
    "weapons": [{"name": "spear", "damage_class": 2, "damage_type": "piercing", "skill": 14}],
}
HIT = {"hit": [1, 2, 2], "damage": [6, 6]}
FRESH = {"stamina": 12, "body": 10}


class Fight:
    """Ogre spears Bran (version 2), Mira joins (3), a new round (4), Ogre spears Mira (5)."""

    def __init__(self, client: TestClient, name: str = "Fight") -> None:
        self.client = client
        self.cid = new_campaign(client, "stamina-body")
        self.ogre = enrol(client, self.cid, "Ogre", OGRE)
        self.bran = enrol(client, self.cid, "Bran", SHEET)
        self.mira = enrol(client, self.cid, "Mira", SHEET)
        self.eid = start(
            client,
            self.cid,
            [
                {"character_id": self.ogre, "side": "foes"},
                {"character_id": self.bran, "side": "party"},
            ],
            name=name,
        )
        self.base = f"/campaigns/{self.cid}/encounters/{self.eid}"
        act(client, self.cid, self.eid, "attack", self.ogre, HIT, target=self.bran,
            weapon="spear", defense="none")  # fmt: skip
        self.bran_hurt = self.combatant(self.bran)["tracks"]
        joined = client.post(
            f"{self.base}/combatants",
            json={"character_id": self.mira, "side": "party", "rank": 2, "reason": "arrives"},
        )
        assert ok(joined, 201)["version"] == 3
        ok(client.post(f"{self.base}/round"))
        act(client, self.cid, self.eid, "attack", self.ogre, HIT, target=self.mira,
            weapon="spear", defense="none")  # fmt: skip
        assert self.combatant(self.mira)["tracks"] != FRESH

    def combatant(self, character_id: str) -> Any:
        found = encounter(self.client, self.cid, self.eid)["combatants"]
        return next(c for c in found if c["id"] == character_id)

    def roster(self, character_id: str) -> Any:
        return ok(self.client.get(f"/campaigns/{self.cid}/characters/{character_id}"))


def statuses(body: Any) -> list[tuple[int, str, str]]:
    return [(a["number"], a["kind"], a["status"]) for a in body["actions"]]


def test_a_rewind_to_before_a_join_takes_the_joiner_out_as_they_came(client: TestClient) -> None:
    fight = Fight(client)
    preview = ok(client.post(f"{fight.base}/rewind/preview", json={"to_version": 2}))
    assert [(a["number"], a["status"]) for a in preview["actions"]] == [
        (2, "superseded"),
        (3, "superseded"),
    ]
    rewound = client.post(f"{fight.base}/rewind", json={"to_version": 2, "reason": "too soon"})
    assert rewound.status_code == 200, rewound.text
    body = rewound.json()
    assert [(e["number"], e["status"]) for e in body["report"]] == [
        (2, "superseded"),
        (3, "superseded"),
    ]
    assert statuses(body["encounter"]) == [
        (1, "attack", "active"),
        (2, "join", "superseded"),
        (3, "attack", "superseded"),
    ]
    mira = fight.combatant(fight.mira)
    assert (mira["present"], mira["tracks"], mira["rank"]) == (False, FRESH, 2)
    assert fight.combatant(fight.bran)["tracks"] == fight.bran_hurt  # before the join: kept
    # Out of the fight: no one can spear her there now.
    ok(client.post(f"{fight.base}/round"))
    gone = client.post(
        f"{fight.base}/actions",
        json={"kind": "attack", "actor": fight.ogre, "params": {"target": fight.mira,
              "weapon": "spear", "defense": "none"}, "dice": HIT},
    )  # fmt: skip
    assert gone.status_code == 404, gone.text
    # The end hands her back as she came, and frees her for another fight.
    ok(client.post(f"{fight.base}/end"))
    assert fight.roster(fight.mira)["tracks"] == FRESH
    assert fight.roster(fight.mira)["in_encounter"] is None
    assert fight.roster(fight.bran)["tracks"] == fight.bran_hurt
    start(client, fight.cid, [{"character_id": fight.mira, "side": "party"}], name="Next")


def test_a_void_of_a_join_takes_the_joiner_out_and_voids_what_needed_her(
    client: TestClient,
) -> None:
    fight = Fight(client)
    voided = client.post(f"{fight.base}/actions/2/void", json={"reason": "not here yet"})
    assert voided.status_code == 200, voided.text
    assert statuses(voided.json()["encounter"]) == [
        (1, "attack", "active"),
        (2, "join", "voided"),
        (3, "attack", "voided"),  # its target is not in the fight: voided as a consequence
    ]
    mira = fight.combatant(fight.mira)
    assert (mira["present"], mira["tracks"]) == (False, FRESH)
    ok(client.post(f"{fight.base}/end"))
    assert fight.roster(fight.mira)["tracks"] == FRESH
    assert fight.roster(fight.mira)["in_encounter"] is None


def test_a_rewind_of_an_ended_fight_to_before_a_join_carries_her_back(
    client: TestClient,
) -> None:
    fight = Fight(client)
    ok(client.post(f"{fight.base}/end"))
    hurt = fight.roster(fight.mira)["tracks"]
    assert hurt != FRESH
    preview = ok(client.post(f"{fight.base}/rewind/preview", json={"to_version": 2}))
    assert preview["characters"][fight.mira] == {
        "name": "Mira",
        "before": {"tracks": hurt},
        "after": {"tracks": FRESH},
    }
    rewound = client.post(f"{fight.base}/rewind", json={"to_version": 2, "reason": "too soon"})
    assert rewound.status_code == 200, rewound.text
    assert rewound.headers["content-type"] == "application/json"
    assert statuses(rewound.json()["encounter"]) == [
        (1, "attack", "active"),
        (2, "join", "superseded"),
        (3, "attack", "superseded"),
    ]
    assert fight.roster(fight.mira)["tracks"] == FRESH
    assert fight.roster(fight.bran)["tracks"] == fight.bran_hurt
    assert fight.combatant(fight.mira)["present"] is False
    count = event_count(client)
    again = client.post(f"{fight.base}/rewind", json={"to_version": 2, "reason": "again"})
    assert again.status_code == 409, again.text  # it changes nothing now
    assert event_count(client) == count


def test_the_board_shows_the_joiner_as_she_came_after_a_rewind(live_client: TestClient) -> None:
    fight = Fight(live_client)
    ok(live_client.post(f"{fight.base}/rewind", json={"to_version": 2, "reason": "too soon"}))
    caught_up(live_client, fight.cid)
    board = ok(live_client.get(f"{fight.base}/board"))
    shown = {c["id"]: c["tracks"] for c in board["combatants"]}
    assert shown[fight.mira] == {
        "stamina": {"current": 12, "max": 12},
        "body": {"current": 10, "max": 10},
    }
    assert [(a["number"], a["status"]) for a in board["last_actions"]] == [
        (1, "active"),
        (2, "superseded"),
        (3, "superseded"),
    ]
