"""A d20 player's own ratings on /play on a phone (390x844): the seven of the seed's quick
reference (RULINGS D2, the HR bonus with each weapon: D12) on the card of the character
they play, as the ruleset's presentation names them, each number exact; the terms of each
in its title; another PC's and an NPC's nowhere on their page (T3). Debian's Chromium on a
real `skald serve`; axe-core finds no serious or critical violation, and nothing scrolls
sideways."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, expect

from tests.e2e.pictures import take
from tests.e2e.server import Server
from tests.e2e.test_accessibility import blocking
from tests.patience import HANG_SECONDS

PHONE = {"width": 390, "height": 844}
# STR 16 (+2), DEX 13 (+1), CON 14 (+1), WIS 12 (0), level 3; 2 slots in HR, 1 in FR;
# chain mail (AV 4, 2 vs. missiles, FD +2), a small shield (AC +1, FD +2), a +1 longsword.
BRANNOC = {"strength": 16, "dexterity": 13, "constitution": 14, "wisdom": 12, "level": 3,
           "hp": 24, "save_vs_death_ray": 12, "hr_skill_slots": 2, "fr_skill_slots": 1,
           "armor": "chain_mail", "shield": "small", "defensive_stance_mastery": 3,
           "weapons": [{"name": "longsword", "damage": "1d8", "magic_bonus": 1}]}  # fmt: skip
MIRA = {"strength": 10, "dexterity": 16, "constitution": 10, "wisdom": 13, "level": 3,
        "hp": 18, "save_vs_death_ray": 11, "armor": "leather",
        "weapons": [{"name": "rapier", "damage": "1d6"}]}  # fmt: skip
BANDIT = {"strength": 12, "dexterity": 12, "constitution": 12, "wisdom": 10, "level": 1,
          "hp": 10, "save_vs_death_ray": 12, "armor": "leather",
          "weapons": [{"name": "short sword", "damage": "1d6"}]}  # fmt: skip


def test_a_d20_players_own_ratings_on_a_phone(
    server: Server, browser: Browser, screenshots: Path
) -> None:
    http = httpx.Client(base_url=server.url, timeout=HANG_SECONDS)
    created = http.post("/campaigns", json={"name": "The Salt Road", "ruleset": "d20"}).json()
    cid = created["id"]
    http.headers["authorization"] = f"Bearer {created['gm_key']}"
    base = f"/campaigns/{cid}"

    def post(path: str, body: dict[str, Any]) -> Any:
        answer = http.post(base + path, json=body)
        assert answer.status_code == 201, answer.text
        return answer.json()

    brannoc = post("/characters", {"name": "Brannoc", "sheet": BRANNOC, "player": "Ana"})["id"]
    mira = post("/characters", {"name": "Mira", "sheet": MIRA, "player": "Ben"})["id"]
    bandit = post("/characters", {"name": "Bandit", "sheet": BANDIT, "npc": True})["id"]
    key = post("/keys", {"role": "player", "characters": [brannoc], "label": "Ana"})["key"]
    sides = [(brannoc, "party"), (mira, "party"), (bandit, "foes")]
    post("/encounters", {"name": "Ambush", "combatants": [
        {"character_id": c, "side": s} for c, s in sides]})  # fmt: skip

    with browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True) as context:
        page = context.new_page()
        page.goto(f"{server.url}/play#campaign={cid}&key={key}")
        expect(page.locator("#connection")).to_have_attribute("data-state", "live")
        mine = page.locator(f'#mine [data-character-id="{brannoc}"]')
        expect(mine.locator('.bar[data-track="hp"]')).to_have_attribute("data-current", "24")
        # Brannoc's ratings, under the seed's names, in the quick reference's order.
        expect(mine.locator(".ratings dt")).to_have_text([
            "HR bonus", "HR bonus with longsword", "HR bonus with Unarmed Strike",
            "HR bonus with Shield Bash", "FR bonus", "AC", "FD", "AV", "AV vs. missiles",
            "Insight Defense", "Shove Resist",
        ])  # fmt: skip
        expect(mine.locator(".ratings dd")).to_have_text([
            "+4", "+5", "+4", "+4", "+3", "13", "16 (+3 Defensive Stance mastery bonus)", "4",
            "2", "13",
            "9 (+2 defender on higher ground (shoving uphill), +2 difficult terrain)",
        ])  # fmt: skip
        # Where each comes from, as its title (the character view's terms).
        ac = mine.locator('.rating[data-rating="ac"]')
        expect(ac).to_have_attribute(
            "title",
            "base +11, shield bonus (Small Shield) +1, DEX modifier (score 13) +1, "
            "active technique bonuses +0",
        )
        expect(mine.locator('.rating[data-weapon="longsword"] dd')).to_have_text("+5")
        # Only the player's own: not Mira's (another PC), not the Bandit's (an NPC, T3).
        expect(page.locator(".ratings")).to_have_count(1)
        expect(page.locator(f'#foes [data-character-id="{bandit}"] .descriptor')).to_have_text(
            "unhurt"
        )
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        take(page, screenshots, "play-d20-ratings-phone.png", full_page=True)
        assert blocking(page) == []
