"""Where the views live in Redis.

A pointer names the current generation; every view key lives under that
generation's root. A rebuild fills a new generation and then moves the pointer,
so readers switch from one complete set of views to another, never to half of one.
"""

from __future__ import annotations

from collections.abc import Iterator

import redis
from redis.typing import KeyT

from skald_campaign.projections.narrow import redis_text


class ViewKeys:
    """The key of every view under one root (a generation, or a rebuild's scratch space)."""

    def __init__(self, root: str) -> None:
        self.root = root

    def tracking(self, projection: str) -> str:
        return f"{self.root}:tracking:{projection}"

    @property
    def epoch(self) -> str:
        """Bumped when keys are swapped in under a runner's feet (a campaign rebuild)."""
        return f"{self.root}:epoch"

    def vitals(self, campaign_id: str) -> str:
        return f"{self.root}:vitals:{campaign_id}"

    def vitals_meta(self, campaign_id: str) -> str:
        return f"{self.root}:vitals-meta:{campaign_id}"

    def vitals_encounter(self, encounter_id: str) -> str:
        return f"{self.root}:vitals-encounter:{encounter_id}"

    def board(self, encounter_id: str) -> str:
        return f"{self.root}:board:{encounter_id}"

    def audit(self, campaign_id: str) -> str:
        return f"{self.root}:audit:{campaign_id}"

    def audit_meta(self, campaign_id: str) -> str:
        return f"{self.root}:audit-meta:{campaign_id}"

    def audit_version(self, campaign_id: str) -> str:
        """The campaign's audit list's version (projections/versions.py)."""
        return f"{self.root}:audit-version:{campaign_id}"

    def audit_encounter(self, encounter_id: str) -> str:
        return f"{self.root}:audit-encounter:{encounter_id}"

    def feed(self, campaign_id: str) -> str:
        return f"{self.root}:feed:{campaign_id}"

    def positions(self, campaign_id: str) -> str:
        """The campaign's events by position: a sorted set, score the notification id,
        member 'aggregate_id:version' (the index the event log pages through)."""
        return f"{self.root}:positions:{campaign_id}"

    def log(self, campaign_id: str) -> str:
        """The campaign's event log as the GM's key reads it: a sorted set, score the
        notification id, member the event's JSON as the log route writes it
        (projections/log.py)."""
        return f"{self.root}:log:{campaign_id}"

    def log_version(self, campaign_id: str) -> str:
        """The campaign's event log's version (projections/versions.py)."""
        return f"{self.root}:log-version:{campaign_id}"

    def log_encounter(self, encounter_id: str) -> str:
        return f"{self.root}:log-encounter:{encounter_id}"

    def campaign_keys(self, campaign_id: str, encounter_ids: list[str]) -> list[str]:
        """Every view key that belongs to one campaign (what a campaign rebuild replaces)."""
        keys = [
            self.vitals(campaign_id),
            self.vitals_meta(campaign_id),
            self.audit(campaign_id),
            self.audit_meta(campaign_id),
            self.audit_version(campaign_id),
            self.feed(campaign_id),
            self.positions(campaign_id),
            self.log(campaign_id),
            self.log_version(campaign_id),
        ]
        for encounter_id in encounter_ids:
            keys += [
                self.vitals_encounter(encounter_id),
                self.board(encounter_id),
                self.audit_encounter(encounter_id),
                self.log_encounter(encounter_id),
            ]
        return keys

    def suffix(self, key: str) -> str:
        return key[len(self.root) + 1 :]

    def pattern(self) -> str:
        return f"{self.root}:*"


class Generations:
    """The pointer to the current generation of views and the counter that names new ones."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.pointer = f"{prefix}:views:current"
        self.counter = f"{prefix}:views:generations"

    def root(self, generation: str) -> str:
        return f"{self.prefix}:views:{generation}"

    def current(self, client: redis.Redis) -> str | None:
        return redis_text(client.get(self.pointer))

    def new(self, client: redis.Redis) -> str:
        return f"g{int(client.incr(self.counter))}"

    def ensure(self, client: redis.Redis) -> str:
        """The current generation, creating the first one if there is none."""
        current = self.current(client)
        if current is not None:
            return current
        client.set(self.pointer, self.new(client), nx=True)
        created = self.current(client)
        assert created is not None
        return created


def root_pages(client: redis.Redis, root: str, size: int = 1000) -> Iterator[list[KeyT]]:
    """Every key under a root, a page at a time (SCAN: Redis never blocks on a large root)."""
    page: list[KeyT] = []
    for key in client.scan_iter(match=f"{root}:*", count=size):
        page.append(key)
        if len(page) >= size:
            yield page
            page = []
    if page:
        yield page


def delete_root(client: redis.Redis, root: str) -> int:
    """Unlink every key under a root, in pages, without blocking Redis (UNLINK frees the
    values off its main thread)."""
    return sum(int(client.unlink(*page)) for page in root_pages(client, root))
