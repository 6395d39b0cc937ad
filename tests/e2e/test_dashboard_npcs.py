"""The dashboard's NPC cards as each key may read them (RULINGS T3, T3a), in each ruleset:
the GM's key reads an NPC's tracks as bars with their numbers; a player's and a viewer's
key read no number of it (the views answer `"tracks": {}`) but its descriptor, the ruleset's
word for its state, in the numbers' place: on the encounter's board and in the roster
alike. The PCs' bars stay for every key. Debian's Chromium on a real `skald serve`;
axe-core finds no serious or critical violation on the viewer's dashboard."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.e2e.pictures import take
from tests.e2e.server import Server
from tests.e2e.test_accessibility import blocking
from tests.patience import HANG_MS, HANG_SECONDS


@dataclass(frozen=True)
class Table:
    """One ruleset's sheets, and the tracks the GM sets before the fight: the Ogre's
    (on the board) and the Wolf's (left in the roster), each with the word it reads as."""

    pc: dict[str, Any]
    ogre: dict[str, Any]
    ogre_tracks: dict[str, int]
    ogre_word: str
    wolf_tracks: dict[str, int]
    wolf_word: str
    chips: list[str]  # the Ogre's conditions, words every key reads (margin's M7 wounded)
    bars: dict[str, str]  # the Ogre's bars as the GM reads them: track -> "current / max"
    pc_track: str


D20_PC = {"strength": 12, "dexterity": 12, "constitution": 12, "wisdom": 10, "level": 1,
          "hp": 10, "save_vs_death_ray": 12}  # fmt: skip
D20_OGRE = {"strength": 18, "dexterity": 8, "constitution": 16, "wisdom": 8, "hit_dice": 4,
            "hp": 30, "save_vs_death_ray": 10, "armor": "scale"}  # fmt: skip
TABLES = {
    # Stamina at or below a third of its maximum (10 of 30): winded.
    "stamina-body": Table(
        pc={"st": 13, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10},
        ogre={"st": 16, "con": 14, "parry": 11, "dodge": 9, "stamina_max": 30, "body_max": 24},
        ogre_tracks={"stamina": 9},
        ogre_word="winded",
        wolf_tracks={"body": 20},
        wolf_word="hurt",
        chips=[],
        bars={"stamina": "9 / 30", "body": "24 / 24"},
        pc_track="stamina",
    ),
    # Health at or below half of its maximum (M7): wounded.
    "margin": Table(
        pc={"might": 2, "grace": 2, "vigor": 2, "aether": 1, "melee": 2, "health": 14},
        ogre={"might": 3, "grace": 1, "vigor": 3, "aether": 0, "melee": 2, "health": 18},
        ogre_tracks={"health": 9},
        ogre_word="wounded",
        wolf_tracks={"health": 17},
        wolf_word="hurt",
        chips=["wounded"],
        bars={"health": "9 / 18"},
        pc_track="health",
    ),
    # HP at or below half of its maximum: bloodied.
    "d20": Table(
        pc=D20_PC,
        ogre=D20_OGRE,
        ogre_tracks={"hp": 15},
        ogre_word="bloodied",
        wolf_tracks={"hp": 29},
        wolf_word="hurt",
        chips=[],
        bars={"hp": "15 / 30"},
        pc_track="hp",
    ),
}


def evening(server: Server, ruleset: str) -> dict[str, Any]:
    """Bran (a PC, Ana's) and the Ogre (an NPC) in "The ford"; the Wolf (an NPC) in no
    fight; the NPCs' tracks set by the GM before it began."""
    table = TABLES[ruleset]
    http = httpx.Client(base_url=server.url, timeout=HANG_SECONDS)
    created = http.post("/campaigns", json={"name": "The Ford", "ruleset": ruleset}).json()
    cid, gm = created["id"], created["gm_key"]
    http.headers["authorization"] = f"Bearer {gm}"
    base = f"/campaigns/{cid}"

    def post(path: str, body: dict[str, Any]) -> Any:
        answer = http.post(base + path, json=body)
        assert answer.status_code in (200, 201), answer.text
        return answer.json()

    bran = post("/characters", {"name": "Bran", "sheet": table.pc, "player": "Ana"})["id"]
    ogre = post("/characters", {"name": "Ogre", "sheet": table.ogre, "npc": True})["id"]
    wolf = post("/characters", {"name": "Wolf", "sheet": table.ogre, "npc": True})["id"]
    post(f"/characters/{ogre}/tracks", {"set": table.ogre_tracks, "reason": "a fall"})
    post(f"/characters/{wolf}/tracks", {"set": table.wolf_tracks, "reason": "a thorn"})
    sides = [{"character_id": bran, "side": "party"}, {"character_id": ogre, "side": "foes"}]
    post("/encounters", {"name": "The ford", "combatants": sides})
    keys = {
        "gm": gm,
        "player": post("/keys", {"role": "player", "characters": [bran], "label": "Ana"})["key"],
        "viewer": post("/keys", {"role": "viewer", "label": "tv"})["key"],
    }
    return {"cid": cid, "keys": keys, "ids": {"Bran": bran, "Ogre": ogre, "Wolf": wolf}}


def open_dashboard(browser: Browser, server: Server, cid: str, key: str) -> Page:
    page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
    page.goto(f"{server.url}/campaigns/{cid}/dashboard#key={key}")
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    expect(page.locator("#board-title")).to_have_text("Encounter: The ford", timeout=HANG_MS)
    return page


def on_board(page: Page, character: str) -> Locator:
    return page.locator(f'#sides [data-character-id="{character}"]')


def in_roster(page: Page, character: str) -> Locator:
    return page.locator(f'#vitals [data-character-id="{character}"]')


@pytest.mark.parametrize("ruleset", list(TABLES))
def test_the_gm_reads_an_npcs_numbers_on_the_dashboard(
    server: Server, browser: Browser, ruleset: str
) -> None:
    table = TABLES[ruleset]
    found = evening(server, ruleset)
    ids = found["ids"]
    page = open_dashboard(browser, server, found["cid"], found["keys"]["gm"])
    try:
        ogre = on_board(page, ids["Ogre"])
        expect(ogre.locator(".track .value")).to_have_text(list(table.bars.values()))
        for track, shown in table.bars.items():
            current = shown.split(" / ")[0]
            expect(ogre.locator(f'.bar[data-track="{track}"]')).to_have_attribute(
                "data-current", current
            )
        expect(ogre.locator(".descriptor")).to_have_count(0)
        wolf = in_roster(page, ids["Wolf"])
        expect(wolf.locator(".bar")).to_have_count(len(table.bars))
        expect(wolf.locator(".descriptor")).to_have_count(0)
    finally:
        page.context.close()


@pytest.mark.parametrize("role", ["viewer", "player"])
@pytest.mark.parametrize("ruleset", list(TABLES))
def test_a_player_or_a_viewer_reads_an_npcs_descriptor_on_the_dashboard(
    server: Server, browser: Browser, screenshots: Path, ruleset: str, role: str
) -> None:
    table = TABLES[ruleset]
    found = evening(server, ruleset)
    ids = found["ids"]
    page = open_dashboard(browser, server, found["cid"], found["keys"][role])
    try:
        # On the board: the Ogre's word in its numbers' place, and not one of its numbers
        # (its rank is where it stands, public as the GM reads it).
        ogre = on_board(page, ids["Ogre"])
        expect(ogre.locator(".descriptor")).to_have_text(table.ogre_word)
        expect(ogre.locator(".descriptor")).to_have_attribute("data-descriptor", table.ogre_word)
        expect(ogre.locator(".bar, .value")).to_have_count(0)
        expect(ogre.locator(".chip")).to_have_text(table.chips)
        expect(ogre).to_have_text(f"Ogrerank 1{table.ogre_word}{''.join(table.chips)}")
        # In the roster (in no fight): the Wolf's word, likewise.
        wolf = in_roster(page, ids["Wolf"])
        expect(wolf.locator(".descriptor")).to_have_text(table.wolf_word)
        expect(wolf.locator(".bar, .value")).to_have_count(0)
        expect(wolf).to_have_text(f"Wolf{table.wolf_word}")
        # A PC's numbers are the table's: Bran's bar stays, full.
        bran = on_board(page, ids["Bran"])
        expect(bran.locator(".descriptor")).to_have_count(0)
        expect(bran.locator(f'.bar[data-track="{table.pc_track}"]')).to_have_count(1)
        if role == "viewer":
            take(page, screenshots, f"dashboard-viewer-{ruleset}.png", full_page=True)
            assert blocking(page) == []
    finally:
        page.context.close()
