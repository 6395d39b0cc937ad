"""Values whose type only the runtime knows (what Redis answers, decoded JSON), narrowed
by checking them: a value of another shape is an error here, not a wrong view later."""

from __future__ import annotations

from skald_campaign.domain.records import JSON, JSONObject


def redis_text(raw: object) -> str | None:
    """A string value Redis answered (bytes: the clients do not decode), or None."""
    if raw is None:
        return None
    if isinstance(raw, bytes):
        return raw.decode()
    raise TypeError(f"Redis answered {type(raw).__name__}, not bytes")


def json_object(value: object) -> JSONObject:
    if not isinstance(value, dict):
        raise TypeError(f"a JSON object was expected here, not {value!r}")
    return value


def integer(value: object) -> int:
    if not isinstance(value, int):
        raise TypeError(f"a whole number was expected here, not {value!r}")
    return value


def field(event: object, name: str) -> object:
    """One field of an event whose class does not declare its fields to the type checker
    (the aggregates' ``@event("...")`` classes are built at import): what it holds is
    narrowed by the helpers here where it is read."""
    return getattr(event, name)


def text(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"a string was expected here, not {value!r}")
    return value


def optional_object(value: object) -> JSONObject | None:
    return None if value is None else json_object(value)


def json_list(value: object) -> list[JSON]:
    if not isinstance(value, list):
        raise TypeError(f"a JSON array was expected here, not {value!r}")
    return value


def text_list(value: object) -> list[str]:
    """A JSON array of strings (ids): the strings, checked."""
    return [text(v) for v in json_list(value)]
