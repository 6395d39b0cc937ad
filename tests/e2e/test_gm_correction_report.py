"""What a correction's report says on the GM screen: the actions it moved, line by line,
and how many it left as they were (issue 36, found by the d20 evening: a void of the
first fight's round-1 blow listed its twenty later actions as "#6 unchanged: X → X", a
wall of arrows that read as changes and hid what moved). Debian's Chromium on a real
`skald serve`; the set-up is made over the API, the void is pressed on the page."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.e2e.server import Server
from tests.e2e.test_gm_screen import BANDIT
from tests.e2e.test_gm_screen_defects import DESKTOP, Table


def test_a_void_says_what_it_moved_and_counts_the_rest(server: Server, browser: Browser) -> None:
    table = Table(server, "d20", Hero=BANDIT, Foe=BANDIT, Brute=BANDIT).fight()
    hero, foe, brute = (table.ids[n] for n in ("Hero", "Foe", "Brute"))
    # 15 hits AC 11; no armor: every point lands.
    for actor, target, damage in ((foe, hero, 3), (hero, foe, 2), (brute, hero, 4)):
        body = {"kind": "attack", "actor": actor, "params": {"target": target,
                "weapon": "short sword"}, "dice": {"hit": [15], "damage": [damage]}}  # fmt: skip
        made = table.http.post(f"/encounters/{table.eid}/actions", json=body)
        assert made.status_code == 201, made.text
    with browser.new_context(viewport=DESKTOP) as context:
        gm = table.open(context)
        gm.locator("#actions [data-void='1']").click()
        gm.locator("#reason-input").fill("Foe was not there yet")
        gm.locator("#reason-ok").click()
        report = gm.locator("#result [data-correction=void]")
        expect(report.locator(".summary")).to_have_text(
            "void of #1 recorded: Foe was not there yet"
        )
        expect(report.locator("li")).to_have_text(
            [
                "#3 changed: Brute hits Hero with short sword (15 >= AC 11): 4 rolled, 4 dealt;"
                " HP 7 -> 3 → Brute hits Hero with short sword (15 >= AC 11): 4 rolled,"
                " 4 dealt; HP 10 -> 6"
            ]
        )
        expect(report.locator("[data-unchanged]")).to_have_text("1 later action as before")
    statuses = [(r["number"], r["status"]) for r in table.encounter()["corrections"][0]["report"]]
    assert statuses == [(2, "unchanged"), (3, "changed")]
