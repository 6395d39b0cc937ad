"""The request body's check decides most bodies in C (orjson, and the colons of its
writing counted against the body's), and answers exactly as the standard library's strict
read does for every body."""

from __future__ import annotations

import json

import pytest

from skald_campaign.api.json_body import _refuse_constant, _refuse_duplicates, json_problem


def strict_read_accepts(body: bytes) -> bool:
    try:
        json.loads(
            body.decode("utf-8"),
            object_pairs_hook=_refuse_duplicates,
            parse_constant=_refuse_constant,
        )
    except ValueError:
        return False
    return True


BODIES = [
    b'{"kind": "attack", "actor": "a", "params": {"target": "b"}}',
    b'{"a": 1, "a": 2}',  # a key twice
    b'{"a": {"b": 1, "b": 1}}',  # twice, one level down
    b'[{"a": 1}, {"a": 1, "c": {"d": [1, {"e": 2, "e": 3}]}}]',
    b'{"a": "x:y", "b": "\\":\\"", "c": ":"}',  # colons and quotes inside strings
    b'{"a:b": 1, "a:b": 2}',  # a colon inside a key given twice
    b'{"\\u0061": 1, "a": 2}',  # the same key spelled twice
    b'{"a": "\\u003a", "a": 1}',  # an escaped colon beside a key given twice
    b'{"a": "x:y", "a": "p:q"}',  # a key twice, each value with a colon
    b'{"a": "x:y", "b": {"c": "::"}}',  # colons inside strings only: no key twice
    b'{"a": NaN}',
    b'{"a": Infinity}',
    b'{"a": 1e400}',  # the standard library reads it (as inf): accepted before, accepted now
    b'{"a": 123456789012345678901234567890}',  # beyond 64 bits: orjson refuses, json reads
    b'{"a": "\\ud800"}',  # a lone surrogate: json reads it
    b'{"a": 1,}',
    b"{}",
    b"[]",
    b"3",
    b'"text"',
    b"null",
    b'{"a": [], "b": {}, "c": [[], {}]}',
]


@pytest.mark.parametrize("body", BODIES)
def test_the_check_agrees_with_the_strict_read(body: bytes) -> None:
    assert (json_problem(body) is None) == strict_read_accepts(body)


def test_a_key_given_twice_is_named() -> None:
    assert json_problem(b'{"x": {"k": 1, "k": 2}}') == (
        "the request body has the key 'k' twice in one object"
    )
