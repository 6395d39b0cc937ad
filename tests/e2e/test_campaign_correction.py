"""Issue 12 on the real server: three fights and three days, then the GM voids a hit from
the first fight. Every value below is worked by hand in the comments.

Bran: CON 10, Stamina 20, Body 10, no armour. Every day is light activity with care:
Stamina back = lost // 2; Body back = CON // 5 = 2, never past 10 (no piercing wounds:
every hit is Impact). Impact table: a 4 is 3/0, a 5 is 4/0, a 6 is 5/1.

                      as played            with action 1 of the first fight voided
Fight 1  #1 [6,6]     20/10 -> 10/8        (voided)
         #2 [4]       10/8  ->  7/8        20/10 -> 17/10
Day 1    lost 13: +6, Body +2 -> 13/10     lost 3: +1, Body at max -> 18/10
Fight 2  #1 recover [3,3,3] = 9 vs 10: +1   14/10            19/10
         #2 [5,5]     14/10 ->  6/10       19/10 -> 11/10
Day 2    lost 14: +7 -> 13/10              lost 9: +4 -> 15/10
Fight 3  #1 recover [1,1,2] = 4 vs 10: +6   19/10            +6 capped at 20: 20/10
Day 3    lost 1: +0 -> 19/10               lost 0 -> 20/10
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

from tests.e2e.server import Server
from tests.patience import HANG_SECONDS

BRAN = {"st": 10, "con": 10, "stamina_max": 20, "body_max": 10}
LIGHT = {"days": 1, "default": {"rest": "light", "care": True}}


def post(http: httpx.Client, path: str, body: dict[str, Any], status: int = 201) -> Any:
    response = http.post(path, json=body)
    assert response.status_code == status, response.text
    return response.json()


def get(http: httpx.Client, path: str, **params: Any) -> Any:
    response = http.get(path, params=params)
    assert response.status_code == 200, response.text
    return response.json()


def tracks(stamina: int, body: int) -> dict[str, int]:
    return {"stamina": stamina, "body": body}


class Campaign:
    def __init__(self, http: httpx.Client) -> None:
        self.http = http
        created = post(http, "/campaigns", {"name": "Long road", "ruleset": "stamina-body"})
        self.cid = created["id"]
        http.headers["authorization"] = f"Bearer {created['gm_key']}"
        self.bran = post(
            http, f"/campaigns/{self.cid}/characters", {"name": "Bran", "sheet": BRAN}
        )["id"]
        self.ogre = post(
            http, f"/campaigns/{self.cid}/characters", {"name": "Ogre", "sheet": BRAN}
        )["id"]

    def fight(self, name: str, actions: list[dict[str, Any]]) -> str:
        combatants = [
            {"character_id": self.bran, "side": "party"},
            {"character_id": self.ogre, "side": "foes"},
        ]
        eid = post(
            self.http,
            f"/campaigns/{self.cid}/encounters",
            {"name": name, "combatants": combatants},
        )["id"]
        for action in actions:
            post(self.http, f"/campaigns/{self.cid}/encounters/{eid}/actions", action)
        post(self.http, f"/campaigns/{self.cid}/encounters/{eid}/end", {}, 200)
        return str(eid)

    def hit(self, faces: list[int]) -> dict[str, Any]:
        params = {"target": self.bran, "damage_type": "impact", "damage_class": len(faces)}
        return {"kind": "take_hit", "params": params, "dice": {"damage": faces}}

    def recover(self, faces: list[int]) -> dict[str, Any]:
        return {"kind": "recover", "actor": self.bran, "dice": {"recovery": faces}}

    def day(self, number: int) -> None:
        post(self.http, f"/campaigns/{self.cid}/days", LIGHT)
        deadline = time.monotonic() + HANG_SECONDS
        while time.monotonic() < deadline:  # the healing worker runs in the server
            heals = get(self.http, f"/campaigns/{self.cid}/history", kind="CharacterHealed")
            if sum(e["day"] == number for e in heals["entries"]) == 2:
                return
            time.sleep(0.05)
        raise AssertionError(f"day {number} was not healed")

    def bran_now(self, **params: Any) -> Any:
        return get(self.http, f"/campaigns/{self.cid}/characters/{self.bran}", **params)

    def bran_in(self, eid: str, **params: Any) -> Any:
        encounter = get(self.http, f"/campaigns/{self.cid}/encounters/{eid}", **params)
        bran = next(c for c in encounter["combatants"] if c["id"] == self.bran)
        return encounter, bran


def test_voiding_a_hit_from_the_first_fight_carries_through_the_campaign(tmp_path: Path) -> None:
    server = Server(tmp_path / "data").start()
    try:
        with httpx.Client(base_url=server.url, timeout=HANG_SECONDS) as http:
            table = Campaign(http)
            first = table.fight("Bridge", [table.hit([6, 6]), table.hit([4])])
            assert table.bran_now()["tracks"] == tracks(7, 8)
            table.day(1)
            assert table.bran_now()["tracks"] == tracks(13, 10)
            second = table.fight("Ford", [table.recover([3, 3, 3]), table.hit([5, 5])])
            table.day(2)
            assert table.bran_now()["tracks"] == tracks(13, 10)
            third = table.fight("Gate", [table.recover([1, 1, 2])])
            table.day(3)
            assert table.bran_now()["tracks"] == tracks(19, 10)
            time.sleep(0.05)
            before_correction = datetime.now(UTC).isoformat()
            time.sleep(0.05)
            events_before = get(http, "/health")["event_store"]["events"]

            # The preview: nothing written.
            void = f"/campaigns/{table.cid}/encounters/{first}/actions/1/void"
            preview = post(http, f"{void}/preview", {}, 200)
            assert get(http, "/health")["event_store"]["events"] == events_before
            assert preview["changes_nothing"] is False
            bran_steps = [
                (
                    s.get("encounter") or f"day {s['day']}",
                    s["before"]["tracks"],
                    s["after"]["tracks"],
                )
                for s in preview["steps"]
                if s["character_id"] == table.bran
            ]
            assert bran_steps == [
                ("Bridge", tracks(7, 8), tracks(17, 10)),
                ("day 1", tracks(13, 10), tracks(18, 10)),
                ("Ford", tracks(6, 10), tracks(11, 10)),
                ("day 2", tracks(13, 10), tracks(15, 10)),
                ("Gate", tracks(19, 10), tracks(20, 10)),
                ("day 3", tracks(19, 10), tracks(20, 10)),
            ]
            assert [s["character_id"] for s in preview["steps"]] == [table.bran] * 6
            assert preview["characters"] == {
                table.bran: {
                    "name": "Bran",
                    "before": {"tracks": tracks(19, 10)},
                    "after": {"tracks": tracks(20, 10)},
                }
            }
            changed = [
                (a["encounter"], a["number"], a["before"], a["after"]) for a in preview["actions"]
            ]
            assert [(name, number) for name, number, _, _ in changed] == [
                ("Bridge", 2),
                ("Ford", 1),
                ("Ford", 2),
                ("Gate", 1),
            ]
            gate = changed[-1]
            assert gate[2:] == ("Bran recovers 6 Stamina", "Bran recovers 5 Stamina")

            # The commit, with a reason.
            committed = post(http, void, {"reason": "the Ogre could not reach"}, 200)
            assert committed["correction"]["kind"] == "void"
            assert committed["correction"]["after_end"] is True
            assert table.bran_now()["tracks"] == tracks(20, 10)
            _, bran_first = table.bran_in(first)
            assert bran_first["tracks"] == tracks(17, 10)
            second_now, bran_second = table.bran_in(second)
            assert bran_second["tracks"] == tracks(11, 10)
            assert [a["summary"] for a in second_now["actions"]] == [
                "Bran recovers 1 Stamina",
                "Bran takes 8 Stamina and 0 Body (8/0 raw)",
            ]
            third_now, bran_third = table.bran_in(third)
            assert bran_third["tracks"] == tracks(20, 10)
            assert third_now["actions"][0]["summary"] == "Bran recovers 5 Stamina"
            # The later heals, worked out again from their recorded plans.
            carried = get(http, f"/campaigns/{table.cid}/history", kind="CorrectionCarried")
            [entry] = carried["entries"]
            assert (entry["correction"]["reason"], entry["by"]) == (
                "the Ogre could not reach",
                "gm:GM",
            )
            heals = {
                s["day"]: s["after"]["tracks"]
                for s in entry["correction"]["carried"]["steps"]
                if s["kind"] == "heal"
            }
            assert heals == {1: tracks(18, 10), 2: tracks(15, 10), 3: tracks(20, 10)}

            # Time travel still tells what was believed before the correction.
            assert table.bran_now(at=before_correction)["tracks"] == tracks(19, 10)
            _, bran_then = table.bran_in(first, at=before_correction)
            assert bran_then["tracks"] == tracks(7, 8)
            _, bran_then = table.bran_in(third, at=before_correction)
            assert bran_then["tracks"] == tracks(19, 10)

            # The audit: the original, the correction, its reason and who.
            trail = get(http, f"/campaigns/{table.cid}/encounters/{first}/audit")["entries"]
            original = next(e for e in trail if e["event"] == "ActionResolved")
            assert original["summary"] == "Bran takes 10 Stamina and 2 Body (10/2 raw)"
            assert [r["faces"] for r in original["rolls"]] == [[6, 6]]
            correction = trail[-1]
            assert correction["event"] == "Corrected"
            assert correction["correction"]["reason"] == "the Ogre could not reach"
            assert correction["correction"]["by"] == "gm:GM"
            later = get(http, f"/campaigns/{table.cid}/encounters/{third}/audit")["entries"]
            assert later[-1]["event"] == "Recomputed"
            assert later[-1]["correction"]["encounter_id"] == first

            # Once more changes nothing new: the hit is already voided.
            again = http.post(void, json={"reason": "again"})
            assert again.status_code == 409
    finally:
        server.stop()
