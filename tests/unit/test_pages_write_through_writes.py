"""The pages call the API through one client, api/static/skald.js (its ``request``:
the key in a header, a refusal read as the API's RFC 9457 problem), and every write a
page makes goes through api/static/writes.js (issue 36): one Idempotency-Key per
intent, the control off while it is under way, the API's error beside it.

No page module but the client calls fetch itself (keys.js, gmsetup.js and webhooks.js
did, each reading the answer and its refusal in its own copy). A module that calls
``request`` directly, or posts through the client, may only read: each such call is
named here with what it reads, so a new one (a write that goes around writes.js, as
api/static/saved.js did) fails this test until it is looked at."""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "api" / "static"
CLIENT = "skald.js"

# (module, what fetch is given first, up to a comma or a parenthesis): what it is for.
FETCHES = {
    (CLIENT, "url"): "request(): every call of every page to the API",
    (CLIENT, "`${api.base}/feed?after=${encodeURIComponent(last"): "GET: the live feed",
}
# (module, what the client's request is given first): why it is a read, or the writes.
REQUESTS = {
    ("gmsetup.js", '"/rulesets"'): "GET: the rulesets, for the new campaign form",
    ("keys.js", '"/server"'): "GET: the address the server advertises to phones",
    ("writes.js", "url"): "the one way to write",
}
FETCH = re.compile(r"\bfetch\(([^,)]+)")
REQUEST = re.compile(r"\brequest\(([^,)]+)")


def pages() -> dict[str, str]:
    found = {m.name: m.read_text(encoding="utf-8") for m in sorted(STATIC.glob("*.js"))}
    assert len(found) > 20 and CLIENT in found and "writes.js" in found
    return found


def test_no_page_script_but_the_client_calls_fetch() -> None:
    calling = {name for name, text in pages().items() if FETCH.search(text)}
    assert calling == {CLIENT}, f"fetch( outside {CLIENT}: {sorted(calling - {CLIENT})}"
    found = {(CLIENT, first.strip()) for first in FETCH.findall(pages()[CLIENT])}
    assert found == set(FETCHES)


def test_a_page_requests_only_to_read_or_through_writes_js() -> None:
    found = {
        (name, first.strip())
        for name, text in pages().items()
        if name != CLIENT
        for first in REQUEST.findall(text)
    }
    assert found == set(REQUESTS)
    # Those reads give no method (a GET): only the URL.
    for name, first in REQUESTS:
        if name != "writes.js":
            assert f"request({first})" in pages()[name], (name, first)


def test_the_clients_posts_only_read() -> None:
    texts = pages()
    # The client's post (skald.js) asks for an action's rolls and odds and draws a link as
    # a QR code (a POST that writes nothing), no more.
    posted = {
        path
        for text in texts.values()
        for path in re.findall(r"\.post\([`\"']([^`\"']*)[`\"']", text)
    }
    assert posted and all(path.endswith(("/preview", "/odds", "keys/qr")) for path in posted), (
        posted
    )
    assert "keys/qr" in posted
