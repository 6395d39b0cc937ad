"""The action fast path's stale access checks (api/access_reads.py `fresh_access`): the
requests that find a campaign's check stale while one of them reads it again wait for
that read and take the check from memory, instead of each reading it; if that does not
answer them (the read failed), each reads it itself, as before."""

from __future__ import annotations

import asyncio
import threading
import time
from types import SimpleNamespace
from typing import Any
from uuid import UUID, uuid4

import pytest

from skald_campaign.api.access_reads import fresh_access, shared_access_read
from skald_campaign.api.keys import PREFIX
from skald_campaign.api.redacting import caller


class Application:
    """Stands in for SkaldApplication: `access` reads the campaign (slowly, in a thread)
    and makes the check fresh; `access_if_fresh` answers from memory once it is."""

    def __init__(self, fails: bool = False) -> None:
        self.fails = fails
        self.reads: list[str] = []
        self.fresh = False
        self.lock = threading.Lock()

    def access(self, campaign_id: UUID, key_id: str, digest: str) -> Any:
        time.sleep(0.2)
        with self.lock:
            self.reads.append(key_id)
        if self.fails:
            raise ConnectionError("the store went away")
        self.fresh = True
        return ("read", key_id)

    def access_if_fresh(self, campaign_id: UUID, key_id: str, digest: str) -> Any:
        return ("memory", key_id) if self.fresh else None


async def checks(application: Application, keys: list[str]) -> list[Any]:
    rereads: dict[UUID, Any] = {}
    campaign_id = uuid4()
    found = await asyncio.gather(
        *(fresh_access(application, campaign_id, k, "digest", rereads) for k in keys)  # type: ignore[arg-type]
    )
    assert rereads == {}  # nothing left behind
    return list(found)


def test_one_read_answers_every_request_that_found_the_check_stale() -> None:
    application = Application()
    found = asyncio.run(checks(application, ["k1", "k2", "k3", "k4"]))
    assert application.reads == ["k1"]
    assert found == [("read", "k1"), ("memory", "k2"), ("memory", "k3"), ("memory", "k4")]


def test_when_the_read_fails_each_request_reads_for_itself_and_is_the_route_s() -> None:
    application = Application(fails=True)
    found = asyncio.run(checks(application, ["k1", "k2", "k3"]))
    assert sorted(application.reads) == ["k1", "k2", "k3"]
    assert found == [None, None, None]  # the route then answers each


def test_the_redacting_middleware_s_check_shares_one_read_too() -> None:
    """api/redacting.py `caller`, which every request to a campaign passes first: the
    requests that find the check stale while one reads it again wait for that read."""
    application = Application()
    campaign_id = uuid4()

    def scope_of(key: str) -> dict[str, Any]:
        state = SimpleNamespace(backend=SimpleNamespace(application=application))
        return {
            "headers": [(b"authorization", f"Bearer {key}".encode())],
            "app": SimpleNamespace(state=state),
        }

    async def checks(keys: list[str]) -> list[Any]:
        rereads: dict[UUID, Any] = {}
        found = await asyncio.gather(
            *(caller(scope_of(k), str(campaign_id), rereads) for k in keys)  # type: ignore[arg-type]
        )
        assert rereads == {}
        return list(found)

    keys = [f"{PREFIX}_{n:016d}_secret{n}" for n in range(4)]  # Skald keys' shape
    found = asyncio.run(checks(keys))
    assert len(application.reads) == 1
    assert [source for source, _ in found].count("read") == 1
    assert [source for source, _ in found].count("memory") == 3


def test_a_shared_read_that_fails_raises_for_its_own_requester() -> None:
    application = Application(fails=True)

    async def one() -> Any:
        return await shared_access_read(application, uuid4(), "k1", "digest", {})  # type: ignore[arg-type]

    with pytest.raises(ConnectionError, match="the store went away"):
        asyncio.run(one())
