"""What the projection tests share: a scenario, snapshots of the views key by key,
and the counters the views must show, worked out from the event store itself."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from uuid import UUID

import orjson
import redis
from eventsourcing.application import Application

from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.commands import (
    Combatant,
    CreateCampaign,
    EndEncounter,
    EnrolCharacter,
    NextRound,
    PerformAction,
    StartEncounter,
)
from skald_campaign.domain.events import (
    CampaignEvent,
    CharacterEnrolled,
    EncounterEvent,
    EncounterStarted,
)
from skald_campaign.projections.engine import PROJECTIONS
from skald_campaign.projections.keys import Generations, ViewKeys
from skald_campaign.projections.versions import counted

SHEET = {"st": 12, "con": 12, "stamina_max": 30, "body_max": 20, "armour_resilience": 1}


def hit(campaign_id: UUID, encounter_id: UUID, target: str, face: int) -> PerformAction:
    return PerformAction(
        campaign_id,
        encounter_id,
        "take_hit",
        {"target": target, "damage_type": "impact", "damage_class": 1},
        dice={"damage": [face]},
    )


def play(
    app: SkaldApplication, campaigns: int, encounters: int, actions: int, party: int = 3
) -> list[UUID]:
    """Campaigns with a party each, several encounters of hits and rounds, each ended."""
    ids = []
    for n in range(campaigns):
        campaign = app.create_campaign(CreateCampaign(f"Campaign {n}", "stamina-body"))
        heroes = [
            app.enrol_character(EnrolCharacter(campaign.id, f"Hero {n}.{h}", SHEET))[1]
            for h in range(party)
        ]
        for e in range(encounters):
            combatants = tuple(Combatant(h, "party", 1 + i) for i, h in enumerate(heroes))
            fight = app.start_encounter(StartEncounter(campaign.id, f"Fight {e}", combatants))
            for a in range(actions):
                app.perform_action(hit(campaign.id, fight.id, heroes[a % party], 1 + a % 6))
                if a % 7 == 6:
                    app.next_round(NextRound(campaign.id, fight.id))
            app.end_encounter(EndEncounter(campaign.id, fight.id))
        ids.append(campaign.id)
    return ids


VERSIONS = ("audit-version:", "log-version:")  # projections/versions.py


def snapshot(client: redis.Redis, root: str) -> dict[str, Any]:
    """Every view key under a root, by its name below the root, with its whole content."""
    found: dict[str, Any] = {}
    for raw in client.scan_iter(match=f"{root}:*", count=1000):
        key = raw.decode()
        suffix = key[len(root) + 1 :]
        if suffix == "epoch":
            continue  # bumped by a campaign rebuild: a signal to runners, not a view
        kind = client.type(key)
        if suffix.startswith(VERSIONS):
            # Its count, compared; its token is drawn afresh by each writing of the key
            # (a version must never repeat after a flush or a rebuild).
            found[suffix] = counted(client.get(key))
            assert isinstance(found[suffix], int), f"{key} holds no version"
        elif kind == b"string":
            found[suffix] = client.get(key)
        elif kind == b"hash":
            found[suffix] = client.hgetall(key)
        elif kind == b"list":
            found[suffix] = client.lrange(key, 0, -1)
        elif kind == b"stream":
            found[suffix] = client.xrange(key)
        elif kind == b"zset":  # the event log's index by position
            found[suffix] = client.zrange(key, 0, -1, withscores=True)
        else:
            raise AssertionError(f"unexpected {kind!r} at {key}")
    return found


def current_root(client: redis.Redis, prefix: str) -> str:
    generations = Generations(prefix)
    generation = generations.current(client)
    assert generation is not None, "no generation of views"
    return generations.root(generation)


def assert_same_views(before: dict[str, Any], after: dict[str, Any]) -> None:
    missing, extra = sorted(set(before) - set(after)), sorted(set(after) - set(before))
    assert not missing and not extra, f"keys missing {missing[:5]}, unexpected {extra[:5]}"
    differing = sorted(k for k in before if before[k] != after[k])
    assert not differing, f"{len(differing)} keys differ, e.g. {differing[:5]}"
    assert before == after


def wait_until(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.005)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def views_position(client: redis.Redis, prefix: str, application: str) -> int:
    generation = Generations(prefix).current(client)
    if generation is None:
        return 0
    keys = ViewKeys(Generations(prefix).root(generation))
    values: list[Any] = [client.hget(keys.tracking(p.name), application) for p in PROJECTIONS]
    return min(int(v) if v is not None else 0 for v in values)


def expected_counters(app: Application[Any]) -> dict[str, Any]:
    """From the store: each campaign's event ids in order, each encounter's event count,
    and how many events set each character's tracks or state."""
    campaign_of: dict[str, str] = {}
    events_of: dict[str, list[int]] = {}
    per_encounter: Counter[str] = Counter()
    changes: Counter[str] = Counter()
    for notification in app.recorder.select_notifications(start=1, limit=1_000_000):
        event: Any = app.mapper.to_domain_event(notification)
        kind = type(event)
        aggregate = str(event.originator_id)
        if kind is EncounterStarted:
            campaign_of[aggregate] = str(event.campaign_id)
        if issubclass(kind, CampaignEvent):
            campaign = aggregate
        elif issubclass(kind, EncounterEvent):
            campaign = campaign_of[aggregate]
            per_encounter[aggregate] += 1
        else:
            continue
        events_of.setdefault(campaign, []).append(notification.id)
        if kind is CharacterEnrolled:
            changes[event.character_id] += 1
        touched: set[str] = set()
        for attribute in ("tracks", "state"):
            value = getattr(event, attribute, None)
            if isinstance(value, dict):
                touched |= {k for k, v in value.items() if isinstance(v, dict)}
        for character in touched:
            changes[character] += 1
    return {"events_of": events_of, "per_encounter": per_encounter, "changes": changes}


def assert_counters_match_the_store(
    client: redis.Redis, prefix: str, app: Application[Any]
) -> None:
    """No event dropped, none applied twice: every counter in the views says so."""
    expected = expected_counters(app)
    keys = ViewKeys(current_root(client, prefix))
    for campaign, ids in expected["events_of"].items():
        audit = [orjson.loads(e)["id"] for e in client.lrange(keys.audit(campaign), 0, -1)]
        assert audit == ids, f"audit of {campaign}: {len(audit)} entries, {len(ids)} events"
        meta: Any = client.get(keys.vitals_meta(campaign))
        assert orjson.loads(meta)["events"] == len(ids)
        vitals: Any = client.hgetall(keys.vitals(campaign))
        for raw in vitals.values():
            character = orjson.loads(raw)
            assert character["changes"] == expected["changes"][character["id"]], character["name"]
    for encounter, count in expected["per_encounter"].items():
        board: Any = client.get(keys.board(encounter))
        assert orjson.loads(board)["events"] == count


def rebuild_in_a_process(data_dir: Path, watched: Sequence[str]) -> list[str]:
    """`skald projections rebuild` of the store in ``data_dir``, its whole run in a process
    of its own with no SKALD_* variable set: the lines it printed, the last of them which
    of the modules ``watched`` it left loaded (a sorted list)."""
    from tests.patience import HANG_SECONDS

    run = (
        "import sys\n"
        "from skald_campaign.cli import app\n"
        f"app(['projections', 'rebuild', '--data-dir', {str(data_dir)!r}], standalone_mode=False)\n"
        f"print(sorted(set({tuple(watched)!r}) & set(sys.modules)))\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKALD_")}
    done = subprocess.run(
        [sys.executable, "-c", run], env=env, capture_output=True, text=True, timeout=HANG_SECONDS
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout.strip().splitlines()
