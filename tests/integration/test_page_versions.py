"""The campaign's audit page and its event-log pages kept in memory under the version
beside each in Redis (projections/versions.py, issue 39): a read whose version is the
one its bytes were made under asks Redis only the version (a few bytes) and sends the
bytes kept; the page moves the instant the projection writes it (any projection: here
one outside the API, as another process's would be); and a campaign rebuild or views
flushed and projected again never leave a kept page standing, though the generation's
name and the count come round to the same (the version's token is drawn afresh).

Each read is compared with the stack's own answer (a second app on the same store and
views with no fast path: the route reads Redis every time)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from uuid import UUID

import orjson
import pytest
from fastapi.testclient import TestClient

from skald_campaign.api.app import create_app
from skald_campaign.api.view_connection import ViewConnection
from skald_campaign.application.commands import AdvanceDays
from skald_campaign.projections.engine import ProjectionEngine
from skald_campaign.projections.keys import Generations, ViewKeys
from skald_campaign.projections.rebuild import Rebuilder
from skald_campaign.services import build_services
from skald_campaign.settings import Settings
from tests.helpers import ok
from tests.integration.test_audit_page_bytes import Table
from tests.integration.test_event_log_bytes import project_up_to, store_end


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    """The API without its workers, its pages answered before the stack: the views are
    projected only when a test says, by an engine of the test's own."""
    app = create_app(lambda: build_services(settings))
    with TestClient(app, raise_server_exceptions=True) as test_client:
        yield test_client


@pytest.fixture
def stack_only(settings: Settings, client: TestClient) -> Iterator[TestClient]:
    """A second app on the same store and views, with no fast path for reads."""
    views = settings.model_copy(update={"redis_url": client.app.state.backend.redis_url})  # type: ignore[attr-defined]
    app = create_app(lambda: build_services(views), fast_views=False)
    with TestClient(app, raise_server_exceptions=True) as test_client:
        test_client.app.state.backend.application.known_position.fresh_seconds = 0  # type: ignore[attr-defined]
        yield test_client


def new_engine(client: TestClient) -> ProjectionEngine:
    services = client.app.state.backend  # type: ignore[attr-defined]
    application = services.application
    return ProjectionEngine(
        services.redis, application.mapper, application.name, prefix=services.redis_prefix
    )


@pytest.fixture
def engine(client: TestClient) -> Iterator[ProjectionEngine]:
    engine = new_engine(client)
    yield engine
    engine.close()


@pytest.fixture
def received(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """What Redis sends on the event loop's own connection (api/view_connection.py)."""
    found: list[bytes] = []
    fed = ViewConnection.data_received

    def counted(line: ViewConnection, data: bytes) -> None:
        found.append(data)
        fed(line, data)

    monkeypatch.setattr(ViewConnection, "data_received", counted)
    return found


class Pages:
    """The pages compared: the GM's campaign audit pages (one holding every entry, one
    the first three), the GM's event log and a viewer's (redacted)."""

    def __init__(self, client: TestClient, stack: TestClient) -> None:
        self.client, self.stack = client, stack
        self.table = Table(client)
        self.gm = self.table.gm
        client.headers.pop("authorization")
        cid = self.table.cid
        self.reads = [
            (f"/campaigns/{cid}/audit?limit=500", self.gm),
            (f"/campaigns/{cid}/audit?limit=3", self.gm),
            (f"/campaigns/{cid}/events?limit=500", self.gm),
            (f"/campaigns/{cid}/events?limit=500", self.table.viewer),
        ]

    def alike(self, received: list[bytes]) -> list[bytes]:
        """Each page read three times, each time the stack's bytes; what Redis sent on
        the loop's connection for each last read (the page made and kept by one before:
        a process's first view read is made on a worker thread, its generation not seen
        yet)."""
        again = []
        for path, key in self.reads:
            for n in range(3):
                received.clear()
                ours = self.client.get(path, headers=key)
                assert ours.status_code == 200, ours.text
                assert ours.content == self.stack.get(path, headers=key).content, (path, n)
            again.append(b"".join(received))
        return again

    def entries(self) -> list[list[int]]:
        """The positions each page lists, in order."""
        found = []
        for path, key in self.reads:
            page = ok(self.client.get(path, headers=key))
            listed = page["entries"] if "entries" in page else page["events"]
            found.append([e["id"] if "entries" in page else e["position"] for e in listed])
        return found

    def day(self) -> None:
        self.table.app.advance_days(AdvanceDays(UUID(self.table.cid), 1))


def test_a_kept_page_asks_only_its_version_and_moves_the_instant_the_projection_writes(
    client: TestClient, stack_only: TestClient, engine: ProjectionEngine, received: list[bytes]
) -> None:
    pages = Pages(client, stack_only)
    project_up_to(engine, client, store_end(client))
    totals = []
    for _ in range(3):  # read, write, read, write, read
        for reply in pages.alike(received):
            # The second read: the version, the log's or list's length, the views'
            # positions and generation; none of the page's entries.
            assert 0 < len(reply) < 400, reply
            assert b"summary" not in reply and b"payload" not in reply
        audit = ok(client.get(pages.reads[1][0], headers=pages.gm))
        totals.append(audit["total"])
        listed = pages.entries()
        assert listed[0] == listed[2] == listed[3]  # the same events, every page
        assert listed[1] == listed[0][:3]
        pages.day()  # written, not projected yet: the pages stand as they were
        assert pages.entries() == listed
        project_up_to(engine, client, store_end(client))  # projected: they move
        moved = pages.entries()
        assert moved[0][: len(listed[0])] == listed[0] and len(moved[0]) > len(listed[0])
        assert moved[0] == moved[2] == moved[3] and moved[1] == listed[1]
    assert totals[0] < totals[1] < totals[2]


def corrupt_first_entries(client: TestClient, cid: str) -> None:
    """Each view's first entry of the campaign made other bytes of the same length, as a
    view gone wrong would be, its version untouched (what a rebuild is run to mend)."""
    services = client.app.state.backend  # type: ignore[attr-defined]
    redis = services.redis
    generations = Generations(services.redis_prefix)
    keys = ViewKeys(generations.root(str(generations.current(redis))))
    first = redis.lindex(keys.audit(cid), 0)
    entry = orjson.loads(first)
    entry["summary"] = "Z" * len(entry["summary"])
    redis.lset(keys.audit(cid), 0, orjson.dumps(entry))
    ((member, score),) = redis.zrange(keys.log(cid), 0, 0, withscores=True)
    event = orjson.loads(member)
    event["type"] = "Z" * len(event["type"])
    redis.zrem(keys.log(cid), member)
    redis.zadd(keys.log(cid), {orjson.dumps(event): score})


def mended_after(client: TestClient, stack: TestClient, received: list[bytes], mend: Any) -> None:
    """Pages read and kept over corrupted views, then ``mend``; the pages then are the
    mended views' (the stack's), not those kept. The generation and the versions' counts
    the pages were kept under, the same after the mending."""
    pages = Pages(client, stack)
    cid = pages.table.cid
    mend.project()
    corrupt_first_entries(client, cid)
    pages.alike(received)  # made of the corrupted views, kept
    assert any(b"ZZZZ" in ok_bytes(client, path, key) for path, key in pages.reads)
    before = versions(client, cid)
    mend(cid)
    after = versions(client, cid)
    assert after != before
    assert [b[0] for b in before] == [a[0] for a in after]  # generation g1 both times
    assert [b[2] for b in before] == [a[2] for a in after]  # and the same counts
    pages.alike(received)
    for path, key in pages.reads:
        assert b"ZZZZ" not in ok_bytes(client, path, key)


def ok_bytes(client: TestClient, path: str, key: dict[str, str]) -> bytes:
    answer = client.get(path, headers=key)
    assert answer.status_code == 200, answer.text
    return answer.content


def versions(client: TestClient, cid: str) -> list[tuple[str, bytes, bytes]]:
    """The audit's and the log's version: the generation, the token, the count."""
    services = client.app.state.backend  # type: ignore[attr-defined]
    redis = services.redis
    generations = Generations(services.redis_prefix)
    generation = str(generations.current(redis))
    keys = ViewKeys(generations.root(generation))
    found = []
    for key in (keys.audit_version(cid), keys.log_version(cid)):
        token, _, count = redis.get(key).strip(b'"').rpartition(b":")
        found.append((generation, token, count))
    return found


class Rebuild:
    """The campaign rebuilt by the CLI's rebuild (its keys swapped in, projections/
    rebuild.py)."""

    def __init__(self, client: TestClient, engine: ProjectionEngine) -> None:
        self.client, self.engine = client, engine

    def project(self) -> None:
        project_up_to(self.engine, self.client, store_end(self.client))

    def __call__(self, cid: str) -> None:
        services = self.client.app.state.backend  # type: ignore[attr-defined]
        application = services.application
        Rebuilder(
            services.redis,
            application.recorder,
            application.mapper,
            application.name,
            services.redis_prefix,
        ).rebuild_campaign(UUID(cid))


class Flush(Rebuild):
    """Every key of the views deleted (a Redis flushed or restarted empty), then the
    store projected again from its start by a new engine, into a generation named as
    the first was."""

    def __call__(self, cid: str) -> None:
        services = self.client.app.state.backend  # type: ignore[attr-defined]
        redis = services.redis
        for key in redis.scan_iter(match=f"{services.redis_prefix}:*", count=1000):
            redis.delete(key)
        engine = new_engine(self.client)
        try:
            project_up_to(engine, self.client, store_end(self.client))
        finally:
            engine.close()


@pytest.mark.parametrize("mend", [Rebuild, Flush], ids=["campaign rebuild", "flush"])
def test_a_page_kept_before_a_rebuild_or_a_flush_is_not_sent_after(
    client: TestClient,
    stack_only: TestClient,
    engine: ProjectionEngine,
    received: list[bytes],
    mend: type[Rebuild],
) -> None:
    mended_after(client, stack_only, received, mend(client, engine))


def test_views_without_versions_are_read_whole_and_sent_as_read(
    client: TestClient, stack_only: TestClient, engine: ProjectionEngine, received: list[bytes]
) -> None:
    """Views projected before there were versions (here: the version keys deleted): each
    read reads the page whole, and a page is kept only while Redis's bytes are the same,
    so a change without a version (the corrupted entries) shows at once."""
    pages = Pages(client, stack_only)
    cid = pages.table.cid
    project_up_to(engine, client, store_end(client))
    services = client.app.state.backend  # type: ignore[attr-defined]
    generations = Generations(services.redis_prefix)
    keys = ViewKeys(generations.root(str(generations.current(services.redis))))
    assert services.redis.delete(keys.audit_version(cid), keys.log_version(cid)) == 2
    for reply in pages.alike(received):
        assert b"summary" in reply or b"payload" in reply  # the page's entries, read again
    corrupt_first_entries(client, cid)
    pages.alike(received)  # the stack's bytes: the corrupted entries
    assert all(b"ZZZZ" in ok_bytes(client, path, key) for path, key in pages.reads[:1])
