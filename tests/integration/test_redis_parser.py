"""Skald's Redis clients parse replies with hiredis (a dependency): with redis-py's
Python parser a view read's round trip cost a third of the read (bench/README.md)."""

from __future__ import annotations

import redis
from redis._parsers import _HiredisParser
from redis.utils import HIREDIS_AVAILABLE


def test_redis_replies_are_parsed_by_hiredis(redis_url: str) -> None:
    assert HIREDIS_AVAILABLE
    client = redis.Redis.from_url(redis_url)
    try:
        client.ping()
        connection = client.connection_pool.get_connection()
        try:
            assert isinstance(connection._parser, _HiredisParser)
        finally:
            client.connection_pool.release(connection)
    finally:
        client.close()
