"""Which combatants an action's answer shows (api/views.py ``touched_by``): the actor,
whoever its effects and conditions mention, every string its parameters name and each
part of its roll names."""

from __future__ import annotations

from skald_campaign.api.views import touched_by


class Text(str):
    """A str that is not exactly a str."""


def test_effects_conditions_actor_params_and_rolls_are_named() -> None:
    record = {
        "actor": "a",
        "params": {
            "target": "b",
            "also": ["c", 3, None, "d"],
            "damage_class": 2,
            "parried": False,
            "hit_score": None,
            "ratio": 1.5,
            "quoted": Text("e"),
            "nested": {"f": "g"},  # a mapping names nobody
        },
        "effects": {"tracks": {"h": {}}, "state": {"i": {}}},
        "conditions": {"j": {}},
        "rolls": [{"name": "ward.k.guard"}, {"name": "", "roll": "l.m"}, {"roll": None}],
    }
    assert touched_by(record) == set("abcdehijk") | {"ward", "guard", "l", "m"}


def test_a_record_without_its_parts_names_nobody() -> None:
    assert touched_by({}) == set()
    assert touched_by({"actor": None, "params": None, "effects": None, "rolls": None}) == set()
