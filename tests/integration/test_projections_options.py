"""The views play a campaign's rules as the campaign plays them: margin's wounded
threshold and health default are options (M18), and the vitals and the board show
the same maxima and conditions as the API does."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.helpers import enrol, ok
from tests.integration.test_projections import caught_up

SHEET = {"might": 2, "grace": 2, "vigor": 2, "aether": 2}


def test_the_views_use_the_campaigns_wounded_threshold_and_health_default(
    live_client: TestClient,
) -> None:
    options = {"wounded_at": "3/4", "base_health": 12}
    created = ok(
        live_client.post(
            "/campaigns", json={"name": "M18", "ruleset": "margin", "options": options}
        ),
        201,
    )
    cid = created["id"]
    live_client.headers["authorization"] = f"Bearer {created['gm_key']}"
    hero = enrol(live_client, cid, "Hero", SHEET)
    # 12 + 2 x Vigor 2 = 16; 11 is wounded at 3/4 (<= 12), not at the default 1/2 (<= 8).
    ok(
        live_client.post(
            f"/campaigns/{cid}/characters/{hero}/tracks",
            json={"adjust": {"health": -5}, "reason": "a fall"},
        )
    )
    character = ok(live_client.get(f"/campaigns/{cid}/characters/{hero}"))
    assert (character["maxima"], character["tracks"]) == ({"health": 16}, {"health": 11})
    assert "wounded" in character["conditions"]
    vitals = caught_up(live_client, cid)
    seen = next(c for c in vitals["characters"] if c["id"] == hero)
    assert seen["tracks"]["health"] == {"current": 11, "max": 16}
    assert seen["conditions"] == character["conditions"]

    fight = ok(
        live_client.post(
            f"/campaigns/{cid}/encounters",
            json={"name": "F", "combatants": [{"character_id": hero, "side": "a"}]},
        ),
        201,
    )
    caught_up(live_client, cid)
    board = ok(live_client.get(f"/campaigns/{cid}/encounters/{fight['id']}/board"))
    on_board = next(c for c in board["combatants"] if c["id"] == hero)
    assert on_board["conditions"] == character["conditions"]
    assert on_board["tracks"]["health"] == {"current": 11, "max": 16}
