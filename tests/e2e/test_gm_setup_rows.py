"""The GM screen's set-up rows keep what the GM ticked and typed when a live update draws
them again (issue 36: a fight was started with one combatant, the other's tick wiped by
an update that came between the tick and Start)."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.e2e.server import Server
from tests.e2e.test_gm_days import SHEETS, set_up


def test_a_live_update_keeps_the_ticks_and_sides_typed_in_the_setup_rows(
    server: Server, browser: Browser
) -> None:
    http, cid, key, ids = set_up(server, "stamina-body")
    gm = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    gm.goto(f"{server.url}/gm#campaign={cid}&key={key}")
    expect(gm.locator("#connection")).to_have_attribute("data-state", "live")
    gm.locator("#setup-box summary").click()
    kara = ids["Kara"]
    gm.locator(f'#setup-rows [data-character="{kara}"]').check()
    gm.locator(f'#setup-rows [data-side="{kara}"]').fill("foes")
    gm.locator(f'#setup-rows [data-rank="{kara}"]').fill("2")

    # Another client enrols Ulf: the page hears of it and draws the rows again.
    made = http.post(
        f"/campaigns/{cid}/characters", json={"name": "Ulf", "sheet": SHEETS["stamina-body"]}
    )
    assert made.status_code == 201, made.text
    expect(gm.locator(f'#setup-rows [data-character="{made.json()["id"]}"]')).to_have_count(1)

    expect(gm.locator(f'#setup-rows [data-character="{kara}"]')).to_be_checked()
    expect(gm.locator(f'#setup-rows [data-side="{kara}"]')).to_have_value("foes")
    expect(gm.locator(f'#setup-rows [data-rank="{kara}"]')).to_have_value("2")
    expect(gm.locator(f'#setup-rows [data-character="{ids["Bran"]}"]')).not_to_be_checked()
    gm.context.close()
