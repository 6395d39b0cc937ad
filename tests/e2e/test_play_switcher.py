"""A player with several characters switches between them on /play (issue 24), on a phone
(390x844) in Debian's Chromium on a real `skald serve`: one key granted Bran and Mira
plays one at a time; the switcher says whose turn it is and who must answer an attack;
the card, the action panel and the odds follow the character picked, and the choice
stays with the tab. axe-core finds no serious or critical violation."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import Browser, Page, expect

from tests.e2e.server import Server
from tests.e2e.test_accessibility import blocking
from tests.patience import HANG_SECONDS

PHONE = {"width": 390, "height": 844}
PC = {"st": 13, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10}
OGRE = {**PC, "stamina_max": 30, "body_max": 24}


def table(server: Server) -> dict[str, Any]:
    """Ana's key plays Bran and Mira against the Ogre (an NPC): Bran took a hit, the
    order is the Ogre, Bran, Mira, and the Ogre's blow on Mira waits for her answer."""
    http = httpx.Client(base_url=server.url, timeout=HANG_SECONDS)
    created = http.post("/campaigns", json={"name": "Two", "ruleset": "stamina-body"}).json()
    base = f"/campaigns/{created['id']}"
    http.headers["authorization"] = f"Bearer {created['gm_key']}"

    def send(method: str, path: str, body: Any = None, status: int = 201) -> Any:
        answer = http.request(method, base + path, json=body)
        assert answer.status_code == status, answer.text
        return answer.json()

    bran = send("POST", "/characters", {"name": "Bran", "sheet": PC, "player": "Ana"})["id"]
    mira = send("POST", "/characters", {"name": "Mira", "sheet": PC, "player": "Ana"})["id"]
    ogre = send("POST", "/characters", {"name": "Ogre", "sheet": OGRE, "npc": True})["id"]
    key = send("POST", "/keys", {"role": "player", "characters": [bran, mira], "label": "Ana"})
    sides = [(bran, "party"), (mira, "party"), (ogre, "foes")]
    combatants = [{"character_id": c, "side": s} for c, s in sides]
    started = send("POST", "/encounters", {"name": "Ford", "combatants": combatants})
    fight = f"/encounters/{started['id']}"
    send("POST", f"{fight}/actions", {"kind": "take_hit", "params": {"target": bran,
         "damage_type": "piercing", "damage_class": 1}, "dice": {"damage": [6]}})  # fmt: skip
    send("PUT", f"{fight}/order", {"order": [ogre, bran, mira]}, 200)
    blow = {"kind": "attack", "actor": ogre, "dice": {"hit": [2, 2, 2]},
            "params": {"target": mira}}  # fmt: skip
    send("POST", f"{fight}/actions", blow, 202)
    return {"cid": created["id"], "key": key["key"], "send": send, "fight": fight,
            "ids": {"Bran": bran, "Mira": mira, "Ogre": ogre}}  # fmt: skip


def stamina(page: Page, character_id: str) -> str | None:
    card = page.locator(f'#mine [data-character-id="{character_id}"]')
    return card.locator('.bar[data-track="stamina"]').get_attribute("data-current")


def test_a_player_with_two_characters_switches_between_them(
    server: Server, browser: Browser
) -> None:
    setup = table(server)
    ids = setup["ids"]
    with browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True) as context:
        page = context.new_page()
        page.goto(f"{server.url}/play#campaign={setup['cid']}&key={setup['key']}")
        expect(page.locator("#connection")).to_have_attribute("data-state", "live")
        switcher = page.locator("#switcher button")
        # Before: Bran, enrolled first, is played; Mira must answer the Ogre's blow.
        expect(switcher).to_have_text(["Bran", "Mira · defend"])
        expect(switcher.nth(0)).to_have_attribute("aria-pressed", "true")
        expect(switcher.nth(1)).to_have_attribute("aria-pressed", "false")
        expect(page.locator("#mine .card")).to_have_count(1)
        expect(page.locator("#mine .card h3")).to_have_text("Bran")
        assert stamina(page, ids["Bran"]) == "8"
        expect(page.locator('#pending [data-exchange="1"]')).to_contain_text(
            "Ogre attacks Mira: your answer?"
        )
        expect(page.locator("#panel-caption")).to_have_text(
            "Ogre's turn · round 1 · waiting for Mira's declaration (parry / dodge / none)"
        )
        expect(page.locator("#action-buttons button")).to_have_count(0)
        assert blocking(page) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

        # After: Mira is played, her card and her odds; the answer is still hers to give.
        switcher.nth(1).click()
        expect(switcher.nth(1)).to_have_attribute("aria-pressed", "true")
        expect(switcher.nth(0)).to_have_attribute("aria-pressed", "false")
        expect(page.locator("#mine .card h3")).to_have_text("Mira")
        assert stamina(page, ids["Mira"]) == "12"
        expect(page.locator(f'#mine [data-character-id="{ids["Bran"]}"]')).to_have_count(0)
        expect(page.locator("#attack-odds-against")).to_have_attribute("data-acting", ids["Mira"])
        expect(page.locator("#attack-odds-against option")).to_have_text(["—", "Ogre"])
        page.locator("[data-declare=none]").click()
        expect(switcher).to_have_text(["Bran", "Mira"])
        expect(page.locator("#pending [data-exchange]")).to_have_count(0)

        # Bran's turn, Mira played: the page says whom to switch to, and then Bran acts.
        setup["send"]("POST", f"{setup['fight']}/turn", None, 200)
        expect(switcher).to_have_text(["Bran · turn", "Mira"])
        expect(page.locator("#panel-caption")).to_have_text(
            "Bran's turn · round 1: switch to Bran to act."
        )
        expect(page.locator("#action-buttons button")).to_have_count(0)
        switcher.nth(0).click()
        expect(page.locator("#panel-caption")).to_have_text("Bran's turn · round 1 · Bran acts")
        expect(page.locator("#action-buttons [data-kind=attack]")).to_have_count(1)
        expect(page.locator("#mine .card h3")).to_have_text("Bran")
        assert blocking(page) == []

        # The choice stays with the tab (a reload, as a phone's browser does).
        page.reload()
        expect(page.locator("#connection")).to_have_attribute("data-state", "live")
        expect(switcher.nth(0)).to_have_attribute("aria-pressed", "true")
        expect(page.locator("#mine .card h3")).to_have_text("Bran")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_player_with_one_character_gets_no_switcher(server: Server, browser: Browser) -> None:
    setup = table(server)
    bran = setup["ids"]["Bran"]
    only = setup["send"]("POST", "/keys", {"role": "player", "characters": [bran]})["key"]
    with browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True) as context:
        page = context.new_page()
        page.goto(f"{server.url}/play#campaign={setup['cid']}&key={only}")
        expect(page.locator("#connection")).to_have_attribute("data-state", "live")
        expect(page.locator("#mine .card h3")).to_have_text("Bran")
        expect(page.locator("#switcher")).to_be_hidden()
        expect(page.locator("#switcher button")).to_have_count(0)
        # Mira is not this key's: the Ogre's blow on her asks nothing of it.
        expect(page.locator("#pending [data-exchange]")).to_have_count(0)
