"""The command path: actions per second as one encounter grows long.

Run: python bench/commands.py [actions] (SQLite in a temporary directory, the
aggregate cache and snapshots on, as `skald serve` runs them).
"""

from __future__ import annotations

import sys
import tempfile
import time

from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.commands import (
    Combatant,
    CreateCampaign,
    EnrolCharacter,
    PerformAction,
    StartEncounter,
)
from skald_campaign.settings import Settings
from skald_campaign.store import persistence_env


def main(total: int = 2000, step: int = 250) -> None:
    env = {
        **persistence_env(Settings(data_dir=tempfile.mkdtemp(prefix="skald-bench-"))),
        "AGGREGATE_CACHE_MAXSIZE": "1000",
    }
    app = SkaldApplication(env=env)
    campaign = app.create_campaign(CreateCampaign("bench", "stamina-body"))
    sheet = {"st": 10, "con": 10, "stamina_max": 200, "body_max": 200}
    _, hero = app.enrol_character(EnrolCharacter(campaign.id, "Hero", sheet))
    fight = app.start_encounter(StartEncounter(campaign.id, "f", (Combatant(hero, "a"),)))
    hit = {"target": hero, "damage_type": "impact", "damage_class": 1}
    print(f"{'actions so far':>15} {'actions/s':>10}")
    started = time.perf_counter()
    for n in range(1, total + 1):
        app.perform_action(
            PerformAction(campaign.id, fight.id, "take_hit", hit, dice={"damage": [1]})
        )
        if n % step == 0:
            now = time.perf_counter()
            print(f"{n:>15} {step / (now - started):>10.0f}")
            started = now
    app.close()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
