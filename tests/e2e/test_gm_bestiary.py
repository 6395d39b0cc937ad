"""The bestiary on the GM screen (issue 23; docs/table.md).

The GM saves the Goblin starter to the bestiary from the enrolment form, enrols
"3 x Goblin" from it (Goblin 1-3, NPCs with that sheet, on the board by name), saves a
combatant's amended sheet back over the entry; the API only sets up and asserts.
axe-core finds no serious or critical violation with the bestiary open at 1280 and
360 px, and nothing scrolls sideways. Debian's Chromium, `skald serve`.
"""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.e2e.server import Server
from tests.e2e.test_accessibility import blocking
from tests.patience import HANG_SECONDS

DESKTOP = {"width": 1280, "height": 800}
NARROW = {"width": 360, "height": 740}
KNIGHT = {"st": 13, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10}
# The page's Goblin starter (stamina-body's presentation at /rulesets), as it validates.
GOBLIN = {
    "st": 9,
    "con": 10,
    "parry": 10,
    "dodge": 10,
    "unarmed_skill": 10,
    "stamina_max": 10,
    "body_max": 8,
    "armour_resilience": 0,
    "shield_resilience": 0,
    "weapons": [{"name": "club", "damage_class": 2, "damage_type": "impact", "skill": 11}],
}


class Campaign:
    """A stamina-body campaign made over the API, and its GM's client."""

    def __init__(self, server: Server, **sheets: dict[str, Any]) -> None:
        self.server = server
        body = {"name": "Bestiary", "ruleset": "stamina-body"}
        created = httpx.post(f"{server.url}/campaigns", json=body, timeout=HANG_SECONDS).json()
        self.cid, self.gm = created["id"], created["gm_key"]
        self.http = httpx.Client(
            base_url=server.url,
            headers={"authorization": f"Bearer {self.gm}"},
            timeout=HANG_SECONDS,
        )
        self.ids = {
            name: self.post("/characters", {"name": name, "sheet": sheet}, 201)["id"]
            for name, sheet in sheets.items()
        }

    def post(self, path: str, body: Any, status: int = 200) -> Any:
        response = self.http.post(f"/campaigns/{self.cid}{path}", json=body)
        assert response.status_code == status, response.text
        return response.json()

    def get(self, path: str) -> Any:
        response = self.http.get(f"/campaigns/{self.cid}{path}")
        assert response.status_code == 200, response.text
        return response.json()

    def open(self, context: BrowserContext) -> Page:
        page = context.new_page()
        page.goto(f"{self.server.url}/gm#campaign={self.cid}&key={self.gm}")
        expect(page.locator("#connection")).to_have_attribute("data-state", "live")
        return page


def card_names(page: Page, side: str) -> list[str]:
    names: list[str] = (
        page.locator("#sides .side")
        .filter(has=page.locator("h3", has_text=side))
        .locator(".card h3")
        .evaluate_all("(hs) => hs.map((h) => h.firstChild.textContent)")
    )
    return names


def test_three_goblins_from_the_bestiary_reach_the_board_by_name(
    server: Server, browser: Browser
) -> None:
    table = Campaign(server, Bran=KNIGHT)
    with browser.new_context(viewport=DESKTOP) as context:
        gm = table.open(context)
        gm.locator("#enrol-box summary").click()
        gm.get_by_label("Starter sheet").select_option(label="Goblin (template)")
        expect(gm.locator("#enrol-name")).to_have_value("Goblin")
        gm.get_by_role("button", name="Save to the bestiary").click()
        message = gm.locator("#bestiary-message")
        expect(message).to_have_text("Goblin saved to the bestiary.")
        (entry,) = table.get("/bestiary")
        assert entry == {"id": entry["id"], "name": "Goblin", "sheet": GOBLIN}

        # 3 x Goblin: the entry, the count, the button.
        gm.get_by_label("Bestiary entry").select_option(label="Goblin")
        gm.get_by_label("How many of them").fill("3")
        gm.get_by_role("button", name="Enrol from the bestiary").click()
        expect(message).to_have_text("Enrolled Goblin 1, Goblin 2, Goblin 3.")
        characters = table.get("")["characters"]
        assert [(c["name"], c.get("npc", False)) for c in characters] == [
            ("Bran", False), ("Goblin 1", True), ("Goblin 2", True), ("Goblin 3", True),
        ]  # fmt: skip
        assert all(c["sheet"] == GOBLIN for c in characters[1:])
        goblins = {c["name"]: c["id"] for c in characters[1:]}

        gm.locator("#setup-box summary").click()
        for character in characters:
            gm.locator(f'#setup-rows [data-character="{character["id"]}"]').check()
        for goblin in goblins.values():
            gm.locator(f'#setup-rows [data-side="{goblin}"]').fill("foes")
        gm.locator("#setup-start").click()
        expect(gm.locator("#sides .card")).to_have_count(4)
        assert card_names(gm, "party") == ["Bran"]
        assert card_names(gm, "foes") == ["Goblin 1", "Goblin 2", "Goblin 3"]
        (fight,) = table.get("")["encounters"]
        started = table.get(f"/encounters/{fight['id']}")
        assert [c["name"] for c in started["combatants"]] == [
            "Bran", "Goblin 1", "Goblin 2", "Goblin 3",
        ]  # fmt: skip

        # A combatant's sheet, amended in the form, saved back over the entry it came from.
        gm.locator(f'#sides [data-combatant-id="{goblins["Goblin 2"]}"]').click()
        gm.locator("#gm-tools summary").click()
        gm.locator("#gm-amend").get_by_label("St *").fill("11")
        gm.get_by_role("button", name="Update Goblin in the bestiary").click()
        expect(message).to_have_text("Goblin updated in the bestiary.")
        assert table.get("/bestiary") == [{**entry, "sheet": {**GOBLIN, "st": 11}}]
        # The character itself is not amended by that (no reason given, no amendment).
        assert table.get(f"/characters/{goblins['Goblin 2']}")["sheet"] == GOBLIN

        gm.get_by_role("button", name="Remove from the bestiary").click()
        expect(message).to_have_text("Goblin removed from the bestiary.")
        assert table.get("/bestiary") == []


def test_the_bestiary_has_no_serious_violation_and_no_sideways_scroll(
    server: Server, browser: Browser
) -> None:
    table = Campaign(server, Bran=KNIGHT)
    table.post("/bestiary", {"name": "Goblin", "sheet": GOBLIN}, 201)
    for viewport in (DESKTOP, NARROW):
        phone = viewport is NARROW
        with browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone) as context:
            gm = table.open(context)
            gm.locator("#enrol-box summary").click()
            gm.locator("#bestiary-box summary").click()
            gm.get_by_role("button", name="Enrol from the bestiary").click()
            expect(gm.locator("#bestiary-message")).to_contain_text("Enrolled Goblin")
            assert blocking(gm) == [], viewport
            assert gm.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
