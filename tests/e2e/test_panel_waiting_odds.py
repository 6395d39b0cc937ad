"""The combat panel's odds of an attack whose defense is left to the defender (Debian's
Chromium, `skald serve`).

Seed 001 S3: "the defender answers one attack with a parry, a dodge or nothing"; an
attack that does not name the defense waits for that answer when it hits. The panel's
defense select said "— (default: none)" and its odds read "Ulf loses ≥ 1 stamina" as if
Ulf answered nothing. It now says the attack waits, the chance to hit, and each of Ulf's
answers with its own odds, side by side, exactly as the API has them."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.e2e.server import Server
from tests.e2e.test_gm_screen_defects import DESKTOP, Table, odds_asked, pick


def attack_on_ulf(table: Table, context: BrowserContext) -> tuple[Page, list[dict[str, Any]]]:
    """The GM's screen with Bran's attack on Ulf open on the panel, its defense left
    empty; and every odds request the page sends from the start."""
    gm = table.open(context)
    asked = odds_asked(gm)
    pick(gm, table.ids["Bran"])
    gm.locator("#action-buttons [data-kind=attack]").click()
    gm.locator("#param-target").select_option(table.ids["Ulf"])
    return gm, asked


def test_an_attack_left_to_the_defender_shows_the_odds_of_each_answer(
    server: Server, browser: Browser
) -> None:
    table = Table(server).fight()
    ulf = table.ids["Ulf"]
    with browser.new_context(viewport=DESKTOP) as context:
        gm, asked = attack_on_ulf(table, context)
        # Left empty, the attack waits for Ulf's answer: the select says so.
        expect(gm.locator('#param-defense option[value=""]')).to_have_text(
            "— (wait for the defender's answer)"
        )
        expect(gm.locator("#param-defense")).to_have_value("")
        # Longsword skill 13: 181 throws of 216 hit; then Ulf answers.
        hit = gm.locator('#odds [data-outcome="hit"]')
        expect(hit).to_have_attribute("title", "181/216")
        expect(hit.locator("span").first).to_have_text("hit: Ulf answers")
        expect(gm.locator('#odds [data-outcome="miss"]')).to_have_attribute("title", "35/216")
        expect(gm.locator('#odds [data-odds="awaits"]')).to_have_text(
            "Ulf answers a hit: Parry, Dodge, No defence. Each answer's odds:"
        )
        # No harm is stated outside an answer: it depends on the answer.
        expect(gm.locator("#odds > [data-damage], #odds > [data-condition-odds]")).to_have_count(0)
        answers = gm.locator("#odds [data-answer]")
        expect(answers).to_have_count(3)
        assert [answers.nth(n).get_attribute("data-answer") for n in range(3)] == [
            "parry",
            "dodge",
            "none",
        ]
        expect(answers.locator("h4")).to_have_text(
            ["If Ulf: Parry", "If Ulf: Dodge", "If Ulf: No defence"]
        )
        # Parry 11 against a hit of skill 13: stopped in 3575 of 15552 (brute force, S3).
        parry = gm.locator('#odds [data-answer="parry"]')
        expect(parry.locator('[data-answer-outcome="parried"]')).to_have_attribute(
            "title", "3575/15552"
        )
        none = gm.locator('#odds [data-answer="none"]')
        expect(none.locator('[data-answer-outcome="hit"]')).to_have_attribute("title", "181/216")
        expect(none.locator(f'[data-answer-damage="{ulf}:stamina"]')).to_have_attribute(
            "title", "181/216"
        )
        # Every row of every answer is the API's own, asked as the page asked it.
        body = asked[-1]
        assert "defense" not in body["params"]
        odds = table.http.post(f"/encounters/{table.eid}/odds", json=body).json()
        for choice, answer in odds["answers"].items():
            rows = gm.locator(f'#odds [data-answer="{choice}"] [data-answer-outcome]')
            expect(rows).to_have_count(len(answer["results"]))
            for n, result in enumerate(answer["results"]):
                expect(rows.nth(n)).to_have_attribute("data-answer-outcome", result["result"])
                expect(rows.nth(n)).to_have_attribute("title", result["probability"])

        # Named by the GM, the defense is what the odds are of: no answer waits.
        gm.locator("#param-defense").select_option("parry")
        expect(gm.locator('#odds [data-outcome="parried"]')).to_have_attribute(
            "title", "3575/15552"
        )
        expect(gm.locator('#odds [data-odds="awaits"]')).to_have_count(0)
        expect(gm.locator("#odds [data-answer]")).to_have_count(0)
