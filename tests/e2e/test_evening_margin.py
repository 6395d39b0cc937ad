"""Issue 36's evening for the `margin` ruleset, through the pages only (seed 000).

A GM at a desktop and two players on phones (390x844), on a `skald serve` started from an
empty data directory, in Debian's Chromium. Every write is a press on a page: the GM on
/gm, Ana (Thrain, a dwarf) and Bo (Lia, an elf) on /play, each phone opened from the link
the GM screen hands over when their character is enrolled. The API is only read, with the
GM's key, to assert exact tracks, conditions, record counts and statuses.

The evening:

- the campaign (initiative rolled: 1d20 + Grace), the party from the sheet form (Thrain:
  Vigor 3, Guard 3, mail 4, an axe; Lia: Grace 3, Evasion 2, a luck point, a rapier), the
  Orc starter saved to the bestiary and "2 x Orc" enrolled from it;
- "The ford": initiative with the table's dice (Lia 18, Orc 1 13, Thrain 11, Orc 2 6);
- round 1: Lia takes up Riposte on her phone (effort 1); Orc 1's blow at her, rolled
  hidden, is turned (her luck rerolls a blank guard) and her rapier answers (Orc 1 14 -> 10);
  Thrain takes up Ward on his phone; the GM sends Orc 2 at Thrain by mistake and undoes
  it; Orc 2's blow beats Lia by 2 and Thrain intercepts it (16 -> 13 through his mail);
  the GM marks Orc 1 prone for a round;
- round 2: Lia's blow from her phone with her own dice, rerolled by the GM with the
  table's dice (a die rolled off the table: Orc 1 10 -> 6, wounded); Orc 1 strikes Lia
  (14 -> 8) and the prone marker expires at the end of its turn; Thrain Defends on his
  phone (effort 2) and Orc 2's hidden blow gets through for 3 (13 -> 10);
- round 3: Lia's Riposte turns Orc 1 again (6 -> 3); Thrain's axe puts Orc 1 down (-3);
  the GM ends the fight: Orc 2 flees;
- Advance days: one day, everyone at full rest but Thrain (a light day: fatigue 3 -> 1);
  Lia's fatigue goes and her luck point comes back (seed 000 heals no health);
- "The ridge": Thrain, Lia and Orc 2; Lia Defends on her phone and Orc 2's blow takes her
  to 2 (wounded), her luck spent on a blank guard;
- the GM then voids Orc 1's round-2 blow on Lia in the ended first fight from the screen
  ("Orc 1 was still prone"): the preview says what it will change, and the carried
  effect is on the board of the second fight: Lia at 8, no longer wounded, on the GM's
  screen and on Bo's phone; the day's step and the second fight's blow are carried.

Screenshots go to the run's screenshots folder (tests/e2e/pictures.py)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.pictures import take
from tests.e2e.server import Server
from tests.patience import HANG_SECONDS

DESKTOP = {"width": 1400, "height": 1000}
PHONE = {"width": 390, "height": 844}
NAME = "The Sunken Ford"

AXE = {"name": "axe", "attribute": "might", "skill": "melee", "category": "melee",
       "base_damage": 3, "per_margin": "1", "damage_type": "slash",
       "defenses": ["evasion", "guard"], "ammunition": None}  # fmt: skip
RAPIER = {**AXE, "name": "rapier", "attribute": "grace", "base_damage": 2, "damage_type": "pierce"}
BLANK = {"marksmanship": 0, "evasion": 0, "guard": 0, "abjuration": 0, "health": None,
         "luck": 0, "armor": [], "weapons": [], "spells": [], "nature": {}}  # fmt: skip
# The sheets as the server stores them (every default written out).
THRAIN = {**BLANK, "might": 2, "grace": 1, "vigor": 3, "aether": 0, "melee": 2, "evasion": 1,
          "guard": 3, "race": "dwarf", "health": 16,
          "armor": [{"name": "mail", "rating": 4, "shield": False}], "weapons": [AXE]}  # fmt: skip
LIA = {**BLANK, "might": 1, "grace": 3, "vigor": 2, "aether": 1, "melee": 2, "evasion": 2,
       "race": "elf", "health": 14, "luck": 1, "weapons": [RAPIER]}  # fmt: skip
ORC = {**BLANK, "might": 3, "grace": 1, "vigor": 2, "aether": 0, "melee": 2, "race": "orc",
       "health": 14, "weapons": [AXE]}  # fmt: skip


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """A `skald serve` of this test's own, on a data directory that does not exist yet."""
    data = tmp_path / "data"
    assert not data.exists()
    running = Server(data).start()
    try:
        yield running
    finally:
        running.stop()


class Evening:
    """The GM's page, the phones, and the API read with the GM's key to assert."""

    def __init__(self, server: Server, gm: Page, api: httpx.Client) -> None:
        self.server = server
        self.gm = gm
        self.api = api
        self.phones: dict[str, Page] = {}
        self.cid = ""
        self.ids: dict[str, str] = {}
        self.fights: dict[str, str] = {}  # name -> encounter id

    # -- reading the API (GET, with the GM's key) --------------------------------------

    def get(self, path: str, **params: Any) -> Any:
        answer = self.api.get(f"/campaigns/{self.cid}{path}", params=params)
        assert answer.status_code == 200, answer.text
        return answer.json()

    def fight(self, name: str) -> dict[str, Any]:
        found: dict[str, Any] = self.get(f"/encounters/{self.fights[name]}", limit=200)
        return found

    def until(self, what: str, read: Callable[[], Any], holds: Callable[[Any], bool]) -> Any:
        """What `read` answers once `holds` is true of it (a page writes, then the test
        reads: a healing worker, for one, heals a day a moment after it is advanced)."""
        deadline = time.monotonic() + HANG_SECONDS
        while time.monotonic() < deadline:
            found = read()
            if holds(found):
                return found
            time.sleep(0.1)
        raise AssertionError(f"never: {what}; last read: {read()}")

    def tracks(self, name: str) -> dict[str, Any]:
        """A character's roster entry as the GM reads it: health, conditions, fatigue, luck."""
        c = self.get(f"/characters/{self.ids[name]}")
        return {"health": c["tracks"]["health"], "conditions": c["conditions"],
                "fatigue": c["state"]["fatigue"], "luck": c["state"]["luck"]}  # fmt: skip

    def in_fight(self, fight: str) -> dict[str, tuple[int, list[str], int, int]]:
        """Each combatant of a fight: health, conditions, fatigue, luck."""
        return {
            c["name"]: (c["tracks"]["health"], c["conditions"], c["state"]["fatigue"],
                        c["state"]["luck"])
            for c in self.fight(fight)["combatants"]
        }  # fmt: skip

    # -- the GM's screen ---------------------------------------------------------------

    def card(self, name: str) -> str:
        return f'#sides [data-combatant-id="{self.ids[name]}"]'

    def health_bar(self, page: Page, name: str) -> Any:
        """A character's health bar: on the GM's board (its fight), on a phone (their own)."""
        where = "#sides" if page is self.gm else "#mine"
        return page.locator(
            f'{where} [data-character-id="{self.ids[name]}"] .bar[data-track="health"]'
        )

    def next_turn(self, whose: str, round_: int) -> None:
        """The GM passes the turn; the board and every phone say whose it is."""
        self.gm.locator("#next-turn").click()
        expect(self.gm.locator("#turn-order .current")).to_have_attribute(
            "data-turn", self.ids[whose]
        )
        for phone in self.phones.values():
            expect(phone.locator("#turn")).to_contain_text(f"round {round_} · {whose}'s turn")

    def reason(self, text: str) -> None:
        """The reason dialog the GM screen opens: the reason written, confirmed."""
        expect(self.gm.locator("#reason-dialog")).to_be_visible()
        self.gm.locator("#reason-input").fill(text)
        self.gm.locator("#reason-ok").click()


def table_dice(page: Page, dice: dict[str, list[int]], offered: tuple[str, ...] = ()) -> None:
    """The table's dice typed in under the names the roll preview gives. The preview
    must offer exactly these rolls (and `offered`, rolls that may follow and are not
    needed), so nothing is left for the server to roll."""
    page.locator("input[name=dice-mode][value=table]").check()
    names = [*dice, *offered]
    for name in names:
        expect(page.locator(f'#dice-fields [data-roll-name="{name}"] input')).to_have_count(1)
    expect(page.locator("#dice-fields [data-roll-name]")).to_have_count(len(names))
    for name, faces in dice.items():
        page.locator(f'#dice-fields [data-roll-name="{name}"] input').fill(
            " ".join(str(face) for face in faces)
        )


def gm_attack(
    ev: Evening,
    attacker: str,
    target: str,
    dice: dict[str, list[int]],
    says: str,
    offered: tuple[str, ...] = (),
    hidden: bool = False,
) -> int:
    """The GM's blow for a foe: the attacker picked on the board, Attack, the target,
    the axe, the table's dice (rolled behind the screen: hidden); answers its number."""
    gm = ev.gm
    gm.locator(f"{ev.card(attacker)} h3").click()
    expect(gm.locator("#panel-caption")).to_contain_text(f"{attacker} acts")
    gm.locator("#action-buttons [data-kind=attack]").click()
    gm.locator("#param-target").select_option(ev.ids[target])
    expect(gm.locator("#param-weapon")).to_have_value("axe")  # the sheet's own, first
    if hidden:
        gm.locator('#action-form input[name="hidden"]').check()
    table_dice(gm, dice, offered)
    gm.locator("#action-submit").click()
    result = gm.locator("#result [data-result]")
    expect(result.locator(".summary")).to_have_text(says)
    return int(result.get_attribute("data-result") or 0)


def phone_act(
    ev: Evening,
    player: str,
    kind: str,
    says: str,
    effort: int | None = None,
    target: str | None = None,
    dice: dict[str, list[int]] | None = None,
    *,
    in_round: int,
) -> int:
    """A player's own turn on their phone: a posture (margin's defence, declared on the
    defender's turn, M5) or a blow with their own dice; answers the action's number."""
    phone = ev.phones[player]
    caption = f"{player}'s turn · round {in_round} · {player} acts"
    expect(phone.locator("#panel-caption")).to_have_text(caption)
    phone.locator(f"#action-buttons [data-kind={kind}]").click()
    if target is not None:
        phone.locator("#param-target").select_option(ev.ids[target])
    if effort is not None:
        phone.locator("#param-effort").fill(str(effort))
    if dice:
        table_dice(phone, dice)
    else:
        phone.locator("input[name=dice-mode][value=server]").check()
    phone.locator("#action-submit").click()
    result = phone.locator("#result [data-result]")
    expect(result.locator(".summary")).to_have_text(says)
    return int(result.get_attribute("data-result") or 0)


def order(*chips: str) -> list[re.Pattern[str]]:
    """The turn order's chips, each its name and its initiative total (then its arrows)."""
    return [re.compile(rf"^{re.escape(chip)}\b") for chip in chips]


def shoot(page: Page, folder: Path, name: str) -> None:
    """The GM's screen as the GM sees it (the board and the panel); a phone, whole."""
    take(page, folder, f"evening-margin-{name}.png", full_page=page.viewport_size == PHONE)


# -- the evening, step by step -----------------------------------------------------------


def new_campaign(ev: Evening) -> None:
    gm = ev.gm
    gm.goto(f"{ev.server.url}/gm")
    gm.locator("#new-campaign-name").fill(NAME)
    gm.locator("#new-campaign-ruleset").select_option("margin")
    gm.locator("#new-campaign-initiative").select_option("roll")
    gm.locator("#new-campaign-initiative-add").select_option("grace")
    gm.locator("#new-campaign-create").click()
    key = gm.locator("#gm-key-once").inner_text()
    link = gm.locator("#new-campaign-key [data-once]").inner_text()
    gm.locator("#new-campaign-open").click()
    expect(gm.locator("#connection")).to_have_attribute("data-state", "live")
    expect(gm.locator("#campaign-facts")).to_have_text("margin · day 0")
    ev.api.headers["authorization"] = f"Bearer {key}"
    ev.cid = link.split("#campaign=")[1].split("&")[0]
    campaign = ev.get("")
    assert (campaign["name"], campaign["ruleset"], campaign["day"]) == (NAME, "margin", 0)
    assert campaign["options"]["initiative"] == {
        "mode": "roll", "dice": "1d20", "add": "grace", "each_round": False,
    }  # fmt: skip


def sheet(gm: Page, fields: dict[str, str]) -> None:
    for name, value in fields.items():
        field = gm.locator(f"#enrol-sheet > .sheet-form > label [data-sheet={name}]")
        if field.evaluate("input => input.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)


def listed(gm: Page, group: str, fields: dict[str, str]) -> None:
    """One entry of a list on the sheet (an armour item, a weapon): added, then filled."""
    gm.locator(f"#enrol-sheet [data-add={group}]").click()
    entry = gm.locator(f'#enrol-sheet [data-sheet-field="{group}"] .entry').last
    for name, value in fields.items():
        field = entry.locator(f"[data-sheet={name}]")
        if field.evaluate("input => input.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)


def enrol_pc(ev: Evening, name: str, player: str, fields: dict[str, str],
             lists: list[tuple[str, dict[str, str]]]) -> str:  # fmt: skip
    """A PC from an empty sheet, its player named: their key comes with them, and the
    screen shows its link once. Answers the link."""
    gm = ev.gm
    gm.locator("#enrol-from").select_option("e:")
    gm.locator("#enrol-name").fill(name)
    gm.locator("input[name=enrol-kind][value=pc]").check()
    gm.locator("#enrol-player").fill(player)
    sheet(gm, fields)
    for group, entry in lists:
        listed(gm, group, entry)
    gm.locator("#enrol-add").click()
    card = gm.locator("#key-once")
    expect(card.locator("h3")).to_have_text(f"A player key for {name}")
    link = card.locator("[data-once]")
    expect(link).to_contain_text("/play#campaign=")
    return link.inner_text()


def weapon(name: str, attribute: str, base: str, damage_type: str) -> tuple[str, dict[str, str]]:
    return ("weapons", {"name": name, "attribute": attribute, "skill": "melee",
                        "category": "melee", "base_damage": base, "per_margin": "1",
                        "damage_type": damage_type})  # fmt: skip


def party_and_foes(ev: Evening) -> dict[str, str]:
    """Thrain and Lia from the sheet form, Orc 1 and Orc 2 from the bestiary. Answers
    each player's link."""
    gm = ev.gm
    gm.locator("#enrol-box summary").click()
    links = {
        "Thrain": enrol_pc(
            ev, "Thrain", "Ana",
            {"might": "2", "grace": "1", "vigor": "3", "aether": "0", "melee": "2",
             "evasion": "1", "guard": "3", "race": "dwarf"},
            [("armor", {"name": "mail", "rating": "4"}), weapon("axe", "might", "3", "slash")],
        ),
        "Lia": enrol_pc(
            ev, "Lia", "Bo",
            {"might": "1", "grace": "3", "vigor": "2", "aether": "1", "melee": "2",
             "evasion": "2", "race": "elf", "luck": "1"},
            [weapon("rapier", "grace", "2", "pierce")],
        ),
    }  # fmt: skip
    # The foe: the page's Orc starter, saved to the bestiary; "2 x Orc" enrolled from it.
    gm.locator("#enrol-from").select_option("t:Orc (template)")
    expect(gm.locator("#enrol-name")).to_have_value("Orc")
    gm.locator("#enrol-save").click()
    expect(gm.locator("#bestiary-message")).to_have_text("Orc saved to the bestiary.")
    gm.locator("#bestiary-count").fill("2")
    gm.locator("#bestiary-enrol").click()
    expect(gm.locator("#bestiary-message")).to_have_text("Enrolled Orc 1, Orc 2.")
    expect(gm.locator("#roster .card")).to_have_count(4)

    characters = ev.get("")["characters"]
    ev.ids = {c["name"]: c["id"] for c in characters}
    assert [(c["name"], c.get("npc", False), c.get("player")) for c in characters] == [
        ("Thrain", False, "Ana"), ("Lia", False, "Bo"), ("Orc 1", True, None),
        ("Orc 2", True, None),
    ]  # fmt: skip
    sheets = {c["name"]: c["sheet"] for c in characters}
    assert sheets == {"Thrain": THRAIN, "Lia": LIA, "Orc 1": ORC, "Orc 2": ORC}
    assert [(e["name"], e["sheet"]) for e in ev.get("/bestiary")] == [("Orc", ORC)]
    keys = [(k["role"], k["characters"], k["label"]) for k in ev.get("/keys")]
    assert keys == [
        ("gm", [], "GM"),
        ("player", [ev.ids["Thrain"]], "Ana"),
        ("player", [ev.ids["Lia"]], "Bo"),
    ]
    return links


def hand_over(ev: Evening, browser: Browser, links: dict[str, str]) -> None:
    """Each player opens the link the GM screen handed over, on a phone."""
    for name, link in links.items():
        assert "?" not in link and "#campaign=" in link  # the key after '#', never a query
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        phone = context.new_page()
        phone.goto(link)
        expect(phone.locator("#connection")).to_have_attribute("data-state", "live")
        expect(phone.locator("#mine .card h3")).to_have_text(name)
        assert "key=" not in phone.url  # the page took the key out of the address bar
        ev.phones[name] = phone


def start_fight(ev: Evening, name: str, who: list[str], initiative: dict[str, int]) -> None:
    """A fight set up from the roster (the sides as the screen proposes them: NPCs are
    foes), then the initiative rolled with the table's d20s."""
    gm = ev.gm
    gm.locator("#setup-box summary").click()
    gm.locator("#setup-name").fill(name)
    for character in who:
        gm.locator(f'#setup-rows [data-character="{ev.ids[character]}"]').check()
    gm.locator("#setup-start").click()
    expect(gm.locator("#board-title")).to_have_text(f"Encounter: {name}")
    expect(gm.locator("#sides .card")).to_have_count(len(who))
    ev.fights[name] = gm.locator("#encounter-picker").input_value()
    if not gm.locator("#initiative-dice").evaluate("box => box.open"):
        gm.locator("#initiative-dice > summary").click()
    for character, face in initiative.items():
        gm.locator(f'#initiative-dice [data-initiative-die="{ev.ids[character]}"]').fill(str(face))
    gm.locator("#roll-initiative").click()
    expect(gm.locator("#turn-order [data-initiative]")).to_have_count(len(who))


def test_an_evening_of_margin_through_the_pages(
    server: Server, browser: Browser, screenshots: Path
) -> None:
    with (
        browser.new_context(viewport=DESKTOP) as desk,
        httpx.Client(base_url=server.url, timeout=HANG_SECONDS) as api,
    ):
        ev = Evening(server, desk.new_page(), api)
        try:
            evening(ev, browser, screenshots)
        finally:
            for phone in ev.phones.values():
                phone.context.close()


def evening(ev: Evening, browser: Browser, screenshots: Path) -> None:
    gm = ev.gm
    new_campaign(ev)
    links = party_and_foes(ev)
    hand_over(ev, browser, links)
    ana, bo = ev.phones["Thrain"], ev.phones["Lia"]

    # -- The ford: initiative with the table's dice (1d20 + Grace) ----------------------
    start_fight(ev, "The ford", ["Thrain", "Lia", "Orc 1", "Orc 2"],
                {"Lia": 15, "Orc 1": 12, "Thrain": 10, "Orc 2": 5})  # fmt: skip
    chips = gm.locator("#turn-order [data-turn]")
    expect(chips).to_have_text(order("Lia 18", "Orc 1 13", "Thrain 11", "Orc 2 6"))
    ford = ev.fight("The ford")
    assert ford["turn"]["initiative"] == {
        ev.ids["Lia"]: 18, ev.ids["Orc 1"]: 13, ev.ids["Thrain"]: 11, ev.ids["Orc 2"]: 6,
    }  # fmt: skip
    assert (ford["round"], ford["turn"]["current"]) == (1, ev.ids["Lia"])
    for phone in (ana, bo):
        expect(phone.locator("#turn")).to_have_text("The ford, round 1 · Lia's turn")
    expect(ana.locator("#panel-caption")).to_have_text("Lia's turn · round 1")

    # -- Round 1 --------------------------------------------------------------------------
    # Lia takes up Riposte on her phone, with 1 effort die: 7 evasion dice all round.
    phone_act(ev, "Lia", "riposte", "Lia takes up Riposte for round 1 with 1 effort dice",
              effort=1, in_round=1)  # fmt: skip
    ev.next_turn("Orc 1", 1)
    # Orc 1's blow at Lia, rolled behind the screen (hidden): 2 against her 3 and, her guard
    # blank, her luck point's reroll 1: margin -2, turned; her rapier answers for 4.
    hidden = gm_attack(
        ev, "Orc 1", "Lia",
        {"Orc 1's attack": [6, 5, 1, 2, 3], "Lia's evasion": [5, 6, 5, 1, 2, 3, 4],
         "Lia's guard": [3, 4], "Lia's guard (luck)": [5, 2]},
        "Orc 1 attacks with axe at Lia: 2 against 4, margin -2; turned; Lia counters with "
        "rapier: Orc 1 takes 4",
        offered=("Lia's evasion (luck)",), hidden=True,
    )  # fmt: skip
    # Bo's phone shows the hidden roll only as its outcome: no dice, no numbers of the orc's.
    told = bo.locator(f'#log [data-action="{hidden}"]')
    expect(told).to_have_text(
        "Orc 1 attacks Lia with axe: the blow is turned and Lia counters with rapier; Orc 1 is hurt"
    )
    ev.next_turn("Thrain", 1)
    phone_act(ev, "Thrain", "ward", "Thrain takes up Ward for round 1 with 1 effort dice",
              effort=1, in_round=1)  # fmt: skip
    ev.next_turn("Orc 2", 1)
    # A slip: Orc 2 sent at Thrain instead of Lia; the GM undoes it (a void, on record).
    slip = gm_attack(
        ev, "Orc 2", "Thrain",
        {"Orc 2's attack": [1, 2, 3, 4, 1], "Thrain's evasion": [1, 2, 3],
         "Thrain's guard": [1, 2, 3, 4, 1, 2, 3]},
        "Orc 2 attacks with axe at Thrain: 0 against 0, margin 0; the blow is turned: nothing "
        "happens, no damage of any kind",
    )  # fmt: skip
    gm.locator("#undo-last").click()
    expect(gm.locator("#result [data-correction=void]")).to_be_visible()
    expect(gm.locator(f'#actions li.voided[data-action-number="{slip}"]')).to_have_count(1)
    # Orc 2's blow at Lia beats her by 2; Thrain's Ward takes it through his mail:
    # 3 + 1 = 4 x 0.9^4 = 2.62 -> 3.
    gm_attack(
        ev, "Orc 2", "Lia",
        {"Orc 2's attack": [6, 6, 6, 5, 2], "Lia's evasion": [5, 1, 1, 2, 2, 3, 4],
         "Lia's guard": [6, 1], "Thrain's ward evasion": [1, 2, 3],
         "Thrain's ward guard": [5, 1, 1, 1, 2, 2, 3]},
        "Orc 2 attacks with axe at Lia: 4 against 2, margin 2; Thrain intercepts, Thrain takes "
        "3 (health 16 -> 13)",
    )  # fmt: skip
    for page in (gm, ana):
        expect(ev.health_bar(page, "Thrain")).to_have_attribute("data-current", "13")
    # A marker: Orc 1 lies prone for a round, counted at the end of its own turn.
    gm.locator(f"{ev.card('Orc 1')} h3").click()
    gm.locator("#gm-tools > summary").click()
    gm.locator("#gm-mark [name=marker]").fill("prone")
    gm.locator("#gm-mark [name=rounds]").fill("1")
    gm.locator("#gm-mark [name=note]").fill("knocked flat by Lia's counter")
    gm.locator("#gm-mark button[type=submit]").click()
    expect(gm.locator(f'{ev.card("Orc 1")} [data-marker="prone"]')).to_have_text("prone · 1")
    for phone in (ana, bo):
        chip = phone.locator(f'#foes [data-character-id="{ev.ids["Orc 1"]}"] [data-marker=prone]')
        expect(chip).to_have_text("prone (1 round left)")
    assert ev.in_fight("The ford") == {
        "Thrain": (13, [], 1, 0), "Lia": (14, [], 1, 0), "Orc 1": (10, [], 0, 0),
        "Orc 2": (14, [], 0, 0),
    }  # fmt: skip
    shoot(gm, screenshots, "gm-round-1")
    shoot(bo, screenshots, "lia-round-1")

    # -- Round 2 --------------------------------------------------------------------------
    ev.next_turn("Lia", 2)
    # Lia's rapier from her phone, her own dice: margin 3, Orc 1 takes 5...
    lunge = phone_act(
        ev, "Lia", "attack",
        "Lia attacks with rapier at Orc 1: 3 against 0, margin 3; Orc 1 is wounded; Orc 1 "
        "gains: wounded", target="Orc 1",
        dice={"Lia's attack": [6, 6, 5, 2, 1], "Orc 1's evasion": [2], "Orc 1's guard": [3, 4]},
        in_round=2,
    )  # fmt: skip
    # ...but a die rolled off the table: the GM rerolls it with the table's dice, one field
    # per roll the reroll takes, named and sized as the API works them out from the blow as
    # it was resolved (every one typed: nothing left for the server to roll).
    gm.locator(f"#actions [data-reroll='{lunge}']").click()
    expect(gm.locator("#reroll-dice [data-roll-name] > span")).to_have_text(
        ["Lia's attack: 5d6", "Orc 1's evasion: 1d6", "Orc 1's guard: 2d6"]
    )
    for roll, faces in (("Lia's attack", "6 5 1 1 2"), ("Orc 1's evasion", "3"),
                        ("Orc 1's guard", "2 3")):  # fmt: skip
        gm.locator(f'#reroll-dice [data-reroll-die="{roll}"]').fill(faces)
    ev.reason("a die rolled off the table")
    expect(gm.locator("#result [data-correction=reroll]")).to_be_visible()
    expect(ev.health_bar(gm, "Orc 1")).to_have_attribute("data-current", "6")
    rerolled = next(a for a in ev.fight("The ford")["actions"] if a["number"] == lunge)
    assert rerolled["summary"] == (
        "Lia attacks with rapier at Orc 1: 2 against 0, margin 2; Orc 1 takes 4 (health 10 -> 6); "
        "Orc 1 gains: wounded"
    )
    assert [r["faces"] for r in rerolled["rolls"]] == [[6, 5, 1, 1, 2], [3], [2, 3]]
    ev.next_turn("Orc 1", 2)
    # Orc 1, wounded (4 dice), strikes Lia, whose defences are passive after her attack.
    blow = gm_attack(
        ev, "Orc 1", "Lia",
        {"Orc 1's attack": [6, 6, 5, 5], "Lia's evasion": [5, 1, 2], "Lia's guard": [1, 2]},
        "Orc 1 attacks with axe at Lia: 4 against 1, margin 3; Lia takes 6 (health 14 -> 8)",
    )  # fmt: skip
    for page in (gm, bo):
        expect(ev.health_bar(page, "Lia")).to_have_attribute("data-current", "8")
    # The end of Orc 1's turn: the marker expires, on record.
    ev.next_turn("Thrain", 2)
    expect(gm.locator(f'{ev.card("Orc 1")} [data-marker="prone"]')).to_have_count(0)
    expect(bo.locator("#foes [data-marker=prone]")).to_have_count(0)
    phone_act(ev, "Thrain", "defend", "Thrain takes up Defend for round 2 with 2 effort dice",
              effort=2, in_round=2)  # fmt: skip
    ev.next_turn("Orc 2", 2)
    # Orc 2's blow at Thrain, hidden: 4 against his 3 (8 guard dice under Defend): 3.
    secret = gm_attack(
        ev, "Orc 2", "Thrain",
        {"Orc 2's attack": [6, 6, 6, 5, 2], "Thrain's evasion": [5, 1, 2, 3],
         "Thrain's guard": [6, 5, 1, 2, 2, 3, 3, 4]},
        "Orc 2 attacks with axe at Thrain: 4 against 3, margin 1; Thrain takes 3 (health "
        "13 -> 10)", hidden=True,
    )  # fmt: skip
    expect(ana.locator(f'#log [data-action="{secret}"]')).to_have_text(
        "Orc 2 attacks Thrain with axe and hits: Thrain is at 10 health"
    )
    expect(ev.health_bar(ana, "Thrain")).to_have_attribute("data-current", "10")

    # -- Round 3 --------------------------------------------------------------------------
    ev.next_turn("Lia", 3)
    phone_act(ev, "Lia", "riposte", "Lia takes up Riposte for round 3", in_round=3)
    ev.next_turn("Orc 1", 3)
    gm_attack(
        ev, "Orc 1", "Lia",
        {"Orc 1's attack": [5, 1, 1, 2], "Lia's evasion": [6, 5, 1, 1, 2, 2],
         "Lia's guard": [3, 3]},
        "Orc 1 attacks with axe at Lia: 1 against 2, margin -1; turned; Lia counters with "
        "rapier: Orc 1 takes 3",
    )  # fmt: skip
    ev.next_turn("Thrain", 3)
    # Thrain's axe, 3 dice (4 less his exhaustion: fatigue 3 // 2): Orc 1 goes down.
    phone_act(
        ev, "Thrain", "attack",
        "Thrain attacks with axe at Orc 1: 3 against 0, margin 3; Orc 1 is down; Orc 1 gains: "
        "down", target="Orc 1",
        dice={"Thrain's attack": [6, 6, 6], "Orc 1's evasion": [2], "Orc 1's guard": [3, 3]},
        in_round=3,
    )  # fmt: skip
    expect(gm.locator(f"{ev.card('Orc 1')} [data-condition=down]")).to_be_visible()
    ev.next_turn("Orc 2", 3)
    shoot(gm, screenshots, "gm-round-3")
    shoot(ana, screenshots, "thrain-round-3")

    # -- The end ------------------------------------------------------------------------
    gm.locator("#end-encounter").click()
    ev.reason("Orc 2 flees over the ford")
    expect(gm.locator("#board-caption")).to_contain_text("ended: Orc 2 flees over the ford")
    for phone in (ana, bo):
        expect(phone.locator("#turn")).to_have_text("No fight under way.")
    ford = ev.fight("The ford")
    assert ford["ended"] and ford["end_reason"] == "Orc 2 flees over the ford"
    # Every record of the fight, in order: the table's (initiative, turns, the marker and
    # its expiry), the postures and the blows; the slip undone, nothing else voided.
    turn = ("turn", "active")
    assert [(a["kind"], a["status"]) for a in ford["actions"]] == [
        ("initiative", "active"),
        ("riposte", "active"), turn, ("attack", "active"), turn, ("ward", "active"), turn,
        ("attack", "voided"), ("attack", "active"), ("mark", "active"), turn,
        ("attack", "active"), turn, ("attack", "active"), turn, ("expire", "active"),
        ("defend", "active"), turn, ("attack", "active"), turn,
        ("riposte", "active"), turn, ("attack", "active"), turn, ("attack", "active"), turn,
    ]  # fmt: skip
    assert ford["markers"] == [] and ford["round"] == 3
    assert [(c["kind"], c["number"]) for c in ford["corrections"]] == [
        ("void", slip), ("reroll", lunge),
    ]  # fmt: skip
    hidden_rolls = [a["hidden"] for a in ford["actions"] if a["number"] in (hidden, secret)]
    assert hidden_rolls == [True, True]
    after_ford = {
        "Thrain": {"health": 10, "conditions": [], "fatigue": 3, "luck": 0},
        "Lia": {"health": 8, "conditions": [], "fatigue": 1, "luck": 0},
        "Orc 1": {"health": -3, "conditions": ["wounded", "down"], "fatigue": 0, "luck": 0},
        "Orc 2": {"health": 14, "conditions": [], "fatigue": 0, "luck": 0},
    }
    assert {name: ev.tracks(name) for name in ev.ids} == after_ford

    # -- Advance days: a day's rest, Thrain's a light one ----------------------------------
    gm.locator("#days-box summary").click()
    expect(gm.locator("#days-default-rest")).to_have_value("full")
    gm.locator(f"#days-plan-{ev.ids['Thrain']}-rest").select_option("light")
    gm.locator(f"#days-plan-{ev.ids['Lia']}-rest").select_option("full")
    gm.locator("#days-advance").click()
    expect(gm.locator("#days-message")).to_have_text("Day 1: 1 day(s) passed.")
    expect(gm.locator("#campaign-facts")).to_have_text("margin · day 1")
    (day,) = ev.get("/history", kind="DayAdvanced")["entries"]
    everyone = {"rest": "full"}
    assert (day["day"], day["plans"]) == (1, {
        ev.ids["Thrain"]: {"rest": "light"}, ev.ids["Lia"]: everyone,
        ev.ids["Orc 1"]: everyone, ev.ids["Orc 2"]: everyone,
    })  # fmt: skip
    healed = ev.until(
        "the day healed for everyone",
        lambda: ev.get("/history", kind="CharacterHealed")["entries"],
        lambda found: len(found) == 4,
    )
    by_name = {v: k for k, v in ev.ids.items()}
    rested = {by_name[h["character_id"]]: (h["day"], h["breakdown"]["rest"],
                                           h["breakdown"]["fatigue"], h["breakdown"]["luck"])
              for h in healed}  # fmt: skip
    assert rested == {
        "Thrain": (1, "light", {"before": 3, "after": 1}, {"before": 0, "after": 0}),
        "Lia": (1, "full", {"before": 1, "after": 0}, {"before": 0, "after": 1}),
        "Orc 1": (1, "full", {"before": 0, "after": 0}, {"before": 0, "after": 0}),
        "Orc 2": (1, "full", {"before": 0, "after": 0}, {"before": 0, "after": 0}),
    }
    after_day = {**after_ford,
                 "Thrain": {**after_ford["Thrain"], "fatigue": 1},
                 "Lia": {**after_ford["Lia"], "fatigue": 0, "luck": 1}}  # fmt: skip
    assert {name: ev.tracks(name) for name in ev.ids} == after_day
    # What the day did, on the screen: the counters margin publishes (fatigue, luck) on
    # the roster's cards, and on each player's own card.
    for name, counted in (("Thrain", {"fatigue": 1, "luck": 0}),
                          ("Lia", {"fatigue": 0, "luck": 1})):  # fmt: skip
        for counter, value in counted.items():
            for where in (gm.locator(f'#roster [data-character-id="{ev.ids[name]}"]'),
                          ev.phones[name].locator("#mine")):  # fmt: skip
                expect(where.locator(f"[data-counter={counter}]")).to_have_text(
                    f"{counter} {value}"
                )

    # -- The ridge: a second fight ----------------------------------------------------
    start_fight(ev, "The ridge", ["Thrain", "Lia", "Orc 2"],
                {"Lia": 14, "Orc 2": 9, "Thrain": 3})  # fmt: skip
    expect(chips).to_have_text(order("Lia 17", "Orc 2 10", "Thrain 4"))
    for phone in (ana, bo):
        expect(phone.locator("#turn")).to_have_text("The ridge, round 1 · Lia's turn")
    phone_act(ev, "Lia", "defend", "Lia takes up Defend for round 1", in_round=1)
    ev.next_turn("Orc 2", 1)
    gm_attack(
        ev, "Orc 2", "Lia",
        {"Orc 2's attack": [6, 6, 6, 5, 1], "Lia's evasion": [5, 1, 2, 3, 4],
         "Lia's guard": [2, 3], "Lia's guard (luck)": [4, 4]},
        "Orc 2 attacks with axe at Lia: 4 against 1, margin 3; Lia takes 6 (health 8 -> 2); "
        "Lia gains: wounded",
        offered=("Lia's evasion (luck)",),
    )  # fmt: skip
    for page in (gm, bo):
        expect(ev.health_bar(page, "Lia")).to_have_attribute("data-current", "2")
    expect(gm.locator(f"{ev.card('Lia')} [data-condition=wounded]")).to_be_visible()
    expect(bo.locator("#mine [data-counter=luck]")).to_have_text("luck 0")  # spent on her guard
    assert ev.in_fight("The ridge") == {
        "Thrain": (10, [], 1, 0), "Lia": (2, ["wounded"], 0, 0), "Orc 2": (14, [], 0, 0),
    }  # fmt: skip
    ridge_blow = ev.fight("The ridge")["actions"][-1]
    shoot(gm, screenshots, "gm-ridge")

    # -- A void in the ended first fight, from the screen --------------------------------
    # "Orc 1 was still prone": its round-2 blow on Lia never happened.
    gm.locator("#encounter-picker").select_option(ev.fights["The ford"])
    expect(gm.locator("#board-caption")).to_contain_text("ended: Orc 2 flees over the ford")
    gm.locator(f"#actions [data-void='{blow}']").click()
    ev.reason("Orc 1 was still prone: it could not strike")
    # The API's preview first: the first fight's end and the day's step carry Lia's 14,
    # and the second fight's blow is worked out again from it with its recorded dice.
    preview = gm.locator("dialog#preview-dialog")
    expect(preview).to_be_visible()
    expect(preview.locator("#preview-message")).to_have_text("2 step(s) and 1 action(s) change")
    expect(preview.locator("[data-preview-action]")).to_have_text([
        f"The ridge #{ridge_blow['number']} changed: {ridge_blow['summary']} → Orc 2 attacks "
        "with axe at Lia: 4 against 1, margin 3; Lia takes 6 (health 14 -> 8)",
    ])  # fmt: skip
    expect(preview.locator("[data-preview-step]")).to_have_text([
        "after The ford, Lia: health 8 → health 14", "day 1's heal, Lia: health 8 → health 14",
    ])  # fmt: skip
    # Lia now: as the second fight holds her, and as the void leaves her there.
    expect(preview.locator("[data-preview-character]")).to_have_text(
        ["Lia now: health 2 → health 8"]
    )
    shoot(gm, screenshots, "gm-void-preview")
    preview.locator('button[value="ok"]').click()
    expect(gm.locator("#result [data-correction=void]")).to_be_visible()
    # The first fight's board: Lia ended it at 14.
    expect(ev.health_bar(gm, "Lia")).to_have_attribute("data-current", "14")
    # The carried effect, on the board of the second fight: Lia at 8, no longer wounded.
    gm.locator("#encounter-picker").select_option(ev.fights["The ridge"])
    expect(gm.locator("#board-title")).to_have_text("Encounter: The ridge")
    expect(ev.health_bar(gm, "Lia")).to_have_attribute("data-current", "8")
    expect(gm.locator(f"{ev.card('Lia')} [data-condition=wounded]")).to_have_count(0)
    expect(ev.health_bar(bo, "Lia")).to_have_attribute("data-current", "8")
    expect(bo.locator("#mine [data-condition=wounded]")).to_have_count(0)
    shoot(gm, screenshots, "gm-after-void")
    shoot(bo, screenshots, "lia-after-void")

    ford = ev.fight("The ford")
    voided = next(a for a in ford["actions"] if a["number"] == blow)
    assert voided["status"] == "voided"
    assert [(c["kind"], c["number"]) for c in ford["corrections"]] == [
        ("void", slip), ("reroll", lunge), ("void", blow),
    ]  # fmt: skip
    assert ev.in_fight("The ford")["Lia"] == (14, [], 1, 0)
    assert ev.in_fight("The ridge") == {
        "Thrain": (10, [], 1, 0), "Lia": (8, [], 0, 0), "Orc 2": (14, [], 0, 0),
    }  # fmt: skip
    carried = ev.fight("The ridge")["actions"][-1]
    assert (carried["number"], carried["summary"]) == (
        ridge_blow["number"],
        "Orc 2 attacks with axe at Lia: 4 against 1, margin 3; Lia takes 6 (health 14 -> 8)",
    )
    (carry,) = ev.get("/history", kind="CorrectionCarried")["entries"]
    steps = [(s["kind"], s["name"], s["before"]["tracks"], s["after"]["tracks"])
             for s in carry["correction"]["carried"]["steps"]]  # fmt: skip
    assert steps == [
        ("encounter", "Lia", {"health": 8}, {"health": 14}),
        ("heal", "Lia", {"health": 8}, {"health": 14}),
    ]
    # What the day now did for Lia, carried: her health as the void left it, her fatigue
    # rested away and her luck point back, as the full rest gave them.
    (heal,) = [s["version"] for s in carry["correction"]["carried"]["steps"] if s["kind"] == "heal"]
    day_now = carry["steps"][str(heal)][ev.ids["Lia"]]
    assert (day_now["tracks"], day_now["state"]["fatigue"], day_now["state"]["luck"]) == (
        {"health": 14}, 0, 1,
    )  # fmt: skip
