"""The house-rule preview from the GM screen (issue 38), on a real `skald serve` in
Debian's Chromium (tests/e2e/conftest.py checks every request the page makes against the
OpenAPI).

A d20 campaign with one ended fight: the Mage's Spark (1d4-3, magic) hit the Foe on a
hit die of 11 and a damage die of 1: -2 rolled, raised to the magic minimum 1, HP 20 ->
19. The GM opens "Campaign options", sets the magic minimum to 3 and presses "Preview
under these options": the dialog says the Spark would have dealt 3 (HP 20 -> 17), and
nothing is written.
"""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import Browser, expect

from tests.e2e.server import Server
from tests.patience import HANG_SECONDS

SPARK = {"name": "Spark", "damage": "1d4-3", "damage_kind": "magic"}
SHEET = {
    "strength": {"modifier": 0}, "dexterity": 10, "constitution": 10, "wisdom": 10,
    "level": 1, "hp": 20, "save_vs_death_ray": 12, "weapons": [SPARK],
}  # fmt: skip
BEFORE = "Mage hits Foe with Spark (11 >= AC 11): -2 rolled, 1 dealt; HP 20 -> 19"
AFTER = "Mage hits Foe with Spark (11 >= AC 11): -2 rolled, 3 dealt; HP 20 -> 17"


def post(http: httpx.Client, path: str, body: dict[str, Any], status: int = 201) -> Any:
    response = http.post(path, json=body)
    assert response.status_code == status, response.text
    return response.json()


def events(http: httpx.Client) -> int:
    response = http.get("/health")
    assert response.status_code == 200, response.text
    return int(response.json()["event_store"]["events"])


def test_the_gm_previews_a_larger_magic_minimum_beside_the_options(
    server: Server, browser: Browser
) -> None:
    http = httpx.Client(base_url=server.url, timeout=HANG_SECONDS)
    created = post(http, "/campaigns", {"name": "Sparks", "ruleset": "d20"})
    cid, gm_key = created["id"], created["gm_key"]
    http.headers["authorization"] = f"Bearer {gm_key}"
    base = f"/campaigns/{cid}"
    mage = post(http, f"{base}/characters", {"name": "Mage", "sheet": SHEET})["id"]
    foe = post(http, f"{base}/characters", {"name": "Foe", "sheet": SHEET, "npc": True})["id"]
    lineup = [{"character_id": mage, "side": "party"}, {"character_id": foe, "side": "foes"}]
    eid = post(http, f"{base}/encounters", {"name": "Sparks", "combatants": lineup})["id"]
    attack = {
        "kind": "attack",
        "actor": mage,
        "params": {"target": foe, "weapon": "Spark"},
        "dice": {"hit": [11], "damage": [1]},
    }
    assert post(http, f"{base}/encounters/{eid}/actions", attack)["action"]["summary"] == BEFORE
    post(http, f"{base}/encounters/{eid}/end", {"reason": "the foe yielded"}, 200)
    written = events(http)

    gm = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    gm.goto(f"{server.url}/gm#campaign={cid}&key={gm_key}")
    expect(gm.locator("#connection")).to_have_attribute("data-state", "live")
    gm.locator("#rules-box summary").click()
    minimum = gm.locator("#rules-option-magic_minimum_damage")
    expect(minimum).to_have_value("1")  # the campaign's own, beside the others
    expect(gm.locator("#rules-option-natural_20_hits")).not_to_be_checked()
    minimum.fill("3")
    gm.locator("#rules-preview").click()
    dialog = gm.locator("#rules-dialog")
    expect(dialog).to_have_attribute("open", "")
    expect(gm.locator("#rules-message")).to_have_text(
        "Options: magic minimum damage. 1 ended fight(s), 1 action(s) replayed on their "
        "recorded dice: 1 fight(s) would have come out otherwise."
    )
    fight = gm.locator(f'#rules-fights [data-rules-fight="{eid}"]')
    expect(fight.locator("h4")).to_have_text("Sparks")
    expect(fight.locator("li")).to_have_text(
        [f"#1 attack: {BEFORE} → {AFTER}", "Foe: hp 19 → hp 17", "Foe ends with hp 17 (was hp 19)"]
    )
    gm.locator("#rules-close").click()
    expect(dialog).not_to_have_attribute("open", "")
    # Read-only: nothing recorded, the campaign's option as it was.
    assert events(http) == written
    assert http.get(base).json()["options"]["magic_minimum_damage"] == 1
    # A bad value is the API's 422, said beside the button; still nothing written.
    minimum.fill("99")
    gm.locator("#rules-preview").click()
    expect(gm.locator("#rules-box [role=alert]")).to_contain_text("options.magic_minimum_damage")
    assert events(http) == written
    gm.context.close()
    http.close()
