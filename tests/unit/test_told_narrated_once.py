"""Issue 39, "the rules once": a command's texts (domain/reading/told.py ``worked_out``)
build a stamina-body record's narrative once. Stamina-body's plain narrative
(``narrate``) is its narrative with each line rendered for the GM, and says so
(``narrate_is_narrative``): the rendered lines are taken as it, and ``narrate`` is not
asked to build the same lines again (it was, once per record: a third of a take_hit's
texts on the writer). What is recorded is unchanged: every record of the stamina-body
scenes of tests/unit/scenes_stamina_body.py, and a take_hit and an attack, told again
with ``narrate`` asked, give the same ``told`` byte for byte."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from skald_campaign.domain.encounter import telling
from skald_campaign.domain.encounter.aggregate import Encounter
from skald_campaign.domain.rulesets import get_ruleset
from skald_campaign.domain.rulesets.base import narrates_its_narrative
from skald_campaign.domain.rulesets.d20 import D20
from skald_campaign.domain.rulesets.margin import Margin
from skald_campaign.domain.rulesets.stamina_body import StaminaBody
from tests.unit import scenes_stamina_body as scenes
from tests.unit.told_support import Table

CALLS: Counter[str] = Counter()


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """Stamina-body's ``narrative`` and ``narrate`` counted, in its own class (so the
    ``narrate`` asked is still the one that declares ``narrate_is_narrative``)."""
    for name in ("narrative", "narrate"):
        method = getattr(StaminaBody, name)

        def call(self: Any, *args: Any, _method: Any = method, _name: str = name) -> Any:
            CALLS[_name] += 1
            return _method(self, *args)

        monkeypatch.setattr(StaminaBody, name, call)
    CALLS.clear()
    yield CALLS


def a_fight() -> Table:
    t = scenes.table("Bran", "Ogre")
    return t


def test_a_take_hit_builds_its_narrative_once_and_asks_no_narrate(
    counted: Counter[str],
) -> None:
    t = a_fight()
    counted.clear()
    t.act("take_hit", None, {"damage": [3]}, target="Ogre", damage_type="impact", damage_class=1)
    assert dict(counted) == {"narrative": 1}
    # What the GM reads of it is the narrative's lines, as narrate would have said them.
    record = t.last()
    told = record["told"]
    assert isinstance(told, dict) and "narrate" not in told
    encounter = t.app.encounter(t.campaign, t.eid)
    assert t.read(record)["gm"][1][: len(told["narrative"])] == StaminaBody().narrate(
        record, encounter.combatants
    )


def test_an_attack_builds_its_narrative_once(counted: Counter[str]) -> None:
    t = a_fight()
    counted.clear()
    t.act("attack", "Bran", {"hit": [1, 2, 2], "defense": [6, 6, 6], "damage": [4, 1]},
          target="Ogre", weapon="sword", defense="parry")  # fmt: skip
    assert dict(counted) == {"narrative": 1}


def told_again(encounter: Encounter, asked: bool, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Each record's ``told`` worked out again now, ``narrate`` asked or not."""
    monkeypatch.setattr(StaminaBody, "narrate_is_narrative", not asked)
    rules = telling.Rules(get_ruleset(encounter.ruleset_id), encounter.rules)
    return [telling.told_of(rules, r, encounter.combatants) for r in encounter.actions]


def blows() -> tuple[Table, Any]:
    """A take_hit each way and an attack parried, then one that lands."""
    t = a_fight()
    t.act("take_hit", None, {"damage": [3]}, target="Ogre", damage_type="impact", damage_class=1)
    t.act("take_hit", None, {"damage": [6, 6]}, target="Bran", damage_type="piercing",
          damage_class=2)  # fmt: skip
    t.act("attack", "Bran", {"hit": [1, 2, 2], "defense": [6, 6, 6], "damage": [4, 1]},
          target="Ogre", weapon="sword", defense="parry")  # fmt: skip
    t.act("attack", "Ogre", {"hit": [2, 2, 2], "damage": [5, 4]}, target="Bran", weapon="club",
          defense="none")  # fmt: skip
    return t, t.last()


SCENES: list[Callable[[], tuple[Table, Any]]] = [blows] + [
    getattr(scenes, name)
    for name in dir(scenes)
    if name.startswith(("an_", "a_", "the_")) and name != "table"
]


@pytest.mark.parametrize("scene", SCENES, ids=lambda s: s.__name__)
def test_what_is_recorded_is_the_same_as_with_narrate_asked(
    scene: Callable[[], tuple[Table, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    t, _ = scene()
    encounter = t.app.encounter(t.campaign, t.eid)
    assert encounter.actions
    with monkeypatch.context() as m:
        assert told_again(encounter, False, m) == told_again(encounter, True, m)
    # And as the command recorded it (each record's told, as stored).
    with monkeypatch.context() as m:
        recorded = [r.as_json().get("told") for r in encounter.actions]
        assert told_again(encounter, False, m) == recorded


def test_only_a_narrate_declared_beside_the_flag_counts() -> None:
    class Retold(StaminaBody):
        def narrate(self, record: Any, combatants: Any) -> list[str] | None:
            return ["a narrator of its own"]

    class Declared(Retold):
        narrate_is_narrative = False

    assert narrates_its_narrative(StaminaBody)
    assert not narrates_its_narrative(Retold)  # its own narrate, not declared
    assert not narrates_its_narrative(Declared)
    assert not narrates_its_narrative(D20) and not narrates_its_narrative(Margin)
