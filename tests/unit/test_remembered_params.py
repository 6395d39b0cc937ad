"""An action's parameters validated and written out once for what is sent again
(domain/play/remembered_params.py): the same model, the same JSON, the same refusals."""

from __future__ import annotations

import pytest
from pydantic import StrictBool, StrictInt

from skald_campaign.domain.play.remembered_params import valid_params, written
from skald_campaign.domain.rulesets.base import Frozen
from skald_campaign.domain.rulesets.stamina_body.actions import TakeHit
from skald_campaign.domain.validation import InvalidFields, validate

HIT = {"target": "hero", "damage_type": "impact", "damage_class": 1}


class Numbered(Frozen):
    n: StrictInt | None = None
    on: StrictBool = False
    x: float = 0.0
    tags: tuple[str, ...] = ()


def test_what_is_sent_again_is_the_model_it_validated_to() -> None:
    first = valid_params(TakeHit, dict(HIT), "take_hit")
    assert first == validate(TakeHit, dict(HIT), "take_hit")
    assert valid_params(TakeHit, dict(HIT), "take_hit") is first
    other = valid_params(TakeHit, {**HIT, "damage_class": 2}, "take_hit")
    assert other.damage_class == 2


def test_its_json_is_the_models_and_a_new_dict_each_time() -> None:
    valid = valid_params(TakeHit, {**HIT, "target": "written"}, "take_hit")
    first, again = written(valid), written(valid)
    assert first == again == valid.model_dump(mode="json")
    assert list(first) == list(valid.model_dump(mode="json"))  # in the model's order
    assert first is not again
    first["target"] = "changed"
    assert written(valid)["target"] == "written"


def test_a_value_is_its_own_key_with_its_type() -> None:
    assert valid_params(Numbered, {"n": 1}, "numbered").n == 1
    with pytest.raises(InvalidFields) as refused:
        valid_params(Numbered, {"n": True}, "numbered")
    with pytest.raises(InvalidFields) as validated:
        validate(Numbered, {"n": True}, "numbered")
    assert refused.value.message == validated.value.message
    assert valid_params(Numbered, {"on": True}, "numbered").on is True
    assert valid_params(Numbered, {"on": True, "n": None}, "numbered").n is None


@pytest.mark.parametrize(
    "data",
    [
        {"n": "1"},
        {"n": 1, "unknown": 2},
        {"n": 1.0},
        {"tags": ["a", "b\u202e"]},
        {"n\x00": 1},
        ["n", 1],
        None,
    ],
)
def test_a_refusal_is_the_same_every_time(data: object) -> None:
    for _ in range(2):
        with pytest.raises(InvalidFields) as refused:
            valid_params(Numbered, data, "numbered")
        with pytest.raises(InvalidFields) as validated:
            validate(Numbered, data, "numbered")
        assert refused.value.message == validated.value.message
        assert refused.value.problems == validated.value.problems


@pytest.mark.parametrize("data", [{"x": 0.0}, {"x": -0.0}, {"tags": ["a"]}, {"tags": ("a",)}])
def test_floats_and_nested_values_are_validated_and_written_every_time(data: object) -> None:
    valid = valid_params(Numbered, data, "numbered")
    assert valid == validate(Numbered, data, "numbered")
    assert valid_params(Numbered, data, "numbered") is not valid
    assert written(valid) == valid.model_dump(mode="json")


def test_minus_zero_is_written_as_sent() -> None:
    plus = written(valid_params(Numbered, {"x": 0.0}, "numbered"))
    minus = written(valid_params(Numbered, {"x": -0.0}, "numbered"))
    assert repr(plus["x"]) == "0.0" and repr(minus["x"]) == "-0.0"
