"""Issue 12, part 2, on SQLite and PostgreSQL: a carried correction is all or nothing, and a
day-plan correction re-heals a healed day and carries forward."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest

from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.commands import (
    AdvanceDays,
    Combatant,
    CorrectDayPlan,
    CorrectEncounter,
    CreateCampaign,
    EndEncounter,
    EnrolCharacter,
    HealThrough,
    MarkWound,
    PerformAction,
    StartEncounter,
)
from skald_campaign.domain.campaign.aggregate import Campaign
from skald_campaign.domain.errors import ActionRefused, ConcurrentWrite
from skald_campaign.domain.timeline import Seed, Walk

SHEET = {"st": 10, "con": 10, "stamina_max": 20, "body_max": 10}


def played(app: SkaldApplication) -> tuple[UUID, str, UUID, UUID]:
    """Fight 1 (a [6,6] Impact hit: 10/2), day 1 (light), fight 2 (a [4] hit: 3/0)."""
    cid = app.create_campaign(CreateCampaign("Store", "stamina-body")).id
    _, bran = app.enrol_character(EnrolCharacter(cid, "Bran", SHEET))

    def fight(faces: list[int]) -> UUID:
        eid = app.start_encounter(StartEncounter(cid, "F", (Combatant(bran, "p"),))).id
        params = {"target": bran, "damage_type": "impact", "damage_class": len(faces)}
        app.perform_action(PerformAction(cid, eid, "take_hit", params, dice={"damage": faces}))
        app.end_encounter(EndEncounter(cid, eid))
        return eid

    first = fight([6, 6])  # 10/8
    app.advance_days(AdvanceDays(cid, 1, {"rest": "light"}))
    app.heal_through(HealThrough(cid, 1))  # lost 10: +5; Body +2: 15/10
    second = fight([4])  # 12/10
    return cid, bran, first, second


def events_of(app: SkaldApplication, *ids: UUID) -> list[int]:
    return [len(list(app.events.get(i))) for i in ids]


def test_a_lost_race_writes_nothing_on_any_aggregate(store_env: dict[str, str]) -> None:
    app = SkaldApplication(env=store_env, write_attempts=1)
    other = SkaldApplication(env=store_env)
    try:
        cid, bran, first, second = played(app)
        before = events_of(app, cid, first, second)

        class Racing(SkaldApplication):
            name = "Skald"  # the same store's tables

            def _walk(self, campaign: Campaign, seed: Seed, salt: str) -> tuple[Walk, Any]:
                found = super()._walk(campaign, seed, salt)
                # Another writer records a wound between the read and the save.
                reason = "a fall"
                other.mark_wound(MarkWound(cid, bran, "broken_bones", True, reason))
                return found

        racing = Racing(env=store_env, write_attempts=1)
        try:
            with pytest.raises(ConcurrentWrite):
                racing.commit_correction(CorrectEncounter(cid, first, "void", "dispute", 1))
        finally:
            racing.close()
        after = events_of(app, cid, first, second)
        assert after == [before[0] + 1, before[1], before[2]]  # only the other's wound
        assert app.campaign(cid).characters[bran].tracks == {"stamina": 12, "body": 10}
    finally:
        other.close()
        app.close()


def test_a_commit_writes_every_aggregate_and_a_no_op_says_so(store_env: dict[str, str]) -> None:
    app = SkaldApplication(env=store_env)
    try:
        cid, bran, first, second = played(app)
        before = events_of(app, cid, first, second)
        app.commit_correction(CorrectEncounter(cid, first, "void", "dispute", 1))
        assert events_of(app, cid, first, second) == [b + 1 for b in before]
        # 20/10, day 1: nothing lost, 20/10; fight 2: 17/10.
        assert app.campaign(cid).characters[bran].tracks == {"stamina": 17, "body": 10}
        assert app.encounter(cid, second).initial_combatants[bran].tracks == {
            "stamina": 20,
            "body": 10,
        }
        reroll = CorrectEncounter(cid, second, "reroll", "same dice", 1, {"damage": [4]})
        preview = app.preview_correction(reroll)
        assert preview["changes_nothing"] is True
        with pytest.raises(ActionRefused, match="changes nothing"):
            app.commit_correction(reroll)
    finally:
        app.close()


def test_a_healed_days_plan_corrected_re_heals_it_and_carries(store_env: dict[str, str]) -> None:
    app = SkaldApplication(env=store_env)
    try:
        cid, bran, _, _ = played(app)
        fix = CorrectDayPlan(cid, 1, bran, {"rest": "none"}, "they marched all day")
        preview = app.preview_day_plan(fix)
        # No rest: 10/8 stays 10/8; fight 2 then 7/8.
        assert [
            (s["kind"], s["before"]["tracks"], s["after"]["tracks"]) for s in preview["steps"]
        ] == [
            ("heal", {"stamina": 15, "body": 10}, {"stamina": 10, "body": 8}),
            ("encounter", {"stamina": 12, "body": 10}, {"stamina": 7, "body": 8}),
        ]
        app.commit_day_plan(fix)
        campaign = app.campaign(cid)
        assert campaign.characters[bran].tracks == {"stamina": 7, "body": 8}
        assert campaign.calendar[1].plans[bran]["rest"] == "none"
        with pytest.raises(ActionRefused, match="changes nothing"):
            app.commit_day_plan(fix)
    finally:
        app.close()
