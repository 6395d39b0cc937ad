"""Turn pydantic's validation errors into one readable domain error."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from domain.errors import InvalidInput

M = TypeVar("M", bound=BaseModel)


class InvalidFields(InvalidInput):
    """Invalid input with one entry per offending field."""

    def __init__(self, message: str, problems: list[dict[str, str]]) -> None:
        super().__init__(message)
        self.problems = problems


def validate(model: type[M], data: Any, what: str) -> M:
    """Validate ``data`` as ``model``; on failure name every field that is wrong."""
    if not isinstance(data, Mapping):
        raise InvalidFields(
            f"{what} must be a JSON object", [{"field": what, "problem": "not an object"}]
        )
    try:
        return model.model_validate(dict(data))
    except ValidationError as error:
        problems = [
            {
                "field": ".".join([what, *(str(part) for part in item["loc"])]),
                "problem": item["msg"],
            }
            for item in error.errors()
        ]
        listed = "; ".join(f"{p['field']}: {p['problem']}" for p in problems)
        raise InvalidFields(f"invalid {what}: {listed}", problems) from None
