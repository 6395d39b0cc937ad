"""Every write a page makes goes through api/static/writes.js (issue 36): one
Idempotency-Key per intent, the control off while it is under way, the API's error
beside it. A page module that calls fetch itself may only read. Each such call is named
here with what it reads, so a new one (a write that goes around writes.js, as
api/static/saved.js did) fails this test until it is looked at."""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "api" / "static"

# (module, what fetch is given first, up to a comma or a parenthesis): why it is a read.
READS = {
    ("gmsetup.js", '"/rulesets"'): "GET: the rulesets, for the new campaign form",
    ("keys.js", '"/server"'): "GET: the address the server advertises to phones",
    ("keys.js", "`${api.base}/keys/qr`"): "POST that writes nothing: a link drawn as a QR code",
    ("skald.js", "path"): "the client's get, and its post for the reads below",
    ("skald.js", "`${api.base}/feed?after=${encodeURIComponent(last"): "GET: the live feed",
    ("webhooks.js", "`${api.base}/webhooks${path}`"): "call(): GET only, see below",
    ("writes.js", "url"): "the one way to write",
}
FETCH = re.compile(r"\bfetch\(([^,)]+)")


def test_a_page_fetches_only_to_read_or_through_writes_js() -> None:
    found = {
        (module.name, first.strip())
        for module in sorted(STATIC.glob("*.js"))
        for first in FETCH.findall(module.read_text(encoding="utf-8"))
    }
    assert found == set(READS)


def test_the_fetches_named_reads_are_used_to_read() -> None:
    pages = {m.name: m.read_text(encoding="utf-8") for m in STATIC.glob("*.js")}
    # webhooks.js's own call() is for its reads (the list, the delivery log).
    assert set(re.findall(r"\bcall\(api, \"(\w+)\"", pages["webhooks.js"])) == {"GET"}
    # The client's post (skald.js) asks for an action's rolls and odds, no more.
    posted = {path for text in pages.values() for path in re.findall(r"\.post\(`([^`]*)`", text)}
    assert posted and all(path.endswith(("/preview", "/odds")) for path in posted), posted
