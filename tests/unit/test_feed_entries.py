"""The feed entries a runner keeps for this process's feed readers
(projections/feed_entries.py): bounded, dropped with the last reader, dropped when
their commit did not land, and found only under the same server, stream, id and place."""

from __future__ import annotations

from skald_campaign.projections.feed_entries import KeptFeedEntries, server_of


def test_only_the_newest_entries_are_kept() -> None:
    kept = KeptFeedEntries(keep=3)
    commit = kept.keep("s/0", [("feed:a", n, n, str(n).encode()) for n in range(1, 6)])
    kept.settle(commit, landed=True)
    assert [kept.find("s/0", "feed:a", n, n) for n in range(1, 6)] == [
        None,
        None,
        (b"3", commit),
        (b"4", commit),
        (b"5", commit),
    ]


def test_an_entry_is_found_under_its_server_stream_id_and_place_only() -> None:
    kept = KeptFeedEntries()
    commit = kept.keep("s/0", [("feed:a", 7, 2, b"x")])
    assert kept.find("s/0", "feed:a", 7, 2) == (b"x", commit)
    assert kept.find("s/1", "feed:a", 7, 2) is None
    assert kept.find("s/0", "feed:b", 7, 2) is None
    assert kept.find("s/0", "feed:a", 8, 2) is None
    assert kept.find("s/0", "feed:a", 7, 3) is None


def test_the_entries_of_a_commit_that_did_not_land_are_dropped_and_its_waiters_woken() -> None:
    kept = KeptFeedEntries()
    landed = kept.keep("s/0", [("feed:a", 1, 1, b"1")])
    failed = kept.keep("s/0", [("feed:a", 2, 2, b"2")])
    woken: list[str] = []
    assert kept.when_settled(failed, lambda: woken.append("failed"))
    kept.settle(landed, landed=True)
    assert not kept.when_settled(landed, lambda: woken.append("landed"))  # answered already
    kept.settle(failed, landed=False)
    assert woken == ["failed"]
    assert (failed.landed, failed.waiters) == (False, [])
    assert kept.find("s/0", "feed:a", 1, 1) == (b"1", landed)
    assert kept.find("s/0", "feed:a", 2, 2) is None


def test_nothing_is_wanted_or_kept_once_the_last_reader_closed() -> None:
    kept = KeptFeedEntries()
    assert not kept.wanted()
    kept.opened()
    kept.opened()
    kept.settle(kept.keep("s/0", [("feed:a", 1, 1, b"1")]), landed=True)
    kept.closed()
    assert kept.wanted()
    assert kept.find("s/0", "feed:a", 1, 1) is not None
    kept.closed()
    assert not kept.wanted()
    assert kept.find("s/0", "feed:a", 1, 1) is None


def test_a_server_is_named_alike_by_its_socket_or_address_and_database() -> None:
    assert server_of({"path": "/run/redis.sock", "db": 0}) == "/run/redis.sock/0"
    assert server_of({"host": "127.0.0.1", "port": 6379, "db": 5}) == "127.0.0.1:6379/5"
