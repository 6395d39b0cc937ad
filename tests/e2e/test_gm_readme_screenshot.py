"""The README's picture of the GM screen mid-fight, made here rather than by hand: a
stamina-body fight (a wounded goblin in the yellow, its attack waiting for the
defender's answer), taken at 1280x800; the table's dice, so the same fight each run.
The screenshot goes under the run's temporary directory, and over docs/gm-screen.png
only with SKALD_WRITE_SCREENSHOTS=docs (tests/e2e/pictures.py)."""

from __future__ import annotations

from pathlib import Path

import httpx
from playwright.sync_api import expect, sync_playwright

from tests.e2e.browser import CHROMIUM, FLAGS, require_browser
from tests.e2e.pictures import for_the_readme, take
from tests.e2e.server import Server
from tests.e2e.test_gm_screen import KNIGHT, campaign
from tests.patience import HANG_SECONDS

GOBLIN = {
    "st": 9, "con": 10, "parry": 10, "dodge": 10, "stamina_max": 10, "body_max": 8,
    "weapons": [{"name": "club", "damage_class": 2, "damage_type": "impact", "skill": 11}],
}  # fmt: skip


def test_the_readme_shows_the_gm_screen_mid_fight(tmp_path: Path, screenshots: Path) -> None:
    require_browser()
    server = Server(tmp_path / "data").start()
    try:
        setup = campaign(
            server, "stamina-body", {"Bran": KNIGHT, "Sigrid": KNIGHT, "Goblin 1": GOBLIN}
        )
        bran, sigrid, goblin = (setup["ids"][n] for n in ("Bran", "Sigrid", "Goblin 1"))
        http = httpx.Client(base_url=f"{server.url}/campaigns/{setup['cid']}", timeout=HANG_SECONDS)
        http.headers["authorization"] = f"Bearer {setup['gm']}"
        fight = http.post(
            "/encounters",
            json={"name": "The ford", "combatants": [
                {"character_id": bran, "side": "party"}, {"character_id": sigrid, "side": "party"},
                {"character_id": goblin, "side": "foes"}]},
        ).json()["id"]  # fmt: skip
        path = f"/encounters/{fight}"
        assert http.put(f"{path}/order", json={"order": [bran, goblin, sigrid]}).status_code == 200
        # Bran's longsword through the goblin's failed dodge: 2, 4, 6 is 7 Stamina, 3 Body.
        strike = http.post(
            f"{path}/actions",
            json={"kind": "attack", "actor": bran, "dice": {"Bran's hit": [2, 2, 2],
                  "Bran's damage": [2, 4, 6], "Goblin 1's dodge": [6, 6, 6]},
                  "params": {"target": goblin, "weapon": "longsword", "defense": "dodge"}},
        )  # fmt: skip
        assert strike.status_code == 201, strike.text
        assert http.post(f"{path}/turn").status_code == 200
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            try:
                context = browser.new_context(
                    viewport={"width": 1280, "height": 800}, color_scheme="dark"
                )
                gm = context.new_page()
                gm.goto(f"{server.url}/gm#campaign={setup['cid']}&key={setup['gm']}")
                expect(gm.locator("#connection")).to_have_attribute("data-state", "live")
                gm.locator(f'#sides [data-combatant-id="{goblin}"]').click()
                gm.locator("#action-buttons [data-kind=attack]").click()
                gm.locator("#param-target").select_option(sigrid)
                gm.locator("input[name=dice-mode][value=table]").check()
                gm.locator('#dice-fields [data-roll-name*="hit"] input').fill("3 3 3")
                gm.locator("#action-submit").click()
                expect(gm.locator("#result [data-result-declare]").first).to_be_visible()
                expect(gm.locator('#sides [data-condition="piercing_wound"]')).to_be_visible()
                gm.evaluate("window.scrollTo(0, 0)")
                picture = take(gm, screenshots, "readme-gm-screen.png", animations="disabled")
            finally:
                browser.close()
    finally:
        server.stop()
    assert picture.stat().st_size > 20_000
    for_the_readme(picture, "docs/gm-screen.png")
