"""What the webhook deliveries have reached, kept in Redis beside the views (not under
a views generation: a rebuild must not make them start over): per webhook, the last
position delivered, the run of consecutive failed attempts, the delivery log (the
last LOG_LENGTH deliveries, newest first) and the delivery in progress.

Lost with its Redis, a webhook starts again from its registration: at least once."""

from __future__ import annotations

import hashlib

import orjson
import redis

from skald_campaign.domain.records import JSONObject
from skald_campaign.projections.narrow import json_object

LOG_LENGTH = 50
# How long a test request's Idempotency-Key is remembered: a retry comes within seconds.
TEST_CLAIM_SECONDS = 24 * 3600

# Queue the test unless this claim queued it before; the claim's request hash either way
# (nil when it was queued now). One script, so a claim is never kept without its test.
_QUEUE_ONCE = """
local first = redis.call('SET', KEYS[2], ARGV[2], 'NX', 'EX', ARGV[3])
if first then
  redis.call('RPUSH', KEYS[1], ARGV[1])
  return false
end
return redis.call('GET', KEYS[2])
"""


class DeliveryState:
    def __init__(self, client: redis.Redis, prefix: str) -> None:
        self.client = client
        self.root = f"{prefix}:webhooks"

    def delivered(self, webhook_id: str) -> int:
        found = self.client.hget(f"{self.root}:delivered", webhook_id)
        return int(found) if isinstance(found, bytes) else 0

    def mark_delivered(self, webhook_id: str, position: int) -> None:
        self.client.hset(f"{self.root}:delivered", webhook_id, position)

    def failures(self, webhook_id: str) -> int:
        found = self.client.hget(f"{self.root}:failures", webhook_id)
        return int(found) if isinstance(found, bytes) else 0

    def failed(self, webhook_id: str) -> int:
        """One more failed attempt in a row: how many now."""
        return int(self.client.hincrby(f"{self.root}:failures", webhook_id, 1))

    def succeeded(self, webhook_id: str) -> None:
        self.client.hset(f"{self.root}:failures", webhook_id, 0)

    def in_progress(self, webhook_id: str, entry: JSONObject) -> None:
        self.client.hset(f"{self.root}:pending", webhook_id, orjson.dumps(entry))

    def finished(self, webhook_id: str, entry: JSONObject) -> None:
        pipe = self.client.pipeline()
        pipe.hdel(f"{self.root}:pending", webhook_id)
        pipe.lpush(f"{self.root}:log:{webhook_id}", orjson.dumps(entry))
        pipe.ltrim(f"{self.root}:log:{webhook_id}", 0, LOG_LENGTH - 1)
        pipe.execute()

    def log(self, webhook_id: str) -> list[JSONObject]:
        """The delivery in progress (if any), then the finished ones, newest first."""
        pipe = self.client.pipeline(transaction=False)
        pipe.hget(f"{self.root}:pending", webhook_id)
        pipe.lrange(f"{self.root}:log:{webhook_id}", 0, -1)
        pending, done = pipe.execute()
        raws = ([pending] if pending else []) + list(done)
        return [json_object(orjson.loads(raw)) for raw in raws]

    def request_test(self, webhook_id: str) -> None:
        self.client.rpush(f"{self.root}:tests", webhook_id)

    def request_test_once(self, webhook_id: str, scope: str, request_hash: str) -> str | None:
        """Queue a test for a request with an Idempotency-Key (its scope), once: None when
        queued now, else the hash of the request that queued it (a retry queues no more)."""
        claimed = f"{self.root}:test-claims:{hashlib.sha256(scope.encode()).hexdigest()}"
        found = self.client.eval(
            _QUEUE_ONCE, 2, f"{self.root}:tests", claimed,
            webhook_id, request_hash, TEST_CLAIM_SECONDS,
        )  # fmt: skip
        return found.decode() if isinstance(found, bytes) else None

    def next_test(self) -> str | None:
        found = self.client.lpop(f"{self.root}:tests")
        return found.decode() if isinstance(found, bytes) else None
