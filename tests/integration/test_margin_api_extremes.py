"""Extreme accepted margin values over HTTP on the real store: never a 5xx (M18)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import GM
from tests.unit.margin_extremes import extreme_options, extreme_sheets


def answered(response: Any) -> Any:
    assert response.status_code < 500, response.text
    return response


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    extreme_options,
    extreme_sheets(),
    extreme_sheets(race="elf"),
    extreme_sheets(race="dwarf"),
    st.lists(st.tuples(st.sampled_from(["one", "two", "fists"]), st.integers(0, 10)), max_size=3),
)
def test_extreme_accepted_values_never_give_a_server_error(
    client: TestClient,
    options: dict[str, Any],
    attacker: dict[str, Any],
    elf: dict[str, Any],
    dwarf: dict[str, Any],
    blows: list[tuple[str, int]],
) -> None:
    created = answered(
        client.post("/campaigns", json={"name": "edge", "ruleset": "margin", "options": options})
    )
    assert created.status_code == 201, created.text
    cid = created.json()["id"]
    headers = {**GM, "authorization": f"Bearer {created.json()['gm_key']}"}
    ids = {}
    for name, sheet in (("attacker", attacker), ("elf", elf), ("dwarf", dwarf)):
        enrolled = answered(
            client.post(
                f"/campaigns/{cid}/characters", json={"name": name, "sheet": sheet}, headers=headers
            )
        )
        assert enrolled.status_code == 201, enrolled.text
        ids[name] = enrolled.json()["id"]
    lineup = [
        {"character_id": ids["attacker"], "side": "a", "rank": 1},
        {"character_id": ids["elf"], "side": "b", "rank": 1},
        {"character_id": ids["dwarf"], "side": "b", "rank": 1},
    ]
    started = client.post(
        f"/campaigns/{cid}/encounters", json={"name": "F", "combatants": lineup}, headers=headers
    )
    eid = answered(started).json()["id"]
    actions = f"/campaigns/{cid}/encounters/{eid}/actions"

    def act(kind: str, actor: str, **params: Any) -> None:
        body = {"kind": kind, "actor": ids[actor], "params": params}
        answered(client.post(actions, json=body, headers=headers))

    act("ward", "dwarf")
    act("riposte", "elf")
    for weapon, effort in blows:
        act("attack", "attacker", target=ids["elf"], weapon=weapon, effort=effort)
        answered(client.post(f"/campaigns/{cid}/encounters/{eid}/round", headers=headers))
    answered(client.get(f"/campaigns/{cid}/encounters/{eid}", headers=headers))
    answered(client.get(f"/campaigns/{cid}/characters/{ids['elf']}", headers=headers))
