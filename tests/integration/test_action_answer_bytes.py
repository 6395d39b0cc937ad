"""The action POST's answer written by orjson from plain dicts (api/views.py
`outcome_json`, the fast path's) is byte for byte what the models write
(`outcome_out(encounter).model_dump_json()`, the route's): checked on every action the
compat story (all three rulesets: attacks waiting for a declaration, corrections, days)
performs through today's code, whichever of the two answered it; and where a value is
one orjson would write otherwise, the models answer."""

from __future__ import annotations

import uuid
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from msgspec.structs import replace

import skald_campaign.api.fast_actions as fast_actions
import skald_campaign.api.routes.encounters as encounter_routes
from skald_campaign.api.app import create_app
from skald_campaign.api.views import outcome_json, outcome_out
from skald_campaign.domain.encounter.aggregate import Encounter
from skald_campaign.services import build_services
from skald_campaign.settings import Settings
from tests.fixtures.compat.stories import d20, margin, stamina_body
from tests.fixtures.compat.table import Table
from tests.services import REDIS_URL, require_redis


def compared(encounter: Encounter, seen: Counter[str], wrong: list[Any]) -> None:
    pending, payload = outcome_json(encounter)
    model = outcome_out(encounter)
    if payload != model.model_dump_json().encode() or pending != (model.status == "pending"):
        wrong.append((payload, model.model_dump_json()))
    seen[f"{encounter.ruleset_id} {model.status}"] += 1


def test_every_answer_of_the_compat_story_is_the_models_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    require_redis()
    seen: Counter[str] = Counter()
    wrong: list[Any] = []
    fast, route = outcome_json, encounter_routes.action_answer

    def fast_checked(encounter: Encounter) -> tuple[bool, bytes]:
        compared(encounter, seen, wrong)
        seen["fast path"] += 1
        return fast(encounter)

    def route_checked(encounter: Encounter) -> Any:
        compared(encounter, seen, wrong)
        seen["route"] += 1
        return route(encounter)

    monkeypatch.setattr(fast_actions, "outcome_json", fast_checked)
    monkeypatch.setattr(encounter_routes, "action_answer", route_checked)
    settings = Settings(
        data_dir=tmp_path / "data",
        redis_url=REDIS_URL,
        redis_prefix=f"answers-{uuid.uuid4().hex[:12]}",
        secret_key="answer-bytes-test-secret-of-issue-22",
        dice_seed=2022,
    )
    with TestClient(create_app(lambda: build_services(settings, workers=True))) as client:
        t = Table(client)
        for story in (stamina_body, d20, margin):
            story(t)
    assert wrong == []
    for ruleset in ("stamina-body", "d20", "margin"):
        assert seen[f"{ruleset} resolved"] >= 3, seen
    assert seen["stamina-body pending"] >= 1, seen  # an attack waiting for a declaration
    assert seen["fast path"] >= 10 and seen["route"] >= 1, seen


STAMINA_SHEET = {"st": 12, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 20, "body_max": 12}


def test_a_value_orjson_would_write_otherwise_is_answered_by_the_models(
    tmp_path: Path,
) -> None:
    require_redis()
    settings = Settings(
        data_dir=tmp_path / "data",
        redis_url=REDIS_URL,
        redis_prefix=f"answers-{uuid.uuid4().hex[:12]}",
        secret_key="answer-bytes-test-secret-of-issue-22",
    )
    with TestClient(create_app(lambda: build_services(settings))) as client:
        made = client.post("/campaigns", json={"name": "Odd", "ruleset": "stamina-body"}).json()
        cid, gm = made["id"], {"authorization": f"Bearer {made['gm_key']}"}
        ids = [
            client.post(
                f"/campaigns/{cid}/characters",
                json={"name": name, "sheet": STAMINA_SHEET},
                headers=gm,
            ).json()["id"]
            for name in ("Hero", "Foe")
        ]
        fight = client.post(
            f"/campaigns/{cid}/encounters",
            json={
                "name": "Fight",
                "combatants": [
                    {"character_id": ids[0], "side": "party"},
                    {"character_id": ids[1], "side": "foes"},
                ],
            },
            headers=gm,
        ).json()["id"]
        hit = {"target": ids[0], "damage_type": "impact", "damage_class": 1}
        done = client.post(
            f"/campaigns/{cid}/encounters/{fight}/actions",
            json={"kind": "take_hit", "params": hit, "dice": {"damage": [3]}},
            headers=gm,
        )
        assert done.status_code == 201
        application = client.app.state.backend.application  # type: ignore[attr-defined]
        encounter = application.encounter(uuid.UUID(cid), uuid.UUID(fight))
    hero = encounter.combatants[ids[0]]
    when = datetime(2026, 12, 2, 1, 0, tzinfo=UTC)
    odd = {  # each would come out otherwise from orjson: pydantic's bytes stand
        "a datetime": replace(hero, state={**hero.state, "since": when}),
        "a float track": replace(hero, tracks={k: float(v) for k, v in hero.tracks.items()}),
        "a big integer": replace(hero, state={**hero.state, "big": 2**70}),
        "a tuple": replace(hero, state={**hero.state, "pair": (1, 2)}),
    }
    assert outcome_json(encounter)[1] == outcome_out(encounter).model_dump_json().encode()
    for name, changed in odd.items():
        copy = Encounter.__new__(Encounter)
        copy.__dict__.update(encounter.__dict__)
        copy.combatants = {**encounter.combatants, ids[0]: changed}
        pending, payload = outcome_json(copy)
        assert not pending
        assert payload == outcome_out(copy).model_dump_json().encode(), name
