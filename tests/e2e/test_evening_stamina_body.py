"""One evening of stamina-body, run through the pages only (issue 36, "done when"): the GM
on the GM screen at a desktop, each player on /play on a phone (390x844) opened from the
link the GM screen hands over for them, on a real `skald serve` started from an empty
data directory, in Debian's Chromium.

The evening: a campaign created on the GM screen (initiative rolled, 1d20 + Dodge), the
foes saved to the bestiary and enrolled from it, the party enrolled with a key for each
player, a fight set up from the roster, initiative with the table's dice, three rounds in
which every blow on a PC waits for that player's answer on their phone (seed 001: parry,
dodge or nothing, with the player's own dice) and every blow on a goblin for the GM's,
a marker that runs out, a "next turn" pressed once too often and undone, a goblin's
hidden recovery roll, a disputed blow rerolled with the table's dice, the end; a day
with each character's plan; a second fight; and, from the screen, a void of the first
fight's opening blow on Bran, whose carried effect (a lighter wound healed again on the
day, so he starts the second fight fresher) is on the board and on Bran's phone.

Every write is a press on a page, with the table's dice typed wherever the pages take
them, so every number is exact. The API is read (GET, GM key) only to assert: tracks,
conditions, records, statuses and the carried heal. Screenshots go to the run's folder
(tests/e2e/pictures.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.e2e.browser import require_browser
from tests.e2e.pictures import take
from tests.e2e.server import Server
from tests.patience import HANG_SECONDS

DESKTOP: ViewportSize = {"width": 1280, "height": 900}
PHONE: ViewportSize = {"width": 390, "height": 844}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """A server of the evening's own, from an empty data directory."""
    require_browser()
    running = Server(tmp_path / "data").start()
    try:
        yield running
    finally:
        running.stop()


class Evening:
    """The GM's screen, the players' phones, and the API read with the GM key."""

    def __init__(self, server: Server, browser: Browser, screenshots: Path) -> None:
        self.server = server
        self.browser = browser
        self.screenshots = screenshots
        self.gm = browser.new_context(viewport=DESKTOP).new_page()
        self.http = httpx.Client(base_url=server.url, timeout=HANG_SECONDS)
        self.cid = ""
        self.ids: dict[str, str] = {}
        self.phones: dict[str, Page] = {}

    # -- reading the API, to assert ------------------------------------------------

    def get(self, path: str) -> Any:
        answer = self.http.get(f"/campaigns/{self.cid}{path}")
        assert answer.status_code == 200, answer.text
        return answer.json()

    def fighter(self, eid: str, name: str) -> dict[str, Any]:
        """A combatant as the encounter has it: tracks and conditions."""
        combatants = self.get(f"/encounters/{eid}?limit=1")["combatants"]
        found = next(c for c in combatants if c["name"] == name)
        return {"tracks": found["tracks"], "conditions": found["conditions"]}

    def on_roster(self, name: str) -> dict[str, Any]:
        found = next(c for c in self.get("")["characters"] if c["name"] == name)
        return {"tracks": found["tracks"], "conditions": found["conditions"]}

    def actions(self, eid: str) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = self.get(f"/encounters/{eid}?limit=1000")["actions"]
        return found

    def standing(self, eid: str, kind: str) -> list[dict[str, Any]]:
        return [a for a in self.actions(eid) if a["kind"] == kind and a["status"] == "active"]

    # -- what a page shows ---------------------------------------------------------

    def bar(self, page: Page, name: str, track: str, where: str = "") -> Any:
        card = f'{where} [data-character-id="{self.ids[name]}"]'
        return page.locator(f'{card} .bar[data-track="{track}"]').first

    def shows(self, name: str, stamina: int, body: int, pages: list[Page]) -> None:
        for page in pages:
            where = "#sides" if page is self.gm else ""
            expect(self.bar(page, name, "stamina", where)).to_have_attribute(
                "data-current", str(stamina)
            )
            expect(self.bar(page, name, "body", where)).to_have_attribute("data-current", str(body))

    def shoot(self, page: Page, name: str) -> None:
        take(page, self.screenshots, f"evening-stamina-body-{name}.png", full_page=True)

    # -- the GM's presses ----------------------------------------------------------

    def unfold(self, box: str) -> None:
        if not self.gm.locator(box).evaluate("box => box.open"):
            self.gm.locator(f"{box} > summary").click()

    def pick(self, name: str) -> None:
        """The GM picks a combatant on the board (its card's name)."""
        self.gm.locator(f'#sides [data-combatant-id="{self.ids[name]}"] h3').click()
        expect(self.gm.locator("#panel-caption")).to_contain_text(f"{name} acts")

    def whose_turn(self, name: str) -> None:
        expect(self.gm.locator("#turn-order .current")).to_contain_text(name)
        for phone in self.phones.values():
            expect(phone.locator("#turn")).to_contain_text(f"{name}'s turn")

    def next_turn(self, name: str) -> None:
        self.gm.locator("#next-turn").click()
        self.whose_turn(name)

    def gm_attack(self, actor: str, target: str, dice: dict[str, str]) -> None:
        """The GM's foe swings, with the table's dice; the blow waits for the answer."""
        self.pick(actor)
        self.gm.locator("#action-buttons [data-kind=attack]").click()
        self.gm.locator("#param-target").select_option(self.ids[target])
        roll(self.gm, dice)
        self.gm.locator("#action-submit").click()
        expect(self.gm.locator("#result [data-pending]")).to_be_visible()

    def gm_answers(self, attacker: str, choice: str, dice: str, says: str) -> None:
        """The GM answers for the goblin the blow waits on, with the table's dice; the
        attacker's phone, which said "waiting", says what the blow did."""
        expect(self.gm.locator("#pending [data-exchange]")).to_have_count(1)
        if dice:
            self.gm.locator("#pending [data-declare-dice]").fill(dice)
        self.gm.locator(f"#pending [data-declare={choice}]").click()
        expect(self.gm.locator("#pending [data-exchange]")).to_have_count(0)
        expect(self.phones[attacker].locator("#result [data-result] .summary")).to_have_text(says)

    # -- a player's presses ----------------------------------------------------------

    def player_attacks(
        self, name: str, target: str, dice: dict[str, str], in_round: int, hit_score: int
    ) -> Page:
        """The attacker's part, on their phone: the blow waits for its answer, and the
        phone says so with the hit score the answer must reach (S3)."""
        phone = self.phones[name]
        caption = f"{name}'s turn · round {in_round} · {name} acts"
        expect(phone.locator("#panel-caption")).to_have_text(caption)
        phone.locator("#action-buttons [data-kind=attack]").click()
        phone.locator("#param-target").select_option(self.ids[target])
        roll(phone, dice)
        phone.locator("#action-submit").click()
        waiting = phone.locator("#result [data-pending]")
        expect(waiting).to_be_visible()
        expect(waiting.locator(".hit-score")).to_have_text(f"Hit score {hit_score}")
        return phone

    def player_answers(self, name: str, choice: str, dice: str, hit_score: int, says: str) -> Page:
        """The defender's part, on their phone: the hit score shown, their dice typed, and
        what the blow did said there and on the GM screen."""
        phone = self.phones[name]
        waiting = phone.locator("#pending [data-exchange]")
        expect(waiting).to_have_count(1)
        expect(waiting.locator(".hit-score")).to_have_attribute("data-hit-score", str(hit_score))
        waiting.locator("[data-declare-dice]").fill(dice)
        waiting.locator(f"[data-declare={choice}]").click()
        expect(phone.locator("#pending [data-exchange]")).to_have_count(0)
        expect(phone.locator("#result [data-result] .summary")).to_have_text(says)
        expect(self.gm.locator("#result [data-result] .summary")).to_have_text(says)
        return phone


def roll(page: Page, dice: dict[str, str]) -> None:
    """The table's dice typed under the names the roll preview gives."""
    page.locator("input[name=dice-mode][value=table]").check()
    for name, faces in dice.items():
        field = page.locator(f'#dice-fields [data-roll-name="{name}"] input')
        expect(field).to_have_count(1)
        field.fill(faces)


def test_an_evening_of_stamina_body_through_the_pages(
    server: Server, browser: Browser, screenshots: Path
) -> None:
    table = Evening(server, browser, screenshots)
    gm = table.gm

    # -- the campaign, created on the GM screen --------------------------------------
    gm.goto(f"{server.url}/gm")
    gm.locator("#new-campaign-name").fill("The Sunken Crown")
    gm.locator("#new-campaign-ruleset").select_option("stamina-body")
    gm.locator("#new-campaign-initiative").select_option("roll")
    gm.locator("#new-campaign-initiative-add").select_option("dodge")
    gm.locator("#new-campaign-create").click()
    gm_key = gm.locator("#gm-key-once").inner_text()
    gm_link = gm.locator('#new-campaign-key code[data-once="new-campaign-key"]').inner_text()
    table.cid = gm_link.split("#campaign=")[1].split("&")[0]
    table.http.headers["authorization"] = f"Bearer {gm_key}"
    gm.locator("#new-campaign-open").click()
    expect(gm.locator("#campaign-facts")).to_have_text("stamina-body · day 0")
    expect(gm.locator("#connection")).to_have_attribute("data-state", "live")
    options = table.get("")["options"]
    assert options["initiative"] == {
        "mode": "roll",
        "dice": "1d20",
        "add": "dodge",
        "each_round": False,
    }

    # -- the foes: a goblin saved to the bestiary, two enrolled from it ------------------
    table.unfold("#enrol-box")
    gm.locator("#enrol-from").select_option("t:Goblin (template)")
    expect(gm.locator("#enrol-name")).to_have_value("Goblin")
    gm.locator("#enrol-save").click()
    expect(gm.locator("#bestiary-message")).to_have_text("Goblin saved to the bestiary.")
    gm.locator("#bestiary-count").fill("2")
    gm.locator("#bestiary-enrol").click()
    expect(gm.locator("#bestiary-message")).to_have_text("Enrolled Goblin 1, Goblin 2.")

    # -- the party: two soldiers, each with a key for their player -----------------------
    links = {}
    for name, player in (("Bran", "Ana"), ("Kara", "Ben")):
        gm.locator("#enrol-from").select_option("t:Soldier (template)")
        gm.locator("#enrol-name").fill(name)
        gm.locator("input[name=enrol-kind][value=pc]").check()
        gm.locator("#enrol-player").fill(player)
        if name == "Kara":  # Kara carries a shield
            gm.locator('#enrol-sheet [data-sheet="shield_resilience"]').fill("2")
        gm.locator("#enrol-add").click()
        expect(gm.locator("#key-once h3")).to_have_text(f"A player key for {name}")
        links[name] = gm.locator('#key-once code[data-once="key-once"]').inner_text()
        expect(gm.locator("#key-once img.qr")).to_be_visible()
    characters = table.get("")["characters"]
    table.ids = {c["name"]: c["id"] for c in characters}
    assert [(c["name"], c.get("npc", False)) for c in characters] == [
        ("Goblin 1", True), ("Goblin 2", True), ("Bran", False), ("Kara", False)
    ]  # fmt: skip
    kara_sheet = next(c["sheet"] for c in characters if c["name"] == "Kara")
    assert kara_sheet["shield_resilience"] == 2
    keys = [k for k in table.get("/keys") if k["role"] == "player"]
    assert sorted((k["label"], k["characters"]) for k in keys) == [
        ("Ana", [table.ids["Bran"]]), ("Ben", [table.ids["Kara"]])
    ]  # fmt: skip

    # Each player opens the link handed over on their phone (the key after '#').
    for name, link in links.items():
        assert link.startswith(f"{server.url}/play#campaign={table.cid}&key=skald_"), link
        phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
        phone.goto(link)
        expect(phone.locator("#connection")).to_have_attribute("data-state", "live")
        expect(phone.locator("#mine .card h3")).to_have_text(name)
        assert "key=" not in phone.url
        table.phones[name] = phone
    ana, ben = table.phones["Bran"], table.phones["Kara"]

    # -- the first fight, set up from the roster ---------------------------------------
    table.unfold("#setup-box")
    gm.locator("#setup-name").fill("The ford")
    for name in ("Bran", "Kara", "Goblin 1", "Goblin 2"):
        gm.locator(f'#setup-rows [data-character="{table.ids[name]}"]').check()
    gm.locator("#setup-start").click()
    expect(gm.locator("#sides .card")).to_have_count(4)
    ford = gm.locator("#encounter-picker").input_value()
    sides = {c["name"]: c["side"] for c in table.get(f"/encounters/{ford}")["combatants"]}
    assert sides == {
        "Bran": "party",
        "Kara": "party",
        "Goblin 1": "foes",
        "Goblin 2": "foes",
    }

    # Initiative, 1d20 + Dodge 10 each, with the table's dice: Bran 25, Goblin 1 22,
    # Kara 19, Goblin 2 15.
    table.unfold("#initiative-dice")
    for name, die in (
        ("Bran", "15"),
        ("Goblin 1", "12"),
        ("Kara", "9"),
        ("Goblin 2", "5"),
    ):
        gm.locator(f'[data-initiative-die="{table.ids[name]}"]').fill(die)
    gm.locator("#roll-initiative").click()
    table.whose_turn("Bran")
    turn = table.get(f"/encounters/{ford}")["turn"]
    assert [o["name"] for o in turn["order"]] == [
        "Bran",
        "Goblin 1",
        "Kara",
        "Goblin 2",
    ]
    assert turn["initiative"] == {
        table.ids["Bran"]: 25, table.ids["Goblin 1"]: 22,
        table.ids["Kara"]: 19, table.ids["Goblin 2"]: 15,
    }  # fmt: skip
    expect(ana.locator("#panel-caption")).to_have_text("Bran's turn · round 1 · Bran acts")
    expect(ben.locator("#panel-caption")).to_have_text("Bran's turn · round 1")

    # == round 1 ======================================================================
    # Bran's spear on Goblin 1: 2 2 2 against skill 12, hit score 6. The GM answers for
    # the goblin: a parry, 5 5 5 against 10, fails. Damage 2 4 6 on the piercing table:
    # 7 Stamina, 3 Body, no armour: Goblin 1 at 3/10, 5/8, with a piercing wound.
    table.player_attacks(
        "Bran",
        "Goblin 1",
        {"Bran's hit": "2 2 2", "Bran's damage": "2 4 6"},
        in_round=1,
        hit_score=6,
    )
    table.gm_answers(
        "Bran",
        "parry",
        "5 5 5",
        "Bran hits: Goblin 1 is winded; Goblin 1 gains: piercing wound",
    )
    assert table.fighter(ford, "Goblin 1") == {
        "tracks": {"stamina": 3, "body": 5}, "conditions": ["piercing_wound"]
    }  # fmt: skip
    # The phone follows: the blow's outcome, the goblin as a word (winded), no number.
    expect(ana.locator("#result [data-result]")).to_be_visible()
    goblin1 = f'#foes [data-character-id="{table.ids["Goblin 1"]}"]'
    expect(ana.locator(f"{goblin1} [data-descriptor]")).to_have_text("winded")

    # Goblin 1's club on Bran: 3 3 3 against 11, hit score 2. Ana parries on her phone
    # with her dice, 4 4 4 against 12: parry score 0 < 2, it lands (Bran has no shield).
    # Damage 4 5 on the impact table: 7 Stamina; armour 2 soaks 2: Bran at 7/12.
    table.next_turn("Goblin 1")
    table.gm_attack("Goblin 1", "Bran", {"Goblin 1's hit": "3 3 3", "Goblin 1's damage": "4 5"})
    table.player_answers(
        "Bran",
        "parry",
        "4 4 4",
        2,
        "Goblin 1 hits: Bran takes 5 Stamina and 0 Body (7/0 raw)",
    )
    table.shows("Bran", 7, 10, [gm, ana])
    opening_blow = table.standing(ford, "attack")[-1]
    assert opening_blow["rolls"] == [
        {
            "name": "hit",
            "dice": "3d6",
            "faces": [3, 3, 3],
            "total": 9,
            "supplied": True,
        },
        {
            "name": "defense",
            "dice": "3d6",
            "faces": [4, 4, 4],
            "total": 12,
            "supplied": True,
        },
        {
            "name": "damage",
            "dice": "2d6",
            "faces": [4, 5],
            "total": 9,
            "supplied": True,
        },
    ]
    table.shoot(ana, "bran-parried-round-1")

    # Kara's turn. The GM marks Goblin 2 prone for one round (to the end of its turn).
    table.next_turn("Kara")
    gm.locator(f'#sides [data-combatant-id="{table.ids["Goblin 2"]}"] h3').click()
    gm.locator("#gm-tools > summary").click()
    gm.locator("#gm-mark [name=marker]").fill("prone")
    gm.locator("#gm-mark [name=rounds]").fill("1")
    gm.locator("#gm-mark button[type=submit]").click()
    goblin2 = f'[data-character-id="{table.ids["Goblin 2"]}"]'
    expect(gm.locator(f'#sides {goblin2} [data-marker="prone"]')).to_have_text("prone · 1")
    for phone in (ana, ben):
        expect(phone.locator(f'#foes {goblin2} [data-marker="prone"]')).to_have_text(
            "prone (1 round left)"
        )
    [marker] = table.get(f"/encounters/{ford}")["markers"]
    assert (marker["name"], marker["rounds_left"], marker["at"]) == ("prone", 1, "end")

    # Kara's spear on the prone Goblin 2: 3 3 4, hit score 2; the GM takes no defence.
    # Damage 1 2 3: 3 Stamina: Goblin 2 at 7/10.
    table.player_attacks(
        "Kara",
        "Goblin 2",
        {"Kara's hit": "3 3 4", "Kara's damage": "1 2 3"},
        in_round=1,
        hit_score=2,
    )
    table.gm_answers("Kara", "none", "", "Kara hits: Goblin 2 is hurt")
    assert table.fighter(ford, "Goblin 2")["tracks"] == {"stamina": 7, "body": 8}

    # Goblin 2's club on Kara: 2 3 3, hit score 3. Ben dodges, 3 3 3 against 10: dodge
    # score 1 < 3, it lands. Damage 3 4: 5 Stamina, armour soaks 2: Kara at 9/12.
    table.next_turn("Goblin 2")
    table.gm_attack("Goblin 2", "Kara", {"Goblin 2's hit": "2 3 3", "Goblin 2's damage": "3 4"})
    table.player_answers(
        "Kara",
        "dodge",
        "3 3 3",
        3,
        "Goblin 2 hits: Kara takes 3 Stamina and 0 Body (5/0 raw)",
    )
    table.shows("Kara", 9, 10, [gm, ben])

    # The end of Goblin 2's turn: the marker runs out, on record; round 2 begins.
    table.next_turn("Bran")
    expect(gm.locator("#board-caption")).to_contain_text("round 2")
    for page in (gm, ana, ben):
        expect(page.locator('[data-marker="prone"]')).to_have_count(0)
    assert table.get(f"/encounters/{ford}")["markers"] == []
    [expired] = table.standing(ford, "expire")
    assert expired["round"] == 2  # recorded with the turn change that begins round 2

    # == round 2 ======================================================================
    # Bran's spear on Goblin 1: 2 2 3, hit score 5; the GM dodges for it with 6 6 6 (18
    # always fails). Damage 4 4 1: 5 Stamina, 2 Body: Goblin 1 at -2/10, 3/8, stunned.
    table.player_attacks(
        "Bran",
        "Goblin 1",
        {"Bran's hit": "2 2 3", "Bran's damage": "4 4 1"},
        in_round=2,
        hit_score=5,
    )
    table.gm_answers(
        "Bran",
        "dodge",
        "6 6 6",
        "Bran hits: Goblin 1 is stunned; Goblin 1 gains: stunned",
    )
    assert table.fighter(ford, "Goblin 1") == {
        "tracks": {"stamina": -2, "body": 3}, "conditions": ["stunned", "piercing_wound"]
    }  # fmt: skip
    expect(ana.locator(f"{goblin1} [data-descriptor]")).to_have_text("stunned")

    # The GM presses Next turn once too often (Kara's turn), and undoes it.
    table.next_turn("Goblin 1")
    table.next_turn("Kara")
    gm.locator("#undo-last").click()
    table.whose_turn("Goblin 1")
    turns = [a for a in table.actions(ford) if a["kind"] == "turn"]
    assert [a["status"] for a in turns[-2:]] == ["active", "voided"]

    # Goblin 1, stunned, can only recover (S9): the GM rolls it hidden, with the table's
    # dice 3 4 5 against CON 10: a failure, +1: Goblin 1 at -1/10, still stunned.
    table.pick("Goblin 1")
    gm.locator("#action-buttons [data-kind=recover]").click()
    gm.locator('#action-form input[name="hidden"]').check()
    roll(gm, {"Goblin 1's recovery": "3 4 5"})
    gm.locator("#action-submit").click()
    expect(gm.locator("#result [data-result]")).to_be_visible()
    [recovery] = table.standing(ford, "recover")
    assert recovery["hidden"] is True
    assert [r["faces"] for r in recovery["rolls"]] == [[3, 4, 5]]
    assert table.fighter(ford, "Goblin 1")["tracks"] == {"stamina": -1, "body": 3}
    # The players read its outcome only: no dice.
    hidden_line = ana.locator(f'#log [data-action="{recovery["number"]}"]')
    expect(hidden_line).to_have_text("Goblin 1 rolls to recover: Goblin 1 is stunned")
    for shown in ("3, 4, 5", "12", "+1", "1 Stamina"):
        expect(hidden_line).not_to_contain_text(shown)

    # Kara's spear on Goblin 2: 2 2 2, hit score 6, no defence; damage 5 5 5. Disputed
    # (a die rolled off the table): the GM rerolls it with the table's new dice, 2 2 2
    # and 2 2 4: 4 Stamina, 1 Body: Goblin 2 at 3/10, 7/8 with a piercing wound.
    table.next_turn("Kara")
    table.player_attacks(
        "Kara",
        "Goblin 2",
        {"Kara's hit": "2 2 2", "Kara's damage": "5 5 5"},
        in_round=2,
        hit_score=6,
    )
    table.gm_answers(
        "Kara", "none", "",
        "Kara hits: Goblin 2 is stunned; Goblin 2 gains: stunned, piercing wound",
    )  # fmt: skip
    assert table.fighter(ford, "Goblin 2")["tracks"] == {"stamina": -2, "body": 5}
    disputed = table.standing(ford, "attack")[-1]
    gm.locator(f"#actions [data-reroll='{disputed['number']}']").click()
    gm.locator("#reason-input").fill("a die rolled off the table")
    gm.locator('#reason-extra [data-reroll-die="Kara\'s hit"]').fill("2 2 2")
    gm.locator('#reason-extra [data-reroll-die="Kara\'s damage"]').fill("2 2 4")
    gm.locator("#reason-ok").click()
    expect(gm.locator("#result [data-correction=reroll] li")).to_have_text(
        [
            f"#{disputed['number']} rerolled: Kara hits: Goblin 2 takes 9 Stamina and 3 Body"
            " (9/3 raw); Goblin 2 gains: stunned, piercing wound → Kara hits: Goblin 2 takes"
            " 4 Stamina and 1 Body (4/1 raw); Goblin 2 gains: piercing wound"
        ]
    )
    assert table.fighter(ford, "Goblin 2") == {
        "tracks": {"stamina": 3, "body": 7}, "conditions": ["piercing_wound"]
    }  # fmt: skip
    rerolled = next(a for a in table.actions(ford) if a["number"] == disputed["number"])
    assert [r["faces"] for r in rerolled["rolls"]] == [[2, 2, 2], [2, 2, 4]]
    expect(ben.locator(f"#foes {goblin2} [data-descriptor]")).to_have_text("winded")

    # Goblin 2's club on Kara: 3 3 3, hit score 2. Ben parries, 5 5 5 against 12: fails,
    # it lands (the shield helps only a successful parry). Damage 6 6: 10 Stamina and 2
    # Body; armour 2 soaks a Body and a Stamina: Kara at 0/12, 9/10.
    table.next_turn("Goblin 2")
    table.gm_attack("Goblin 2", "Kara", {"Goblin 2's hit": "3 3 3", "Goblin 2's damage": "6 6"})
    table.player_answers(
        "Kara",
        "parry",
        "5 5 5",
        2,
        "Goblin 2 hits: Kara takes 9 Stamina and 1 Body (10/2 raw)",
    )
    table.shows("Kara", 0, 9, [gm, ben])
    table.shoot(ben, "kara-parry-failed-round-2")

    # == round 3 ======================================================================
    # Bran's spear on the stunned Goblin 1 (it answers with nothing, S9): 3 3 3, hit
    # score 3; damage 6 6 6: 12 Stamina, 6 Body: Goblin 1 at -13/10, -3/8, unconscious.
    table.next_turn("Bran")
    phone = table.phones["Bran"]
    phone.locator("#action-buttons [data-kind=attack]").click()
    phone.locator("#param-target").select_option(table.ids["Goblin 1"])
    roll(phone, {"Bran's hit": "3 3 3", "Bran's damage": "6 6 6"})
    phone.locator("#action-submit").click()
    expect(phone.locator("#result [data-result] .summary")).to_have_text(
        "Bran hits: Goblin 1 is unconscious; Goblin 1 gains: unconscious, cannot act"
    )
    expect(phone.locator("#result .narrative")).to_contain_text(
        "Goblin 1 is stunned and cannot answer (S9)"
    )
    assert table.fighter(ford, "Goblin 1") == {
        "tracks": {"stamina": -13, "body": -3},
        "conditions": ["stunned", "unconscious", "cannot_act", "piercing_wound"],
    }
    expect(ana.locator(f"{goblin1} [data-descriptor]")).to_have_text("unconscious")

    # Goblin 1 is passed over (T1, skip_unable): Kara's turn.
    table.next_turn("Kara")
    expect(gm.locator("#board-caption")).to_contain_text("passed over: Goblin 1 is unconscious")

    # Kara's spear on Goblin 2: 4 4 4, hit score 0; the GM parries for it, 6 5 6: fails.
    # Damage 1 1 1: 3 Stamina: Goblin 2 at 0/10.
    table.player_attacks(
        "Kara",
        "Goblin 2",
        {"Kara's hit": "4 4 4", "Kara's damage": "1 1 1"},
        in_round=3,
        hit_score=0,
    )
    table.gm_answers("Kara", "parry", "6 5 6", "Kara hits: Goblin 2 is winded")
    assert table.fighter(ford, "Goblin 2")["tracks"] == {"stamina": 0, "body": 7}

    # Goblin 2's club on Bran: 2 2 2, hit score 5. Ana dodges, 2 2 2 against 10: dodge
    # score 4 < 5, it lands. Damage 2 3: 3 Stamina, armour soaks 2: Bran at 6/12.
    table.next_turn("Goblin 2")
    table.gm_attack("Goblin 2", "Bran", {"Goblin 2's hit": "2 2 2", "Goblin 2's damage": "2 3"})
    table.player_answers(
        "Bran",
        "dodge",
        "2 2 2",
        5,
        "Goblin 2 hits: Bran takes 1 Stamina and 0 Body (3/0 raw)",
    )
    table.shows("Bran", 6, 10, [gm, ana])
    table.shoot(gm, "gm-round-3")

    # The end: Goblin 2 flees. The tracks go back to the roster.
    gm.locator("#end-encounter").click()
    gm.locator("#reason-input").fill("Goblin 2 flees into the reeds")
    gm.locator("#reason-ok").click()
    expect(gm.locator("#board-caption")).to_contain_text("ended: Goblin 2 flees into the reeds")
    for phone in (ana, ben):
        expect(phone.locator("#turn")).to_have_text("No fight under way.")
    ended = table.get(f"/encounters/{ford}?limit=1")
    assert ended["ended"] is True
    # The corrections of the evening: the undone turn (a void) and the disputed blow.
    assert [c["kind"] for c in ended["corrections"]] == ["void", "reroll"]
    assert {n: table.on_roster(n)["tracks"] for n in table.ids} == {
        "Goblin 1": {"stamina": -13, "body": -3},
        "Goblin 2": {"stamina": 0, "body": 7},
        "Bran": {"stamina": 6, "body": 10},
        "Kara": {"stamina": 0, "body": 9},
    }

    # -- a day passes, with each character's plan --------------------------------------
    # Everyone rests fully with care; Bran keeps watch (light rest, no care); Kara has a
    # healer. Bran: 6 lost, light: +3 -> 9. Kara: Stamina back to 12; Body 9 + CON 12 // 5
    # = 2 + the healer's 1, capped at 10. Goblin 1: Stamina back; Body -3 + 2 - 1 (its
    # untreated piercing wound) = -2. Goblin 2: 7 + 1 = 8.
    table.unfold("#days-box")
    expect(gm.locator("#days-default-rest")).to_have_value("full")
    expect(gm.locator("#days-default-care")).to_be_checked()
    gm.locator(f"#days-plan-{table.ids['Bran']}-rest").select_option("light")
    gm.locator(f"#days-plan-{table.ids['Bran']}-care").select_option("false")
    gm.locator(f"#days-plan-{table.ids['Kara']}-healer").select_option("true")
    gm.locator("#days-advance").click()
    expect(gm.locator("#days-message")).to_have_text("Day 1: 1 day(s) passed.")
    expect(gm.locator("#campaign-facts")).to_have_text("stamina-body · day 1")
    healed = {
        "Goblin 1": (10, -2),
        "Goblin 2": (10, 8),
        "Bran": (9, 10),
        "Kara": (12, 10),
    }
    for name, (stamina, body) in healed.items():
        expect(table.bar(gm, name, "stamina", "#roster")).to_have_attribute(
            "data-current", str(stamina)
        )
        expect(table.bar(gm, name, "body", "#roster")).to_have_attribute("data-current", str(body))
    table.shows("Bran", 9, 10, [ana])
    [day] = table.get("/history?kind=DayAdvanced")["entries"]
    everyone = {"rest": "full", "care": True, "healer": False}
    assert day["plans"] == {
        table.ids["Goblin 1"]: everyone, table.ids["Goblin 2"]: everyone,
        table.ids["Bran"]: {"rest": "light", "care": False, "healer": False},
        table.ids["Kara"]: {"rest": "full", "care": True, "healer": True},
    }  # fmt: skip
    assert table.get("/history?kind=CharacterHealed&limit=1")["total"] == 4

    # -- the second fight: a third goblin from the bestiary -----------------------------
    table.unfold("#bestiary-box")
    gm.locator("#bestiary-count").fill("1")
    gm.locator("#bestiary-enrol").click()
    expect(gm.locator("#bestiary-message")).to_have_text("Enrolled Goblin 3.")
    table.ids["Goblin 3"] = next(
        c["id"] for c in table.get("")["characters"] if c["name"] == "Goblin 3"
    )
    table.unfold("#setup-box")
    gm.locator("#setup-name").fill("The watchtower")
    for name in ("Kara", "Bran", "Goblin 3"):
        gm.locator(f'#setup-rows [data-character="{table.ids[name]}"]').check()
    gm.locator("#setup-start").click()
    expect(gm.locator("#sides .card")).to_have_count(3)
    tower = gm.locator("#encounter-picker").input_value()
    assert tower != ford
    table.unfold("#initiative-dice")
    for name, die in (("Kara", "10"), ("Goblin 3", "8"), ("Bran", "3")):
        gm.locator(f'[data-initiative-die="{table.ids[name]}"]').fill(die)
    gm.locator("#roll-initiative").click()
    table.whose_turn("Kara")
    table.shows("Bran", 9, 10, [gm, ana])

    # Kara holds; Goblin 3 swings at her: 2 2 2, hit score 5; Ben parries, 2 2 3 against
    # 12: parry score 5, the blow is stopped.
    table.next_turn("Goblin 3")
    table.gm_attack("Goblin 3", "Kara", {"Goblin 3's hit": "2 2 2", "Goblin 3's damage": "3 3"})
    table.player_answers("Kara", "parry", "2 2 3", 5, "Kara parried Goblin 3's blow")
    table.shows("Kara", 12, 10, [gm, ben])
    [parried] = table.standing(tower, "attack")
    assert parried["breakdown"]["result"] == "parried"

    # -- a void of the ended first fight's opening blow on Bran, from the screen ----------
    # (Bran had stepped out of the goblin's reach.) Without it Bran leaves the ford at
    # 11/12: light rest restores 1 // 2 = 0, so he starts the watchtower at 11, not 9.
    gm.locator("#encounter-picker").select_option(ford)
    expect(gm.locator("#board-caption")).to_contain_text("ended")
    gm.locator(f"#actions [data-void='{opening_blow['number']}']").click()
    gm.locator("#reason-input").fill("Bran had stepped out of the goblin's reach")
    gm.locator("#reason-ok").click()
    preview = gm.locator("dialog#preview-dialog")
    expect(preview).to_be_visible()
    expect(preview.locator('[data-preview-step="heal"]')).to_have_text(
        ["day 1's heal, Bran: stamina 9, body 10 → stamina 11, body 10"]
    )
    expect(preview.locator("[data-preview-step=encounter]")).to_have_text(
        ["after The ford, Bran: stamina 6, body 10 → stamina 11, body 10"]
    )
    table.shoot(gm, "void-preview")
    preview.locator('button[value="ok"]').click()
    expect(gm.locator("#result [data-correction=void]")).to_be_visible()

    # The board of the fight under way shows it, and so does Bran's phone.
    gm.locator("#encounter-picker").select_option(tower)
    table.shows("Bran", 11, 10, [gm, ana])
    table.shows("Kara", 12, 10, [gm, ben])
    table.shoot(gm, "board-after-the-carried-void")
    table.shoot(ana, "bran-after-the-carried-void")
    assert table.fighter(tower, "Bran") == {
        "tracks": {"stamina": 11, "body": 10},
        "conditions": [],
    }
    voided = next(a for a in table.actions(ford) if a["number"] == opening_blow["number"])
    assert voided["status"] == "voided"
    [carried] = table.get("/history?kind=CorrectionCarried")["entries"]
    heals = [
        s
        for s in carried["correction"]["carried"]["steps"]
        if s["kind"] == "heal" and s["character_id"] == table.ids["Bran"]
    ]
    assert [(s["before"]["tracks"], s["after"]["tracks"]) for s in heals] == [
        ({"stamina": 9, "body": 10}, {"stamina": 11, "body": 10})
    ]
