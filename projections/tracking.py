"""Tracking positions in Redis, the library's way: a TrackingRecorder.

Each projection keeps, per upstream application, the notification id of the last
event it applied. ``insert_tracking`` records one position on its own (the
library's contract, tested with its TrackingRecorderTestCase); the projection
engine instead writes the positions inside its batch script, atomically with the
views (projections/commit.py).
"""

from __future__ import annotations

import redis
from eventsourcing.persistence import IntegrityError, Tracking, TrackingRecorder

from skald_campaign.projections.narrow import redis_text

# A position only moves forward: recording one at or below the current is a conflict,
# exactly as the library's SQL recorders refuse a duplicate or an earlier tracking row.
_INSERT = """
local current = redis.call('HGET', KEYS[1], ARGV[1])
if current and tonumber(current) >= tonumber(ARGV[2]) then
  return redis.error_reply('tracking ' .. ARGV[2] .. ' is not after ' .. current)
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
"""


class RedisTrackingRecorder(TrackingRecorder):
    def __init__(self, client: redis.Redis, key: str) -> None:
        self.client = client
        self.key = key
        self._insert = client.register_script(_INSERT)

    def insert_tracking(self, tracking: Tracking) -> None:
        try:
            args: list[str | int] = [tracking.application_name, tracking.notification_id]
            self._insert(keys=[self.key], args=args)
        except redis.ResponseError as error:
            raise IntegrityError(str(error)) from error

    def max_tracking_id(self, application_name: str) -> int | None:
        value = redis_text(self.client.hget(self.key, application_name))
        return int(value) if value is not None else None
