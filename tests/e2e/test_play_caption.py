"""The player's panel caption names whose turn it is and the round, and what the table
waits for (issue 36, "the panel caption names whose turn it is"), on a phone (390x844) in
Debian's Chromium on a real `skald serve`, updated live as the GM moves the fight on over
the API. It said "Not your turn." whenever the turn was someone else's."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import Browser, expect

from tests.e2e.server import Server
from tests.patience import HANG_SECONDS

PHONE = {"width": 390, "height": 844}
PC = {"st": 13, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10}


def test_the_players_caption_names_whose_turn_it_is_live(server: Server, browser: Browser) -> None:
    http = httpx.Client(base_url=server.url, timeout=HANG_SECONDS)
    created = http.post("/campaigns", json={"name": "Caption", "ruleset": "stamina-body"}).json()
    base = f"/campaigns/{created['id']}"
    http.headers["authorization"] = f"Bearer {created['gm_key']}"

    def send(method: str, path: str, body: Any = None, status: int = 200) -> Any:
        answer = http.request(method, base + path, json=body)
        assert answer.status_code == status, answer.text
        return answer.json()

    ids = {
        name: send("POST", "/characters", {"name": name, "sheet": PC, "npc": npc}, 201)["id"]
        for name, npc in (("Kara", False), ("Bran", False), ("Ogre", True))
    }
    key = send("POST", "/keys", {"role": "player", "characters": [ids["Bran"]]}, 201)["key"]
    with browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True) as context:
        page = context.new_page()
        page.goto(f"{server.url}/play#campaign={created['id']}&key={key}")
        expect(page.locator("#connection")).to_have_attribute("data-state", "live")
        caption = page.locator("#panel-caption")
        expect(caption).to_have_text("Waiting for the fight.")

        sides = {"Kara": "party", "Bran": "party", "Ogre": "foes"}
        combatants = [{"character_id": ids[n], "side": s} for n, s in sides.items()]
        fight = "/encounters/" + send("POST", "/encounters", {"name": "Ford",
            "combatants": combatants}, 201)["id"]  # fmt: skip
        send("PUT", f"{fight}/order", {"order": [ids["Kara"], ids["Bran"], ids["Ogre"]]})
        expect(caption).to_have_text("Kara's turn · round 1")
        expect(page.locator("#action-buttons button")).to_have_count(0)

        send("POST", f"{fight}/turn")
        expect(caption).to_have_text("Bran's turn · round 1 · Bran acts")
        expect(page.locator("#action-buttons [data-kind=attack]")).to_have_count(1)

        send("POST", f"{fight}/turn")
        expect(caption).to_have_text("Ogre's turn · round 1")
        expect(page.locator("#action-buttons button")).to_have_count(0)
        blow = {"kind": "attack", "actor": ids["Ogre"], "dice": {"hit": [2, 2, 2]},
                "params": {"target": ids["Bran"]}}  # fmt: skip
        send("POST", f"{fight}/actions", blow, 202)
        expect(caption).to_have_text(
            "Ogre's turn · round 1 · waiting for Bran's declaration (parry / dodge / none)"
        )
        page.locator("#pending [data-declare=none]").click()  # Bran's answer, on the phone
        expect(caption).to_have_text("Ogre's turn · round 1")

        send("POST", f"{fight}/round")
        expect(caption).to_have_text("Kara's turn · round 2")

        send("POST", f"{fight}/end", {"reason": "the Ogre fled"})
        expect(caption).to_have_text("Waiting for the fight.")
