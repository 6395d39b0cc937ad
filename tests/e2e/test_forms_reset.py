"""Forms reset after a submit (issue 36, "the table's look"): on /gm and /play, a form
submitted and done goes back to its empty or default state, so a second submit is not
the first one again by accident; a form the API refused keeps what was typed, the API's
error beside it. One walk through each form of the GM screen and the player's phone,
with the exact values of their fields before and after. Debian's Chromium, `skald serve`;
the API only sets up (and says what a refusal's message is)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, Route, expect

from tests.e2e.browser import require_browser
from tests.e2e.server import Server
from tests.patience import HANG_MS, HANG_SECONDS

DESKTOP = {"width": 1400, "height": 1000}
PHONE = {"width": 390, "height": 844}
KNIGHT = {
    "st": 13, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10,
    "weapons": [{"name": "longsword", "damage_class": 3, "damage_type": "piercing", "skill": 13}],
}  # fmt: skip


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose webhooks may name this machine (a receiver nobody runs)."""
    require_browser()
    data = Path(tmp_path_factory.mktemp("forms")) / "data"
    running = Server(data, env={"SKALD_WEBHOOKS_ALLOW_PRIVATE": "true"}).start()
    try:
        yield running
    finally:
        running.stop()


class Table:
    """A stamina-body campaign over the API: Bran (a PC, Ana's key) and Ulf (an NPC)."""

    def __init__(self, server: Server, options: dict[str, Any] | None = None) -> None:
        self.server = server
        self.http = httpx.Client(base_url=server.url, timeout=HANG_SECONDS)
        campaign = {"name": "Forms", "ruleset": "stamina-body", "options": options or {}}
        created = self.http.post("/campaigns", json=campaign)
        self.cid, self.gm_key = created.json()["id"], created.json()["gm_key"]
        self.base = f"/campaigns/{self.cid}"
        self.http.headers["authorization"] = f"Bearer {self.gm_key}"
        self.ids = {
            name: self.send("POST", "/characters", {"name": name, "sheet": KNIGHT, "npc": npc})[
                "id"
            ]
            for name, npc in (("Bran", False), ("Ulf", True))
        }
        body = {"role": "player", "characters": [self.ids["Bran"]]}
        self.player_key = self.send("POST", "/keys", body)["key"]

    def gm(self, context: BrowserContext) -> Page:
        """The GM screen, live."""
        page = context.new_page()
        page.goto(f"{self.server.url}/gm#campaign={self.cid}&key={self.gm_key}")
        expect(page.locator("#connection")).to_have_attribute("data-state", "live")
        return page

    def fight(self) -> str:
        """Bran (the party) and Ulf (the foes) in a fight: its path under the campaign."""
        combatants = [
            {"character_id": self.ids["Bran"], "side": "party"},
            {"character_id": self.ids["Ulf"], "side": "foes"},
        ]
        started = self.send("POST", "/encounters", {"name": "Ford", "combatants": combatants})
        return f"/encounters/{started['id']}"

    def send(self, method: str, path: str, body: Any = None, status: int = 201) -> Any:
        answer = self.http.request(method, self.base + path, json=body)
        assert answer.status_code == status, answer.text
        return answer.json()

    def refusal(self, method: str, path: str, body: Any, status: int) -> str:
        """What the pages show of a refusal: its status and the API's message."""
        answer = self.http.request(method, self.base + path, json=body)
        assert answer.status_code == status, answer.text
        return f"{status}: {answer.json()['message']}"


def values(form: Locator) -> dict[str, str]:
    """Each field of a form: its value ("on"/"off" for a checkbox or a radio), by its id,
    or for the sheet's fields (whose ids are numbered as drawn) by their name in the
    sheet, and a saved line's by its data-count/data-rank."""
    found: dict[str, str] = form.evaluate(
        """form => {
          const out = {};
          for (const f of form.querySelectorAll("input, select, textarea")) {
            if (f.type === "submit" || f.type === "button") continue;
            let name = f.dataset.sheet ? `sheet ${f.dataset.sheet}`
              : f.dataset.count ? `count ${f.dataset.count}`
              : f.dataset.rank ? `rank ${f.dataset.rank}`
              : f.dataset.character ? `tick ${f.dataset.character}`
              : f.dataset.side ? `side ${f.dataset.side}`
              : f.dataset.roll ? `dice ${f.dataset.roll}`
              : f.dataset.reason !== undefined ? "reason"
              : f.type === "radio" ? `${f.name}=${f.value}` : f.id || f.name;
            while (name in out) name += "'";
            out[name] = f.type === "checkbox" || f.type === "radio"
              ? (f.checked ? "on" : "off") : f.value;
          }
          return out;
        }"""
    )
    return found


def unfold(page: Page, box: str) -> None:
    if not page.locator(box).evaluate("box => box.open"):
        page.locator(f"{box} > summary").click()


def settled(page: Page) -> None:
    expect(page.locator("html[data-writing]")).to_have_count(0)


def refused(page: Page, control: str, path: str, table: Table, status: int = 422) -> str:
    """Press `control`, whose write to `path` the API refuses: what the page should say,
    the same request's refusal as the API words it."""
    asked = page.expect_request(
        lambda r: r.method != "GET" and r.url.endswith(path), timeout=HANG_MS
    )
    with asked as sent:
        page.locator(control).click()
    settled(page)
    body = json.loads(sent.value.post_data or "null")
    return table.refusal(sent.value.method, path, body, status)


def test_the_dice_typed_while_a_preview_is_on_its_way_stay(
    server: Server, browser: Browser
) -> None:
    """The action form's dice inputs are drawn from the preview of the rolls, asked again
    whenever a parameter changes; meanwhile the last answer's inputs stay on screen. Dice
    typed in them before the answer came were wiped by it (the blow then went without
    the table's dice: the server rolled, and test_page_writes[lost] sent the retry of a
    lost blow so, a new request with a new key); inputs drawn anew with the faces copied
    in still took the focus from the player typing. Here the preview is held while Bran's
    player types his dice, then let through: the dice stay, the focus too, and they go
    with the blow."""
    table = Table(server)
    bran, ulf = table.ids["Bran"], table.ids["Ulf"]
    sides = [(bran, "party"), (ulf, "foes")]
    combatants = [{"character_id": c, "side": s} for c, s in sides]
    started = table.send("POST", "/encounters", {"name": "Ford", "combatants": combatants})
    fight = f"/encounters/{started['id']}"
    with browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True) as context:
        play = context.new_page()
        play.goto(f"{server.url}/play#campaign={table.cid}&key={table.player_key}")
        expect(play.locator("#connection")).to_have_attribute("data-state", "live")
        play.locator("#action-buttons [data-kind=attack]").click()
        play.locator("#param-target").select_option(ulf)
        play.locator("input[name=dice-mode][value=table]").check()
        hit = play.locator('#dice-fields [data-roll-name="Bran\'s hit"] input')
        expect(hit).to_have_value("")
        drawn = play.locator("#dice-fields").get_attribute("data-preview")
        assert drawn is not None
        held: list[Route] = []
        play.route("**/preview", lambda route: held.append(route))
        play.locator("#action-fields [name=set_weapon]").check()  # the rolls asked again
        waited = 0.0
        while not held and waited < HANG_SECONDS:
            play.wait_for_timeout(50)
            waited += 0.05
        assert held, "no preview was asked"
        hit.fill("2 2 2")
        held[0].fallback()
        expect(play.locator("#dice-fields")).to_have_attribute("data-preview", str(int(drawn) + 1))
        expect(hit).to_have_value("2 2 2")
        expect(hit).to_be_focused()  # drawn in place: what is typed next goes on in it
        hit.press_sequentially(" ")
        expect(hit).to_have_value("2 2 2 ")
        with play.expect_request(f"**{table.base}{fight}/actions", timeout=HANG_MS) as sent:
            play.locator("#action-submit").click()
        assert json.loads(sent.value.post_data or "{}")["dice"] == {"Bran's hit": [2, 2, 2]}
        settled(play)


def enrol_pc(gm: Page, name: str, player: str, con: str) -> None:
    """The Soldier starter as a PC of `player`'s, its Con typed over."""
    gm.locator("#enrol-from").select_option("t:Soldier (template)")
    expect(gm.locator("#enrol-name")).to_have_value("Soldier")
    gm.locator("#enrol-name").fill(name)
    gm.locator("input[name=enrol-kind][value=pc]").check()
    gm.locator("#enrol-player").fill(player)
    gm.locator("#enrol-sheet [data-sheet=con]").fill(con)


def test_an_enrolment_done_leaves_the_form_as_first_drawn(server: Server, browser: Browser) -> None:
    """Two PCs enrolled in a row through the form, each with a player (and so a key).
    After the first, the form is as the screen first drew it: the first starter, NPC, no
    player, one of them. It kept "PC" and the player's name, and the next enrolment gave
    that player a second key. The second records exactly what was typed the second time."""
    table = Table(server)
    with browser.new_context(viewport=DESKTOP) as context:
        gm = table.gm(context)
        unfold(gm, "#enrol-box")
        form = gm.locator("#enrol-form")
        drawn = values(form)
        assert {k: drawn[k] for k in ("enrol-from", "enrol-name", "enrol-count", "enrol-player",
                                      "enrol-kind=npc", "enrol-kind=pc")} == {
            "enrol-from": "t:Goblin (template)", "enrol-name": "Goblin", "enrol-count": "1",
            "enrol-player": "", "enrol-kind=npc": "on", "enrol-kind=pc": "off",
        }  # fmt: skip
        assert drawn["sheet con"] == "10"
        enrol_pc(gm, "Sigrid", "Ana", "11")
        gm.locator("#enrol-add").click()
        settled(gm)
        expect(gm.locator("#key-once [data-once]")).to_contain_text("/play#campaign=")
        expect(gm.locator("#enrol-form [role=alert]")).to_have_count(0)
        assert values(form) == drawn
        expect(gm.locator("#key-label")).to_have_value("")  # the keys box's label too
        enrol_pc(gm, "Torvald", "Bo", "12")
        gm.locator("#enrol-add").click()
        settled(gm)
        assert values(form) == drawn
    characters = {c["name"]: c for c in table.http.get(table.base).json()["characters"]}
    assert sorted(characters) == ["Bran", "Sigrid", "Torvald", "Ulf"]
    sigrid, torvald = characters["Sigrid"], characters["Torvald"]
    assert ("npc" in sigrid, sigrid["player"], sigrid["sheet"]["con"]) == (False, "Ana", 11)
    assert ("npc" in torvald, torvald["player"], torvald["sheet"]["con"]) == (False, "Bo", 12)
    keys = table.http.get(f"{table.base}/keys").json()
    new = {sigrid["id"], torvald["id"]}
    assert sorted((k["label"], k["characters"]) for k in keys if set(k["characters"]) & new) == [
        ("Ana", [sigrid["id"]]),
        ("Bo", [torvald["id"]]),
    ]


def test_a_refused_enrolment_keeps_what_was_typed(server: Server, browser: Browser) -> None:
    """A PC whose sheet the ruleset refuses (two weapons of one name: a rule of the sheet
    the schema cannot say): every value typed stays, the API's words beside Enrol, and
    nothing is enrolled. Put right, it goes, and the form is as first drawn."""
    table = Table(server)
    with browser.new_context(viewport=DESKTOP) as context:
        gm = table.gm(context)
        unfold(gm, "#enrol-box")
        form = gm.locator("#enrol-form")
        drawn = values(form)
        enrol_pc(gm, "Hild", "Cai", "13")
        gm.locator("#enrol-sheet [data-add=weapons]").click()
        second = gm.locator("#enrol-sheet [data-sheet-field=weapons] fieldset.entry").nth(1)
        second.locator("[data-sheet=name]").fill("spear")
        second.locator("[data-sheet=damage_class]").fill("2")
        second.locator("[data-sheet=skill]").fill("9")
        typed = values(form)
        said = refused(gm, "#enrol-add", "/characters", table)
        assert said == (
            "422: invalid sheet: sheet: Value error, weapon names must be unique; repeated: spear"
        )
        expect(gm.locator("#enrol-form [data-write-message] [role=alert]")).to_have_text(said)
        assert values(form) == typed
        assert "Hild" not in [c["name"] for c in table.http.get(table.base).json()["characters"]]
        second.locator("[data-sheet=name]").fill("dagger")
        gm.locator("#enrol-add").click()
        settled(gm)
        expect(gm.locator("#enrol-form [data-write-message]")).to_have_text("")
        assert values(form) == drawn
    hild = next(c for c in table.http.get(table.base).json()["characters"] if c["name"] == "Hild")
    assert (hild["player"], [w["name"] for w in hild["sheet"]["weapons"]]) == (
        "Cai", ["spear", "dagger"])  # fmt: skip


def test_the_players_action_form_after_a_refusal_and_after_a_blow(
    server: Server, browser: Browser
) -> None:
    """/play: Bran's attack with the table's dice. Refused (a 7 on a d6), the form keeps
    the target, the weapon's choice and the faces typed, the API's words under it. Done,
    its parameters are as first drawn and no faces are left typed (a second Roll it sent
    the last blow's dice again); the table's dice stay chosen (a standing choice)."""
    table = Table(server)
    ulf = table.ids["Ulf"]
    fight = table.fight()
    with browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True) as context:
        play = context.new_page()
        play.goto(f"{server.url}/play#campaign={table.cid}&key={table.player_key}")
        expect(play.locator("#connection")).to_have_attribute("data-state", "live")
        play.locator("#action-buttons [data-kind=attack]").click()
        form = play.locator("#action-form")
        play.locator("#param-target").select_option(ulf)
        play.locator("input[name=dice-mode][value=table]").check()
        hit = play.locator('#dice-fields [data-roll-name="Bran\'s hit"] input')
        expect(hit).to_have_value("")
        drawn = values(form)
        assert (drawn["param-target"], drawn["param-set_weapon"], drawn["dice-mode=table"]) == (
            ulf, "off", "on")  # fmt: skip
        counted = int(play.locator("#dice-fields").get_attribute("data-preview") or "0")
        play.locator("#action-fields [name=set_weapon]").check()
        expect(play.locator("#dice-fields")).to_have_attribute("data-preview", str(counted + 1))
        hit.fill("7 7 7")
        typed = values(form)
        said = refused(play, "#action-submit", f"{fight}/actions", table)
        assert said == "422: roll 'hit': a face of 7 is not on a d6 (faces run 1 to 6)"
        expect(play.locator("#result [role=alert]")).to_have_text(said)
        assert values(form) == typed
        hit.fill("2 2 2")
        with play.expect_request(f"**{table.base}{fight}/actions", timeout=HANG_MS) as sent:
            play.locator("#action-submit").click()
        assert json.loads(sent.value.post_data or "{}")["dice"] == {"Bran's hit": [2, 2, 2]}
        settled(play)
        # Reset, its rolls asked again for the parameters as drawn (one more preview).
        expect(play.locator("#dice-fields")).to_have_attribute("data-preview", str(counted + 2))
        assert values(form) == drawn
    exchanges = table.http.get(f"{table.base}{fight}").json()["exchanges"]
    assert [(x["status"], x["rolls"][0]["faces"]) for x in exchanges] == [("pending", [2, 2, 2])]


def test_next_round_takes_the_tables_initiative_dice(server: Server, browser: Browser) -> None:
    """An initiative rolled each round: the GM screen's initiative fields go with Next
    round (POST .../round {dice}), and the new round's record holds exactly those faces.
    A face off the die is refused, the faces typed kept; fields left empty send no dice
    and the server rolls. The old screen sent Next round without a body: the table's
    dice never reached the new round."""
    each = {"initiative": {"mode": "roll", "dice": "1d20", "each_round": True}}
    table = Table(server, each)
    bran, ulf = table.ids["Bran"], table.ids["Ulf"]
    fight = table.fight()
    table.send("POST", f"{fight}/initiative", {"dice": {bran: [10], ulf: [5]}}, status=200)

    def last_initiative() -> tuple[int, dict[str, Any], dict[str, tuple[list[int], bool]]]:
        read = table.http.get(f"{table.base}{fight}").json()
        record = [a for a in read["actions"] if a["kind"] == "initiative"][-1]
        rolls = {r["name"]: (r["faces"], r["supplied"]) for r in record["rolls"]}
        return read["round"], read["turn"]["initiative"], rolls

    with browser.new_context(viewport=DESKTOP) as context:
        gm = table.gm(context)
        unfold(gm, "#initiative-dice")
        expect(gm.locator("#initiative-dice-caption")).to_contain_text("Next round")
        die = {c: gm.locator(f'#initiative-dice [data-initiative-die="{c}"]') for c in (bran, ulf)}
        die[bran].fill("25")
        die[ulf].fill("3")
        said = refused(gm, "#next-round", f"{fight}/round", table)
        assert (
            said
            == f"422: roll 'initiative.{bran}': a face of 25 is not on a d20 (faces run 1 to 20)"
        )
        expect(gm.locator("#next-round + [data-write-message] [role=alert]")).to_have_text(said)
        expect(die[bran]).to_have_value("25")
        expect(die[ulf]).to_have_value("3")
        assert last_initiative()[0] == 1
        die[bran].fill("17")
        with gm.expect_request(f"**{table.base}{fight}/round", timeout=HANG_MS) as sent:
            gm.locator("#next-round").click()
        assert json.loads(sent.value.post_data or "null") == {"dice": {bran: [17], ulf: [3]}}
        settled(gm)
        expect(gm.locator("#next-round + [data-write-message]")).to_have_text("")
        assert last_initiative() == (
            2, {bran: 17, ulf: 3},
            {f"initiative.{bran}": ([17], True), f"initiative.{ulf}": ([3], True)},
        )  # fmt: skip
        expect(die[bran]).to_have_value("")  # rolled: the next round's are new faces
        expect(die[ulf]).to_have_value("")
        with gm.expect_request(f"**{table.base}{fight}/round", timeout=HANG_MS) as sent:
            gm.locator("#next-round").click()
        assert sent.value.post_data is None  # nothing typed: no dice, the server rolls
        settled(gm)
    number, totals, rolls = last_initiative()
    assert number == 3
    assert sorted(rolls) == sorted([f"initiative.{bran}", f"initiative.{ulf}"])
    for name, (faces, supplied) in rolls.items():
        assert len(faces) == 1 and 1 <= faces[0] <= 20 and supplied is False, (name, faces)
    assert totals == {
        bran: rolls[f"initiative.{bran}"][0][0],
        ulf: rolls[f"initiative.{ulf}"][0][0],
    }
