"""What a player's phone and the GM's pending card say, as the session-20 evening found
them (a GM's evening per ruleset on main, through the pages):

- margin and d20: every odds a player may ask against an NPC are withheld (RULINGS T3a:
  its defenses, its AC are hidden), and the phone drew them anyway: "rapier 0.0%",
  "fists 0.0%" under "My attacks' odds against...", an empty "Odds before the dice"
  under the attack form. A player reads 0.0% as "I cannot hit". They now say why there
  are none;
- after a player's own posture or blow, the phone drew the form again and asked its odds
  for an actor who had now acted: a 409 and a console error on every press;
- a blow the GM rolled hidden: the phone asked its answer's odds, which the API refuses
  for a hidden roll (403), on every live update while it waited;
- stamina-body: the GM answering for an NPC saw no hit score on the pending card, which
  the player's phone shows its player (a parry or dodge must reach it, seed 001 S3);
- the result box kept saying what a voided action had done ("Bran recovers 6 Stamina"
  after the GM's correction made it 0)."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import Browser, Page, Response, expect

from tests.e2e.server import Server
from tests.e2e.test_table_dice_answers import DESKTOP, PHONE
from tests.e2e.test_table_dice_answers import Table as StaminaBody
from tests.patience import HANG_SECONDS

RAPIER = {"name": "rapier", "attribute": "grace", "skill": "melee", "category": "melee",
          "base_damage": 2, "per_margin": "1", "damage_type": "pierce"}  # fmt: skip
AXE = {**RAPIER, "name": "axe", "attribute": "might", "base_damage": 3, "damage_type": "slash"}
LIA = {"might": 1, "grace": 3, "vigor": 2, "aether": 1, "melee": 2, "race": "elf",
       "weapons": [RAPIER]}  # fmt: skip
ORC = {"might": 3, "grace": 1, "vigor": 2, "aether": 0, "melee": 2, "race": "orc",
       "weapons": [AXE]}  # fmt: skip


def failures(page: Page) -> list[str]:
    """Every answer of 400 or more the page receives from now on, as 'STATUS METHOD path'."""
    seen: list[str] = []

    def note(response: Response) -> None:
        if response.status >= 400:
            path = response.url.split("/campaigns/", 1)[-1]
            seen.append(f"{response.status} {response.request.method} {path}")

    page.on("response", note)
    return seen


def open_page(browser: Browser, url: str, viewport: Any) -> Page:
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(url)
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    return page


def test_a_player_reads_no_odds_against_an_npc_as_zero(server: Server, browser: Browser) -> None:
    with httpx.Client(base_url=server.url, timeout=HANG_SECONDS) as http:
        created = http.post("/campaigns", json={"name": "Ford", "ruleset": "margin"}).json()
        base = f"/campaigns/{created['id']}"
        http.headers["authorization"] = f"Bearer {created['gm_key']}"
        lia = http.post(f"{base}/characters", json={"name": "Lia", "sheet": LIA}).json()["id"]
        orc = http.post(f"{base}/characters", json={"name": "Orc", "sheet": ORC, "npc": True})
        orc_id = orc.json()["id"]
        key = http.post(f"{base}/keys", json={"role": "player", "characters": [lia]}).json()
        combatants = [{"character_id": lia}, {"character_id": orc_id}]
        fight = http.post(f"{base}/encounters", json={"name": "Ford", "combatants": combatants})
        markers = f"{base}/encounters/{fight.json()['id']}/markers"

        phone = open_page(browser, f"{server.url}/play#campaign={created['id']}&key={key['key']}",
                          PHONE)  # fmt: skip
        failed = failures(phone)
        phone.locator("#attack-odds-box > summary").click()
        phone.locator("#attack-odds-against").select_option(orc_id)
        withheld = phone.locator('#attack-odds [data-odds="withheld"]')
        expect(withheld).to_have_text([
            "rapier (effort 0): no odds, they would tell Orc's hidden numbers",
            "fists (effort 0): no odds, they would tell Orc's hidden numbers",
        ])  # fmt: skip
        expect(phone.locator("#attack-odds .odd")).to_have_count(0)

        phone.locator("#action-buttons [data-kind=attack]").click()
        phone.locator("#param-target").select_option(orc_id)
        expect(phone.locator('#odds [data-odds="withheld"]')).to_have_text(
            "No odds: they would tell a foe's hidden numbers."
        )
        expect(phone.locator("#odds .odd")).to_have_count(0)

        # Lia takes up Defend instead: recorded, and nothing is asked of the API that it
        # refuses (the Defend's odds again, for Lia who has acted).
        phone.locator("#action-buttons [data-kind=defend]").click()
        expect(phone.locator('#odds [data-outcome="declared"]')).to_be_visible()  # read first
        phone.locator("#action-submit").click()
        expect(phone.locator("#result [data-result] .summary")).to_have_text(
            "Lia takes up Defend for round 1"
        )
        for name in ("watchful", "braced"):  # live updates, well after the form's odds timer
            http.post(markers, json={"target": orc_id, "name": name})
            expect(phone.locator(f'[data-marker="{name}"]').first).to_be_visible()
        assert failed == []


def test_the_gm_sees_the_hit_score_and_a_hidden_blow_asks_no_odds(
    server: Server, browser: Browser
) -> None:
    table = StaminaBody(server)
    gm = table.open(browser, DESKTOP, "/gm", table.gm_key)
    phone = table.open(browser, PHONE, "/play", table.player)
    failed = failures(phone)
    # Bran's spear: 3 3 3 against skill 12, hit score 3; the goblin's answer waits on the GM.
    blow = {"kind": "attack", "actor": table.bran, "dice": {"Bran's hit": [3, 3, 3]},
            "params": {"target": table.goblin, "weapon": "spear"}}  # fmt: skip
    table.send("POST", f"{table.fight}/actions", blow, 202)
    expect(gm.locator('#pending [data-exchange="1"] .hit-score')).to_have_text(
        "Hit score 3 (9 <= 12)"
    )
    expect(gm.locator('#pending [data-exchange="1"] .hit-score')).to_have_attribute(
        "data-hit-score", "3"
    )
    table.send("POST", f"{table.fight}/exchanges/1/declare", {"choice": "none"}, 201)
    expect(gm.locator("#pending [data-exchange]")).to_have_count(0)

    # The goblin's club, rolled hidden: Bran's phone waits for his answer, shows no hit
    # score, and asks no odds (the API would refuse them: they would tell the hit).
    hidden = {"kind": "attack", "actor": table.goblin, "hidden": True,
              "dice": {"Goblin's hit": [1, 1, 2]}, "params": {"target": table.bran}}  # fmt: skip
    table.send("POST", f"{table.fight}/actions", hidden, 202)
    waiting = phone.locator('#pending [data-exchange="2"]')
    expect(waiting).to_be_visible()
    expect(waiting.locator(".hit-score")).to_have_count(0)
    table.live_update(phone, "snarling")
    expect(waiting.locator("[data-answer-odds]")).to_have_count(3)
    expect(waiting.locator("[data-answer-odds] .chance")).to_have_count(0)
    assert failed == []


def test_the_result_box_follows_a_void(server: Server, browser: Browser) -> None:
    table = StaminaBody(server)
    phone = table.open(browser, PHONE, "/play", table.player)
    # The goblin's club first: 6 6 on the impact table, 10 Stamina and 2 Body, armour 2
    # soaks 1 Body and 1 Stamina: Bran at 3/12. Then Bran's recovery on his phone: 1 2 3
    # against CON 12, margin 6: +6, to 9.
    blow = {"kind": "take_hit", "params": {"target": table.bran, "damage_type": "impact",
            "damage_class": 2}, "dice": {"damage": [6, 6]}}  # fmt: skip
    table.send("POST", f"{table.fight}/actions", blow, 201)
    phone.locator("#action-buttons [data-kind=recover]").click()
    phone.locator("input[name=dice-mode][value=table]").check()
    phone.locator('#dice-fields [data-roll-name="Bran\'s recovery"] input').fill("1 2 3")
    phone.locator("#action-submit").click()
    summary = phone.locator("#result [data-result] .summary")
    expect(summary).to_have_text("Bran recovers 6 Stamina")
    expect(phone.locator("#mine .bar[data-track=stamina]")).to_have_attribute("data-current", "9")
    number = int(phone.locator("#result [data-result]").get_attribute("data-result") or 0)

    table.send("POST", f"{table.fight}/actions/{number}/void", {"reason": "he was down"}, 200)
    expect(summary).to_have_text("Bran recovers 6 Stamina (voided)")
    expect(phone.locator("#mine .bar[data-track=stamina]")).to_have_attribute("data-current", "3")
