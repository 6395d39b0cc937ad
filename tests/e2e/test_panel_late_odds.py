"""The combat panel draws the odds of what its form holds now, never a late answer to an
earlier question (Debian's Chromium, `skald serve`).

A GM who picks Parry, then Dodge, sends two odds requests; on a loaded server or a
slow network the answer for Parry can arrive after Dodge's. The panel drew every answer
as it came, so the box said "parried" under a form that says Dodge, the odds of a
defense nobody chose. Like the roll preview, it now draws only the latest question's
answer (and none once the box was cleared for an unfilled form)."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, Route, expect

from tests.e2e.server import Server
from tests.e2e.test_gm_screen_defects import DESKTOP, Table
from tests.e2e.test_panel_waiting_odds import attack_on_ulf
from tests.patience import HANG_SECONDS


def held_until(page: Page, held: list[Route], count: int) -> None:
    """Wait until the page has asked ``count`` odds, each held by the route."""
    waited = 0.0
    while len(held) < count and waited < HANG_SECONDS:
        page.wait_for_timeout(50)
        waited += 0.05
    assert len(held) == count, f"{len(held)} odds asked, {count} expected"


def test_a_late_answer_for_an_earlier_defense_is_not_drawn(
    server: Server, browser: Browser
) -> None:
    table = Table(server).fight()
    with browser.new_context(viewport=DESKTOP) as context:
        gm, asked = attack_on_ulf(table, context)
        box = gm.locator("#odds")
        expect(box.locator('[data-odds="awaits"]')).to_have_count(1)
        # Every odds asked so far has come back (the form's first ones included).
        expect(box).to_have_attribute("data-answered", str(len(asked)))
        before = len(asked)

        held: list[Route] = []
        gm.route("**/odds", lambda route: held.append(route))
        gm.locator("#param-defense").select_option("parry")
        held_until(gm, held, 1)
        gm.locator("#param-defense").select_option("dodge")
        held_until(gm, held, 2)

        # Dodge's answer first: drawn.
        held[1].continue_()
        expect(box).to_have_attribute("data-answered", str(before + 1))
        expect(box.locator('[data-outcome="dodged"]')).to_have_attribute("title", "1255/7776")
        # Then Parry's, late: come back, and not drawn.
        held[0].continue_()
        expect(box).to_have_attribute("data-answered", str(before + 2))
        expect(box.locator('[data-outcome="parried"]')).to_have_count(0)
        expect(box.locator('[data-outcome="dodged"]')).to_have_attribute("title", "1255/7776")
        expect(gm.locator("#param-defense")).to_have_value("dodge")
