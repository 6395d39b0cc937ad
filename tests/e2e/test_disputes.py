"""A disputed knockout, voided on the real server: state rebuilt, the dispute on record."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from tests.e2e.server import Server
from tests.patience import HANG_SECONDS

SHEET = {"st": 12, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10}
SPEAR = {"name": "spear", "damage_class": 2, "damage_type": "piercing", "skill": 14}


def post(http: httpx.Client, path: str, body: dict[str, Any], status: int = 201) -> Any:
    response = http.post(path, json=body)
    assert response.status_code == status, response.text
    return response.json()


def test_voiding_a_knockout_rebuilds_everything_after_it(tmp_path: Path) -> None:
    server = Server(tmp_path / "data").start()
    try:
        with httpx.Client(base_url=server.url, timeout=HANG_SECONDS) as http:
            # The dispute, not turn-taking, is under test: the Ogre acts three times a round.
            campaign = {"name": "Dispute", "ruleset": "stamina-body"}
            created = post(http, "/campaigns", {**campaign, "options": {"actions_per_round": 3}})
            cid = created["id"]
            http.headers["authorization"] = f"Bearer {created['gm_key']}"
            ogre = post(
                http,
                f"/campaigns/{cid}/characters",
                {"name": "Ogre", "sheet": {**SHEET, "weapons": [SPEAR]}},
            )["id"]
            bran = post(
                http,
                f"/campaigns/{cid}/characters",
                {"name": "Bran", "sheet": {**SHEET, "body_max": 2}},
            )["id"]
            eid = post(
                http,
                f"/campaigns/{cid}/encounters",
                {
                    "name": "Bridge",
                    "combatants": [
                        {"character_id": ogre, "side": "foes"},
                        {"character_id": bran, "side": "party"},
                    ],
                },
            )["id"]
            actions = f"/campaigns/{cid}/encounters/{eid}/actions"

            knockout = post(
                http,
                actions,
                {
                    "kind": "attack",
                    "actor": ogre,
                    "params": {"target": bran, "weapon": "spear", "defense": "none"},
                    "dice": {"hit": [1, 2, 2], "damage": [6, 6]},
                },
            )
            bran_now = next(c for c in knockout["encounter"]["combatants"] if c["id"] == bran)
            assert "unconscious" in bran_now["conditions"]
            refused = http.post(actions, json={"kind": "recover", "actor": bran})
            assert refused.status_code == 409
            post(http, actions, {"kind": "recover", "actor": ogre, "dice": {"recovery": [2, 2, 2]}})
            post(
                http,
                actions,
                {
                    "kind": "attack",
                    "actor": ogre,
                    "params": {"target": bran, "weapon": "spear", "defense": "none"},
                    "dice": {"hit": [2, 2, 2], "damage": [1, 2]},
                },
            )

            voided = post(http, f"{actions}/1/void", {"reason": "the Ogre could not reach"}, 200)

            bran_after = next(c for c in voided["encounter"]["combatants"] if c["id"] == bran)
            assert bran_after["tracks"] == {"stamina": 10, "body": 2}
            assert bran_after["conditions"] == []
            assert [r["status"] for r in voided["report"]] == ["unchanged", "changed"]
            later = voided["encounter"]["actions"][2]
            assert [r["faces"] for r in later["rolls"]] == [[2, 2, 2], [1, 2]]

            trail = http.get(f"/campaigns/{cid}/encounters/{eid}/audit").json()["entries"]
            original = trail[1]
            assert (original["event"], original["number"], original["by"]) == (
                "ActionResolved",
                1,
                "gm:GM",
            )
            assert original["summary"] == (
                "Ogre hits: Bran takes 8 Stamina and 4 Body (8/4 raw); "
                "Bran gains: unconscious, cannot act, piercing wound"
            )
            void = trail[-1]
            assert void["event"] == "Corrected"
            assert void["correction"]["kind"] == "void"
            assert void["correction"]["number"] == 1
            assert void["correction"]["reason"] == "the Ogre could not reach"
            assert void["correction"]["by"] == "gm:GM"
            assert void["timestamp"] > original["timestamp"]
    finally:
        server.stop()
