"""Three of the GM screen's words, as the session-20 evening read them on a margin
campaign: the enrolment form's armor button read "Add armoritem" (the schema's
"ArmorItem" lowercased whole), the attack's target read "combatant id of the one
attacked" under a list of names, and the odds before an attack read "Thrain: health ≥ 1
(mean 1.60)", which a GM reads as the chance that Thrain stays standing, where it is the
chance that he loses any health and his mean loss."""

from __future__ import annotations

import json

import httpx
from playwright.sync_api import Browser, Request, expect

from tests.e2e.server import Server
from tests.e2e.test_play_odds_and_corrections import ORC
from tests.e2e.test_table_dice_answers import DESKTOP
from tests.patience import HANG_SECONDS

THRAIN = {"might": 2, "grace": 1, "vigor": 3, "aether": 0, "melee": 2, "guard": 3,
          "race": "dwarf"}  # fmt: skip


def test_the_gm_screen_says_add_armor_item_and_who_loses_what(
    server: Server, browser: Browser
) -> None:
    with httpx.Client(base_url=server.url, timeout=HANG_SECONDS) as http:
        created = http.post("/campaigns", json={"name": "Ford", "ruleset": "margin"}).json()
        base = f"/campaigns/{created['id']}"
        http.headers["authorization"] = f"Bearer {created['gm_key']}"
        thrain = http.post(f"{base}/characters", json={"name": "Thrain", "sheet": THRAIN})
        orc = http.post(f"{base}/characters", json={"name": "Orc", "sheet": ORC, "npc": True})
        thrain_id, orc_id = thrain.json()["id"], orc.json()["id"]
        combatants = [{"character_id": thrain_id}, {"character_id": orc_id}]
        fight = http.post(f"{base}/encounters", json={"name": "Ford", "combatants": combatants})
        fight_id = fight.json()["id"]

        gm = browser.new_context(viewport=DESKTOP).new_page()
        asked: list[Request] = []
        gm.on("request", lambda r: asked.append(r) if r.url.endswith("/odds") else None)
        gm.goto(f"{server.url}/gm#campaign={created['id']}&key={created['gm_key']}")
        expect(gm.locator("#connection")).to_have_attribute("data-state", "live")

        gm.locator("#enrol-box > summary").click()
        expect(gm.locator("#enrol-sheet [data-add=armor]")).to_have_text("Add armor item")

        gm.locator(f'#sides [data-combatant-id="{orc_id}"] h3').click()
        gm.locator("#action-buttons [data-kind=attack]").click()
        gm.locator("#param-target").select_option(thrain_id)
        # Under the target's list of names, who to pick, not "combatant id of the one
        # attacked" (an id the GM never sees); the API's user still reads what it takes.
        expect(gm.locator('[data-param="target"] small')).to_have_text(
            "the one attacked: their combatant id"
        )
        row = gm.locator(f'#odds [data-damage="{thrain_id}:health"] span').first
        expect(row).to_contain_text("Thrain loses ≥ 1 health (mean loss ")
        # The same odds, asked of the API as the page asked them: its mean, as shown.
        body = json.loads(asked[-1].post_data or "{}")
        assert body["params"]["target"] == thrain_id
        odds = http.post(f"{base}/encounters/{fight_id}/odds", json=body).json()
        [health] = [d for d in odds["damage"] if d["combatant"] == thrain_id]
        mean = f"{health['mean']['decimal']:.2f}"
        expect(row).to_have_text(f"Thrain loses ≥ 1 health (mean loss {mean})")
