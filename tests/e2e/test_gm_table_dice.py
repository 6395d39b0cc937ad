"""The table's own dice where the GM screen asked none (issue 36, found by the d20
evening): a rolled initiative (RULINGS T1: "table dice accepted"; POST .../initiative
takes {dice} by combatant) and a reroll (POST .../actions/{n}/reroll takes {dice} by roll
name). The pages let the server roll both, so a table that rolls its own dice could not
enter the faces it rolled. Debian's Chromium on a real `skald serve`; the set-up is made
over the API, the presses are the page's, the API is read only to assert."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, expect

from tests.e2e.server import Server
from tests.e2e.test_gm_screen import BANDIT, ORC
from tests.e2e.test_gm_screen_defects import DESKTOP, Table


def rolls(action: dict[str, Any]) -> list[tuple[str, list[int], bool]]:
    return [(r["name"], r["faces"], r["supplied"]) for r in action["rolls"]]


def test_initiative_takes_the_tables_dice(server: Server, browser: Browser) -> None:
    options = {"initiative": {"mode": "roll", "dice": "1d20", "add": "dexterity"}}
    table = Table(server, "d20", options=options, Hero=BANDIT, Brute=BANDIT, Rat=BANDIT)
    table.fight()
    hero, brute, rat = (table.ids[n] for n in ("Hero", "Brute", "Rat"))
    with browser.new_context(viewport=DESKTOP) as context:
        gm = table.open(context)
        gm.locator("#initiative-dice > summary").click()
        expect(gm.locator("#initiative-dice label")).to_have_text(
            ["Hero (1d20)", "Brute (1d20)", "Rat (1d20)"]
        )
        gm.locator(f'[data-initiative-die="{hero}"]').fill("4")
        gm.locator(f'[data-initiative-die="{brute}"]').fill("19")
        # The rat's is left empty: the server rolls it.
        gm.locator("#roll-initiative").click()
        expect(gm.locator("#turn-order [data-initiative]")).to_have_count(3)
        expect(gm.locator(f'[data-initiative-die="{brute}"]')).to_have_value("")  # rolled
    fight = table.encounter()
    recorded = {r["name"].split(".")[1]: r for r in fight["actions"][0]["rolls"]}
    assert (recorded[hero]["faces"], recorded[hero]["supplied"]) == ([4], True)
    assert (recorded[brute]["faces"], recorded[brute]["supplied"]) == ([19], True)
    assert recorded[rat]["supplied"] is False
    assert fight["turn"]["initiative"][hero] == 4 and fight["turn"]["initiative"][brute] == 19
    assert fight["turn"]["current"] == brute


def test_a_reroll_takes_the_tables_new_dice(server: Server, browser: Browser) -> None:
    table = Table(server, "d20", Hero=BANDIT, Brute=BANDIT).fight(order=True)
    hero, brute = table.ids["Hero"], table.ids["Brute"]
    blow = {"kind": "attack", "actor": hero, "params": {"target": brute, "weapon": "short sword"},
            "dice": {"hit": [15], "damage": [5]}}  # fmt: skip
    made = table.http.post(f"/encounters/{table.eid}/actions", json=blow)
    assert made.status_code == 201, made.text
    number = made.json()["action"]["number"]
    with browser.new_context(viewport=DESKTOP) as context:
        gm = table.open(context)
        gm.locator(f"#actions [data-reroll='{number}']").click()
        # One field per roll the blow makes or may make, under the preview's names.
        fields = gm.locator("#reroll-dice [data-roll-name]")
        expect(fields).to_have_text(
            ["Hero's hit: 1d20", "Hero's damage: 1d6 (only if the blow lands)"]
        )
        gm.locator('#reroll-dice [data-roll-name="Hero\'s hit"] input').fill("12")
        gm.locator('#reroll-dice [data-roll-name="Hero\'s damage"] input').fill("6")
        gm.locator("#reason-input").fill("the die fell off the table")
        gm.locator("#reason-ok").click()
        expect(gm.locator("#result [data-correction=reroll]")).to_contain_text(
            "Hero hits Brute with short sword (12 >= AC 11): 6 rolled, 6 dealt; HP 10 -> 4"
        )
        # A void asks for no dice: the fields are gone from the reason dialog.
        gm.locator(f"#actions [data-void='{number}']").click()
        expect(gm.locator("#reroll-dice")).to_have_count(0)
        gm.locator("#reason-dialog button[value=cancel]").click()
    action = table.encounter()["actions"][-1]
    assert action["number"] == number
    assert rolls(action) == [("hit", [12], True), ("damage", [6], True)]
    assert action["summary"].endswith("HP 10 -> 4")


def test_a_reroll_of_an_ended_fight_takes_the_tables_new_dice(
    server: Server, browser: Browser
) -> None:
    """The preview and the commit both carry the typed dice: what is shown is recorded."""
    table = Table(server, "d20", Hero=BANDIT, Brute=BANDIT).fight(order=True)
    hero, brute = table.ids["Hero"], table.ids["Brute"]
    blow = {"kind": "attack", "actor": hero, "params": {"target": brute, "weapon": "short sword"},
            "dice": {"hit": [15], "damage": [5]}}  # fmt: skip
    made = table.http.post(f"/encounters/{table.eid}/actions", json=blow)
    assert made.status_code == 201, made.text
    number = made.json()["action"]["number"]
    ended = table.http.post(f"/encounters/{table.eid}/end", json={"reason": "they parted"})
    assert ended.status_code == 200, ended.text
    with browser.new_context(viewport=DESKTOP) as context:
        gm = table.open(context)
        expect(gm.locator("#board-caption")).to_contain_text("ended: they parted")
        gm.locator(f"#actions [data-reroll='{number}']").click()
        # The rolls the reroll takes, as the API works them out in an ended fight too,
        # the damage that follows a hit included (a miss recorded none).
        expect(gm.locator("#reroll-dice [data-roll-name]")).to_have_text(
            ["Hero's hit: 1d20", "Hero's damage: 1d6 (only if the blow lands)"]
        )
        gm.locator('#reroll-dice [data-roll-name="Hero\'s hit"] input').fill("3")
        gm.locator("#reason-input").fill("the die was cocked")
        gm.locator("#reason-ok").click()
        preview = gm.locator("#preview-dialog")
        expect(preview.locator(f'[data-preview-character="{brute}"]')).to_have_text(
            "Brute now: hp 5 → hp 10"
        )
        preview.locator('button[value="ok"]').click()
        expect(gm.locator("#result [data-correction=reroll]")).to_be_visible()
    action = table.encounter()["actions"][-1]
    assert action["number"] == number
    assert rolls(action) == [("hit", [3], True)]
    assert action["summary"] == "Hero misses Brute with short sword (3 < AC 11)"
    brute_now = table.http.get(f"/characters/{brute}").json()
    assert brute_now["tracks"] == {"hp": 10}


KARA = {"might": 2, "grace": 3, "vigor": 2, "aether": 0, "evasion": 2}


def test_a_reroll_in_a_later_round_asks_the_dice_the_action_was_resolved_with(
    server: Server, browser: Browser
) -> None:
    """Kara defended with 2 effort in round 1, so the Orc's blow then met her active
    defenses: evasion 3 + 2 + 2 = 7 dice, guard 2 + 0 + 2 = 4. In round 2 her posture has
    lapsed, and the fight now would ask her passive 3 and 2: the reroll's dialog asks the
    dice the reroll takes (the API's .../reroll/rolls), and the table types as many faces
    as each field asks."""
    table = Table(server, "margin", Kara=KARA, Orc=ORC).fight(order=True)
    kara, orc = table.ids["Kara"], table.ids["Orc"]
    path = f"/encounters/{table.eid}"
    steps = [
        ("/actions", {"kind": "defend", "actor": kara, "params": {"effort": 2}}, 201),
        ("/turn", {}, 200),
        ("/actions", {"kind": "attack", "actor": orc, "params": {"target": kara, "weapon": "axe"},
                      "dice": {"attack": [1, 2, 3, 4, 1]}}, 201),
        ("/turn", {}, 200),
    ]  # fmt: skip
    made = [table.http.post(path + tail, json=body) for tail, body, _ in steps]
    assert [m.status_code for m in made] == [status for _, _, status in steps], made[-1].text
    number = made[2].json()["action"]["number"]
    assert table.encounter()["round"] == 2
    with browser.new_context(viewport=DESKTOP) as context:
        gm = table.open(context)
        gm.locator(f"#actions [data-reroll='{number}']").click()
        fields = gm.locator("#reroll-dice [data-roll-name]")
        expect(fields).to_have_count(3)
        asked = fields.locator("span").all_inner_texts()
        for label in asked:
            name, dice = label.split(": ")
            count = int(dice.split("d")[0])
            faces = [6] * count if name == "Orc's attack" else [1, 2, 3, 4] * 2
            field = gm.locator(f'#reroll-dice [data-roll-name="{name}"] input')
            field.fill(" ".join(str(f) for f in faces[:count]))
        gm.locator("#reason-input").fill("the dice rolled under the table")
        gm.locator("#reason-ok").click()
        expect(gm.locator("#result [data-correction=reroll]")).to_contain_text(
            f"reroll of #{number} recorded: the dice rolled under the table"
        )
        expect(gm.locator("[data-problem]")).to_have_count(0)
    assert asked == ["Orc's attack: 5d6", "Kara's evasion: 7d6", "Kara's guard: 4d6"]
    action = table.encounter()["actions"][number - 1]
    assert (action["number"], action["round"], action["rerolled"]) == (number, 1, True)
    assert rolls(action) == [
        ("attack", [6, 6, 6, 6, 6], True),
        (f"defense.{kara}.evasion", [1, 2, 3, 4, 1, 2, 3], True),
        (f"defense.{kara}.guard", [1, 2, 3, 4], True),
    ]
