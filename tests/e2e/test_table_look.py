"""The table's look (issue 36): what the table display, the overlay and the pages show,
measured in Debian's Chromium on a real `skald serve`, at the widths a table has (a
360 and a 390 px phone, a 1280 px laptop, a 1280x720 TV).

- /table shows the last roll without scrolling on a 1280x720 TV, and a PC's numbers on
  a 360 px phone;
- a track below zero draws an empty bar (its number says how far below);
- the overlay is compact (one strip at the top of a 1280x720 stream), its log leaves out
  the GM's bookkeeping, and its parts keep the ids docs/table.md documents;
- the GM's panel caption names whose turn it is;
- long names wrap on a phone: no page scrolls sideways at 360 px.

Every page is photographed into the run's temporary folder (the GM screen mid-fight,
/play, /table at 1280x720, 390 and 360 px, /overlay); with SKALD_WRITE_SCREENSHOTS=docs
the table's two pictures in docs/screenshots are copied from there
(tests/e2e/pictures.py; test_what_others_see.py has the others)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.e2e.pictures import for_the_readme, take
from tests.e2e.server import Server
from tests.e2e.test_accessibility import blocking
from tests.patience import HANG_SECONDS

TV: ViewportSize = {"width": 1280, "height": 720}
LAPTOP: ViewportSize = {"width": 1280, "height": 800}
PHONES: dict[str, ViewportSize] = {
    "360": {"width": 360, "height": 740},
    "390": {"width": 390, "height": 844},
}
PC = {"st": 13, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10}
MAUL = {"name": "maul", "damage_class": 2, "damage_type": "impact", "skill": 17}
OGRE = {**PC, "stamina_max": 30, "body_max": 24, "weapons": [MAUL]}
# A name with no place to break in it, and one of many words: both must wrap on a phone.
LONG_WORD = "Hrafnkelsdottirstraumfjordsbrimill"
LONG_NAME = "Sigrid Thorvaldsdottir of the Long Winter Road"
WIDE = "document.scrollingElement.scrollWidth <= window.innerWidth"


@pytest.fixture(scope="module")
def fight(server: Server) -> dict[str, Any]:
    """Bran (Ana's PC), Mira knocked below zero Stamina, two PCs of long names, the Ogre (an
    NPC) hurt by Mira, a marker, a viewer key issued mid-fight, the order set and the
    turn on the Ogre, its maul waiting for Bran's answer."""
    http = httpx.Client(base_url=server.url, timeout=HANG_SECONDS)
    created = http.post("/campaigns", json={"name": "The Ford", "ruleset": "stamina-body"}).json()
    cid = created["id"]
    http.headers["authorization"] = f"Bearer {created['gm_key']}"
    base = f"/campaigns/{cid}"

    def post(path: str, body: dict[str, Any], status: int = 201) -> Any:
        answer = http.post(base + path, json=body)
        assert answer.status_code == status, answer.text
        return answer.json()

    names = ("Bran", "Mira", LONG_NAME, LONG_WORD, "Ogre")
    ids = {}
    for name in names:
        sheet = OGRE if name == "Ogre" else PC
        body: dict[str, Any] = {"name": name, "sheet": sheet, "npc": name == "Ogre"}
        ids[name] = post("/characters", {**body, **({"player": "Ana"} if name == "Bran" else {})})[
            "id"
        ]
    player = post("/keys", {"role": "player", "characters": [ids["Bran"]], "label": "Ana"})["key"]
    sides = [(ids[n], "foes" if n == "Ogre" else "party") for n in names]
    eid = post("/encounters", {"name": "Ford", "combatants": [
        {"character_id": c, "side": s} for c, s in sides]})["id"]  # fmt: skip
    fight = f"/encounters/{eid}"
    blow = {"target": ids["Ogre"], "defense": "none"}
    dice = {"hit": [1, 1, 1], "damage": [6, 6, 6]}
    post(f"{fight}/actions", {"kind": "attack", "actor": ids["Mira"], "params": blow, "dice": dice})
    order = [ids["Ogre"], ids["Bran"], ids["Mira"], ids[LONG_NAME], ids[LONG_WORD]]
    answer = http.put(f"{base}{fight}/order", json={"order": order})
    assert answer.status_code == 200, answer.text
    post(f"{fight}/markers", {"target": ids["Bran"], "name": "prone", "rounds": 2})
    # Bookkeeping the overlay leaves out: a key issued, a marker taken off, the order moved.
    viewer = post("/keys", {"role": "viewer", "label": "tv"})["key"]
    placed = post(f"{fight}/markers", {"target": ids["Mira"], "name": "blessed"})
    number = next(m["number"] for m in placed["markers"] if m["name"] == "blessed")
    assert http.delete(f"{base}{fight}/markers/{number}").status_code == 200
    moved = {"combatant": ids[LONG_WORD], "direction": "up"}
    post(f"{fight}/order/move", moved, 200)
    post(f"{fight}/order/move", {**moved, "direction": "down"}, 200)
    # Mira below zero Stamina.
    changed = http.post(
        f"{base}/characters/{ids['Mira']}/tracks",
        json={"set": {"stamina": -3}, "reason": "the river"},
    )
    assert changed.status_code == 200, changed.text
    waiting = {"kind": "attack", "actor": ids["Ogre"], "dice": {"hit": [4, 4, 4]},
               "params": {"target": ids["Bran"], "weapon": "maul"}}  # fmt: skip
    post(f"{fight}/actions", waiting, 202)
    return {"cid": cid, "player": player, "viewer": viewer, "gm": created["gm_key"],
            "ids": ids, "eid": eid}  # fmt: skip


def box(page: Page, selector: str) -> Any:
    found = page.locator(selector).bounding_box()
    assert found is not None, selector
    return found


def open_page(page: Page, url: str) -> None:
    page.goto(url)
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")


def test_the_table_on_a_tv_shows_the_last_roll_without_scrolling(
    server: Server, fight: dict[str, Any], browser: Browser, screenshots: Path
) -> None:
    with browser.new_context(viewport=TV) as context:
        page = context.new_page()
        open_page(page, f"{server.url}/table#campaign={fight['cid']}&key={fight['viewer']}")
        expect(page.locator("#whose-turn")).to_have_text("Ford · Round 1 · Ogre's turn")
        expect(page.locator('#last-roll [data-roll="hit"]')).to_have_text("hit: 1 1 1 = 3")
        assert page.evaluate("window.scrollY") == 0
        last = box(page, "#last-roll")
        assert last["height"] > 0 and last["y"] >= 0
        assert last["y"] + last["height"] <= TV["height"]
        assert page.evaluate(WIDE)
        picture = take(page, screenshots, "table-1280x720.png")
        for_the_readme(picture, "docs/screenshots/table-1280x720.png")
        assert blocking(page) == []


@pytest.mark.parametrize("width", ["360", "390"])
def test_the_table_on_a_phone_shows_a_pcs_numbers(
    server: Server, fight: dict[str, Any], browser: Browser, screenshots: Path, width: str
) -> None:
    ids = fight["ids"]
    with browser.new_context(viewport=PHONES[width], is_mobile=True, has_touch=True) as context:
        page = context.new_page()
        open_page(page, f"{server.url}/table#campaign={fight['cid']}&key={fight['viewer']}")
        bran = page.locator(f'#party [data-character-id="{ids["Bran"]}"]')
        expect(bran.locator(".value")).to_have_text(["12 / 12", "10 / 10"])
        for value in bran.locator(".value").all():
            shown = value.bounding_box()
            assert shown is not None and shown["width"] > 0
            assert shown["x"] >= 0 and shown["x"] + shown["width"] <= PHONES[width]["width"]
        assert page.evaluate(WIDE)
        # The long names wrap inside their cards.
        for name in (LONG_WORD, LONG_NAME):
            title = page.locator(f'#party [data-character-id="{ids[name]}"] h3')
            assert title.evaluate("e => e.scrollWidth <= e.clientWidth"), name
        picture = take(page, screenshots, f"table-{width}.png", full_page=True)
        if width == "360":
            for_the_readme(picture, "docs/screenshots/table-360.png")
        assert blocking(page) == []


def test_a_track_below_zero_draws_an_empty_bar(
    server: Server, fight: dict[str, Any], browser: Browser
) -> None:
    mira = fight["ids"]["Mira"]
    with browser.new_context(viewport=LAPTOP) as context:
        page = context.new_page()
        open_page(page, f"{server.url}/table#campaign={fight['cid']}&key={fight['viewer']}")
        bar = page.locator(f'#party [data-character-id="{mira}"] .bar[data-track="stamina"]')
        expect(bar).to_have_attribute("data-current", "-3")
        expect(bar).to_have_class("bar out")
        fill = bar.locator(".fill").bounding_box()
        assert fill is not None and fill["width"] == 0
        track = page.locator(f'#party [data-character-id="{mira}"] .track').first
        expect(track.locator(".value")).to_have_text("-3 / 12")
        # The GM screen's board draws it the same way.
        gm = context.new_page()
        open_page(gm, f"{server.url}/gm#campaign={fight['cid']}&key={fight['gm']}")
        mine = gm.locator(f'#sides [data-combatant-id="{mira}"] .bar[data-track="stamina"] .fill')
        expect(mine).to_have_count(1)
        drawn = mine.bounding_box()
        assert drawn is not None and drawn["width"] == 0


def test_the_overlay_is_compact_and_leaves_out_bookkeeping(
    server: Server, fight: dict[str, Any], browser: Browser, screenshots: Path
) -> None:
    flags = "transparent=1&layout=turn,party,foes,log"
    with browser.new_context(viewport=TV) as context:
        page = context.new_page()
        address = f"/overlay#campaign={fight['cid']}&key={fight['viewer']}&{flags}"
        open_page(page, server.url + address)
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == "rgba(0, 0, 0, 0)"
        # The stable ids docs/table.md documents for custom CSS.
        for part in ("skald-overlay", "overlay-turn", "vitals", "overlay-foes", "log-entries"):
            expect(page.locator(f"#{part}")).to_be_visible()
        # The story only, its last five lines: the attack waiting, the track change, the
        # markers placed, the blow; not the key issued, the marker taken off, the order
        # set and moved by hand.
        lines = page.locator("#log-entries li")
        expect(lines).to_have_text([
            "exchange 1: Ogre's attack on Bran waits for Bran's defense: parry, dodge, none",
            "Mira: stamina 12→-3",
            "Mira: blessed (until removed)",
            "Bran: prone (2 rounds, to the end of Bran's turn)",
            "Mira hits: Ogre is hurt",
        ])  # fmt: skip
        # Compact: it all fits in the top third of a 1280x720 stream, the video free below.
        main = box(page, "#skald-overlay")
        assert main["y"] + main["height"] <= TV["height"] / 3
        take(page, screenshots, "overlay-with-log.png", omit_background=True)
        assert blocking(page) == []


def test_the_gm_panel_caption_names_whose_turn_it_is(
    server: Server, fight: dict[str, Any], browser: Browser, screenshots: Path
) -> None:
    ids = fight["ids"]
    with browser.new_context(viewport=LAPTOP, color_scheme="dark") as context:
        gm = context.new_page()
        open_page(gm, f"{server.url}/gm#campaign={fight['cid']}&key={fight['gm']}")
        caption = gm.locator("#panel-caption")
        expect(caption).to_have_text("Round 1 · Ogre's turn. Pick a combatant on the board.")
        gm.locator(f'#sides [data-combatant-id="{ids["Mira"]}"]').click()
        expect(gm.locator("#panel-caption")).to_have_text("Round 1 · Ogre's turn · Mira acts")
        gm.locator(f'#sides [data-combatant-id="{ids["Ogre"]}"]').click()
        expect(gm.locator("#panel-caption")).to_have_text("Round 1 · Ogre's turn · Ogre acts")
        gm.evaluate("window.scrollTo(0, 0)")
        take(gm, screenshots, "gm-mid-fight.png")


@pytest.mark.parametrize("width", ["360", "390"])
def test_no_page_scrolls_sideways_on_a_phone(
    server: Server, fight: dict[str, Any], browser: Browser, screenshots: Path, width: str
) -> None:
    pages = {
        "play": f"/play#campaign={fight['cid']}&key={fight['player']}",
        "gm": f"/gm#campaign={fight['cid']}&key={fight['gm']}",
        "table": f"/table#campaign={fight['cid']}&key={fight['viewer']}",
        "overlay": f"/overlay#campaign={fight['cid']}&key={fight['viewer']}",
    }
    with browser.new_context(viewport=PHONES[width], is_mobile=True, has_touch=True) as context:
        for name, address in pages.items():
            page = context.new_page()
            open_page(page, server.url + address)
            expect(page.locator("body")).to_contain_text(LONG_WORD)
            wide = page.evaluate("document.scrollingElement.scrollWidth")
            assert page.evaluate(WIDE), (name, wide)
            titles = page.locator(".card h3, .skald-card h3").all()
            assert titles, name
            for title in titles:
                fits = title.evaluate("e => e.scrollWidth <= e.clientWidth")
                assert fits, (name, title.inner_text())
            take(page, screenshots, f"{name}-{width}.png", full_page=True)
            page.close()
