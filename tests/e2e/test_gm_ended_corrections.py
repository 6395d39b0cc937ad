"""Corrections of an ended fight, and hidden rolls, from the GM screen (issue 36, item 5),
on a real `skald serve` in Debian's Chromium (tests/e2e/conftest.py checks every request
the page makes against the OpenAPI).

The GM picks the ended fight in the encounter picker; its actions offer Void, Reroll
(only where there are dice to roll again) and Rewind. A correction asks the reason, then
the API's preview of what it carries through the campaign (dialog#preview-dialog);
Cancel or Escape writes nothing, "Record it" records it once (a double-click too) and
the roster shows the carried tracks. A hidden roll is the GM's, for an NPC's action.

Stamina-body, worked by hand (domain/rulesets/stamina_body/RULES.md):

Kara (PC): Stamina 12, Body 10, longsword (piercing, class 3, skill 13).
Ogre (NPC): Stamina 16, Body 12, CON 13, club (impact, class 3, skill 11).

Fight "Ford"                           as played               Ogre's blow (#2) voided
  #1 Kara hits, 2+2+2 = 6 <= 13, no defense; damage 4, 4, 4 on the piercing table:
     2/1 each: Ogre 6 Stamina, 3 Body, a piercing wound     16/12 -> 10/9 (both)
  #2 Ogre hits, 2+3+3 = 8 <= 11, no defense; damage 3, 4, 5 on the impact table:
     Kara 9 Stamina, 0 Body                    12/10 -> 3/10            (voided)
  #3 the GM's change: Kara's Stamina -1         3/10 -> 2/10          12/10 -> 11/10
  the fight ends ("the ogre fled"): the roster takes Kara 2/10 (11/10 voided), Ogre 10/9
Day 1, light rest with care: Stamina back = lost // 2, Body back = CON // 5, 1 less for
  an untreated piercing wound:     Kara lost 10: +5 -> 7/10        lost 1: +0 -> 11/10
                                   Ogre lost 6: +3, Body 2 - 1 = +1 -> 13/10
"""

from __future__ import annotations

import time
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, Request, expect

from tests.e2e.server import Server
from tests.patience import HANG_SECONDS

KNIGHT = {
    "st": 13, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10,
    "weapons": [{"name": "longsword", "damage_class": 3, "damage_type": "piercing", "skill": 13}],
}  # fmt: skip
OGRE = {
    "st": 14, "con": 13, "parry": 9, "dodge": 8, "stamina_max": 16, "body_max": 12,
    "weapons": [{"name": "club", "damage_class": 3, "damage_type": "impact", "skill": 11}],
}  # fmt: skip
LIGHT = {"days": 1, "default": {"rest": "light", "care": True}}
KARA_HITS = "Kara hits: Ogre takes 6 Stamina and 3 Body (6/3 raw); Ogre gains: piercing wound"
OGRE_HITS = "Ogre hits: Kara takes 9 Stamina and 0 Body (9/0 raw)"
SLIP = "GM's call: Kara slips on the ford"


class Table:
    """A campaign played over HTTP up to the moment the GM opens the screen: the fight at
    the ford (three actions, ended) and a day of light rest, healed."""

    def __init__(self, server: Server) -> None:
        self.http = httpx.Client(base_url=server.url, timeout=HANG_SECONDS)
        created = self.post("/campaigns", {"name": "Ford", "ruleset": "stamina-body"})
        self.cid, self.gm_key = created["id"], created["gm_key"]
        self.http.headers["authorization"] = f"Bearer {self.gm_key}"
        self.base = f"/campaigns/{self.cid}"
        self.kara = self.post(f"{self.base}/characters", {"name": "Kara", "sheet": KNIGHT})["id"]
        self.ogre = self.post(
            f"{self.base}/characters", {"name": "Ogre", "sheet": OGRE, "npc": True}
        )["id"]
        self.player_key = self.post(
            f"{self.base}/keys", {"role": "player", "characters": [self.kara], "label": "Ana"}
        )["key"]

    # -- the API -------------------------------------------------------------------------

    def post(self, path: str, body: dict[str, Any], status: int = 201, **kw: Any) -> Any:
        response = self.http.post(path, json=body, **kw)
        assert response.status_code == status, response.text
        return response.json()

    def get(self, path: str, **kw: Any) -> Any:
        response = self.http.get(path, **kw)
        assert response.status_code == 200, response.text
        return response.json()

    def events(self) -> int:
        """Every event the store holds: what Cancel must leave as it was."""
        return int(self.get("/health")["event_store"]["events"])

    def encounter(self, eid: str) -> Any:
        return self.get(f"{self.base}/encounters/{eid}")

    def tracks_now(self) -> dict[str, dict[str, int]]:
        return {c["name"]: c["tracks"] for c in self.get(self.base)["characters"]}

    def carried(self) -> list[dict[str, Any]]:
        entries: list[dict[str, Any]] = self.get(
            f"{self.base}/history", params={"kind": "CorrectionCarried"}
        )["entries"]
        return entries

    # -- the evening before ----------------------------------------------------------------

    def open_fight(self, name: str) -> str:
        combatants = [
            {"character_id": self.kara, "side": "party", "rank": 1},
            {"character_id": self.ogre, "side": "foes", "rank": 1},
        ]
        return str(
            self.post(f"{self.base}/encounters", {"name": name, "combatants": combatants})["id"]
        )

    def blow(self, eid: str, actor: str, target: str, weapon: str, hit: list[int],
             damage: list[int]) -> dict[str, Any]:  # fmt: skip
        fight = f"{self.base}/encounters/{eid}"
        body = {"kind": "attack", "actor": actor, "params": {"target": target, "weapon": weapon}}
        waiting = self.post(f"{fight}/actions", {**body, "dice": {"hit": hit}}, 202)
        number = waiting["exchange"]["number"]
        declared = {"choice": "none", "dice": {"damage": damage}}
        action: dict[str, Any] = self.post(f"{fight}/exchanges/{number}/declare", declared, 201)[
            "action"
        ]
        return action

    def ford(self) -> str:
        """The fight at the ford, ended, and day 1 healed (the module docstring)."""
        eid = self.open_fight("Ford")
        assert (
            self.blow(eid, self.kara, self.ogre, "longsword", [2, 2, 2], [4, 4, 4])["summary"]
            == KARA_HITS
        )
        assert (
            self.blow(eid, self.ogre, self.kara, "club", [2, 3, 3], [3, 4, 5])["summary"]
            == OGRE_HITS
        )
        self.post(
            f"{self.base}/characters/{self.kara}/tracks",
            {"adjust": {"stamina": -1}, "reason": SLIP},
            200,
        )
        self.post(f"{self.base}/encounters/{eid}/end", {"reason": "the ogre fled"}, 200)
        self.post(f"{self.base}/days", LIGHT)
        deadline = time.monotonic() + HANG_SECONDS
        while time.monotonic() < deadline:  # the healing worker runs in the server
            heals = self.get(f"{self.base}/history", params={"kind": "CharacterHealed"})
            if sum(e["day"] == 1 for e in heals["entries"]) == 2:
                break
            time.sleep(0.05)
        else:
            raise AssertionError("day 1 was not healed")
        assert self.tracks_now() == {
            "Kara": {"stamina": 7, "body": 10},
            "Ogre": {"stamina": 13, "body": 10},
        }
        actions = [(a["number"], a["kind"], a["summary"]) for a in self.encounter(eid)["actions"]]
        assert actions == [
            (1, "attack", KARA_HITS),
            (2, "attack", OGRE_HITS),
            (3, "adjust_tracks", "Kara: stamina 3→2"),
        ]
        return eid


# -- the page ----------------------------------------------------------------------------


def open_screen(browser: Browser, server: Server, table: Table) -> Page:
    gm = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    gm.goto(f"{server.url}/gm#campaign={table.cid}&key={table.gm_key}")
    expect(gm.locator("#connection")).to_have_attribute("data-state", "live")
    return gm


def pick_ended(gm: Page, eid: str) -> None:
    expect(gm.locator(f'#encounter-picker option[value="{eid}"]')).to_have_text("Ford (ended)")
    gm.locator("#encounter-picker").select_option(eid)
    expect(gm.locator("#board-caption")).to_contain_text("ended: the ogre fled")


def ask(gm: Page, kind: str, number: int, reason: str) -> None:
    """Press a correction of action `number` and give the reason: the preview comes."""
    gm.locator(f'#actions [data-{kind}="{number}"]').click()
    gm.locator("#reason-input").fill(reason)
    gm.locator("#reason-ok").click()
    expect(gm.locator("#preview-dialog")).to_have_attribute("open", "")


def shown(gm: Page) -> list[str]:
    """The preview dialog as the GM reads it: its message, then its lines."""
    return [
        gm.locator("#preview-message").inner_text(),
        *gm.locator("#preview-lines li").all_inner_texts(),
    ]


def roster_shows_the_api(gm: Page, table: Table) -> None:
    """Every character's tracks on the roster's cards are the API's, number for number."""
    for character in table.get(table.base)["characters"]:
        card = gm.locator(f'#roster [data-character-id="{character["id"]}"]')
        for track, value in character["tracks"].items():
            bar = card.locator(f'.bar[data-track="{track}"]')
            expect(bar).to_have_attribute("data-current", str(value))


def posts(gm: Page, path_end: str) -> list[Request]:
    """The POSTs the page sends whose path ends with `path_end`, as they are sent."""
    sent: list[Request] = []
    gm.on(
        "request",
        lambda r: (
            sent.append(r)
            if r.method == "POST" and r.url.split("?")[0].endswith(path_end)
            else None
        ),
    )
    return sent


# The lines of a preview, as the dialog draws them (api/static/gmlog.js previewLines).
def _words(name: str) -> str:
    return name.replace("_", " ")


def _state(part: dict[str, Any]) -> str:
    tracks = ", ".join(f"{_words(k)} {v}" for k, v in part["tracks"].items())
    conditions = part.get("conditions") or []
    return tracks + (f" ({', '.join(_words(c) for c in conditions)})" if conditions else "")


def _where(step: dict[str, Any]) -> str:
    if step["kind"] == "encounter":
        return f"after {step['encounter']}"
    if step["kind"] == "heal":
        return f"day {step['day']}'s heal"
    return str(step["kind"])


def lines_of(preview: dict[str, Any]) -> list[str]:
    actions = [
        f"{a['encounter']} #{a['number']} {a['status']}: {a['before'] or ''}"
        + (f" → {a['after']}" if a["after"] else "")
        + (f" ({a['why']})" if a.get("why") else "")
        for a in preview["actions"]
    ]
    steps = [
        f"{_where(s)}, {s['name']}: {_state(s['before'])} → {_state(s['after'])}"
        for s in preview["steps"]
    ]
    now = [
        f"{c['name']} now: {_state(c['before'])} → {_state(c['after'])}"
        for c in preview["characters"].values()
    ]
    return [preview["message"], *actions, *steps, *now]


# -- the tests ---------------------------------------------------------------------------


def test_void_an_action_of_an_ended_fight_from_the_screen(server: Server, browser: Browser) -> None:
    table = Table(server)
    eid = table.ford()
    gm = open_screen(browser, server, table)
    pick_ended(gm, eid)
    # Every active action of the ended fight offers its corrections; Reroll only where
    # there are dice to roll again (the two blows, not the GM's change of a track).
    for number in (1, 2, 3):
        for kind in ("void", "rewind"):
            expect(gm.locator(f'#actions [data-{kind}="{number}"]')).to_have_count(1)
    expect(gm.locator("#actions [data-reroll]")).to_have_count(2)
    expect(gm.locator('#actions [data-reroll="1"]')).to_have_text("Reroll")
    expect(gm.locator('#actions [data-reroll="2"]')).to_have_text("Reroll")
    expect(gm.locator('#actions [data-reroll="3"]')).to_have_count(0)

    # The preview: Ogre's blow voided, the GM's slip replays on a Kara at 12, she leaves
    # the ford at 11/10 instead of 2/10, and day 1 heals her nothing (lost 1: +0).
    reason = "the ogre had fled before it swung"
    expected = [
        "2 step(s) and 1 action(s) change",
        "Ford #3 changed: Kara: stamina 3→2 → Kara: stamina 12→11",
        "after Ford, Kara: stamina 2, body 10 → stamina 11, body 10",
        "day 1's heal, Kara: stamina 7, body 10 → stamina 11, body 10",
        "Kara now: stamina 7, body 10 → stamina 11, body 10",
    ]
    events = table.events()
    ask(gm, "void", 2, reason)
    dialog = gm.locator("#preview-dialog")
    expect(gm.locator("#preview-title")).to_have_text("Void #2 of Ford (ended): what it changes")
    assert shown(gm) == expected
    api = table.post(
        f"{table.base}/encounters/{eid}/actions/2/void/preview", {"reason": reason}, 200
    )
    assert lines_of(api) == expected
    # Labelled and focused: the dialog is named by its title, Cancel has the focus.
    assert dialog.get_attribute("aria-labelledby") == "preview-title"
    expect(gm.locator("#preview-cancel")).to_be_focused()
    expect(gm.locator('#preview-dialog button[value="ok"]')).to_have_text("Record it")
    expect(gm.locator('#preview-dialog button[value="ok"]')).to_be_enabled()

    # Cancel writes nothing; Escape neither.
    gm.locator('#preview-dialog button[value="cancel"]').click()
    expect(dialog).not_to_have_attribute("open", "")
    ask(gm, "void", 2, reason)
    gm.keyboard.press("Escape")
    expect(dialog).not_to_have_attribute("open", "")
    assert table.events() == events
    assert table.carried() == []
    assert table.encounter(eid)["corrections"] == []
    expect(gm.locator("#result [data-correction]")).to_have_count(0)

    # Record it, double-clicked: one request, one correction.
    sent = posts(gm, f"/encounters/{eid}/actions/2/void")
    ask(gm, "void", 2, reason)
    gm.locator('#preview-dialog button[value="ok"]').dblclick()
    expect(dialog).not_to_have_attribute("open", "")
    expect(gm.locator("#result [data-correction=void] .summary")).to_have_text(
        f"void of #2 recorded: {reason}"
    )
    expect(gm.locator("#result [data-correction=void] li")).to_have_text(
        ["#3 changed: Kara: stamina 3→2 → Kara: stamina 12→11"]
    )
    expect(gm.locator('#actions li.voided[data-action-number="2"]')).to_have_count(1)
    assert len(sent) == 1 and sent[0].headers.get("idempotency-key")
    carried = table.carried()
    assert len(carried) == 1
    corrections = table.encounter(eid)["corrections"]
    assert [(c["kind"], c["number"], c["reason"]) for c in corrections] == [("void", 2, reason)]
    assert [a["status"] for a in table.encounter(eid)["actions"]] == [
        "active", "voided", "active"
    ]  # fmt: skip
    # The board: the roster now shows the carried tracks, the API's.
    assert table.tracks_now() == {
        "Kara": {"stamina": 11, "body": 10},
        "Ogre": {"stamina": 13, "body": 10},
    }
    roster_shows_the_api(gm, table)
    kara = gm.locator(f'#roster [data-character-id="{table.kara}"] .bar[data-track="stamina"]')
    expect(kara).to_have_attribute("data-current", "11")
    # The voided action has no corrections left to offer.
    expect(gm.locator('#actions [data-void="2"]')).to_have_count(0)
    gm.context.close()


def test_rewind_and_reroll_an_action_of_an_ended_fight_from_the_screen(
    server: Server, browser: Browser
) -> None:
    table = Table(server)
    eid = table.ford()
    fight = f"{table.base}/encounters/{eid}"
    gm = open_screen(browser, server, table)
    pick_ended(gm, eid)

    # Rewind to before the GM's slip (#3): it is superseded, Kara leaves the ford at 3/10
    # instead of 2/10, and day 1 heals her to 7 either way (lost 10: +5; lost 9: +4): the
    # heal is no step that changes, and her tracks now do not move.
    slip = table.encounter(eid)["actions"][2]
    assert (slip["number"], slip["kind"], slip["version"]) == (3, "adjust_tracks", 8)
    reason = "the ford was dry: no slip"
    expected = [
        "1 step(s) and 1 action(s) change",
        "Ford #3 superseded: Kara: stamina 3→2",
        "after Ford, Kara: stamina 2, body 10 → stamina 3, body 10",
    ]
    rewind = table.post(f"{fight}/rewind/preview", {"reason": reason, "to_version": 7}, 200)
    assert lines_of(rewind) == expected
    events = table.events()
    ask(gm, "rewind", 3, reason)
    expect(gm.locator("#preview-title")).to_have_text(
        "Rewind to before #3 of Ford (ended): what it changes"
    )
    assert shown(gm) == expected
    gm.keyboard.press("Escape")
    expect(gm.locator("#preview-dialog")).not_to_have_attribute("open", "")
    assert table.events() == events
    ask(gm, "rewind", 3, reason)
    assert shown(gm) == expected
    gm.locator('#preview-dialog button[value="ok"]').click()
    expect(gm.locator("#result [data-correction=rewind] .summary")).to_have_text(
        f"rewind of #3 recorded: {reason}"
    )
    expect(gm.locator("#result [data-correction=rewind] li")).to_have_text(
        ["#3 superseded: Kara: stamina 3→2"]
    )
    expect(gm.locator('#actions li.superseded[data-action-number="3"]')).to_have_count(1)
    assert len(table.carried()) == 1
    rewound = table.encounter(eid)
    assert [(c["kind"], c["to_version"]) for c in rewound["corrections"]] == [("rewind", 7)]
    assert [a["status"] for a in rewound["actions"]] == ["active", "active", "superseded"]
    assert table.tracks_now() == {
        "Kara": {"stamina": 7, "body": 10},
        "Ogre": {"stamina": 13, "body": 10},
    }
    roster_shows_the_api(gm, table)

    # A reroll's new dice are fixed by the correction, the campaign and its version
    # (docs/corrections.md: the commit rolls what the preview showed), so the preview is
    # what will be recorded, and the page must show the API's preview line for line.
    # Rolled anew, the blow may land exactly as before and then change nothing (the API
    # refuses to record that): the campaign moves on by a write that touches no track
    # (a viewer's key) until the dice say something else.
    reason = "Kara's dice fell off the table"
    for _ in range(20):
        api = table.post(f"{fight}/actions/1/reroll/preview", {"reason": reason}, 200)
        if not api["changes_nothing"]:
            break
        table.post(f"{table.base}/keys", {"role": "viewer", "label": "the stream"})
    assert api["changes_nothing"] is False
    rerolled = api["actions"][0]
    assert (rerolled["number"], rerolled["status"], rerolled["before"]) == (
        1, "rerolled", KARA_HITS,
    )  # fmt: skip
    events = table.events()
    ask(gm, "reroll", 1, reason)
    expect(gm.locator("#preview-title")).to_have_text("Reroll #1 of Ford (ended): what it changes")
    assert shown(gm) == lines_of(api)
    assert shown(gm)[1] == f"Ford #1 rerolled: {KARA_HITS} → {rerolled['after']}"
    # Escape, the dialog's last close having been the rewind's "Record it": nothing.
    gm.keyboard.press("Escape")
    expect(gm.locator("#preview-dialog")).not_to_have_attribute("open", "")
    assert table.events() == events
    expect(gm.locator("#result [data-correction=reroll]")).to_have_count(0)

    ask(gm, "reroll", 1, reason)
    assert shown(gm) == lines_of(api)
    gm.locator('#preview-dialog button[value="ok"]').click()
    expect(gm.locator("#result [data-correction=reroll] .summary")).to_have_text(
        f"reroll of #1 recorded: {reason}"
    )
    expect(gm.locator("#result [data-correction=reroll] li").first).to_have_text(
        f"#1 rerolled: {KARA_HITS} → {rerolled['after']}"
    )
    # Recorded as previewed: the blow's new outcome, every character's tracks now.
    assert len(table.carried()) == 2
    after = table.encounter(eid)
    assert [(c["kind"], c.get("number")) for c in after["corrections"]] == [
        ("rewind", None), ("reroll", 1),
    ]  # fmt: skip
    assert after["actions"][0]["summary"] == rerolled["after"]
    now = table.tracks_now()
    for character in api["characters"].values():
        assert now[character["name"]] == character["after"]["tracks"]
    roster_shows_the_api(gm, table)
    gm.context.close()


def test_a_hidden_roll_from_the_screen(server: Server, browser: Browser) -> None:
    table = Table(server)
    eid = table.open_fight("Camp")
    gm = open_screen(browser, server, table)
    expect(gm.locator("#board-caption")).to_contain_text("round 1")
    hidden = gm.locator('#action-form input[name="hidden"]')

    # Not offered for a PC's action (Kara), nor sent: her blow is open.
    sent = posts(gm, f"/encounters/{eid}/actions")
    gm.locator(f'#sides [data-combatant-id="{table.kara}"] h3').click()
    gm.locator("#action-buttons [data-kind=attack]").click()
    expect(gm.locator("#action-form")).to_be_visible()
    expect(hidden).to_be_hidden()
    gm.locator("#param-target").select_option(table.ogre)
    gm.locator("input[name=dice-mode][value=table]").check()
    gm.locator('#dice-fields [data-roll-name="Kara\'s hit"] input').fill("2 2 2")
    gm.locator("#action-submit").click()
    expect(gm.locator("#result [data-pending]")).to_have_count(1)
    assert len(sent) == 1
    body = sent[0].post_data_json
    assert isinstance(body, dict)
    assert "hidden" not in body and body["dice"] == {"Kara's hit": [2, 2, 2]}
    fight = f"{table.base}/encounters/{eid}"
    settled = table.post(
        f"{fight}/exchanges/1/declare", {"choice": "none", "dice": {"damage": [4, 4, 4]}}
    )["action"]
    assert settled.get("hidden", False) is False and settled["summary"] == KARA_HITS

    # Offered for the Ogre's, unticked, labelled "Roll hidden".
    gm.locator(f'#sides [data-combatant-id="{table.ogre}"] h3').click()
    gm.locator("#action-buttons [data-kind=attack]").click()
    expect(hidden).to_be_visible()
    expect(hidden).not_to_be_checked()
    expect(gm.get_by_label("Roll hidden")).to_have_count(1)
    gm.locator("#param-target").select_option(table.kara)
    gm.locator("input[name=dice-mode][value=table]").check()
    gm.locator('#dice-fields [data-roll-name="Ogre\'s hit"] input').fill("2 3 3")
    hidden.check()
    gm.locator("#action-submit").click()
    expect(gm.locator("#result [data-pending]")).to_have_count(1)
    assert len(sent) == 2
    body = sent[1].post_data_json
    assert isinstance(body, dict)
    assert body["hidden"] is True and body["dice"] == {"Ogre's hit": [2, 3, 3]}
    # The form is reset: the next action of the Ogre starts unticked.
    gm.locator("#action-buttons [data-kind=attack]").click()
    expect(hidden).to_be_visible()
    expect(hidden).not_to_be_checked()

    # Kara answers from her phone (her player's key): the blow lands, recorded hidden.
    player = {"authorization": f"Bearer {table.player_key}"}
    declared = table.post(
        f"{fight}/exchanges/2/declare",
        {"choice": "none", "dice": {"damage": [3, 4, 5]}},
        201,
        headers=player,
    )["action"]
    as_gm = table.encounter(eid)["actions"][1]
    assert (as_gm["hidden"], as_gm["summary"]) == (True, OGRE_HITS)
    assert [(r["name"], r["faces"]) for r in as_gm["rolls"]] == [
        ("hit", [2, 3, 3]), ("damage", [3, 4, 5]),
    ]  # fmt: skip
    # What the player reads of it: the outcome, no dice.
    as_player = table.get(fight, headers=player)["actions"][1]
    assert (as_player["hidden"], as_player["rolls"], as_player["breakdown"]) == (True, [], {})
    assert declared["rolls"] == []
    assert "2, 3, 3" not in str(as_player) and "[2, 3, 3]" not in str(as_player)
    gm.context.close()
