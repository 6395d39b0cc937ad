"""The table's own dice for an answer and an action, typed on the pages (RULINGS, all
rulesets: "A caller may supply the dice"), as the stamina-body evening found them missing
or lost (tests/e2e/test_evening_stamina_body.py):

- the GM answering an NPC's defence (a goblin's parry) could type no dice;
- a player's dice typed on /play for an answer, like the GM's, were wiped by any live
  update that came before the press (the answer then went without them, server-rolled);
- a new action's form showed the last action's dice fields until its own preview drew
  empty ones over them, wiping what was typed meanwhile.

(The table's dice for initiative and a reroll: tests/e2e/test_gm_table_dice.py.)

Each is pressed here with the dice typed, a live update let in between typing and the
press, and the faces read back from the API's record exactly."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import Browser, Page, Route, ViewportSize, expect

from tests.e2e.server import Server
from tests.patience import HANG_SECONDS

DESKTOP: ViewportSize = {"width": 1400, "height": 1000}
PHONE: ViewportSize = {"width": 390, "height": 844}
SOLDIER = {
    "st": 12, "con": 12, "parry": 12, "dodge": 10, "stamina_max": 12, "body_max": 10,
    "armour_resilience": 2,
    "weapons": [{"name": "spear", "damage_class": 3, "damage_type": "piercing", "skill": 12}],
}  # fmt: skip
GOBLIN = {
    "st": 9, "con": 10, "parry": 10, "dodge": 10, "stamina_max": 10, "body_max": 8,
    "weapons": [{"name": "club", "damage_class": 2, "damage_type": "impact", "skill": 11}],
}  # fmt: skip


class Table:
    """Bran (a PC, Ana's key) and Goblin (an NPC) in a fight, set up over HTTP: what the
    pages do is the press under test."""

    def __init__(self, server: Server, options: dict[str, Any] | None = None) -> None:
        self.server = server
        self.http = httpx.Client(base_url=server.url, timeout=HANG_SECONDS)
        body = {"name": "Dice", "ruleset": "stamina-body", "options": options or {}}
        created = self.http.post("/campaigns", json=body).json()
        self.cid, self.gm_key = created["id"], created["gm_key"]
        self.base = f"/campaigns/{self.cid}"
        self.http.headers["authorization"] = f"Bearer {self.gm_key}"
        self.bran = self.send("POST", "/characters", {"name": "Bran", "sheet": SOLDIER})["id"]
        self.goblin = self.send(
            "POST", "/characters", {"name": "Goblin", "sheet": GOBLIN, "npc": True}
        )["id"]
        self.player = self.send(
            "POST", "/keys", {"role": "player", "characters": [self.bran], "label": "Ana"}
        )["key"]
        combatants = [{"character_id": self.bran}, {"character_id": self.goblin}]
        started = self.send("POST", "/encounters", {"name": "Ford", "combatants": combatants})
        self.fight = f"/encounters/{started['id']}"

    def send(self, method: str, path: str, body: Any = None, status: int = 201) -> Any:
        answer = self.http.request(method, self.base + path, json=body)
        assert answer.status_code == status, answer.text
        return answer.json()

    def open(self, browser: Browser, viewport: ViewportSize, path: str, key: str) -> Page:
        page = browser.new_context(viewport=viewport).new_page()
        page.goto(f"{self.server.url}{path}#campaign={self.cid}&key={key}")
        expect(page.locator("#connection")).to_have_attribute("data-state", "live")
        return page

    def live_update(self, page: Page, name: str) -> None:
        """Something else happens at the table (the GM marks the goblin) and `page` hears
        of it: every part of it is drawn again."""
        self.send("POST", f"{self.fight}/markers", {"target": self.goblin, "name": name})
        expect(page.locator(f'[data-marker="{name}"]').first).to_be_visible()

    def action(self, kind: str) -> dict[str, Any]:
        """The one standing action of `kind`."""
        actions = self.send("GET", f"{self.fight}?limit=100", status=200)["actions"]
        [found] = [a for a in actions if a["kind"] == kind and a["status"] == "active"]
        return dict(found)

    def rolls(self, kind: str) -> dict[str, list[int]]:
        return {r["name"]: r["faces"] for r in self.action(kind)["rolls"]}


def test_the_gm_answers_for_an_npc_with_the_tables_dice(server: Server, browser: Browser) -> None:
    table = Table(server)
    gm = table.open(browser, DESKTOP, "/gm", table.gm_key)
    # Bran hits (2 2 2 against spear skill 12: hit score 6); the goblin's answer waits.
    blow = {"kind": "attack", "actor": table.bran, "dice": {"Bran's hit": [2, 2, 2]},
            "params": {"target": table.goblin, "weapon": "spear"}}  # fmt: skip
    table.send("POST", f"{table.fight}/actions", blow, 202)
    typed = gm.locator('#pending [data-declare-dice="1"]')
    typed.fill("1 1 2")
    table.live_update(gm, "cornered")
    expect(typed).to_have_value("1 1 2")
    gm.locator("#pending [data-declare=parry]").click()
    expect(gm.locator("#pending [data-exchange]")).to_have_count(0)
    # 4 against parry 10: parry score 6 >= hit score 6, parried.
    assert table.rolls("attack") == {"hit": [2, 2, 2], "defense": [1, 1, 2]}
    assert table.action("attack")["breakdown"]["result"] == "parried"


def test_the_phone_keeps_the_dice_typed_through_a_live_update(
    server: Server, browser: Browser
) -> None:
    table = Table(server)
    phone = table.open(browser, PHONE, "/play", table.player)
    blow = {"kind": "attack", "actor": table.goblin, "dice": {"Goblin's hit": [3, 3, 3]},
            "params": {"target": table.bran, "weapon": "club"}}  # fmt: skip
    table.send("POST", f"{table.fight}/actions", blow, 202)
    typed = phone.locator('#pending [data-declare-dice="1"]')
    typed.fill("2 2 3")
    table.live_update(phone, "snarling")
    expect(typed).to_have_value("2 2 3")
    phone.locator("[data-declare=parry]").click()
    expect(phone.locator("#pending [data-exchange]")).to_have_count(0)
    # 9 against club skill 11: hit score 2; 7 against parry 12: parry score 5, parried.
    assert table.rolls("attack") == {"hit": [3, 3, 3], "defense": [2, 2, 3]}
    assert table.action("attack")["breakdown"]["result"] == "parried"


def test_a_new_action_asks_its_own_dice_not_the_last_ones(server: Server, browser: Browser) -> None:
    """On /play (the same panel as the GM's): a second attack, a round later, opened its
    form with the first attack's dice fields and faces still in it until its own preview
    came back and drew empty ones over them, so the dice typed meanwhile were lost and the
    server rolled. And a change of the form (a Charge ticked) after the hit was typed
    drew the fields again, empty. The preview is held here to make "meanwhile" as long as
    a slow phone's."""
    table = Table(server)
    table.send("PUT", f"{table.fight}/order", {"order": [table.bran, table.goblin]}, 200)
    phone = table.open(browser, PHONE, "/play", table.player)
    held: list[Route] = []
    hit = phone.locator('#dice-fields [data-roll="Bran\'s hit"]')

    def attack() -> None:
        phone.locator("#action-buttons [data-kind=attack]").click()
        phone.locator("#param-target").select_option(table.goblin)
        phone.locator("input[name=dice-mode][value=table]").check()

    attack()
    hit.fill("2 2 2")
    # The damage too, each die a 1: rolled by the server it could leave the Goblin below
    # 0 Stamina, stunned (S9), and a stunned Goblin cannot answer round 2's attack, which
    # then never waits for a defence (1 run in 3 failed so).
    damage = phone.locator('#dice-fields [data-roll="Bran\'s damage"]')
    dots = (damage.get_attribute("placeholder") or "").split()
    assert dots, "no damage field to type"
    damage.fill(" ".join("1" for _ in dots))
    phone.locator("#action-submit").click()
    expect(phone.locator("#result [data-pending]")).to_be_visible()
    table.send("POST", f"{table.fight}/exchanges/1/declare", {"choice": "none"})
    table.send("POST", f"{table.fight}/round", None, 200)
    expect(phone.locator("#turn")).to_contain_text("round 2")

    phone.route("**/preview", lambda route: held.append(route))
    attack()
    phone.wait_for_timeout(500)  # the preview asked and held (the panel waits 120 ms)
    assert held, "the preview was not asked"
    expect(phone.locator("#dice-fields [data-roll]")).to_have_count(0)  # not round 1's
    for route in held:
        route.continue_()
    phone.unroute("**/preview")
    held.clear()
    expect(hit).to_have_value("")
    hit.fill("4 4 4")
    phone.route("**/preview", lambda route: held.append(route))
    phone.locator("#param-charge").check()  # another preview, for a charge
    phone.wait_for_timeout(500)
    assert held, "the preview was not asked again"
    for route in held:
        route.continue_()
    phone.unroute("**/preview")
    expect(phone.locator('#dice-fields [data-roll="Bran\'s damage"]')).to_have_count(1)
    expect(hit).to_have_value("4 4 4")
    phone.locator("#action-submit").click()
    expect(phone.locator("#result [data-pending]")).to_be_visible()
    [pending] = [x for x in table.send("GET", table.fight, status=200)["exchanges"]
                 if x["status"] == "pending"]  # fmt: skip
    assert pending["rolls"][0]["faces"] == [4, 4, 4]
