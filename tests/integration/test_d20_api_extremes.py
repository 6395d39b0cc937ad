"""Extreme accepted d20 values over HTTP: every accepted input computes, never a 5xx.

Sheets and options at their bounds (the unit property test's strategies) go through
the real app; every action kind is tried with server-rolled dice. A refusal (4xx) is
fine, a server error is not, and every landed blow fits the event store.
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings

from tests.helpers import act_response, enrol, new_campaign, start
from tests.unit.test_d20_properties import EXTREME_OPTIONS, extreme_sheets

MOVES: list[tuple[str, dict[str, Any]]] = [
    ("trip", {"fr_modifier": -20, "difficult_terrain": True}),
    ("attack", {"weapon": "Unarmed Strike", "hit_modifier": 20}),
    ("attack", {"weapon": "Shield Bash", "hit_modifier": 20}),
    ("attack", {"weapon": "W0", "hit_modifier": 20}),
    ("grapple", {"fr_modifier": 20}),
    ("maintain", {"fr_modifier": 20}),
    ("escape", {"fr_modifier": -20}),
    ("throw", {"fr_modifier": 20}),
    ("shove", {"fr_modifier": 20, "wall_at_feet": 0, "slippery": True, "difficult_terrain": True}),
    ("shove", {"fr_modifier": 20, "hazard_at_feet": 1, "defender_higher_ground": True}),
]


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(a=extreme_sheets(), b=extreme_sheets(), options=EXTREME_OPTIONS)
def test_extreme_accepted_values_never_give_a_server_error(
    client: TestClient, a: dict[str, Any], b: dict[str, Any], options: dict[str, Any]
) -> None:
    cid = new_campaign(client, "d20", options)
    ids = [enrol(client, cid, name, sheet) for name, sheet in (("A", a), ("B", b))]
    eid = start(
        client,
        cid,
        [
            {"character_id": chid, "side": side, "rank": 1}
            for chid, side in zip(ids, "ab", strict=True)
        ],
    )
    for kind, params in MOVES:
        targeted = (
            {**params, "target": ids[1]}
            if kind in {"attack", "shove", "trip", "grapple"}
            else params
        )
        actor = ids[1] if kind == "escape" else ids[0]
        response = act_response(client, cid, eid, kind, actor, **targeted)
        assert response.status_code < 500, response.text
        if response.status_code == 201:
            for combatant in response.json()["encounter"]["combatants"]:
                assert -(2**62) < combatant["tracks"]["hp"] <= 1000
