"""A table on a home network (`skald serve --lan`): the address the phones at the table
reach this server at, the base URL every link and QR code of the pages carries, and the
GM screen's address drawn as a QR code in the terminal.

A GM who opens http://localhost:8000/gm must still hand the phones a link they can
open: the pages build keys' links on the advertised address (GET /server), never on
the address the GM typed.
"""

from __future__ import annotations

import io
import ipaddress
import socket

import segno

# Any private address will do: connecting a UDP socket sends nothing, it only asks the
# kernel which local address its route there leaves from (the default route's, at home).
ROUTE_PROBE = ("10.254.254.254", 9)


def network_address() -> str | None:
    """This machine's address on its network: the address of the interface with the
    default route, else the first other address its name resolves to; None when it has
    none but loopback (phones could not reach it)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(ROUTE_PROBE)
            routed = str(probe.getsockname()[0])
        if reachable(routed):
            return routed
    except OSError:  # no route at all: no network, or only loopback
        pass
    try:
        named = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return None
    return next((str(info[4][0]) for info in named if reachable(str(info[4][0]))), None)


def reachable(address: str) -> bool:
    """An address another machine could reach us at: not loopback, not 0.0.0.0."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return False
    return not (parsed.is_loopback or parsed.is_unspecified)


def public_url(advertise: str, port: int) -> str:
    """The base URL of the pages' links: `advertise` itself when it is a URL (a TLS proxy
    in front, https://...), else http:// on that host and the port this server bound."""
    if "://" in advertise:
        return advertise.rstrip("/")
    host = f"[{advertise}]" if ":" in advertise else advertise
    return f"http://{host}:{port}"


def terminal_qr(link: str) -> str:
    """The link as a QR code drawn with block characters, two modules a line: light
    modules as blocks, for a terminal's dark background (a phone's camera reads it)."""
    drawn = io.StringIO()
    segno.make(link, error="m").terminal(out=drawn, compact=True, border=2)
    return drawn.getvalue()
