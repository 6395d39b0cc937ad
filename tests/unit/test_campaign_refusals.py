"""What the Campaign aggregate refuses, and says, before it records anything (the checks
of domain/campaign/roster.py and domain/campaign/calendar.py), on the aggregate itself: exact
messages, and no event pending after a refusal."""

from __future__ import annotations

import re

import pytest

from skald_campaign.domain.campaign.aggregate import Campaign
from skald_campaign.domain.errors import ActionRefused, InvalidInput, NotFound
from skald_campaign.domain.records import Character

SHEET = {"st": 10, "con": 10, "stamina_max": 20, "body_max": 10}
REST = {"rest": "full", "care": True, "healer": False}


def campaign() -> tuple[Campaign, str, str]:
    """A stamina-body campaign with Bran and Ulf enrolled, its events collected."""
    made = Campaign.create("Road", "stamina-body", None, "gm:GM", "gm", "h" * 64)
    bran = made.enrol("Bran", SHEET, "gm:GM")
    ulf = made.enrol("Ulf", SHEET, "gm:GM")
    made.collect_events()
    return made, bran, ulf


def refused(kind: type[Exception], message: str) -> pytest.RaisesContext[Exception]:
    return pytest.raises(kind, match=f"^{re.escape(message)}$")


def test_keys_are_refused_for_a_bad_role_a_used_id_or_the_wrong_binding() -> None:
    made, bran, _ = campaign()
    with refused(InvalidInput, "a key's role is player or viewer, not 'gm'"):
        made.issue_key("k1", "h", "gm", [bran], "Bran's", "gm:GM")
    with refused(InvalidInput, "that key id is already in use"):
        made.issue_key("gm", "h", "player", [bran], "Bran's", "gm:GM")
    with refused(NotFound, "no such character(s) in this campaign: nobody"):
        made.issue_key("k1", "h", "player", ["nobody"], "Bran's", "gm:GM")
    with refused(InvalidInput, "a player key must be bound to at least one character"):
        made.issue_key("k1", "h", "player", [], "Bran's", "gm:GM")
    with refused(InvalidInput, "a viewer key reads everything and is bound to no character"):
        made.issue_key("k1", "h", "viewer", [bran], "Table", "gm:GM")
    assert made.collect_events() == []
    made.issue_key("k1", "h", "player", [bran, bran], "  Bran's  ", "gm:GM")
    (issued,) = made.collect_events()
    assert isinstance(issued, Campaign.KeyIssued)
    assert (issued.role, list(issued.characters), issued.label) == ("player", [bran], "Bran's")


def test_a_key_is_revoked_once_and_never_the_gms() -> None:
    made, _, _ = campaign()
    made.issue_key("k1", "h", "viewer", [], "Table", "gm:GM")
    with refused(NotFound, "no key 'k2' in this campaign"):
        made.revoke_key("k2", "gm:GM")
    with refused(ActionRefused, "the GM key cannot be revoked"):
        made.revoke_key("gm", "gm:GM")
    made.revoke_key("k1", "gm:GM")
    with refused(ActionRefused, "key 'k1' is already revoked"):
        made.revoke_key("k1", "gm:GM")
    assert made.keys["k1"].revoked is True


def test_a_character_not_enrolled_is_not_found() -> None:
    made, _, _ = campaign()
    with refused(NotFound, "character 'nobody' is not enrolled in this campaign"):
        made.character("nobody")
    with refused(NotFound, "character 'nobody' is not enrolled in this campaign"):
        made.advance_days(1, REST, {"nobody": {}}, "gm:GM")
    assert made.collect_events() == []


def test_a_character_an_encounter_holds_joins_no_other_and_is_changed_there() -> None:
    made, bran, ulf = campaign()
    made.open_encounter("e1", "Ambush", [bran])
    with refused(ActionRefused, "Bran is already in open encounter e1"):
        made.open_encounter("e2", "Ford", [ulf, bran])
    with refused(ActionRefused, "encounter e2 is not open"):
        made.join_encounter("e2", ulf, "gm:GM")
    with refused(ActionRefused, "Bran is already in open encounter e1"):
        made.join_encounter("e1", bran, "gm:GM")
    with refused(ActionRefused, "Bran is in open encounter e1: amend the sheet there"):
        made.amend_sheet(bran, {"st": 11}, "grew", "gm:GM")
    with refused(ActionRefused, "Bran is in open encounter e1: adjust the tracks there"):
        made.adjust_tracks(bran, {"stamina": {"by": -1}}, "tired", "gm:GM")
    with refused(
        ActionRefused,
        "Bran is in an open encounter; record the wound there with the mark_wound action",
    ):
        made.mark_wound(bran, "broken_bones", True, "a fall", "gm:GM")
    with refused(ActionRefused, "end the open encounter(s) 'Ambush' before advancing the day"):
        made.advance_days(1, REST, {}, "gm:GM")
    assert [type(e) for e in made.collect_events()] == [Campaign.EncounterOpened]
    made.join_encounter("e1", ulf, "gm:GM")
    assert made.characters[ulf].in_encounter == "e1"


def test_days_advance_by_one_to_365_and_wounds_are_the_rulesets() -> None:
    made, bran, _ = campaign()
    for days in (0, 366):
        with refused(InvalidInput, f"advance by 1 to 365 days at a time, not {days}"):
            made.advance_days(days, REST, {}, "gm:GM")
    with refused(
        InvalidInput,
        "the stamina-body ruleset tracks no wound 'sprained_ego'; "
        "it tracks: broken_bones, piercing_wound, severe_bruising",
    ):
        made.mark_wound(bran, "sprained_ego", True, "pride", "gm:GM")
    assert made.collect_events() == []


def test_heals_are_owed_per_day_and_taken_once_each_on_the_last_days_result() -> None:
    made, bran, ulf = campaign()
    made.adjust_tracks(bran, {"stamina": {"set": 2}}, "tired", "gm:GM")
    made.advance_days(2, {"rest": "light"}, {}, "gm:GM")
    made.collect_events()
    assert made.heal_through(1) == 2  # day 1, each of the two
    assert made.heal_through(2) == 2  # day 2, each
    assert made.heal_through(2) == 0
    heals = [e for e in made.collect_events() if isinstance(e, Campaign.CharacterHealed)]
    assert [(e.character_id, e.day) for e in heals] == [(bran, 1), (ulf, 1), (bran, 2), (ulf, 2)]
    bran_days = [e.tracks[bran]["stamina"] for e in heals if e.character_id == bran]
    assert bran_days == [11, 15]  # a light day: half of what is lost, 18 then 9
    character = made.characters[bran]
    assert isinstance(character, Character) and character.healed_through == 2
    assert made.characters[bran].tracks["stamina"] == bran_days[1]
