"""An action's parameters, validated and written out as its event records them, remembered.

A table sends the same parameters again and again (the same target, the same damage
class), and validating them (pydantic, with the hidden-character check) and writing the
valid model out as JSON are the same pure functions of them every time: 4 us of an
action's 55. Parameters that are one flat object of plain scalars (str, int, bool, null)
are their own key, each value with its exact type (True is not 1); floats are left out
(0.0 and -0.0 are equal keys that write out differently), as is anything nested. Only
what validated is remembered: a refusal is worked out, and worded, every time.
"""

from __future__ import annotations

from typing import TypeGuard, TypeVar, cast

from pydantic import BaseModel

from skald_campaign.domain.records import JSON
from skald_campaign.domain.validation import validate

M = TypeVar("M", bound=BaseModel)
Scalar = str | int | bool | None

_SCALARS = frozenset({str, int, bool, type(None)})
_STRS = frozenset({str})
_LIMIT = 4096  # a bound, not a policy: the parameters in play come back at once

# (model, each key with its value's type and the value) -> the valid model
_VALID: dict[tuple[object, ...], BaseModel] = {}
# id(a remembered valid model) -> (the model, held so that its id is not reused while it
# is here; its JSON once written, if that is flat and plain too)
_WRITTEN: dict[int, tuple[BaseModel, dict[str, Scalar] | None]] = {}


def _flat_plain(data: object) -> TypeGuard[dict[str, Scalar]]:
    return (
        type(data) is dict
        and _STRS.issuperset(map(type, data))
        and _SCALARS.issuperset(map(type, data.values()))
    )


def valid_params(model: type[M], data: object, what: str) -> M:
    """``validate(model, data, what)``: the same model, or the same refusal."""
    if not _flat_plain(data):
        return validate(model, data, what)
    key = (model, *[(name, type(value), value) for name, value in data.items()])
    known = _VALID.get(key)
    if known is not None:
        return cast(M, known)  # the key holds the model: it is one
    valid = validate(model, data, what)
    if len(_VALID) >= _LIMIT:
        _VALID.clear()
        _WRITTEN.clear()
    _VALID[key] = valid
    _WRITTEN[id(valid)] = (valid, None)
    return valid


def written(valid: BaseModel) -> dict[str, JSON]:
    """``valid.model_dump(mode="json")``: a new dict each time (an event keeps it)."""
    known = _WRITTEN.get(id(valid))
    if known is None or known[0] is not valid:
        return valid.model_dump(mode="json")
    if known[1] is not None:
        copy: dict[str, JSON] = dict(known[1])  # of scalars only: it shares nothing
        return copy
    dumped: dict[str, JSON] = valid.model_dump(mode="json")
    if _flat_plain(dumped):
        _WRITTEN[id(valid)] = (valid, dict(dumped))
    return dumped
