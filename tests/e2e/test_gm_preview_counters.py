"""A correction's preview on the GM screen says what moved (issue 39: a rewind's preview
listed "after The Ford, Lia: health 14 → health 14"). Debian's Chromium on a real
`skald serve`; the evening is played over the API, the rewind is pressed on the page.

Margin, worked by hand (domain/rulesets/margin/RULES.md): Lia (PC, health 14, one luck
point) is attacked at the Bridge by the Orc (NPC): its 5 dice show no 5 or 6 (0); Lia's
evasion shows 1, 1 (below nothing: her luck point rolls it again, 2, 2: 0), her guard
5, 2 (1): 0 against 1, the blow is turned. Nothing happens at the Ford. Rewound to before
the Orc's attack, Lia keeps her luck point: her health is 14 either way, her luck 1, not
0, after the Bridge and after the Ford, and now."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import Browser, expect

from tests.e2e.server import Server
from tests.fixtures.the_bridge import LIA, ORC
from tests.patience import HANG_SECONDS

DICE = {
    "Orc's attack": [2, 2, 2, 2, 2],
    "Lia's evasion": [1, 1],
    "Lia's evasion (luck)": [2, 2],
    "Lia's guard": [5, 2],
}


class Evening:
    def __init__(self, server: Server) -> None:
        self.http = httpx.Client(base_url=server.url, timeout=HANG_SECONDS)
        created = self.post("/campaigns", {"name": "Bridge", "ruleset": "margin"})
        self.cid, self.gm_key = created["id"], created["gm_key"]
        self.http.headers["authorization"] = f"Bearer {self.gm_key}"
        self.base = f"/campaigns/{self.cid}"
        self.lia = self.post(f"{self.base}/characters", {"name": "Lia", "sheet": LIA})["id"]
        orc = {"name": "Orc", "sheet": ORC, "npc": True}
        self.orc = self.post(f"{self.base}/characters", orc)["id"]

    def post(self, path: str, body: dict[str, Any], status: int = 201) -> Any:
        response = self.http.post(path, json=body)
        assert response.status_code == status, response.text
        return response.json()

    def fight(self, name: str, dice: dict[str, list[int]] | None = None) -> str:
        sides = [
            {"character_id": self.lia, "side": "party"},
            {"character_id": self.orc, "side": "foes"},
        ]
        eid = str(self.post(f"{self.base}/encounters", {"name": name, "combatants": sides})["id"])
        if dice is not None:
            attack = {"kind": "attack", "actor": self.orc, "dice": dice,
                      "params": {"target": self.lia, "weapon": "axe"}}  # fmt: skip
            self.post(f"{self.base}/encounters/{eid}/actions", attack)
        self.post(f"{self.base}/encounters/{eid}/end", {"reason": f"left {name}"}, 200)
        return eid


def test_a_rewind_that_keeps_a_luck_point_says_so_on_the_screen(
    server: Server, browser: Browser
) -> None:
    evening = Evening(server)
    bridge = evening.fight("The Bridge", DICE)
    evening.fight("The Ford")
    lia = evening.http.get(f"{evening.base}/characters/{evening.lia}").json()
    assert (lia["tracks"], lia["state"]["luck"]) == ({"health": 14}, 0)

    with browser.new_context(viewport={"width": 1400, "height": 1000}) as context:
        gm = context.new_page()
        gm.goto(f"{server.url}/gm#campaign={evening.cid}&key={evening.gm_key}")
        expect(gm.locator("#connection")).to_have_attribute("data-state", "live")
        gm.locator("#encounter-picker").select_option(bridge)
        expect(gm.locator("#board-caption")).to_contain_text("ended: left The Bridge")
        gm.locator('#actions [data-rewind="1"]').click()
        gm.locator("#reason-input").fill("the orc never reached the bridge")
        gm.locator("#reason-ok").click()
        dialog = gm.locator("#preview-dialog")
        expect(dialog).to_have_attribute("open", "")
        expect(gm.locator("#preview-message")).to_have_text("2 step(s) and 1 action(s) change")
        expect(gm.locator("#preview-lines li")).to_have_text(
            [
                "The Bridge #1 superseded: Orc attacks with axe at Lia: 0 against 1, margin -1;"
                " the blow is turned: nothing happens, no damage of any kind",
                "after The Bridge, Lia: health 14, luck 0 → health 14, luck 1",
                "after The Ford, Lia: health 14, luck 0 → health 14, luck 1",
                "Lia now: health 14, luck 0 → health 14, luck 1",
            ]
        )
        expect(gm.locator('#preview-dialog button[value="ok"]')).to_be_enabled()
        gm.locator('#preview-dialog button[value="cancel"]').click()
        expect(dialog).not_to_have_attribute("open", "")
