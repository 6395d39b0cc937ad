"""A correction carried through a long campaign: preview and commit times.

Run: python bench/campaign_corrections.py [encounters] [actions] [days]
(defaults 100 x 50 with 100 days between the fights; SQLite in a temporary
directory, the aggregate cache and snapshots on, as `skald serve` runs them).

The worst case on purpose: the days are rest "none", so nothing ever heals back
to where it was, and voiding the first hit of the first fight changes every
later day and every later fight: every heal is worked out again and every
action re-resolved with its recorded dice.
"""

from __future__ import annotations

import sys
import tempfile
import time

from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.commands import (
    AdvanceDays,
    Combatant,
    CorrectEncounter,
    CreateCampaign,
    EndEncounter,
    EnrolCharacter,
    PerformAction,
    StartEncounter,
)
from skald_campaign.settings import Settings
from skald_campaign.store import persistence_env


def main(encounters: int = 100, actions: int = 50, days: int = 100) -> None:
    env = {
        **persistence_env(Settings(data_dir=tempfile.mkdtemp(prefix="skald-bench-"))),
        "AGGREGATE_CACHE_MAXSIZE": "1000",
    }
    app = SkaldApplication(env=env)
    campaign = app.create_campaign(CreateCampaign("bench", "stamina-body")).id
    sheet = {"st": 10, "con": 10, "stamina_max": 200, "body_max": 200}
    _, hero = app.enrol_character(EnrolCharacter(campaign, "Hero", sheet))
    hit = {"target": hero, "damage_type": "impact", "damage_class": 1}
    started = time.perf_counter()
    first = None
    for n in range(encounters):
        if n:
            # Opening the next fight applies the days owed, as the worker would have.
            app.advance_days(AdvanceDays(campaign, days, {"rest": "none"}))
        fight = app.start_encounter(StartEncounter(campaign, f"f{n}", (Combatant(hero, "a"),)))
        first = first or fight.id
        for _ in range(actions):
            app.perform_action(
                PerformAction(campaign, fight.id, "take_hit", hit, dice={"damage": [1]})
            )
        app.end_encounter(EndEncounter(campaign, fight.id))
    built = time.perf_counter() - started
    total_events = app.recorder.max_notification_id()
    print(
        f"campaign: {encounters} encounters x {actions} actions, {days} days between "
        f"them; {total_events} events, built in {built:.1f}s"
    )
    assert first is not None
    void = CorrectEncounter(campaign, first, "void", "the first hit never landed", 1)

    started = time.perf_counter()
    preview = app.preview_correction(void)
    previewed = time.perf_counter() - started
    print(
        f"preview: {previewed:.2f}s ({len(preview['steps'])} steps and "
        f"{len(preview['actions'])} actions change, {len(preview['encounters'])} encounters)"
    )
    started = time.perf_counter()
    app.commit_correction(void)
    committed = time.perf_counter() - started
    print(f"commit:  {committed:.2f}s")
    print(f"tracks now: {app.campaign(campaign).characters[hero].tracks}")
    app.close()


if __name__ == "__main__":
    arguments = [int(a) for a in sys.argv[1:4]]
    main(*arguments)
