"""The GM screen draws its reads in the order they were asked (issue 36, found by the
margin evening): the screen reads the campaign and the encounter again after every press,
every feed entry and every pick in the encounter picker, and those reads overlap. An
answer that comes back after a newer read has drawn is older than what is on the screen,
and must not paint over it: the GM picked the second fight while a read of the first
was still on its way, and the first came back last and was drawn again, the picker with
it (a void of the first fight's action, then a look at the second fight's board, showed
the first fight's board).

Here the read of the first fight is held on its way (Playwright's routing) until the
pick of the second has been drawn; then it is let through. Debian's Chromium, a real
`skald serve`; the API sets up and asserts."""

from __future__ import annotations

import time

import httpx
from playwright.sync_api import Browser, Page, Route, expect

from tests.e2e.server import Server
from tests.e2e.test_gm_days import SHEETS
from tests.patience import HANG_SECONDS

DESKTOP = {"width": 1400, "height": 1000}
# The addresses whose answers the page's code has read (`response.json()`) and finished
# with: the timer set when the JSON is handed over runs after every await waiting on it
# (promise continuations run before the next timer), so the screen has drawn the answer,
# or passed it over, by the time the address is listed.
SETTLED = """
window.settled = [];
const fetched = window.fetch;
window.fetch = async (...args) => {
  const response = await fetched(...args);
  const json = response.json.bind(response);
  response.json = async () => {
    const data = await json();
    setTimeout(() => window.settled.push(response.url), 0);
    return data;
  };
  return response;
};
"""


def settled(page: Page, address: str) -> int:
    """How many answers from `address` the page's code has finished with."""
    found: int = page.evaluate(
        "(address) => window.settled.filter((url) => url.includes(address)).length", address
    )
    return found


def test_an_older_read_never_paints_over_a_newer_pick(server: Server, browser: Browser) -> None:
    http = httpx.Client(base_url=server.url, timeout=HANG_SECONDS)
    created = http.post("/campaigns", json={"name": "Reads", "ruleset": "margin"}).json()
    cid, key = created["id"], created["gm_key"]
    http.headers["authorization"] = f"Bearer {key}"
    base = f"/campaigns/{cid}"

    def post(path: str, body: object, status: int = 201) -> dict[str, str]:
        answer = http.post(base + path, json=body)
        assert answer.status_code == status, answer.text
        found: dict[str, str] = answer.json()
        return found

    kara = post("/characters", {"name": "Kara", "sheet": SHEETS["margin"]})["id"]
    bran = post("/characters", {"name": "Bran", "sheet": SHEETS["margin"]})["id"]
    first = post("/encounters", {"name": "First", "combatants": [{"character_id": kara}]})["id"]
    post(f"/encounters/{first}/end", {"reason": "done"}, 200)
    second = post("/encounters", {"name": "Second", "combatants": [{"character_id": bran}]})["id"]

    with browser.new_context(viewport=DESKTOP) as context:
        gm = context.new_page()
        gm.add_init_script(SETTLED)
        gm.goto(f"{server.url}/gm#campaign={cid}&key={key}")
        expect(gm.locator("#connection")).to_have_attribute("data-state", "live")
        title = gm.locator("#board-title")
        expect(title).to_have_text("Encounter: Second")  # the open one, by default

        held: list[Route] = []

        def hold(route: Route) -> None:
            if held:  # only the first read of the first fight is held
                route.fallback()
            else:
                held.append(route)

        gm.route(f"**{base}/encounters/{first}?limit=1", hold)
        picker = gm.locator("#encounter-picker")
        picker.select_option(first)
        deadline = time.monotonic() + HANG_SECONDS
        while not held and time.monotonic() < deadline:  # the read of the first fight:
            gm.wait_for_timeout(20)  # on its way, and held there
        assert held, "the screen never read the first fight"
        # The second fight picked: its read, asked after, comes back and is drawn.
        read = f"/encounters/{second}?limit=1"
        before = settled(gm, read)
        picker.select_option(second)
        gm.wait_for_function(f"() => window.settled.filter((u) => u.includes('{read}')).length"
                             f" > {before}")  # fmt: skip
        assert title.text_content() == "Encounter: Second"

        held[0].continue_()
        # The held answer has reached the screen's code and been drawn or passed over:
        # the screen still shows the newer pick.
        gm.wait_for_function(f"() => window.settled.some((url) => url.includes('{first}'))")
        assert title.text_content() == "Encounter: Second"
        assert picker.input_value() == second
        expect(gm.locator(f'#sides [data-combatant-id="{bran}"]')).to_have_count(1)
        expect(gm.locator(f'#sides [data-combatant-id="{kara}"]')).to_have_count(0)
