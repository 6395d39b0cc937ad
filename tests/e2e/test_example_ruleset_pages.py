"""A fight with the example ruleset, examples/hitpoints, on the GM screen (issue 38, "Done
when": a fourth ruleset installed with pip, "a browser test runs a fight with it").

pip installs the example from a copy into a folder of its own, as
tests/integration/test_example_ruleset.py does (never into the test environment or the
work tree); `skald serve` runs with that folder on its path, with no change to Skald's
files. Everything the GM screen shows of the ruleset comes from what /rulesets publishes:
its title in the campaign form, its starter sheets (``presentation.templates``), its
buttons' words (``labels``), its keys (``shortcuts``), the sheet form from its sheet schema
and the action's form from its parameters. Every write is a press on the page, with the
table's dice typed; the API is read (GET, with the GM key) only to assert."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.browser import require_browser
from tests.e2e.server import Server
from tests.e2e.test_evening_d20 import DESKTOP, Record, bar, pick, roster_ids, unfold
from tests.integration.test_example_ruleset import installed

__all__ = ["installed"]  # the fixture: the example installed into a folder of its own


@pytest.fixture(scope="module")
def server(
    installed: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    require_browser()
    _, site = installed
    data = Path(tmp_path_factory.mktemp("hitpoints-pages")) / "data"
    running = Server(data, env={"PYTHONPATH": str(site)}).start()
    try:
        yield running
    finally:
        running.stop()


def test_a_fight_by_the_installed_example_on_the_gm_screen(
    server: Server, browser: Browser
) -> None:
    gm = browser.new_context(viewport=DESKTOP).new_page()
    gm.goto(f"{server.url}/gm")
    rulesets = gm.locator("#new-campaign-ruleset option")
    expect(rulesets).to_have_text(
        ["d20 (seed 004)", "Margin (seed 000)", "Stamina and Body (seed 001)",
         "Hit points (example)"]
    )  # fmt: skip
    gm.locator("#new-campaign-name").fill("The Long Road")
    gm.locator("#new-campaign-ruleset").select_option("hitpoints")
    gm.locator("#new-campaign-create").click()
    gm_key = gm.locator("#gm-key-once").inner_text()
    gm.locator("#new-campaign-open").click()
    expect(gm.locator("#connection")).to_have_attribute("data-state", "live")
    expect(gm.locator("#campaign-facts")).to_have_text("hitpoints · day 0")
    cid = gm.evaluate("JSON.parse(sessionStorage.getItem('skald.session')).campaign")
    record = Record(server, cid, gm_key)
    assert record.campaign()["ruleset"] == "hitpoints"
    # Its keys, from its presentation: h opens its attack, d the GM's damage.
    gm.keyboard.press("?")
    expect(gm.locator("#shortcuts-list dt")).to_have_text(["n", "p", "h", "d", "u", "?"])
    gm.keyboard.press("Escape")

    # A fighter (a PC) and a goblin (an NPC), from the example's starter sheets.
    unfold(gm, "#enrol-box")
    expect(gm.locator("#enrol-from option")).to_have_text(
        ["Fighter (template)", "Goblin (template)", "empty sheet"]
    )
    enrol_from(gm, "Fighter", {"damage": "1d8+1"})
    enrol_from(gm, "Goblin", {}, npc=True)
    ids = roster_ids(gm)
    fighter, goblin = ids["Fighter"], ids["Goblin"]
    characters = {c["name"]: (c["sheet"], c["tracks"]) for c in record.campaign()["characters"]}
    assert characters == {
        "Fighter": (
            {"hp": 12, "defense": 14, "attack": "1d20", "attack_bonus": 3, "damage": "1d8+1",
             "initiative": 2},
            {"hp": 12},
        ),
        "Goblin": (
            {"hp": 7, "defense": 12, "attack": "1d20", "attack_bonus": 1, "damage": "1d6",
             "initiative": 1},
            {"hp": 7},
        ),
    }  # fmt: skip

    # The fight, set up from the roster; the fighter attacks the goblin with the table's
    # dice: 11 + 3 = 14 against defense 12, a hit; 5 + 1 = 6 damage, 7 -> 1.
    unfold(gm, "#setup-box")
    gm.locator("#setup-name").fill("Ambush")
    for character in (fighter, goblin):
        gm.locator(f'#setup-rows [data-character="{character}"]').check()
    gm.locator("#setup-start").click()
    expect(gm.locator("#sides .card")).to_have_count(2)
    eid = gm.locator("#encounter-picker").input_value()
    expect(bar(gm, goblin)).to_have_attribute("data-current", "7")
    pick(gm, fighter)
    expect(gm.locator("#action-buttons [data-kind=attack]")).to_have_text("Attack")
    gm.locator("#action-buttons [data-kind=attack]").click()
    gm.locator("#param-target").select_option(goblin)
    gm.locator("input[name=dice-mode][value=table]").check()
    for roll, faces in (("Fighter's attack", "11"), ("Fighter's damage", "5")):
        field = gm.locator(f'#dice-fields [data-roll-name="{roll}"] input')
        expect(field).to_have_count(1)
        field.fill(faces)
    gm.locator("#action-submit").click()
    expect(gm.locator("#result .summary")).to_have_text(
        "Fighter hits Goblin for 6 (14 vs 12); Goblin gains: bloodied"
    )
    expect(bar(gm, goblin)).to_have_attribute("data-current", "1")
    expect(gm.locator(f'#sides [data-combatant-id="{goblin}"] .chip[data-condition]')).to_have_text(
        ["bloodied"]
    )
    assert record.hp(eid) == {"Fighter": 12, "Goblin": 1}
    assert record.conditions(eid) == {"Fighter": [], "Goblin": ["bloodied"]}
    assert record.actions(eid) == [
        ("attack", "active", "Fighter hits Goblin for 6 (14 vs 12); Goblin gains: bloodied")
    ]


def enrol_from(gm: Page, template: str, fields: dict[str, str], *, npc: bool = False) -> None:
    """Enrol one character from the ruleset's starter sheet, its fields changed as
    ``fields`` says (typed); a PC, or an NPC."""
    unfold(gm, "#enrol-box")
    gm.locator("#enrol-from").select_option(f"t:{template} (template)")
    gm.locator("#enrol-count").fill("1")
    gm.locator(f"input[name=enrol-kind][value={'npc' if npc else 'pc'}]").check()
    for field, value in fields.items():
        gm.locator(f'#enrol-sheet [data-sheet="{field}"]').fill(value)
    gm.locator("#enrol-add").click()
    expect(gm.locator("html[data-writing]")).to_have_count(0)
