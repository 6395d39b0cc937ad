"""The phone's "My attacks' odds against..." box: each row's figure is what its label says
(found on a GM's evening of stamina-body, issue 39).

- stamina-body, against an NPC whose numbers are hidden: the API gave a row per defense
  the foe may declare, "spear (parry)" and "spear (dodge)" each with the chance to hit
  from the attacker's own skill (the chance to land against a parry would tell the foe's
  Parry, RULINGS T3a), so every row read as "no defense"; the phone then said "no odds"
  for each, though T3a gives a player that chance to hit. Now one row a weapon says what
  it is, "spear (to hit, before any defense)", with its figure;
- stamina-body, against a foe whose numbers the player may read: each defense's row is the
  chance the blow lands against it (seed 001, S3), lower than with no defense;
- d20: the shove's row counted a success and not a double success (seed 004: the 10 ft
  and prone result, a success too), understating the chance the shove works."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import Browser, Page, expect

from tests.e2e.server import Server
from tests.e2e.test_play_odds_and_corrections import open_page
from tests.e2e.test_table_dice_answers import GOBLIN, PHONE, SOLDIER
from tests.integration.test_told_api import PC_D20
from tests.patience import HANG_SECONDS

ULF = {**GOBLIN, "dodge": 8}  # a PC foe: Parry 10, Dodge 8


def table(server: Server, ruleset: str, bran: Any, foes: dict[str, tuple[Any, bool]]) -> Any:
    """Bran (the player's) against the foes, each (sheet, npc); the phone and the ids."""
    with httpx.Client(base_url=server.url, timeout=HANG_SECONDS) as http:
        created = http.post("/campaigns", json={"name": "Ford", "ruleset": ruleset}).json()
        base = f"/campaigns/{created['id']}"
        http.headers["authorization"] = f"Bearer {created['gm_key']}"

        def enrol(name: str, sheet: Any, npc: bool) -> str:
            body = {"name": name, "sheet": sheet, "npc": npc}
            answer = http.post(f"{base}/characters", json=body)
            assert answer.status_code == 201, answer.text
            return str(answer.json()["id"])

        ids = {"Bran": enrol("Bran", bran, False)}
        ids.update({name: enrol(name, sheet, npc) for name, (sheet, npc) in foes.items()})
        key = http.post(f"{base}/keys", json={"role": "player", "characters": [ids["Bran"]]})
        sides = [{"character_id": ids["Bran"], "side": "party"}] + [
            {"character_id": ids[name], "side": "foes"} for name in foes
        ]
        fight = http.post(f"{base}/encounters", json={"name": "Ford", "combatants": sides})
        assert fight.status_code == 201, fight.text
    return created["id"], key.json()["key"], ids


def rows(phone: Page, foe: str, count: int) -> dict[str, tuple[str, str]]:
    """Pick the foe; each row's label: (the percentage it prints, its title)."""
    phone.locator("#attack-odds-against").select_option(foe)
    expect(phone.locator("#attack-odds .odd")).to_have_count(count)
    found: dict[str, list[str]] = phone.locator("#attack-odds .odd").evaluate_all(
        """rows => Object.fromEntries(rows.map((row) => [row.dataset.attack,
             [row.lastElementChild.textContent, row.title]]))"""
    )
    return {label: (shown, title) for label, (shown, title) in found.items()}


def test_stamina_body_rows_say_what_their_chance_is(server: Server, browser: Browser) -> None:
    cid, key, ids = table(
        server, "stamina-body", SOLDIER, {"Goblin": (GOBLIN, True), "Ulf": (ULF, False)}
    )
    phone = open_page(browser, f"{server.url}/play#campaign={cid}&key={key}", PHONE)
    phone.locator("#attack-odds-box > summary").click()

    # The Goblin's numbers are the GM's: the chance to hit, 3d6 against Bran's spear
    # (skill 12) and fists (unarmed skill 10), one row a weapon.
    assert rows(phone, ids["Goblin"], 2) == {
        "spear (to hit, before any defense)": ("74.1%", "hit 20/27"),
        "unarmed (to hit, before any defense)": ("50.0%", "hit 1/2"),
    }
    expect(phone.locator('#attack-odds [data-odds="partial"]')).to_have_text(
        "Goblin's defenses are the GM's: a hit may still be stopped."
    )
    expect(phone.locator('#attack-odds [data-odds="withheld"]')).to_have_count(0)

    # Ulf is a PC: each defense's row is the chance the blow lands against it (S3),
    # Parry 10 and Dodge 8.
    assert rows(phone, ids["Ulf"], 6) == {
        "spear (no defense)": ("74.1%", "hit 20/27"),
        "spear (parry)": ("57.2%", "hit 4445/7776"),
        "spear (dodge)": ("67.1%", "hit 5221/7776"),
        "unarmed (no defense)": ("50.0%", "hit 1/2"),
        "unarmed (parry)": ("35.2%", "hit 5471/15552"),
        "unarmed (dodge)": ("43.6%", "hit 6775/15552"),
    }
    expect(phone.locator('#attack-odds [data-odds="partial"]')).to_have_count(0)


def test_d20_a_shove_row_counts_a_double_success(server: Server, browser: Browser) -> None:
    bran = {**PC_D20, "strength": 18}
    cid, key, ids = table(server, "d20", bran, {"Pip": ({**PC_D20, "strength": 3}, False)})
    phone = open_page(browser, f"{server.url}/play#campaign={cid}&key={key}", PHONE)
    phone.locator("#attack-odds-box > summary").click()
    assert rows(phone, ids["Pip"], 2) == {
        "Sword": ("65.0%", "hit 13/20"),
        "shove": ("70.0%", "double success 1/5 + success 1/2"),
    }
