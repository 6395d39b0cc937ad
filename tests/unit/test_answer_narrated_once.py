"""Issue 39, "the answer built once": the answer to an action (api/views.py
``narrated_json``, made on the thread that ran the command right after it) reads the
record's plain narrative as the command rendered it while recording its texts
(domain/reading/told.py ``worked_out``), instead of rendering it again from the parts it
stored (domain/reading/narrators.py ``recorded_narrate``). The lines are the same: every
record of the scenes of each built-in ruleset (tests/unit/scenes_*.py) narrates the same
right after its command as when read from what was stored."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import pytest

from skald_campaign.api.fast_actions import answer_bytes
from skald_campaign.application.commands import PerformAction
from skald_campaign.domain.encounter import telling
from skald_campaign.domain.reading import narrators
from skald_campaign.domain.reading.told_form import forget_narrate, remembered_narrate
from skald_campaign.domain.rulesets import get_ruleset
from tests.unit import scenes_d20, scenes_margin, scenes_stamina_body
from tests.unit.told_support import Table


@pytest.fixture
def rendered(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """How often a narrative is rendered from a record's stored parts."""
    calls: Counter[str] = Counter()
    again = narrators.recorded_narrate

    def counted(told: Any) -> list[str] | None:
        calls["recorded_narrate"] += 1
        return again(told)

    monkeypatch.setattr(narrators, "recorded_narrate", counted)
    yield calls


def take_hit(t: Table, target: str) -> PerformAction:
    params = {"target": t.ids[target], "damage_type": "impact", "damage_class": 1}
    return PerformAction(t.campaign, t.eid, "take_hit", params, dice={"damage": [3]})


@pytest.mark.parametrize("group_commit", [False, True], ids=["alone", "group commit"])
def test_an_actions_answer_renders_no_narrative_again(
    rendered: Counter[str], group_commit: bool
) -> None:
    t = scenes_stamina_body.table("Bran", "Ogre")
    if group_commit:  # the answer is made on the writer, right after the command
        t.app.start_group_commit()
    try:
        status, answer = t.app.perform_action_answered(take_hit(t, "Ogre"), answer_bytes).result()
        assert status == 201 and b"Net damage: " in answer
        assert dict(rendered) == {}
        # Read again later (the record no longer the last told): from the stored parts.
        forget_narrate()
        encounter = t.app.encounter(t.campaign, t.eid)
        assert answer_bytes(encounter) == (status, answer)
        assert dict(rendered) == {"recorded_narrate": 1}
    finally:
        t.app.close()


def scenes(module: ModuleType) -> list[Callable[[], tuple[Table, Any]]]:
    return [
        getattr(module, name)
        for name in dir(module)
        if name.startswith(("an_", "a_", "the_")) and callable(getattr(module, name))
    ]


SCENES = [
    scene for module in (scenes_stamina_body, scenes_d20, scenes_margin) for scene in scenes(module)
]


@pytest.mark.parametrize("scene", SCENES, ids=lambda s: f"{s.__module__[11:]}.{s.__name__}")
def test_the_lines_remembered_are_those_read_from_the_stored_parts(
    scene: Callable[[], tuple[Table, Any]],
) -> None:
    """Each record of the scene's fight told again (as its command told it), then
    narrated at once and after the lines were forgotten."""
    t, _ = scene()
    encounter = t.app.encounter(t.campaign, t.eid)
    rules = telling.Rules(get_ruleset(encounter.ruleset_id), encounter.rules)
    assert encounter.actions
    for record in encounter.actions:
        told = telling.told_of(rules, record, encounter.combatants)
        stored = {**record.as_json(), "told": told}
        assert remembered_narrate(told)[0]
        right_after = narrators.narrate(encounter.ruleset_id, stored, encounter.combatants)
        forget_narrate()
        assert not remembered_narrate(told)[0]
        read = narrators.narrate(encounter.ruleset_id, stored, encounter.combatants)
        assert right_after == read
