"""A table on the home network (skald_campaign/lan.py, issue 36): the base URL of the pages'
links, and the settings `skald serve --lan` / `--advertise` take."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from skald_campaign.lan import public_url, reachable
from skald_campaign.settings import Settings


@pytest.mark.parametrize(
    ("advertise", "port", "url"),
    [
        ("192.168.1.20", 8000, "http://192.168.1.20:8000"),
        ("skald.home.arpa", 8123, "http://skald.home.arpa:8123"),
        ("fd00::2", 8000, "http://[fd00::2]:8000"),
        # A TLS proxy in front: its URL, as given (the server's own port is not the phones').
        ("https://skald.home.arpa:8443/", 8000, "https://skald.home.arpa:8443"),
    ],
)
def test_the_pages_links_start_with_the_advertised_address(
    advertise: str, port: int, url: str
) -> None:
    assert public_url(advertise, port) == url


def test_only_an_address_another_machine_could_reach_is_a_network_address() -> None:
    assert reachable("192.168.1.20") and reachable("fd00::2")
    assert not reachable("127.0.1.1") and not reachable("::1") and not reachable("0.0.0.0")
    assert not reachable("localhost")


def test_lan_listens_on_every_interface_unless_a_host_is_given() -> None:
    assert Settings().listen_host == "127.0.0.1"
    assert Settings(lan=True).listen_host == "0.0.0.0"
    assert Settings(lan=True, host="192.168.1.20").listen_host == "192.168.1.20"
    assert not Settings().served_to_the_network
    assert Settings(lan=True).served_to_the_network
    assert Settings(advertise="https://skald.home.arpa").served_to_the_network


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("192.168.1.20", "192.168.1.20"),
        ("[fd00::2]", "fd00::2"),
        ("gm-laptop.local", "gm-laptop.local"),
        ("https://skald.home.arpa:8443", "https://skald.home.arpa:8443"),
    ],
)
def test_an_address_or_a_proxys_url_is_advertised(given: str, kept: str) -> None:
    assert Settings(advertise=given).advertise == kept


@pytest.mark.parametrize(
    ("given", "why"),
    [
        ("ftp://skald.home.arpa", "is not an http:// or https:// URL with a host"),
        ("https://skald.home.arpa/gm", "must be a server's address, without a path"),
        ("my laptop", "is neither an IP address nor a host name"),
        ("-bad-.local", "is neither an IP address nor a host name"),
    ],
)
def test_an_address_that_cannot_be_reached_is_refused(given: str, why: str) -> None:
    with pytest.raises(ValidationError, match=why):
        Settings(advertise=given)
