"""The player's page on a phone, the table display on a 1920x1080 TV and the stream
overlay with a transparent background (issue 24), in Debian's Chromium on a real
`skald serve`: each shows what its key may see, the foes by descriptor, and axe-core
finds no serious or critical violation. The screenshots go under the run's temporary
directory, and into docs/screenshots/ with SKALD_WRITE_SCREENSHOTS=docs (tests/e2e/pictures.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.pictures import for_the_readme, take
from tests.e2e.server import Server
from tests.e2e.test_accessibility import blocking
from tests.patience import HANG_SECONDS

PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}
PC = {"st": 13, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10}
MAUL = {"name": "maul", "damage_class": 2, "damage_type": "impact", "skill": 17}
OGRE = {**PC, "stamina_max": 30, "body_max": 24, "weapons": [MAUL]}


@pytest.fixture(scope="module")
def fight(server: Server) -> dict[str, Any]:
    """Bran (Ana's PC) and Mira against the Ogre (an NPC): Bran wounded, Mira's blow on the
    Ogre, the turn order set, Bran prone for 2 rounds, and the Ogre's maul waiting for
    Bran's answer (hit score 5)."""
    http = httpx.Client(base_url=server.url, timeout=HANG_SECONDS)
    created = http.post("/campaigns", json={"name": "The Ford", "ruleset": "stamina-body"}).json()
    cid = created["id"]
    http.headers["authorization"] = f"Bearer {created['gm_key']}"
    base = f"/campaigns/{cid}"

    def post(path: str, body: dict[str, Any], status: int = 201) -> Any:
        answer = http.post(base + path, json=body)
        assert answer.status_code == status, answer.text
        return answer.json()

    bran = post("/characters", {"name": "Bran", "sheet": PC, "player": "Ana"})["id"]
    mira = post("/characters", {"name": "Mira", "sheet": PC})["id"]
    ogre = post("/characters", {"name": "Ogre", "sheet": OGRE, "npc": True})["id"]
    player = post("/keys", {"role": "player", "characters": [bran], "label": "Ana"})["key"]
    viewer = post("/keys", {"role": "viewer", "label": "tv"})["key"]
    sides = [(bran, "party"), (mira, "party"), (ogre, "foes")]
    eid = post("/encounters", {"name": "Ford", "combatants": [
        {"character_id": c, "side": s} for c, s in sides]})["id"]  # fmt: skip
    fight = f"/encounters/{eid}"
    post(f"{fight}/actions", {"kind": "take_hit", "params": {"target": bran,
         "damage_type": "piercing", "damage_class": 1}, "dice": {"damage": [6]}})  # fmt: skip
    post(f"{fight}/actions", {"kind": "attack", "actor": mira, "params": {"target": ogre,
         "defense": "none"}, "dice": {"hit": [1, 1, 1], "damage": [6, 6, 6]}})  # fmt: skip
    answer = http.put(f"{base}{fight}/order", json={"order": [ogre, bran, mira]})
    assert answer.status_code == 200, answer.text
    post(f"{fight}/markers", {"target": bran, "name": "prone", "rounds": 2})
    waiting = {"kind": "attack", "actor": ogre, "dice": {"hit": [4, 4, 4]},
               "params": {"target": bran, "weapon": "maul"}}  # fmt: skip
    post(f"{fight}/actions", waiting, 202)
    odds = http.get(
        f"{base}{fight}/exchanges/1/odds", headers={"authorization": f"Bearer {player}"}
    )
    assert odds.status_code == 200, odds.text
    return {"cid": cid, "player": player, "viewer": viewer, "gm": created["gm_key"],
            "ids": {"Bran": bran, "Mira": mira, "Ogre": ogre}, "odds": odds.json()}  # fmt: skip


def shoot(page: Page, folder: Path, name: str, **options: Any) -> None:
    """A screenshot into the run's folder, and over the README's picture of the page
    when SKALD_WRITE_SCREENSHOTS=docs asks for it."""
    for_the_readme(take(page, folder, name, **options), f"docs/screenshots/{name}")


def test_the_players_page_on_a_phone(
    server: Server, fight: dict[str, Any], browser: Browser, screenshots: Path
) -> None:
    ids = fight["ids"]
    with browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True) as context:
        page = context.new_page()
        page.goto(f"{server.url}/play#campaign={fight['cid']}&key={fight['player']}")
        expect(page.locator("#connection")).to_have_attribute("data-state", "live")
        # The turn order, whose turn it is (the Ogre's), and the foes by descriptor.
        expect(page.locator("#order li")).to_have_text(["Ogre", "Bran", "Mira"])
        expect(page.locator('#order li[aria-current="true"]')).to_have_text("Ogre")
        expect(page.locator("#turn")).to_contain_text("Ogre's turn")
        ogre = page.locator(f'#foes [data-character-id="{ids["Ogre"]}"]')
        expect(ogre.locator(".descriptor")).to_have_text("hurt")
        expect(ogre.locator(".bar")).to_have_count(0)  # no number came
        # One's own character: bars and conditions (the piercing wound).
        bran = page.locator(f'#mine [data-character-id="{ids["Bran"]}"]')
        expect(bran.locator('.bar[data-track="stamina"]')).to_have_attribute("data-current", "8")
        expect(bran.locator('[data-condition="piercing_wound"]')).to_have_count(1)
        expect(bran.locator('[data-marker="prone"]')).to_have_text("prone (2 rounds left)")
        # The fight's log as a player may read it, newest first: the marker, Mira's blow
        # with the Ogre's descriptor for its numbers (T3a), the hit Bran took.
        expect(page.locator("#log li")).to_have_count(3)
        expect(page.locator("#log li").nth(1)).to_have_text("Mira hits: Ogre is hurt")
        # Asked to declare: the hit score, and each answer's odds as the odds API has them.
        expect(page.locator('[data-exchange="1"] .hit-score')).to_have_text("Hit score 5")
        for choice, odds in fight["odds"]["answers"].items():
            shown = page.locator(f'[data-exchange="1"] [data-answer-odds="{choice}"] .chance')
            expect(shown).to_have_count(len(odds["results"]))
            wanted = {r["result"]: r["probability"] for r in odds["results"]}
            got = {
                shown.nth(n).get_attribute("data-result"): shown.nth(n).get_attribute(
                    "data-probability"
                )
                for n in range(shown.count())
            }
            assert got == wanted, choice
        parry = {
            r["result"]: r["probability"] for r in fight["odds"]["answers"]["parry"]["results"]
        }
        assert parry == {"parried": "5/54", "hit": "49/54"}
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        shoot(page, screenshots, "play-phone.png", full_page=True)
        assert blocking(page) == []


def test_the_table_display_on_a_tv(
    server: Server, fight: dict[str, Any], browser: Browser, screenshots: Path
) -> None:
    ids = fight["ids"]
    with browser.new_context(viewport=TV) as context:
        page = context.new_page()
        page.goto(f"{server.url}/table#campaign={fight['cid']}&key={fight['viewer']}")
        expect(page.locator("#connection")).to_have_attribute("data-state", "live")
        expect(page.locator("#whose-turn")).to_have_text("Ford · Round 1 · Ogre's turn")
        expect(page.locator("#initiative li")).to_have_text(["Ogre", "Bran", "Mira"])
        party = page.locator("#party .card")
        expect(party).to_have_count(2)
        expect(page.locator(f'#party [data-character-id="{ids["Bran"]}"] .bar')).to_have_count(2)
        marker = page.locator(f'#party [data-character-id="{ids["Bran"]}"] [data-marker="prone"]')
        expect(marker).to_have_text("prone (2 rounds left)")
        expect(page.locator(f'#foes [data-character-id="{ids["Ogre"]}"] .descriptor')).to_have_text(
            "hurt"
        )
        expect(page.locator('#last-roll [data-roll="hit"]')).to_have_text("hit: 1 1 1 = 3")
        expect(page.locator("main button, main input, main select, main textarea")).to_have_count(0)
        shoot(page, screenshots, "table-1920x1080.png")
        assert blocking(page) == []


def test_the_overlay_as_an_obs_browser_source(
    server: Server, fight: dict[str, Any], browser: Browser, screenshots: Path
) -> None:
    ids = fight["ids"]
    flags = "transparent=1&layout=turn,party,foes"
    with browser.new_context(viewport={"width": 1280, "height": 720}) as context:
        page = context.new_page()
        page.goto(f"{server.url}/overlay#campaign={fight['cid']}&key={fight['viewer']}&{flags}")
        expect(page.locator("#connection")).to_have_attribute("data-state", "live")
        expect(page.locator("body")).to_have_class("overlay transparent")
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == "rgba(0, 0, 0, 0)"
        expect(page.locator("#log-entries")).to_be_hidden()  # not in the layout
        expect(page.locator("#overlay-turn .whose-turn")).to_have_text("Round 1 · Ogre's turn")
        expect(page.locator(f'#vitals [data-character-id="{ids["Bran"]}"] .bar')).to_have_count(2)
        ogre = page.locator(f'#overlay-foes [data-character-id="{ids["Ogre"]}"]')
        expect(ogre.locator(".descriptor")).to_have_text("hurt")
        assert page.url.endswith("/overlay")  # the key left the address bar
        shoot(page, screenshots, "overlay-transparent.png", omit_background=True)
        assert blocking(page) == []
        # OBS reloads the source: the flags stay with the tab, as the key does.
        page.reload()
        expect(page.locator("#connection")).to_have_attribute("data-state", "live")
        expect(page.locator("body")).to_have_class("overlay transparent")
        expect(page.locator("#log-entries")).to_be_hidden()
