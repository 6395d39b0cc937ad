"""What the projections read without a declared type is checked where it is read: a
value of another shape is refused there (and the view halts at that event, naming it)
rather than written into a view. And the audit's summaries, one template per class."""

from __future__ import annotations

import pytest

from skald_campaign.domain import events
from skald_campaign.projections.audit import SUMMARIES, TEMPLATES
from skald_campaign.projections.narrow import (
    integer,
    json_list,
    json_object,
    optional_object,
    redis_text,
    text,
    text_list,
)
from skald_campaign.projections.staging import loads
from skald_campaign.projections.views import Board, stored


def test_each_helper_answers_the_value_it_was_given_when_it_has_the_shape() -> None:
    sheet = {"st": 12}
    ids = ["a", "b"]
    assert json_object(sheet) is sheet
    assert optional_object(sheet) is sheet
    assert optional_object(None) is None
    assert json_list(ids) is ids
    assert text_list(ids) == ["a", "b"]
    assert (text("x"), integer(7), integer(True)) == ("x", 7, True)
    assert (redis_text(b"g12"), redis_text(None)) == ("g12", None)
    assert (loads(b'{"n":1}'), loads(None)) == ({"n": 1}, None)
    board = {"id": "e"}
    assert stored(Board, board) is board


@pytest.mark.parametrize(
    ("narrow", "value", "message"),
    [
        (json_object, ["st"], r"a JSON object was expected here, not \['st'\]"),
        (optional_object, "{}", r"a JSON object was expected here, not '\{\}'"),
        (json_list, {"a": 1}, r"a JSON array was expected here, not \{'a': 1\}"),
        (text_list, ["a", 2], r"a string was expected here, not 2"),
        (text, None, r"a string was expected here, not None"),
        (integer, "3", r"a whole number was expected here, not '3'"),
        (redis_text, "g1", r"Redis answered str, not bytes"),
        (loads, 12, r"Redis answered int, not bytes"),
    ],
)
def test_a_value_of_another_shape_is_refused_naming_it(
    narrow: object, value: object, message: str
) -> None:
    assert callable(narrow)
    with pytest.raises(TypeError, match=message):
        narrow(value)


def test_a_view_document_must_at_least_be_an_object() -> None:
    with pytest.raises(TypeError, match=r"a view document was expected, not \[1\]"):
        stored(Board, [1])


def test_the_audit_sums_up_each_templated_class_from_the_event_s_fields() -> None:
    attrs = {
        "name": "Ambush at {dawn}",  # braces in a value are the value's, not the template's
        "ruleset": "margin",
        "day": 3,
        "round": 2,
        "combatants": {"a": {}, "b": {}, "c": {}},
        "version": "1.1.0",
        "previous_version": "1.0.0",
        "differing": [{"number": 3}, {"number": 5}],
    }
    summaries = {cls.__qualname__: summed_up(cls, attrs) for cls in TEMPLATES}
    assert summaries == {
        "Campaign.Created": "Campaign 'Ambush at {dawn}' created (margin)",
        "Campaign.CharacterEnrolled": "Ambush at {dawn} joins the campaign",
        "Campaign.EncounterOpened": "Encounter 'Ambush at {dawn}' opened",
        "Campaign.EncounterClosed": "Encounter closed; tracks carried back to the roster",
        "Campaign.DayAdvanced": "Day 3 begins",
        "Encounter.Started": "Encounter 'Ambush at {dawn}' starts with 3 combatants",
        "Encounter.RoundStarted": "Round 2 begins",
        "Campaign.RulesetVersionRecorded": "Ruleset version 1.1.0 recorded (was 1.0.0): "
        "every recorded action comes out as it did",
        "Campaign.RulesetVersionAccepted": "Ruleset version 1.1.0 accepted (was 1.0.0): "
        "2 recorded actions come out differently under it",
    }


def test_an_end_is_summed_up_with_its_reason_when_it_has_one() -> None:
    assert summed_up(events.EncounterEnded, {"by": "gm"}) == "Encounter ended"
    assert summed_up(events.EncounterEnded, {"reason": None}) == "Encounter ended"
    assert summed_up(events.EncounterEnded, {"reason": "the goblins fled"}) == (
        "Encounter ended: the goblins fled"
    )


def test_every_other_class_is_summed_up_by_its_correction_or_its_name() -> None:
    assert summed_up(events.KeyIssued, {"key_id": "k1"}) == "KeyIssued"
    correction = {"kind": "void", "number": 4, "reason": "misread the die"}
    assert summed_up(events.Corrected, {"correction": correction}) == "void 4: misread the die"


def summed_up(cls: type[object], attrs: dict[str, object]) -> str:
    summary = SUMMARIES(cls)
    assert summary is not None
    return summary(attrs)
