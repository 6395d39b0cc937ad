"""Advance days from the GM screen, on every ruleset (issue 36): the form is built from
the day plan the ruleset publishes (`day_plan_schema` of /rulesets), the page sends what
`POST .../days` takes, and the day is recorded with each character's plan. d20's days
take no plan: the form asks for none and the day still passes."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.server import Server
from tests.patience import HANG_SECONDS

SHEETS: dict[str, dict[str, Any]] = {
    "stamina-body": {
        "st": 12, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10,
    },
    "margin": {"might": 2, "grace": 1, "vigor": 2, "aether": 0, "melee": 2},
    "d20": {
        "strength": 12, "dexterity": 12, "constitution": 12, "wisdom": 10, "level": 1,
        "hp": 10, "save_vs_death_ray": 12,
    },
}  # fmt: skip


def set_up(server: Server, ruleset: str) -> tuple[httpx.Client, str, str, dict[str, str]]:
    http = httpx.Client(base_url=server.url, timeout=HANG_SECONDS)
    created = http.post("/campaigns", json={"name": "Days", "ruleset": ruleset}).json()
    http.headers["authorization"] = f"Bearer {created['gm_key']}"
    ids = {}
    for name in ("Kara", "Bran"):
        made = http.post(
            f"/campaigns/{created['id']}/characters", json={"name": name, "sheet": SHEETS[ruleset]}
        )
        assert made.status_code == 201, made.text
        ids[name] = made.json()["id"]
    return http, created["id"], created["gm_key"], ids


def open_days(browser: Browser, server: Server, cid: str, key: str) -> Page:
    gm = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    gm.goto(f"{server.url}/gm#campaign={cid}&key={key}")
    expect(gm.locator("#connection")).to_have_attribute("data-state", "live")
    gm.locator("#days-box summary").click()
    return gm


def recorded_days(http: httpx.Client, cid: str) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = http.get(
        f"/campaigns/{cid}/history", params={"kind": "DayAdvanced"}
    ).json()["entries"]
    return [{"day": e["day"], "plans": e["plans"]} for e in entries]


def test_stamina_body_days_with_everyones_plan_and_each_characters(
    server: Server, browser: Browser
) -> None:
    http, cid, key, ids = set_up(server, "stamina-body")
    gm = open_days(browser, server, cid, key)
    # Everyone's plan: light activity, no care; Bran's own: no rest, with a healer.
    gm.locator("#days-default-rest").select_option("light")
    gm.locator("#days-default-care").uncheck()
    expect(gm.locator("#days-default-healer")).not_to_be_checked()
    gm.locator(f"#days-plan-{ids['Bran']}-rest").select_option("none")
    gm.locator(f"#days-plan-{ids['Bran']}-healer").select_option("true")
    gm.locator("#days-count").fill("2")
    gm.locator("#days-advance").click()
    expect(gm.locator("#days-message")).to_have_text("Day 2: 2 day(s) passed.")
    expect(gm.locator("#campaign-facts")).to_have_text("stamina-body · day 2")
    kara = {"rest": "light", "care": False, "healer": False}
    bran = {"rest": "none", "care": False, "healer": True}
    assert recorded_days(http, cid) == [
        {"day": 1, "plans": {ids["Kara"]: kara, ids["Bran"]: bran}},
        {"day": 2, "plans": {ids["Kara"]: kara, ids["Bran"]: bran}},
    ]


def counter(gm: Page, character: str, name: str) -> Any:
    """A counter of the ruleset's (margin's fatigue, luck) on a roster card."""
    return gm.locator(f'#roster [data-character-id="{character}"] [data-counter="{name}"]')


def test_margin_days_with_a_rest_per_character(server: Server, browser: Browser) -> None:
    http, cid, key, ids = set_up(server, "margin")
    gm = open_days(browser, server, cid, key)
    # A forced march: each one's fatigue set to 3 from the GM's tools, where margin's
    # counters (/rulesets: counters) are set as tracks are; the cards show them.
    for name in ("Kara", "Bran"):
        expect(counter(gm, ids[name], "fatigue")).to_have_text("fatigue 0")
        gm.locator(f'#roster [data-character-id="{ids[name]}"] h3').click()
        gm.locator("#gm-tools > summary").click()
        gm.locator("#gm-adjust [name=track]").select_option("fatigue")
        gm.locator("#gm-adjust [name=mode]").select_option("set")
        gm.locator("#gm-adjust [name=amount]").fill("3")
        gm.locator("#gm-adjust [data-reason]").fill("a forced march")
        gm.locator("#gm-adjust button[type=submit]").click()
        expect(counter(gm, ids[name], "fatigue")).to_have_text("fatigue 3")
        expect(counter(gm, ids[name], "luck")).to_have_text("luck 0")
    expect(gm.locator("#days-default-rest")).to_have_value("full")  # the ruleset's default
    expect(gm.locator("#days-default [data-plan-field]")).to_have_count(1)
    gm.locator(f"#days-plan-{ids['Kara']}-rest").select_option("light")
    gm.locator("#days-advance").click()
    expect(gm.locator("#days-message")).to_have_text("Day 1: 1 day(s) passed.")
    assert recorded_days(http, cid) == [
        {"day": 1, "plans": {ids["Kara"]: {"rest": "light"}, ids["Bran"]: {"rest": "full"}}}
    ]
    # What the day did, on the cards once it is healed (M6): a light day halves fatigue
    # (3 // 2), a full rest clears it.
    expect(counter(gm, ids["Kara"], "fatigue")).to_have_text("fatigue 1")
    expect(counter(gm, ids["Bran"], "fatigue")).to_have_text("fatigue 0")
    for name, fatigue in (("Kara", 1), ("Bran", 0)):
        state = http.get(f"/campaigns/{cid}/characters/{ids[name]}").json()["state"]
        assert (state["fatigue"], state["luck"]) == (fatigue, 0), name


def test_d20_days_take_no_plan(server: Server, browser: Browser) -> None:
    http, cid, key, _ = set_up(server, "d20")
    gm = open_days(browser, server, cid, key)
    expect(gm.locator("#days-default [data-no-plan]")).to_be_visible()
    expect(gm.locator("#days-box [data-plan-field]")).to_have_count(0)
    gm.locator("#days-advance").click()
    expect(gm.locator("#days-message")).to_have_text("Day 1: 1 day(s) passed.")
    assert recorded_days(http, cid) == [{"day": 1, "plans": {}}]


@pytest.mark.parametrize("ruleset", ["stamina-body", "margin", "d20"])
def test_a_refused_advance_is_said_beside_the_button(
    server: Server, browser: Browser, ruleset: str
) -> None:
    """An open encounter refuses a day (409): the GM reads why under Advance, in view."""
    http, cid, key, ids = set_up(server, ruleset)
    started = http.post(
        f"/campaigns/{cid}/encounters",
        json={"name": "Fight", "combatants": [{"character_id": ids["Kara"], "side": "party"}]},
    )
    assert started.status_code == 201, started.text
    gm = open_days(browser, server, cid, key)
    gm.locator("#days-advance").click()
    refusal = gm.locator("#days-form [role=alert]")
    expect(refusal).to_contain_text("409")
    expect(refusal).to_contain_text("Fight")
    expect(refusal).to_be_in_viewport()
    assert recorded_days(http, cid) == []
