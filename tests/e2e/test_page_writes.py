"""Every write the pages make lands exactly once (issue 36, "One way for the pages to
write"): each write control of /gm and /play, double-clicked, records one intent; and,
with the first answer dropped after the server took the request (the page sees the
connection fail), a second press asks again with the same Idempotency-Key and records
nothing more, the first answer shown and no error left.

Records are read from the API after each press: the campaign's events (but the healing
worker's, which come on their own), each encounter's audit, the keys, the bestiary, the
webhooks. Each step names the change one intent makes, exactly."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, Request, Route, expect

from tests.e2e.browser import require_browser
from tests.e2e.server import Server
from tests.patience import HANG_MS, HANG_SECONDS

KNIGHT = {
    "st": 13, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10,
    "weapons": [{"name": "longsword", "damage_class": 3, "damage_type": "piercing", "skill": 13}],
}  # fmt: skip
DESKTOP = {"width": 1400, "height": 1000}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose webhooks may name this machine (a receiver nobody runs: nothing
    here waits for a delivery), and whose rate limits leave the test's reads alone."""
    require_browser()
    data = Path(tmp_path_factory.mktemp("writes")) / "data"
    # The test reads the records after every press, faster than a table would.
    quick = "100000/minute"
    env = {"SKALD_WEBHOOKS_ALLOW_PRIVATE": "true", "SKALD_RATE_LIMIT_PER_KEY": quick,
           "SKALD_RATE_LIMIT_PER_ADDRESS": quick}  # fmt: skip
    running = Server(data, env=env).start()
    try:
        yield running
    finally:
        running.stop()


class Run:
    """One campaign, the GM screen and Bran's player page, pressed in one `mode`:
    "double" (a double-click) or "lost" (a press whose answer is dropped, then another)."""

    def __init__(self, server: Server, browser: Browser, mode: str) -> None:
        self.mode = mode
        self.http = httpx.Client(base_url=server.url, timeout=HANG_SECONDS)
        options = {"initiative": {"mode": "roll", "dice": "1d20", "add": "dodge"}}
        body = {"name": "Writes", "ruleset": "stamina-body", "options": options}
        created = self.http.post("/campaigns", json=body).json()
        self.cid, self.base = created["id"], f"/campaigns/{created['id']}"
        self.http.headers["authorization"] = f"Bearer {created['gm_key']}"
        self.ids = {}
        for name, npc in (("Bran", False), ("Ulf", True)):
            made = self.http.post(
                f"{self.base}/characters", json={"name": name, "sheet": KNIGHT, "npc": npc}
            )
            assert made.status_code == 201, made.text
            self.ids[name] = made.json()["id"]
        player = self.http.post(
            f"{self.base}/keys", json={"role": "player", "characters": [self.ids["Bran"]]}
        ).json()["key"]
        self.in_flight: set[Request] = set()
        self.sent: list[tuple[str, str | None]] = []  # each write: its address and key
        self.gm = self.open(
            browser, DESKTOP, f"{server.url}/gm#campaign={self.cid}&key={created['gm_key']}"
        )
        self.play = self.open(browser, PHONE, f"{server.url}/play#campaign={self.cid}&key={player}")

    def open(self, browser: Browser, viewport: dict[str, int], url: str) -> Page:
        page = browser.new_context(viewport=viewport).new_page()
        for event in ("requestfinished", "requestfailed"):
            page.on(event, lambda r: self.in_flight.discard(r))
        page.on("request", self.sending)
        page.goto(url)
        expect(page.locator("#connection")).to_have_attribute("data-state", "live")
        if self.mode == "lost":
            # The connection is lost: the live feed goes too, so nothing redraws a control
            # between the lost answer and the press that asks again.
            page.route("**/feed?**", lambda route: route.abort())
            page.reload()
        return page

    def sending(self, request: Request) -> None:
        if request.method != "GET":
            self.in_flight.add(request)
            self.sent.append((request.url, request.headers.get("idempotency-key")))

    # -- what the API has recorded -----------------------------------------------------

    def get(self, path: str) -> Any:
        response = self.http.get(f"{self.base}{path}")
        assert response.status_code == 200, response.text
        return response.json()

    def records(self) -> dict[str, int]:
        campaign = self.get("")
        # One read: two (all, then the heals) raced the healing worker, whose heals
        # landing between them counted as fewer campaign events than before.
        history = self.get("/history?limit=1000")
        assert len(history["entries"]) == history["total"], "more events than one page"
        keys = [k for k in self.get("/keys") if k["role"] != "gm"]
        hooks = self.get("/webhooks")
        found = {
            "characters": len(campaign["characters"]),
            "encounters": len(campaign["encounters"]),
            "day": campaign["day"],
            "campaign events": sum(e["event"] != "CharacterHealed" for e in history["entries"]),
            "keys": len(keys),
            "revoked": sum(k["revoked"] for k in keys),
            "bestiary": len(self.get("/bestiary")),
            "saved": len(self.get("/saved-encounters")),
            "webhooks": len(hooks),
            "disabled": sum(not h["enabled"] for h in hooks),
            "audit": 0,
            "corrections": 0,
            "markers": 0,
        }
        for summary in campaign["encounters"]:
            fight = self.get(f"/encounters/{summary['id']}?limit=1")
            found["audit"] += self.get(f"/encounters/{summary['id']}/audit?limit=1")["total"]
            found["corrections"] += len(fight["corrections"])
            found["markers"] += len(fight["markers"])
        return found

    def settle(self, page: Page) -> None:
        """Until no press is under way on either page and no write they sent is still on
        its way (the round trips to each page first hear the events of what it sent)."""
        for each in (self.gm, self.play):
            expect(each.locator("html[data-writing]")).to_have_count(0)  # no press under way
        waited = 0.0
        while self.in_flight and waited < HANG_SECONDS:
            page.wait_for_timeout(50)
            waited += 0.05
        assert not self.in_flight, [f"{r.method} {r.url}" for r in self.in_flight]

    # -- a press ---------------------------------------------------------------------

    def press(
        self,
        page: Page,
        control: str,
        method: str,
        path: str,
        made: dict[str, int],
        ready: Callable[[], None] = lambda: None,
        intents: int = 1,
    ) -> None:
        """Press `control` as the mode says (after `ready`, which opens its dialog or
        fills its form), and check that exactly `made` was recorded: the names of the
        records that changed and by how much; and that its requests carried `intents`
        Idempotency-Keys, one per request the press means."""
        before = self.records()
        sent_before = len(self.sent)
        if self.mode == "double":
            ready()
            expect(page.locator(control)).to_be_enabled()  # as patient as a hang
            page.locator(control).dblclick()
        else:
            lost = self.drop_first_answer(page, method, path)
            ready()
            expect(page.locator(control)).to_be_enabled()
            page.locator(control).click()
            expect(page.locator("[data-problem=lost]")).to_be_visible()
            assert lost == [f"{method} {path}"]
            ready()
            page.locator(control).click()
            expect(page.locator("[data-problem=lost]")).to_have_count(0)
        self.wait_for_change(page, before)
        after = self.records()
        changed = {k: after[k] - before[k] for k in after if after[k] != before[k]}
        assert changed == made, (control, self.sent[sent_before:])
        reads = ("/preview", "/odds", "/qr")  # POSTs that write nothing
        keys = [key for url, key in self.sent[sent_before:] if not url.endswith(reads)]
        assert None not in keys and len(set(keys)) == intents, (control, self.sent[sent_before:])
        expect(page.locator("[role=alert]")).to_have_count(0)  # no error, no "already acted"

    def wait_for_change(self, page: Page, before: dict[str, int]) -> None:
        waited = 0.0
        while self.records() == before and waited < HANG_SECONDS:
            page.wait_for_timeout(100)
            waited += 0.1
        self.settle(page)

    def drop_first_answer(self, page: Page, method: str, path: str) -> list[str]:
        """The first `method` request to `path` reaches the server, which answers; the
        answer never reaches the page (its fetch fails, as on a dropped connection)."""
        dropped: list[str] = []

        def lose(route: Route) -> None:
            if route.request.method != method or dropped:
                route.fallback()
                return
            route.fetch()  # the server takes the request and answers it
            dropped.append(f"{method} {path}")
            route.abort("connectionreset")

        page.route(f"**{self.base}{path}", lose)
        return dropped

    def reason(self, page: Page, opener: str, text: str) -> Callable[[], None]:
        def ready() -> None:
            page.locator(opener).click()
            page.locator("#reason-input").fill(text)

        return ready


def unfold(page: Page, box: str) -> None:
    if not page.locator(box).evaluate("box => box.open"):
        page.locator(f"{box} > summary").click()


@pytest.mark.parametrize("mode", ["double", "lost"])
def test_every_write_control_records_once(server: Server, browser: Browser, mode: str) -> None:
    run = Run(server, browser, mode)
    gm, play, bran, ulf = run.gm, run.play, run.ids["Bran"], run.ids["Ulf"]
    one_event = {"campaign events": 1}

    # -- the roster: enrol, the bestiary, keys, webhooks, days ------------------------
    unfold(gm, "#enrol-box")
    gm.locator("#enrol-from").select_option("t:Goblin (template)")
    gm.locator("#enrol-name").fill("Goblin")
    gm.locator("#enrol-count").fill("2")
    made = {"characters": 2, "campaign events": 2}
    run.press(gm, "#enrol-add", "POST", "/characters", made, intents=2)
    gm.locator("#enrol-name").fill("Orc")
    run.press(gm, "#enrol-save", "POST", "/bestiary", {"bestiary": 1})
    unfold(gm, "#bestiary-box")
    gm.locator("#bestiary-count").fill("1")
    run.press(gm, "#bestiary-enrol", "POST", "/bestiary/*/enrol", {"characters": 1, **one_event})
    run.press(gm, "#bestiary-remove", "DELETE", "/bestiary/*", {"bestiary": -1})
    unfold(gm, "#keys-box")
    gm.locator("#key-character").select_option(bran)
    run.press(gm, "#issue-player", "POST", "/keys", {"keys": 1, **one_event})
    run.press(gm, "#issue-viewer", "POST", "/keys", {"keys": 1, **one_event})
    revoke = "#key-list [data-revoke]"
    run.press(gm, f"{revoke} >> nth=-1", "DELETE", "/keys/*", {"revoked": 1, **one_event})
    unfold(gm, "#webhooks-box")
    gm.locator("#webhook-url").fill("http://127.0.0.1:9/hook")
    run.press(gm, "#webhook-add", "POST", "/webhooks", {"webhooks": 1})
    hook = "#webhook-list [data-webhook-action={}]"
    run.press(gm, hook.format("disable"), "POST", "/webhooks/*/disable", {"disabled": 1})
    run.press(gm, hook.format("enable"), "POST", "/webhooks/*/enable", {"disabled": -1})
    run.press(gm, hook.format("delete"), "DELETE", "/webhooks/*", {"webhooks": -1})
    unfold(gm, "#days-box")
    run.press(gm, "#days-advance", "POST", "/days", {"day": 1, **one_event})

    # -- the fight: set up, initiative, turns, tracks, markers, the cast --------------
    unfold(gm, "#setup-box")
    for character, side in ((bran, "party"), (ulf, "foes")):
        gm.locator(f'#setup-rows [data-character="{character}"]').check()
        gm.locator(f'#setup-rows [data-side="{character}"]').fill(side)
    run.press(gm, "#setup-start", "POST", "/encounters", {"encounters": 1, "audit": 1, **one_event})
    fight = f"/encounters/{gm.locator('#encounter-picker').input_value()}"
    one = {"audit": 1}
    run.press(gm, "#roll-initiative", "POST", f"{fight}/initiative", one)
    # The chips are drawn again in the rolled order when the page hears of the roll, which
    # may come after the press has settled: read the first chip of that drawing (each
    # shows its roll), not of the one before, whose first may now be last, with no "later".
    expect(gm.locator("#turn-order [data-initiative]")).to_have_count(2)
    first = gm.locator("#turn-order [data-turn]").first.get_attribute("data-turn")
    run.press(gm, f'[data-later="{first}"]', "POST", f"{fight}/order/move", one)
    run.press(gm, "#next-turn", "POST", f"{fight}/turn", one)
    run.press(gm, "#prev-turn", "POST", f"{fight}/turn/previous", one)
    run.press(gm, "#delay-turn", "POST", f"{fight}/turn/delay", one)
    tracks = f"/characters/{bran}/tracks"
    bran_card = f'#sides [data-combatant-id="{bran}"]'
    run.press(gm, f'{bran_card} [data-step-track=stamina][data-by="-1"]', "POST", tracks, one)

    def track_dialog() -> None:
        gm.locator(f"{bran_card} [data-edit-track=stamina]").click()
        gm.locator("#track-amount").fill("-1")

    run.press(gm, "#track-ok", "POST", tracks, one, track_dialog)

    def tools(character: str, where: str = "#sides") -> None:
        gm.locator(f'{where} [data-combatant-id="{character}"] h3').click()
        gm.locator("#gm-tools > summary").click()

    tools(ulf)
    gm.locator("#gm-adjust [name=amount]").fill("-1")
    gm.locator("#gm-adjust [data-reason]").fill("a scratch")
    run.press(gm, "#gm-adjust button[type=submit]", "POST", f"/characters/{ulf}/tracks", one)
    gm.locator("#gm-mark [name=marker]").fill("prone")
    marks = f"{fight}/markers"
    run.press(gm, "#gm-mark button[type=submit]", "POST", marks, {"markers": 1, "audit": 1})
    tools(ulf)
    run.press(gm, "#gm-mark [data-unmark]", "DELETE", f"{marks}/*", {"markers": -1, "audit": 1})
    tools(ulf)
    gm.locator("#gm-move [name=rank]").fill("2")
    gm.locator("#gm-move [data-reason]").fill("steps back")
    run.press(gm, "#gm-move button[type=submit]", "POST", f"{fight}/combatants/{ulf}/move", one)
    gm.locator("#gm-amend [data-sheet=st]").fill("14")
    gm.locator("#gm-amend [data-reason]").fill("a stronger Ulf")
    run.press(gm, "#gm-amend button[type=submit]", "POST", f"/characters/{ulf}/sheet", one)
    goblin = next(c["id"] for c in run.get("")["characters"] if c["name"] == "Goblin 1")
    tools(goblin, "#roster")
    gm.locator("#gm-join [data-reason]").fill("comes running")
    join = f"{fight}/combatants"
    run.press(gm, "#gm-join button[type=submit]", "POST", join, {"audit": 2, **one_event})
    tools(goblin)
    gm.locator("#gm-leave [data-reason]").fill("runs away")
    run.press(gm, "#gm-leave button[type=submit]", "POST", f"{join}/{goblin}/leave", one)

    # -- blows, answers and corrections ---------------------------------------------
    def turn_of(first: str, second: str) -> None:
        """Whose turn (set over HTTP: what the pages do is the blow)."""
        ordered = run.http.put(f"{run.base}{fight}/order", json={"order": [first, second]})
        assert ordered.status_code == 200, ordered.text
        for page in (gm, play):  # without the feed (lost), a page reads it again
            if mode == "lost":
                page.reload()

    def hit(page: Page, actor: str, target: str) -> Callable[[], None]:
        def ready() -> None:
            if page is gm:
                gm.locator(f'#sides [data-combatant-id="{actor}"] h3').click()
            page.locator("#action-buttons [data-kind=attack]").click()
            page.locator("#param-target").select_option(target)
            # The table's dice: a hit (2+2+2 against skill 13), so the blow waits for the
            # defender's answer whatever the server would have rolled.
            page.locator("input[name=dice-mode][value=table]").check()
            page.locator('#dice-fields [data-roll-name$="\'s hit"] input').fill("2 2 2")

        return ready

    actions = f"{fight}/actions"
    turn_of(ulf, bran)
    run.press(gm, "#action-submit", "POST", actions, one, hit(gm, ulf, bran))
    if mode == "lost":
        play.reload()
    exchange = f"{fight}/exchanges/*/declare"
    answered = {"audit": 2}  # the declaration, and the blow it settles
    run.press(play, "#pending [data-declare=parry]", "POST", exchange, answered)
    if mode == "lost":
        gm.reload()
    corrected = {"corrections": 1, "audit": 1}

    def newest(kind: str | None = None) -> int:
        """The newest action still standing (of `kind`): the one the correction is for."""
        standing = [
            a["number"]
            for a in run.get(f"{fight}?limit=100")["actions"]
            if a["status"] == "active" and kind in (None, a["kind"])
        ]
        return int(standing[-1])

    for kind, of in (("reroll", "attack"), ("void", None), ("rewind", None)):
        opener = f"#actions [data-{kind}='{newest(of)}']"
        path = f"{fight}/rewind" if kind == "rewind" else f"{fight}/actions/*/{kind}"
        run.press(gm, "#reason-ok", "POST", path, corrected, run.reason(gm, opener, kind))
    run.press(gm, "#undo-last", "POST", f"{fight}/actions/*/void", corrected)
    run.press(gm, "#next-round", "POST", f"{fight}/round", one)
    turn_of(bran, ulf)
    run.press(play, "#action-submit", "POST", actions, one, hit(play, bran, ulf))
    if mode == "lost":
        gm.reload()
    run.press(gm, "#pending [data-declare=none]", "POST", exchange, answered)
    turn_of(ulf, bran)
    run.press(gm, "#action-submit", "POST", actions, one, hit(gm, ulf, bran))
    withdraw = run.reason(gm, "#pending [data-withdraw]", "he thinks better of it")
    run.press(gm, "#reason-ok", "POST", f"{fight}/exchanges/*/withdraw", one, withdraw)
    end = run.reason(gm, "#end-encounter", "the foes fled")
    closed = {"audit": 1, "campaign events": 2}
    run.press(gm, "#reason-ok", "POST", f"{fight}/end", closed, end)

    # -- saved encounters: saved, set up again in one press, removed ------------------
    orc = run.http.post(f"{run.base}/bestiary", json={"name": "Orc", "sheet": KNIGHT})
    assert orc.status_code == 201, orc.text
    if gm.locator("#bestiary-box").evaluate("box => box.open"):
        gm.locator("#bestiary-box > summary").click()  # closed and opened: read again
    unfold(gm, "#bestiary-box")
    gm.get_by_label("how many Orc").fill("2")
    gm.locator("#saved-name").fill("Ambush")
    run.press(gm, "#saved-save", "POST", "/saved-encounters", {"saved": 1})
    expect(gm.locator("#saved-message")).to_have_text("Ambush saved.")
    # Orc 1 and Orc 2 enrolled (the Orc enrolled before keeps its plain name), the fight
    # opened with them and Bran: three campaign events, the fight's first record.
    set_up = {"encounters": 1, "characters": 2, "campaign events": 3, "audit": 1}
    run.press(gm, "#saved-setup", "POST", "/saved-encounters/*/setup", set_up)
    expect(gm.locator("#saved-message")).to_have_text("Ambush set up: Bran, Orc 1, Orc 2.")
    run.press(gm, "#saved-remove", "DELETE", "/saved-encounters/*", {"saved": -1})
    expect(gm.locator("#saved-message")).to_have_text("Ambush removed.")


def where(page: Page, control: str) -> dict[str, float]:
    """The control's box, read in one step of the page's own (a live update may draw the
    control again at any time: measured through a locator, a box read between its finding
    and its measuring was none)."""
    found = page.wait_for_function(
        """selector => {
          const box = document.querySelector(selector)?.getBoundingClientRect();
          return box && box.height ? { x: box.x, y: box.y, width: box.width, height: box.height }
            : null;
        }""",
        arg=control,
        timeout=HANG_MS,
    )
    box: dict[str, float] = found.json_value()
    return box


def slow_double_click(page: Page, control: str) -> list[str]:
    """A double-click whose second click comes after the press of the first is done (a
    quick press ends within a GM's double-click; a loaded machine spread Playwright's
    two clicks up to 165 ms apart): the browser's second click of the pair (click count 2)
    at the same place, on the control (or the control as the press drew it again). The
    writes the two clicks sent, as "METHOD path" under the campaign."""
    sent: list[str] = []

    def sending(request: Request) -> None:
        if request.method != "GET":
            sent.append(f"{request.method} {request.url.split('/campaigns/')[1].split('/', 1)[1]}")

    page.on("request", sending)
    page.locator(control).scroll_into_view_if_needed()
    box = where(page, control)
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down(click_count=1)
    page.mouse.up(click_count=1)
    expect(page.locator("html[data-writing]")).to_have_count(0)  # the first press is done
    there = where(page, control)
    assert there["y"] <= y <= there["y"] + there["height"], (box, there)
    page.mouse.down(click_count=2)
    page.mouse.up(click_count=2)
    expect(page.locator("html[data-writing]")).to_have_count(0)  # a second press, if any
    page.remove_listener("request", sending)
    return sent


def test_a_double_click_is_one_press_even_when_the_first_press_is_done(
    server: Server, browser: Browser
) -> None:
    """test_page_writes[double] once recorded two Orcs for "Enrol from the bestiary"
    (two requests, two keys): the press (one POST, one read) was done before the second
    click of the double-click came, on the button still in its place (the roster grew
    above it, the page scrolled with it) and enabled again. Here the second click comes
    after the first press, on purpose: on the bestiary's Enrol (scrolled into view), and
    on a track's -1, whose button the first press drew again."""
    http = httpx.Client(base_url=server.url, timeout=HANG_SECONDS)
    created = http.post("/campaigns", json={"name": "Slow", "ruleset": "stamina-body"}).json()
    base = f"/campaigns/{created['id']}"
    http.headers["authorization"] = f"Bearer {created['gm_key']}"
    made = http.post(f"{base}/characters", json={"name": "Bran", "sheet": KNIGHT})
    assert made.status_code == 201, made.text
    bran = made.json()["id"]
    made = http.post(f"{base}/bestiary", json={"name": "Orc", "sheet": KNIGHT})
    assert made.status_code == 201, made.text
    orc = made.json()["id"]
    with browser.new_context(viewport={"width": 1400, "height": 400}) as context:
        gm = context.new_page()
        gm.goto(f"{server.url}/gm#campaign={created['id']}&key={created['gm_key']}")
        expect(gm.locator("#connection")).to_have_attribute("data-state", "live")

        unfold(gm, "#bestiary-box")
        gm.locator("#bestiary-count").fill("1")
        expect(gm.locator("#bestiary-enrol")).to_be_enabled()
        assert slow_double_click(gm, "#bestiary-enrol") == [f"POST bestiary/{orc}/enrol"]
        expect(gm.locator("#bestiary-message")).to_have_text("Enrolled Orc.")
        names = [c["name"] for c in http.get(base).json()["characters"]]
        assert names == ["Bran", "Orc"]

        gm.locator("#roster-title").scroll_into_view_if_needed()
        minus = f'#roster [data-character-id="{bran}"] [data-step-track=stamina][data-by="-1"]'
        assert slow_double_click(gm, minus) == [f"POST characters/{bran}/tracks"]
        bran_now = next(c for c in http.get(base).json()["characters"] if c["id"] == bran)
        assert bran_now["tracks"]["stamina"] == 11  # 12 -> 11, once
