"""Issue 12, part 3: sheet amendments, track adjustments and cast changes over HTTP."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.helpers import act, enrol, event_count, new_campaign, ok, start

SHEET = {
    "st": 12,
    "con": 12,
    "parry": 11,
    "dodge": 10,
    "stamina_max": 12,
    "body_max": 10,
    "shield_resilience": 2,
}
SPEAR = {"name": "spear", "damage_class": 2, "damage_type": "piercing", "skill": 14}


class Table:
    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.cid = new_campaign(client, "stamina-body")
        self.ogre = enrol(client, self.cid, "Ogre", {**SHEET, "weapons": [SPEAR]})
        self.bran = enrol(client, self.cid, "Bran", SHEET)
        self.mira = enrol(client, self.cid, "Mira", SHEET)
        issued = ok(
            client.post(
                f"/campaigns/{self.cid}/keys", json={"role": "player", "characters": [self.bran]}
            ),
            201,
        )
        self.player = {"authorization": f"Bearer {issued['key']}"}

    def post(self, path: str, body: dict[str, Any], **headers: str) -> Any:
        return self.client.post(f"/campaigns/{self.cid}{path}", json=body, headers=headers)

    def character(self, character_id: str, query: str = "") -> Any:
        return ok(self.client.get(f"/campaigns/{self.cid}/characters/{character_id}{query}"))

    def refused(self, path: str, body: dict[str, Any], status: int, says: str, **h: str) -> None:
        before = event_count(self.client)
        response = self.post(path, body, **h)
        assert response.status_code == status, response.text
        assert says in response.text
        assert event_count(self.client) == before  # nothing written


def test_a_sheet_amended_between_fights_is_an_event_and_time_travel_shows_the_old_one(
    client: TestClient,
) -> None:
    table = Table(client)
    campaign_version = ok(client.get(f"/campaigns/{table.cid}"))["version"]
    amended = ok(
        table.post(
            f"/characters/{table.bran}/sheet",
            {"changes": {"shield_resilience": 0, "stamina_max": 8}, "reason": "shield lost"},
        )
    )
    assert amended["encounter"] is None
    assert amended["character"]["sheet"]["shield_resilience"] == 0
    # A maximum lowered below the current value brings the track down with it.
    assert amended["character"]["tracks"] == {"stamina": 8, "body": 10}
    assert amended["character"]["maxima"] == {"stamina": 8, "body": 10}
    before = table.character(table.bran, f"?version={campaign_version}")
    assert before["sheet"]["shield_resilience"] == 2
    assert before["tracks"] == {"stamina": 12, "body": 10}
    history = ok(client.get(f"/campaigns/{table.cid}/history", params={"kind": "SheetAmended"}))
    [entry] = history["entries"]
    assert (entry["reason"], entry["by"], entry["character_id"]) == (
        "shield lost",
        "gm:GM",
        table.bran,
    )
    assert entry["breakdown"]["fields"] == {
        "shield_resilience": {"before": 2, "after": 0},
        "stamina_max": {"before": 12, "after": 8},
    }


def test_amendment_refusals_write_nothing(client: TestClient) -> None:
    table = Table(client)
    path = f"/characters/{table.bran}/sheet"
    table.refused(path, {"changes": {"con": 0}, "reason": "x"}, 422, "sheet.con")
    table.refused(path, {"changes": {"wings": 2}, "reason": "x"}, 422, "sheet.wings")
    table.refused("/characters/nobody/sheet", {"changes": {"con": 9}, "reason": "x"}, 404, "nobody")
    table.refused(path, {"changes": {"con": 9}, "reason": "x"}, 403, "GM", **table.player)
    tracks = f"/characters/{table.bran}/tracks"
    table.refused(tracks, {"set": {"luck": 1}, "reason": "x"}, 422, "set.luck")
    table.refused(tracks, {"set": {"stamina": 13}, "reason": "x"}, 422, "above its maximum 12")
    table.refused(tracks, {"set": {"stamina": 3}, "reason": "x"}, 403, "GM", **table.player)
    table.refused(
        "/characters/nobody/tracks", {"set": {"stamina": 1}, "reason": "x"}, 404, "nobody"
    )


def test_adjustments_between_fights_set_or_add_and_never_pass_the_maximum(
    client: TestClient,
) -> None:
    table = Table(client)
    path = f"/characters/{table.bran}/tracks"
    set_low = ok(
        table.post(path, {"set": {"stamina": 3}, "adjust": {"body": -4}, "reason": "trap"})
    )
    assert set_low["character"]["tracks"] == {"stamina": 3, "body": 6}
    potion = ok(table.post(path, {"adjust": {"stamina": 20}, "reason": "potion"}))
    assert potion["character"]["tracks"] == {"stamina": 12, "body": 6}
    history = ok(client.get(f"/campaigns/{table.cid}/history", params={"kind": "TracksAdjusted"}))
    assert [e["reason"] for e in history["entries"]] == ["trap", "potion"]
    assert history["entries"][1]["breakdown"]["tracks"]["stamina"] == {
        "by": 20,
        "before": 3,
        "after": 12,
        "max": 12,
    }


def test_inside_an_encounter_changes_are_encounter_records_replayed_by_corrections(
    client: TestClient,
) -> None:
    table = Table(client)
    eid = start(
        client,
        table.cid,
        [
            {"character_id": table.ogre, "side": "foes"},
            {"character_id": table.bran, "side": "party"},
        ],
    )
    hit = act(
        client,
        table.cid,
        eid,
        "attack",
        table.ogre,
        {"hit": [1, 2, 2], "damage": [5, 5]},
        target=table.bran,
        weapon="spear",
        defense="none",  # the GM resolves in one request, naming the defense
    )
    bran = next(c for c in hit["encounter"]["combatants"] if c["id"] == table.bran)
    assert bran["tracks"] == {"stamina": 6, "body": 8}  # 3+3 Stamina, 1+1 Body, no defense
    potion = ok(
        table.post(
            f"/characters/{table.bran}/tracks", {"adjust": {"stamina": 3}, "reason": "potion"}
        )
    )
    assert potion["record"]["kind"] == "adjust_tracks"
    assert potion["record"]["number"] == 2
    assert potion["character"]["tracks"] == {"stamina": 12, "body": 10}  # the roster waits
    mid = next(c for c in potion["encounter"]["combatants"] if c["id"] == table.bran)
    assert mid["tracks"] == {"stamina": 9, "body": 8}
    shield = ok(
        table.post(
            f"/characters/{table.bran}/sheet",
            {"changes": {"shield_resilience": 0}, "reason": "dropped"},
        )
    )
    assert shield["record"]["kind"] == "amend_sheet"
    assert shield["character"]["sheet"]["shield_resilience"] == 2

    # Voiding the hit replays the potion in its place: +3 on 12 Stamina stops at 12.
    voided = ok(
        client.post(
            f"/campaigns/{table.cid}/encounters/{eid}/actions/1/void", json={"reason": "no reach"}
        )
    )
    bran = next(c for c in voided["encounter"]["combatants"] if c["id"] == table.bran)
    assert bran["tracks"] == {"stamina": 12, "body": 10}
    # The amendment's record shows the tracks it saw, so it changed too.
    assert [(r["number"], r["status"]) for r in voided["report"]] == [
        (2, "changed"),
        (3, "changed"),
    ]
    assert voided["report"][0]["after"] == "Bran: stamina 12→12"

    ok(client.post(f"/campaigns/{table.cid}/encounters/{eid}/end"))
    after = table.character(table.bran)
    assert after["sheet"]["shield_resilience"] == 0
    assert after["tracks"] == {"stamina": 12, "body": 10}
    assert after["in_encounter"] is None


def test_the_cast_changes_mid_fight(client: TestClient) -> None:
    table = Table(client)
    eid = start(
        client,
        table.cid,
        [
            {"character_id": table.ogre, "side": "foes"},
            {"character_id": table.bran, "side": "party"},
        ],
    )
    base = f"/encounters/{eid}/combatants"
    joined = ok(
        table.post(
            base, {"character_id": table.mira, "side": "party", "rank": 2, "reason": "arrives"}
        ),
        201,
    )
    mira = next(c for c in joined["combatants"] if c["id"] == table.mira)
    assert (mira["rank"], mira["present"], mira["tracks"]) == (2, True, {"stamina": 12, "body": 10})
    assert joined["actions"][-1]["kind"] == "join"
    assert table.character(table.mira)["in_encounter"] == eid

    moved = ok(table.post(f"{base}/{table.mira}/move", {"rank": 1, "reason": "steps up"}))
    assert next(c for c in moved["combatants"] if c["id"] == table.mira)["rank"] == 1

    left = ok(table.post(f"{base}/{table.bran}/leave", {"reason": "fled"}))
    assert next(c for c in left["combatants"] if c["id"] == table.bran)["present"] is False
    gone = client.post(
        f"/campaigns/{table.cid}/encounters/{eid}/actions",
        json={
            "kind": "attack",
            "actor": table.ogre,
            "params": {"target": table.bran, "weapon": "spear"},
        },
    )
    assert gone.status_code == 404, gone.text

    table.refused(
        base, {"character_id": table.mira, "side": "x", "reason": "again"}, 409, "already"
    )
    table.refused(base, {"character_id": "nobody", "side": "x", "reason": "x"}, 404, "nobody")
    table.refused(f"{base}/nobody/move", {"rank": 2, "reason": "x"}, 404, "nobody")
    table.refused(f"{base}/{table.bran}/leave", {"reason": "x"}, 409, "already left")
    table.refused(
        base, {"character_id": table.mira, "side": "x", "reason": "x"}, 403, "GM", **table.player
    )
    table.refused(
        f"{base}/{table.mira}/move", {"rank": 3, "reason": "x"}, 403, "GM", **table.player
    )

    ok(client.post(f"/campaigns/{table.cid}/encounters/{eid}/end"))
    assert {table.character(c)["in_encounter"] for c in (table.bran, table.mira)} == {None}
