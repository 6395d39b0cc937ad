"""The combat panel asks for the odds and the roll preview only once the action's
required parameters are filled in (Debian's Chromium, `skald serve`).

A take-hit's damage class is required and starts empty. The panel used to ask the odds
120 ms after the form opened, whatever it held: a GM who takes longer than that to type
(every GM) sent the API a request it refuses, and the odds box said the API's 422. Seen
first as a contract failure of test_gm_screen_defects under load, where the test's own
typing became slower than the panel's timer."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.e2e.server import Server
from tests.e2e.test_gm_screen_defects import DESKTOP, Table, odds_asked, pick


def test_no_odds_are_asked_until_the_required_parameters_are_filled_in(
    server: Server, browser: Browser
) -> None:
    table = Table(server).fight()
    bran = table.ids["Bran"]
    with browser.new_context(viewport=DESKTOP) as context:
        gm = table.open(context)
        asked = odds_asked(gm)
        pick(gm, bran)
        gm.locator("#action-buttons [data-kind=take_hit]").click()
        # The panel's timer has run (it says so) and asked nothing.
        expect(gm.locator('#odds [data-odds="unfilled"]')).to_have_text(
            "Odds once damage class filled in."
        )
        assert asked == []
        gm.locator("#param-damage_type").select_option("impact")
        with gm.expect_request(lambda r: r.method == "POST" and r.url.endswith("/odds")):
            gm.locator("#param-damage_class").fill("1")
        expect(gm.locator('#odds [data-odds="unfilled"]')).to_have_count(0)
    assert asked
    assert all(body["params"].get("damage_class") == 1 for body in asked), asked
