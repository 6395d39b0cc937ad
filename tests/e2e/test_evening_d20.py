"""A whole d20 evening through the pages only (issue 36, "Done when"): the GM on the GM
screen (/gm, a desktop), each player on /play on a phone (390x844) opened from the link
the GM screen hands over, a real `skald serve` from an empty data directory, Debian's
Chromium.

Every write is a press on a page; the table's dice are typed wherever the pages take them
(the action panel, the phone's "my dice", the initiative's and a reroll's table dice), so
every number is exact. The API is read (GET, with the GM key) only to assert: tracks,
conditions, statuses, record counts, and the carried effect of the void after the end.

The evening (seed 004, RULINGS D1-D12, T1-T3):

- the campaign (rolled initiative, 1d20 + DEX), Brannoc and Mira enrolled as PCs with
  their players' keys (each handed over as the link the screen shows), two bandits;
- "Ambush on the road": initiative from the table's dice (Mira 17, Bandit 1 14, Brannoc
  13, Bandit 2 9);
- round 1: Mira takes a Defensive Stance on her turn from her phone (FD 13 -> 16); the
  GM's slip (Bandit 1 strikes Mira) undone, then Bandit 1 hits Brannoc for 2; Brannoc
  hits Bandit 1 for 5 from his phone; a marker on Bandit 2 (cover, two rounds); Bandit
  2's shove on Mira (14) fails against her stance (it would beat her FD 13 without it);
- round 2: Mira hits Bandit 1 for 2; Bandit 1's blow on Mira rolled hidden (4 dealt: her
  phone reads the outcome, no die); Brannoc downs Bandit 1 (6); Bandit 2 hits Brannoc
  for 1, and the GM rerolls it (the d20 rolled off the table; the new one, a 6, misses);
- round 3: Bandit 1 is passed over (down), the marker has expired; Mira hits Bandit 2
  for 1; Brannoc grapples Bandit 2 from his phone; Bandit 2 fails to escape; the end
  ("the bandit yields");
- Advance days (d20's days take no plan and heal nothing);
- "Wolf at the ford": a new foe; the wolf bites Brannoc for 4 (22 -> 18);
- the void of Bandit 1's blow on Brannoc in the ended first fight, from the screen, its
  preview first: its 2 HP come back through the first fight's end and the second fight,
  where the board and his phone show 20 (d20 has no day's heal to carry them through).

Screenshots go to the run's screenshots folder (tests/e2e/pictures.py)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect

from tests.e2e.pictures import take
from tests.e2e.server import Server
from tests.patience import HANG_SECONDS

DESKTOP: ViewportSize = {"width": 1400, "height": 1000}
PHONE: ViewportSize = {"width": 390, "height": 844}


# -- the GM's presses ---------------------------------------------------------------------


def unfold(page: Page, box: str) -> None:
    if not page.locator(box).evaluate("box => box.open"):
        page.locator(f"{box} > summary").click()


def sheet_field(page: Page, name: str) -> Any:
    return page.locator(f'#enrol-sheet [data-sheet="{name}"]')


def enrol(
    gm: Page,
    name: str,
    fields: dict[str, str],
    *,
    player: str | None = None,
    count: int = 1,
    weapon: tuple[str, str] | None = None,
) -> None:
    """Enrol from the Bandit starter sheet, its fields changed as `fields` says (select
    fields by their option, the others typed): a PC with its player's name (the screen
    issues the player's key at once) or `count` NPCs."""
    unfold(gm, "#enrol-box")
    gm.locator("#enrol-from").select_option("t:Bandit (template)")
    gm.locator("#enrol-name").fill(name)
    gm.locator("#enrol-count").fill(str(count))
    gm.locator(f"input[name=enrol-kind][value={'pc' if player else 'npc'}]").check()
    gm.locator("#enrol-player").fill(player or "")
    for field, value in fields.items():
        found = sheet_field(gm, field)
        if found.evaluate("e => e.tagName") == "SELECT":
            found.select_option(value)
        else:
            found.fill(value)
    if weapon:
        weapons = gm.locator('#enrol-sheet [data-sheet-field="weapons"]')
        weapons.locator('[data-sheet="name"]').fill(weapon[0])
        weapons.locator('[data-sheet="damage"]').fill(weapon[1])
    gm.locator("#enrol-add").click()
    expect(gm.locator("html[data-writing]")).to_have_count(0)


def roster_ids(gm: Page) -> dict[str, str]:
    """The characters' ids as the GM screen's roster cards carry them, by name."""
    cards = gm.locator("#roster [data-character-id]")
    return {
        card.locator("h3").evaluate("h => h.firstChild.textContent"): str(
            card.get_attribute("data-character-id")
        )
        for card in cards.all()
    }


def pick(gm: Page, combatant: str) -> None:
    gm.locator(f'#sides [data-combatant-id="{combatant}"] h3').click()


def table_dice(page: Page, dice: dict[str, str]) -> None:
    """The table's dice, typed under the names the roll preview gives ("Bandit 1's hit")."""
    page.locator("input[name=dice-mode][value=table]").check()
    for roll, faces in dice.items():
        field = page.locator(f'#dice-fields [data-roll-name="{roll}"] input')
        expect(field).to_have_count(1)
        field.fill(faces)


def act(
    page: Page,
    kind: str,
    params: dict[str, str],
    dice: dict[str, str],
    *,
    actor: str | None = None,
    hidden: bool = False,
) -> None:
    """An action through the combat panel: on the GM screen for `actor` (picked on the
    board), on a phone for the player's own character."""
    if actor:
        pick(page, actor)
    page.locator(f"#action-buttons [data-kind={kind}]").click()
    for name, value in params.items():
        page.locator(f"#param-{name}").select_option(value)
    if hidden:
        page.locator('#action-form input[name="hidden"]').check()
    if dice:
        table_dice(page, dice)
    page.locator("#action-submit").click()


def next_turn(gm: Page, whose: str) -> None:
    gm.locator("#next-turn").click()
    expect(gm.locator("#turn-order .current")).to_contain_text(whose)


def reason(gm: Page, text: str) -> None:
    gm.locator("#reason-input").fill(text)
    gm.locator("#reason-ok").click()


# -- what the API recorded (GET with the GM key) -------------------------------------------


class Record:
    def __init__(self, server: Server, cid: str, key: str) -> None:
        self.base = f"/campaigns/{cid}"
        self.http = httpx.Client(
            base_url=server.url, headers={"authorization": f"Bearer {key}"}, timeout=HANG_SECONDS
        )

    def get(self, path: str) -> Any:
        answer = self.http.get(f"{self.base}{path}")
        assert answer.status_code == 200, answer.text
        return answer.json()

    def campaign(self) -> Any:
        return self.get("")

    def fight(self, eid: str) -> Any:
        return self.get(f"/encounters/{eid}?limit=200")

    def hp(self, eid: str) -> dict[str, int]:
        return {c["name"]: c["tracks"]["hp"] for c in self.fight(eid)["combatants"]}

    def conditions(self, eid: str) -> dict[str, list[str]]:
        return {c["name"]: sorted(c["conditions"]) for c in self.fight(eid)["combatants"]}

    def actions(self, eid: str) -> list[tuple[str, str, str]]:
        """(kind, status, summary) of each action, in order."""
        return [(a["kind"], a["status"], a["summary"]) for a in self.fight(eid)["actions"]]


def bar(page: Page | Locator, character: str) -> Any:
    return page.locator(f'[data-character-id="{character}"] .bar[data-track="hp"]').first


# -- the evening -----------------------------------------------------------------------------


def test_a_d20_evening_through_the_pages(
    server: Server, browser: Browser, screenshots: Path
) -> None:
    gm = browser.new_context(viewport=DESKTOP).new_page()

    # The campaign, from the GM screen of a server that has none: rolled initiative,
    # 1d20 + the DEX modifier (RULINGS T1: a d20 ability adds its D1 modifier).
    gm.goto(f"{server.url}/gm")
    gm.locator("#new-campaign-name").fill("The Salt Road")
    gm.locator("#new-campaign-ruleset").select_option("d20")
    gm.locator("#new-campaign-initiative").select_option("roll")
    gm.locator("#new-campaign-initiative-add").select_option("dexterity")
    gm.locator("#new-campaign-create").click()
    gm_key = gm.locator("#gm-key-once").inner_text()
    gm.locator("#new-campaign-open").click()
    expect(gm.locator("#connection")).to_have_attribute("data-state", "live")
    expect(gm.locator("#campaign-facts")).to_have_text("d20 · day 0")
    # d20's keys: h opens its attack; it has no take-hit action, so no d.
    gm.keyboard.press("?")
    expect(gm.locator("#shortcuts-list dt")).to_have_text(["n", "p", "h", "u", "?"])
    expect(gm.locator("#shortcuts-list dd").nth(2)).to_have_text("Attack, for whoever's turn it is")
    gm.keyboard.press("Escape")
    cid = gm.evaluate("JSON.parse(sessionStorage.getItem('skald.session')).campaign")
    record = Record(server, cid, gm_key)
    created = record.campaign()
    assert created["options"]["initiative"] == {
        "mode": "roll", "dice": "1d20", "add": "dexterity", "each_round": False,
    }  # fmt: skip

    # The party: two PCs, each with their player's key handed over as a link.
    links = {}
    enrol(
        gm,
        "Brannoc",
        {"strength": "16", "dexterity": "13", "constitution": "14", "level": "3",
         "hp": "24", "hr_skill_slots": "2", "armor": "chain_mail"},
        player="Ana",
        weapon=("longsword", "1d8"),
    )  # fmt: skip
    links["Brannoc"] = gm.locator('#key-once [data-once="key-once"]').inner_text()
    enrol(
        gm,
        "Mira",
        {"strength": "10", "dexterity": "16", "wisdom": "13", "level": "3", "hp": "18",
         "save_vs_death_ray": "11", "hr_skill_slots": "2", "armor": "leather",
         "shield": "small", "defensive_stance_mastery": "3"},
        player="Ben",
        weapon=("rapier", "1d6"),
    )  # fmt: skip
    expect(gm.locator("#key-once h3")).to_have_text("A player key for Mira")
    links["Mira"] = gm.locator('#key-once [data-once="key-once"]').inner_text()
    # The foes: two bandits from the starter sheet, NPCs.
    enrol(gm, "Bandit", {}, count=2)
    expect(gm.locator("#roster [data-character-id]")).to_have_count(4)
    ids = roster_ids(gm)
    brannoc, mira, bandit1, bandit2 = (ids[n] for n in ("Brannoc", "Mira", "Bandit 1", "Bandit 2"))
    characters = {c["name"]: c for c in record.campaign()["characters"]}
    # (The campaign's view names a PC's player and marks an NPC: "npc": true.)
    seen = {n: (c.get("npc", False), c.get("player"), c["tracks"]) for n, c in characters.items()}
    assert seen == {
        "Brannoc": (False, "Ana", {"hp": 24}),
        "Mira": (False, "Ben", {"hp": 18}),
        "Bandit 1": (True, None, {"hp": 10}),
        "Bandit 2": (True, None, {"hp": 10}),
    }
    keys = [k for k in record.get("/keys") if k["role"] == "player"]
    assert sorted((k["label"], k["characters"]) for k in keys) == [
        ("Ana", [brannoc]), ("Ben", [mira])
    ]  # fmt: skip
    # The seed's ratings (the character view, D2): Brannoc AC 12, FD 14, AV 4, HR +4;
    # Mira AC 14 (small shield, DEX 16), FD 13, 16 in her stance; the bandits AC 11.
    derived = {n: record.get(f"/characters/{i}")["derived"] for n, i in ids.items()}
    assert {n: (d["ac"]["value"], d["fd"]["value"], d["av"]["melee"]["value"],
             d["hr_bonus"]["value"])
            for n, d in derived.items()} == {
        "Brannoc": (12, 14, 4, 4), "Mira": (14, 13, 2, 2),
        "Bandit 1": (11, 11, 2, 0), "Bandit 2": (11, 11, 2, 0),
    }  # fmt: skip

    # Each player opens the link on a phone.
    phones = {}
    for name, link in links.items():
        assert link.startswith(f"{server.url}/play#campaign={cid}&key=skald_"), link
        phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
        phone.goto(link)
        expect(phone.locator("#connection")).to_have_attribute("data-state", "live")
        expect(phone.locator("#mine .card h3")).to_have_text(name)
        assert "key=" not in phone.url  # the key left the address bar for the tab
        phones[name] = phone
    ana, ben = phones["Brannoc"], phones["Mira"]

    # The first fight, set up from the roster (the NPCs come as foes by themselves).
    unfold(gm, "#setup-box")
    gm.locator("#setup-name").fill("Ambush on the road")
    for character in (brannoc, mira, bandit1, bandit2):
        gm.locator(f'#setup-rows [data-character="{character}"]').check()
    gm.locator("#setup-start").click()
    expect(gm.locator("#sides .card")).to_have_count(4)
    first = gm.locator("#encounter-picker").input_value()
    assert {c["name"]: c["side"] for c in record.fight(first)["combatants"]} == {
        "Brannoc": "party", "Mira": "party", "Bandit 1": "foes", "Bandit 2": "foes",
    }  # fmt: skip
    for phone in (ana, ben):
        expect(phone.locator("#turn")).to_contain_text("Ambush on the road, round 1")

    # Initiative with the table's dice: Mira 15 + 2, Bandit 1 14 + 0, Brannoc 12 + 1,
    # Bandit 2 9 + 0.
    unfold(gm, "#initiative-dice")
    for character, face in ((mira, "15"), (bandit1, "14"), (brannoc, "12"), (bandit2, "9")):
        gm.locator(f'[data-initiative-die="{character}"]').fill(face)
    gm.locator("#roll-initiative").click()
    expect(gm.locator("#turn-order [data-turn]")).to_have_text(
        [re.compile(rf"^{name} {total}\b") for name, total in
         (("Mira", 17), ("Bandit 1", 14), ("Brannoc", 13), ("Bandit 2", 9))]
    )  # fmt: skip
    expect(gm.locator("#turn-order .current")).to_contain_text("Mira")
    rolled = record.fight(first)
    assert rolled["turn"]["initiative"] == {mira: 17, bandit1: 14, brannoc: 13, bandit2: 9}
    assert [r["faces"] for r in rolled["actions"][0]["rolls"]] == [[12], [15], [14], [9]]
    assert all(r["supplied"] for r in rolled["actions"][0]["rolls"])
    expect(ben.locator("#turn")).to_contain_text("Mira's turn")
    expect(ben.locator("#panel-caption")).to_have_text("Mira's turn · round 1 · Mira acts")
    expect(ana.locator("#panel-caption")).to_have_text("Mira's turn · round 1")
    take(gm, screenshots, "d20-evening-gm-initiative.png", full_page=True)

    # -- round 1 ---------------------------------------------------------------------------
    # Mira's turn: her player takes a Defensive Stance from the phone (FD 13 -> 16).
    act(ben, "defensive_stance", {}, {})
    expect(ben.locator("#result .summary")).to_have_text(
        "Mira takes a Defensive Stance: FD 13 -> 16 until round 1 ends"
    )
    next_turn(gm, "Bandit 1")
    expect(ben.locator("#panel-caption")).to_have_text("Bandit 1's turn · round 1")
    # The GM's slip: Bandit 1's blow goes to Mira (15 to hit, 6 damage)...
    act(gm, "attack", {"target": mira, "weapon": "short sword"},
        {"Bandit 1's hit": "15", "Bandit 1's damage": "6"}, actor=bandit1)  # fmt: skip
    expect(gm.locator("#result .summary")).to_contain_text("Bandit 1 hits Mira")
    expect(bar(ben, mira)).to_have_attribute("data-current", "14")
    # ...undone at once, and struck again at Brannoc: 1 + (6 - 1 - AV 4) = 2.
    gm.locator("#undo-last").click()
    expect(gm.locator("#result [data-correction=void]")).to_be_visible()
    expect(bar(ben, mira)).to_have_attribute("data-current", "18")
    act(gm, "attack", {"target": brannoc, "weapon": "short sword"},
        {"Bandit 1's hit": "15", "Bandit 1's damage": "6"}, actor=bandit1)  # fmt: skip
    expect(gm.locator("#result .summary")).to_have_text(
        "Bandit 1 hits Brannoc with short sword (15 >= AC 12): 6 rolled, 2 dealt; HP 24 -> 22"
    )
    expect(bar(ana, brannoc)).to_have_attribute("data-current", "22")
    next_turn(gm, "Brannoc")
    # Brannoc's turn: his player strikes Bandit 1 with his own dice, 11 + 4 = 15 against AC
    # 11, 7 damage through leather: 1 + (7 - 1 - 2) = 5.
    expect(ana.locator("#panel-caption")).to_have_text("Brannoc's turn · round 1 · Brannoc acts")
    act(ana, "attack", {"target": bandit1, "weapon": "longsword"},
        {"Brannoc's hit": "11", "Brannoc's damage": "7"})  # fmt: skip
    expect(ana.locator("#result .summary")).to_have_text(
        "Brannoc hits Bandit 1 with longsword: 7 rolled; Bandit 1 is bloodied"
    )
    # A marker: Bandit 2 in cover behind the cart, two rounds counted at his turn's end.
    pick(gm, bandit2)
    unfold(gm, "#gm-tools")
    gm.locator("#gm-mark [name=marker]").fill("cover")
    gm.locator("#gm-mark [name=note]").fill("behind the cart")
    gm.locator("#gm-mark [name=rounds]").fill("2")
    gm.locator("#gm-mark button[type=submit]").click()
    expect(
        gm.locator(f'#sides [data-combatant-id="{bandit2}"] [data-marker="cover"]')
    ).to_have_text("cover · 2")
    for phone in (ana, ben):
        expect(
            phone.locator(f'#foes [data-character-id="{bandit2}"] [data-marker="cover"]')
        ).to_have_text("cover (2 rounds left)")
    next_turn(gm, "Bandit 2")
    # Bandit 2 shoves Mira: 14 + FR 0 would beat her FD 13, not the 16 of her stance.
    act(gm, "shove", {"target": mira}, {"Bandit 2's shove": "14"}, actor=bandit2)
    expect(gm.locator("#result .summary")).to_have_text("Bandit 2 fails to shove Mira (14 < FD 16)")
    take(gm, screenshots, "d20-evening-gm-round-1.png", full_page=True)
    take(ben, screenshots, "d20-evening-mira-round-1.png", full_page=True)

    # -- round 2 ---------------------------------------------------------------------------
    next_turn(gm, "Mira")
    expect(gm.locator("#board-caption")).to_contain_text("round 2")
    # Mira strikes Bandit 1 from her phone: 10 + 2 = 12 against AC 11, 4 damage: 1 + 1 = 2.
    act(ben, "attack", {"target": bandit1, "weapon": "rapier"},
        {"Mira's hit": "10", "Mira's damage": "4"})  # fmt: skip
    expect(ben.locator("#result .summary")).to_have_text(
        "Mira hits Bandit 1 with rapier: 4 rolled; Bandit 1 is bloodied"
    )
    next_turn(gm, "Bandit 1")
    # Bandit 1's blow on Mira, rolled hidden: 16 against AC 14, 6 damage: 1 + 3 = 4.
    act(gm, "attack", {"target": mira, "weapon": "short sword"},
        {"Bandit 1's hit": "16", "Bandit 1's damage": "6"}, actor=bandit1, hidden=True)  # fmt: skip
    expect(gm.locator("#result .summary")).to_have_text(
        "Bandit 1 hits Mira with short sword (16 >= AC 14): 6 rolled, 4 dealt; HP 18 -> 14"
    )
    expect(bar(ben, mira)).to_have_attribute("data-current", "14")
    next_turn(gm, "Brannoc")
    # Brannoc downs Bandit 1: 8 + 4 = 12 against AC 11, 8 damage: 1 + 5 = 6, HP 3 -> -3.
    act(ana, "attack", {"target": bandit1, "weapon": "longsword"},
        {"Brannoc's hit": "8", "Brannoc's damage": "8"})  # fmt: skip
    # (A player reads an NPC's hit points as its descriptor, RULINGS T3a.)
    expect(ana.locator("#result .summary")).to_have_text(
        "Brannoc hits Bandit 1 with longsword: 8 rolled; Bandit 1 is down"
    )
    next_turn(gm, "Bandit 2")
    # Bandit 2 strikes Brannoc: 13 against AC 12, 3 damage: the guaranteed 1.
    act(gm, "attack", {"target": brannoc, "weapon": "short sword"},
        {"Bandit 2's hit": "13", "Bandit 2's damage": "3"}, actor=bandit2)  # fmt: skip
    expect(gm.locator("#result .summary")).to_have_text(
        "Bandit 2 hits Brannoc with short sword (13 >= AC 12): 3 rolled, 1 dealt; HP 22 -> 21"
    )
    expect(bar(ana, brannoc)).to_have_attribute("data-current", "21")
    # The d20 rolled off the table: the GM rerolls the blow with the table's new die, a 6:
    # a miss, and Brannoc's hit point comes back.
    blow = gm.locator("#actions > li").first
    expect(blow).to_contain_text("Bandit 2 hits Brannoc")
    rerolled = int(str(blow.get_attribute("data-action-number")))
    gm.locator(f"#actions [data-reroll='{rerolled}']").click()
    gm.locator('#reroll-dice [data-roll-name="Bandit 2\'s hit"] input').fill("6")
    reason(gm, "the d20 rolled off the table")
    expect(gm.locator("#result [data-correction=reroll]")).to_contain_text(
        f"#{rerolled} rerolled: Bandit 2 hits Brannoc with short sword (13 >= AC 12): 3 rolled,"
        " 1 dealt; HP 22 -> 21 → Bandit 2 misses Brannoc with short sword (6 < AC 12)"
    )
    expect(bar(ana, brannoc)).to_have_attribute("data-current", "22")
    # Mira's phone, as a player reads the fight (RULINGS T3a): Bandit 1's hidden blow as
    # its outcome only (no die, no total); the marker and the failed shove as the table
    # saw them; Bandit 1 by its descriptor.
    log = ben.locator("#log")
    expect(log.locator('[data-action="14"]')).to_have_text(
        "Bandit 1 attacks Mira with short sword and hits: Mira is at 14 HP"
    )
    expect(log.locator('[data-action="10"]')).to_have_text("Bandit 2 fails to shove Mira")
    expect(log.locator('[data-action="8"]')).to_have_text(
        "Bandit 2: cover (2 rounds, to the end of Bandit 2's turn): behind the cart"
    )
    expect(ben.locator(f'#foes [data-character-id="{bandit1}"] .descriptor')).to_have_text("down")
    take(gm, screenshots, "d20-evening-gm-round-2.png", full_page=True)
    take(ana, screenshots, "d20-evening-brannoc-round-2.png", full_page=True)
    take(ben, screenshots, "d20-evening-mira-round-2.png", full_page=True)

    # -- round 3 ---------------------------------------------------------------------------
    next_turn(gm, "Mira")
    expect(gm.locator("#board-caption")).to_contain_text("round 3")
    expect(
        gm.locator(f'#sides [data-combatant-id="{bandit2}"] [data-marker="cover"]')
    ).to_have_count(0)
    # Mira strikes Bandit 2: 12 + 2 = 14 against AC 11, 3 damage: the guaranteed 1.
    act(ben, "attack", {"target": bandit2, "weapon": "rapier"},
        {"Mira's hit": "12", "Mira's damage": "3"})  # fmt: skip
    expect(ben.locator("#result .summary")).to_have_text(
        "Mira hits Bandit 2 with rapier: 3 rolled; Bandit 2 is hurt"
    )
    # Bandit 1 is down: passed over (RULINGS T1), and the turn is Brannoc's.
    next_turn(gm, "Brannoc")
    expect(gm.locator("#board-caption")).to_contain_text("passed over: Bandit 1 is down")
    # Brannoc grapples Bandit 2 from his phone: 12 + FR 2 - 1 (chain mail) = 13 >= FD 11.
    expect(ana.locator("#panel-caption")).to_have_text("Brannoc's turn · round 3 · Brannoc acts")
    act(ana, "grapple", {"target": bandit2}, {"Brannoc's grapple": "12"})
    # (Bandit 2's FD is his: a player reads the outcome, RULINGS T3a.)
    expect(ana.locator("#result .summary")).to_have_text(
        "Brannoc grapples Bandit 2; Brannoc gains: grappling; Bandit 2 gains: grappled"
    )
    next_turn(gm, "Bandit 2")
    # Bandit 2 tries to escape: 5 + FR 0 against Brannoc's FD 14.
    act(gm, "escape", {}, {"Bandit 2's escape": "5"}, actor=bandit2)
    expect(gm.locator("#result .summary")).to_have_text(
        "Bandit 2 fails to escape Brannoc (5 < FD 14)"
    )
    # The end: the bandit yields.
    gm.locator("#end-encounter").click()
    reason(gm, "the bandit yields")
    expect(gm.locator("#board-caption")).to_contain_text("ended: the bandit yields")
    for phone in (ana, ben):
        expect(phone.locator("#turn")).to_have_text("No fight under way.")
    take(gm, screenshots, "d20-evening-gm-end.png", full_page=True)

    # -- between the fights: a day passes (d20's days take no plan and heal nothing) ------
    unfold(gm, "#days-box")
    expect(gm.locator("#days-default [data-no-plan]")).to_be_visible()
    gm.locator("#days-advance").click()
    expect(gm.locator("#days-message")).to_have_text("Day 1: 1 day(s) passed.")
    expect(gm.locator("#campaign-facts")).to_have_text("d20 · day 1")

    # -- the second fight: a wolf at the ford --------------------------------------------
    enrol(gm, "Wolf", {"dexterity": "14", "hp": "12", "armor": "none"}, weapon=("bite", "1d8"))
    wolf = roster_ids(gm)["Wolf"]
    unfold(gm, "#setup-box")
    gm.locator("#setup-name").fill("Wolf at the ford")
    for character in (brannoc, mira, wolf):
        gm.locator(f'#setup-rows [data-character="{character}"]').check()
    gm.locator("#setup-start").click()
    expect(gm.locator("#sides .card")).to_have_count(3)
    second = gm.locator("#encounter-picker").input_value()
    assert second != first
    # Initiative: the wolf 17 + 1, Brannoc 11 + 1, Mira 8 + 2.
    unfold(gm, "#initiative-dice")
    for character, face in ((wolf, "17"), (brannoc, "11"), (mira, "8")):
        gm.locator(f'[data-initiative-die="{character}"]').fill(face)
    gm.locator("#roll-initiative").click()
    expect(gm.locator("#turn-order .current")).to_contain_text("Wolf")
    # The wolf bites Brannoc: 14 against AC 12, 8 damage through chain: 1 + (8 - 1 - 4) = 4.
    act(gm, "attack", {"target": brannoc, "weapon": "bite"},
        {"Wolf's hit": "14", "Wolf's damage": "8"}, actor=wolf)  # fmt: skip
    expect(gm.locator("#result .summary")).to_have_text(
        "Wolf hits Brannoc with bite (14 >= AC 12): 8 rolled, 4 dealt; HP 22 -> 18"
    )
    expect(bar(ana, brannoc)).to_have_attribute("data-current", "18")
    next_turn(gm, "Brannoc")

    # -- the void of an action of the ended first fight, from the screen ------------------
    # Bandit 1's blow on Brannoc in round 1 (2 dealt) is found to have been a slip too.
    gm.locator("#encounter-picker").select_option(first)
    expect(gm.locator("#board-title")).to_have_text("Encounter: Ambush on the road")
    # The roster shows Brannoc as the open second fight has him, not as the first left him.
    expect(gm.locator(f'#roster [data-character-id="{brannoc}"]')).to_contain_text("in a fight")
    expect(bar(gm.locator("#roster"), brannoc)).to_have_attribute("data-current", "18")
    expect(gm.locator("#sides [data-step-track]")).to_have_count(0)  # the past is not edited
    blow = gm.locator("#actions > li", has_text="Bandit 1 hits Brannoc")
    voided = int(str(blow.get_attribute("data-action-number")))
    gm.locator(f'#actions button[data-void="{voided}"]').click()
    reason(gm, "Brannoc was behind the cart: no bandit reached him")
    preview = gm.locator("dialog#preview-dialog")
    expect(preview.locator("#preview-lines li")).to_have_text(
        [
            "Wolf at the ford #2 changed: Wolf hits Brannoc with bite (14 >= AC 12): 8 rolled,"
            " 4 dealt; HP 22 -> 18 → Wolf hits Brannoc with bite (14 >= AC 12): 8 rolled,"
            " 4 dealt; HP 24 -> 20",
            "after Ambush on the road, Brannoc: hp 22 → hp 24",
            "Brannoc now: hp 18 → hp 20",
        ]
    )
    take(gm, screenshots, "d20-evening-gm-preview.png", full_page=True)
    preview.locator('button[value="ok"]').click()
    # In the first fight itself nothing after the blow moves (Brannoc's HP is no one's
    # threshold there): the twenty later actions stand as they were.
    done = gm.locator("#result [data-correction=void]")
    expect(done.locator(".summary")).to_have_text(
        f"void of #{voided} recorded: Brannoc was behind the cart: no bandit reached him"
    )
    expect(done.locator("[data-unchanged]")).to_have_text("20 later actions as before")
    expect(done.locator("li")).to_have_count(0)
    # The carried effect on the board: the second fight's Brannoc has his 2 HP back.
    gm.locator("#encounter-picker").select_option(second)
    expect(gm.locator("#board-title")).to_have_text("Encounter: Wolf at the ford")
    expect(bar(gm, brannoc)).to_have_attribute("data-current", "20")
    expect(bar(ana, brannoc)).to_have_attribute("data-current", "20")
    take(gm, screenshots, "d20-evening-gm-carried.png", full_page=True)
    take(ana, screenshots, "d20-evening-brannoc-carried.png", full_page=True)

    # -- the screens at the evening's end ------------------------------------------------
    for page, character, hp in ((gm, brannoc, "20"), (gm, mira, "14"), (gm, wolf, "12"),
                                (ana, brannoc, "20"), (ben, mira, "14")):  # fmt: skip
        expect(bar(page.locator("#sides, #mine"), character)).to_have_attribute("data-current", hp)
    roster = gm.locator("#roster")
    for character, hp in ((bandit1, "-3"), (bandit2, "9")):
        expect(bar(roster, character)).to_have_attribute("data-current", hp)
    expect(
        roster.locator(f'[data-character-id="{bandit1}"] [data-condition="down"]')
    ).to_be_visible()
    for phone in (ana, ben):
        expect(phone.locator(f'#foes [data-character-id="{wolf}"] .descriptor')).to_have_text(
            "unhurt"
        )

    # -- what the API recorded -------------------------------------------------------------
    fight1 = record.fight(first)
    assert record.actions(first) == [
        ("initiative", "active",
         "Initiative (1d20 + dexterity): Brannoc 13, Mira 17, Bandit 1 14, Bandit 2 9"),
        ("defensive_stance", "active",
         "Mira takes a Defensive Stance: FD 13 -> 16 until round 1 ends"),
        ("turn", "active", "Bandit 1's turn (round 1)"),
        ("attack", "voided",
         "Bandit 1 hits Mira with short sword (15 >= AC 14): 6 rolled, 4 dealt; HP 18 -> 14"),
        ("attack", "voided",
         "Bandit 1 hits Brannoc with short sword (15 >= AC 12): 6 rolled, 2 dealt; HP 24 -> 22"),
        ("turn", "active", "Brannoc's turn (round 1)"),
        ("attack", "active",
         "Brannoc hits Bandit 1 with longsword (15 >= AC 11): 7 rolled, 5 dealt; HP 10 -> 5"),
        ("mark", "active",
         "Bandit 2: cover (2 rounds, to the end of Bandit 2's turn): behind the cart"),
        ("turn", "active", "Bandit 2's turn (round 1)"),
        ("shove", "active", "Bandit 2 fails to shove Mira (14 < FD 16)"),
        ("turn", "active", "Mira's turn (round 2)"),
        ("attack", "active",
         "Mira hits Bandit 1 with rapier (12 >= AC 11): 4 rolled, 2 dealt; HP 5 -> 3"),
        ("turn", "active", "Bandit 1's turn (round 2)"),
        ("attack", "active",
         "Bandit 1 hits Mira with short sword (16 >= AC 14): 6 rolled, 4 dealt; HP 18 -> 14"),
        ("turn", "active", "Brannoc's turn (round 2)"),
        ("attack", "active",
         "Brannoc hits Bandit 1 with longsword (12 >= AC 11): 8 rolled, 6 dealt;"
         " HP 3 -> -3 (down)"),
        ("turn", "active", "Bandit 2's turn (round 2)"),
        ("attack", "active", "Bandit 2 misses Brannoc with short sword (6 < AC 12)"),
        ("turn", "active", "Mira's turn (round 3)"),
        ("expire", "active", "cover on Bandit 2 expires (end of Bandit 2's turn)"),
        ("attack", "active",
         "Mira hits Bandit 2 with rapier (14 >= AC 11): 3 rolled, 1 dealt; HP 10 -> 9"),
        ("turn", "active", "Brannoc's turn (round 3); passed over: Bandit 1 is down"),
        ("grapple", "active",
         "Brannoc grapples Bandit 2 (13 >= FD 11); Brannoc gains: grappling;"
         " Bandit 2 gains: grappled"),
        ("turn", "active", "Bandit 2's turn (round 3)"),
        ("escape", "active", "Bandit 2 fails to escape Brannoc (5 < FD 14)"),
    ]  # fmt: skip
    # The slip undone, the reroll with the table's die, the void carried after the end.
    assert [(c["kind"], c["number"], c.get("after_end", False)) for c in fight1["corrections"]] == [
        ("void", 4, False), ("reroll", 18, False), ("void", 5, True),
    ]  # fmt: skip
    assert fight1["actions"][13]["hidden"] is True
    rerolled_dice = [(r["name"], r["faces"], r["supplied"]) for r in fight1["actions"][17]["rolls"]]
    assert rerolled_dice == [("hit", [6], True)]
    assert (fight1["ended"], fight1["end_reason"], fight1["round"], fight1["markers"]) == (
        True, "the bandit yields", 3, [],
    )  # fmt: skip
    # Brannoc's 2 HP back in the first fight's end and, carried, in the second fight now.
    assert record.hp(first) == {"Brannoc": 24, "Mira": 14, "Bandit 1": -3, "Bandit 2": 9}
    assert record.conditions(first) == {
        "Brannoc": ["grappling"], "Mira": [], "Bandit 1": ["down"], "Bandit 2": ["grappled"],
    }  # fmt: skip
    assert record.actions(second) == [
        ("initiative", "active", "Initiative (1d20 + dexterity): Brannoc 12, Mira 10, Wolf 18"),
        ("attack", "active",
         "Wolf hits Brannoc with bite (14 >= AC 12): 8 rolled, 4 dealt; HP 24 -> 20"),
        ("turn", "active", "Brannoc's turn (round 1)"),
    ]  # fmt: skip
    assert record.hp(second) == {"Brannoc": 20, "Mira": 14, "Wolf": 12}
    assert record.conditions(second) == {"Brannoc": [], "Mira": [], "Wolf": []}
    # The campaign: a day passed with no plan and no heal (d20 has no between-fight rules),
    # one correction carried, the two fights, the five characters (holds end with a fight).
    campaign = record.campaign()
    assert campaign["day"] == 1
    assert [(e["name"], e["open"]) for e in campaign["encounters"]] == [
        ("Ambush on the road", False), ("Wolf at the ford", True),
    ]  # fmt: skip
    days = record.get("/history?kind=DayAdvanced")["entries"]
    assert [(d["day"], d["plans"]) for d in days] == [(1, {})]
    assert record.get("/history?kind=CharacterHealed&limit=1")["total"] == 0
    assert record.get("/history?kind=CorrectionCarried&limit=1")["total"] == 1
    roster_now = {c["name"]: (c["tracks"], c["conditions"]) for c in campaign["characters"]}
    assert {n: roster_now[n] for n in ("Bandit 1", "Bandit 2")} == {
        "Bandit 1": ({"hp": -3}, ["down"]), "Bandit 2": ({"hp": 9}, []),
    }  # fmt: skip
    assert len(campaign["characters"]) == 5
    take(gm, screenshots, "d20-evening-gm-last.png", full_page=True)
    take(ben, screenshots, "d20-evening-mira-last.png", full_page=True)
