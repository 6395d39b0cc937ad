"""A table on the home network (issue 36): `skald serve --lan` listens beyond this machine,
creates campaigns only for a request from this machine (loopback) unless an operator key
is set, prints the address phones reach with the GM screen's QR code, and the GM screen,
opened at `localhost`, hands a player a link and a QR code on the advertised address.

The real `skald serve`; "another machine" is a request to this machine's own network
address (`hostname -I`), which arrives from that address, not from loopback."""

from __future__ import annotations

import ipaddress
import re
import subprocess
from pathlib import Path

import httpx
import pytest
import zxingcpp
from playwright.sync_api import Browser, expect

from tests.e2e.server import Server
from tests.patience import HANG_SECONDS

CAMPAIGN = {"name": "Table", "ruleset": "stamina-body"}
PC = {"st": 13, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10}
KEY = r"skald_[0-9a-f]{16}_[0-9a-f]{40}"
REFUSED = (
    "on a table served to the network (skald serve --lan), campaigns are created from the "
    "GM's own machine: open the GM screen there at http://localhost (or 127.0.0.1) on this "
    "server's port, or set SKALD_OPERATOR_KEY and send it as the bearer key"
)


def network_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback, as `hostname -I` lists them."""
    listed = subprocess.run(
        ["hostname", "-I"], capture_output=True, text=True, timeout=HANG_SECONDS, check=True
    ).stdout.split()
    return [a for a in listed if ipaddress.ip_address(a).version == 4]


def decoded(modules: list[list[bool]], scale: int = 4) -> list[str]:
    """The texts of the QR codes in a picture of light (True) and dark modules."""
    width, height = len(modules[0]) * scale, len(modules) * scale
    pixels = b"".join(
        b"".join((b"\xff" if light else b"\x00") * scale for light in row) * scale
        for row in modules
    )
    image = memoryview(pixels).cast("B", (height, width))
    return [code.text for code in zxingcpp.read_barcodes(image)]


def terminal_modules(drawing: list[str]) -> list[list[bool]]:
    """segno's compact terminal drawing read back: each character is two modules, one
    above the other, light where the block is drawn."""
    modules: list[list[bool]] = []
    for line in drawing:
        modules.append([c in "█▀" for c in line])
        modules.append([c in "█▄" for c in line])
    return modules


def test_a_table_on_the_network_creates_campaigns_only_from_this_machine(
    tmp_path: Path,
) -> None:
    addresses = network_addresses()
    if not addresses:
        pytest.skip("this machine has no network address but loopback (hostname -I)")
    server = Server(tmp_path / "data", args=("--lan",)).start()
    try:
        across = f"http://{addresses[0]}:{server.port}"
        with httpx.Client(base_url=across, timeout=HANG_SECONDS) as phone:
            advertised = phone.get("/server").json()["public_url"]
            refused = phone.post("/campaigns", json=CAMPAIGN)
            assert (refused.status_code, refused.json()) == (
                403,
                {"error": "forbidden", "message": REFUSED},
            )
        with httpx.Client(base_url=server.url, timeout=HANG_SECONDS) as gm:
            created = gm.post("/campaigns", json=CAMPAIGN)
            assert created.status_code == 201, created.text
        # The address phones reach: this machine's on its network, on the bound port.
        assert advertised in {f"http://{a}:{server.port}" for a in addresses}
        printed = server.log.read_text()
        assert f"INFO:     GM screen: {advertised}/gm (on this machine: " in printed
        assert f"Phones at the table reach this server at {advertised}:" in printed
        assert "Uvicorn running on http://0.0.0.0:" in printed
        drawing = [line for line in printed.splitlines() if line and set(line) <= set("█▀▄ ")]
        assert decoded(terminal_modules(drawing)) == [f"{advertised}/gm"]  # no key in it
    finally:
        server.stop()


# Drawn in the page as a phone's camera sees it, then read back as light and dark pixels.
QR_PIXELS = """async (img) => {
  const scale = 2, width = img.naturalWidth * scale, height = img.naturalHeight * scale;
  const canvas = Object.assign(document.createElement("canvas"), { width, height });
  const context = canvas.getContext("2d");
  context.fillStyle = "#fff";
  context.fillRect(0, 0, width, height);
  context.drawImage(img, 0, 0, width, height);
  const rgba = context.getImageData(0, 0, width, height).data;
  const rows = [];
  for (let y = 0; y < height; y++) {
    const row = [];
    for (let x = 0; x < width; x++) row.push(rgba[(y * width + x) * 4] > 127);
    rows.push(row);
  }
  return rows;
}"""


def test_a_player_keys_link_and_qr_code_carry_the_servers_network_address(
    tmp_path: Path, browser: Browser
) -> None:
    addresses = network_addresses()
    table = addresses[0] if addresses else "127.0.0.2"  # on lo, still not `localhost`
    server = Server(tmp_path / "data", args=("--lan", "--advertise", table)).start()
    try:
        http = httpx.Client(base_url=server.url, timeout=HANG_SECONDS)
        created = http.post("/campaigns", json=CAMPAIGN).json()
        cid, gm_key = created["id"], created["gm_key"]
        http.headers["authorization"] = f"Bearer {gm_key}"
        enrolled = http.post(f"/campaigns/{cid}/characters", json={"name": "Bran", "sheet": PC})
        assert enrolled.status_code == 201, enrolled.text
        with browser.new_context(viewport={"width": 1280, "height": 800}) as context:
            gm = context.new_page()
            gm.goto(f"http://localhost:{server.port}/gm#campaign={cid}&key={gm_key}")
            expect(gm.locator("#connection")).to_have_attribute("data-state", "live")
            gm.locator("#keys-box summary").click()
            gm.locator("#issue-player").click()
            card = gm.locator("#key-once")
            expect(card.locator("h3")).to_have_text("A player key for Bran")
            link = card.locator("[data-once=key-once]").inner_text()
            assert re.fullmatch(
                rf"http://{re.escape(table)}:{server.port}/play#campaign={cid}&key={KEY}", link
            ), link
            qr = card.locator("img.qr")
            expect(qr).to_have_count(1)
            qr.evaluate("i => i.decode()")
            assert decoded(qr.evaluate(QR_PIXELS), scale=1) == [link]
            # The phone opens it at that address and is the player.
            phone = context.new_page()
            phone.goto(link)
            expect(phone.locator("#connection")).to_have_attribute("data-state", "live")
            assert phone.evaluate("location.origin") == f"http://{table}:{server.port}"
        http.close()
    finally:
        server.stop()
