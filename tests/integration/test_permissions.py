"""Every route against every kind of caller: the status is as expected and a refused
write leaves the event count unchanged."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.helpers import enrol, event_count, ok

SHEET = {"st": 10, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10}
HOOK = {"url": "https://93.184.215.14/hook", "role": "gm"}  # a public address: no lookup
CALLERS = ["no key", "other campaign's GM", "viewer", "other player", "player", "gm"]


@dataclass
class Route:
    method: str
    path: str
    kind: str  # read | gm | act | preview (as act, but writes nothing) | gm_preview
    ok_status: int = 200
    body: dict[str, Any] | None = None
    calm: bool = False  # needs no open encounter


ROUTES = [
    Route("GET", "/campaigns/{cid}", "read"),
    Route("POST", "/campaigns/{cid}/characters", "gm", 201, {"name": "New", "sheet": SHEET}),
    Route("GET", "/campaigns/{cid}/characters/{hero}", "read"),
    Route(
        "POST",
        "/campaigns/{cid}/characters/{spare}/wounds",
        "gm",
        201,
        {"wound": "broken_bones", "reason": "fell"},
    ),
    Route("POST", "/campaigns/{cid}/days", "gm", 201, {"days": 1}, calm=True),
    Route("GET", "/campaigns/{cid}/history", "read"),
    Route("POST", "/campaigns/{cid}/keys", "gm", 201, {"role": "viewer"}),
    Route("GET", "/campaigns/{cid}/keys", "gm"),
    Route(
        "POST", "/campaigns/{cid}/keys/qr", "gm_preview", 200, {"link": "http://table.example/play"}
    ),
    Route("DELETE", "/campaigns/{cid}/keys/{viewer_id}", "gm"),
    Route(
        "POST",
        "/campaigns/{cid}/encounters",
        "gm",
        201,
        {"name": "Second", "combatants": [{"character_id": "{spare}", "side": "a"}]},
    ),
    Route("GET", "/campaigns/{cid}/encounters/{eid}", "read"),
    Route(
        "POST",
        "/campaigns/{cid}/encounters/{eid}/actions",
        "act",
        201,
        {"kind": "recover", "actor": "{hero}", "dice": {"recovery": [3, 3, 3]}},
    ),
    Route("POST", "/campaigns/{cid}/encounters/{eid}/round", "gm"),
    Route("PUT", "/campaigns/{cid}/encounters/{eid}/order", "gm", 200, {"order": ["{rival}"]}),
    Route("POST", "/campaigns/{cid}/encounters/{eid}/turn", "gm"),
    Route("POST", "/campaigns/{cid}/encounters/{eid}/turn/previous", "gm"),
    Route("POST", "/campaigns/{cid}/encounters/{eid}/turn/delay", "gm", 200, {}),
    Route(
        "POST",
        "/campaigns/{cid}/encounters/{eid}/order/move",
        "gm",
        200,
        {"combatant": "{rival}", "direction": "up"},
    ),
    Route("POST", "/campaigns/{cid}/encounters/{eid}/initiative", "gm", 200, {}),
    Route(
        "POST",
        "/campaigns/{cid}/encounters/{eid}/markers",
        "gm",
        201,
        {"target": "{hero}", "name": "hidden"},
    ),
    Route("DELETE", "/campaigns/{cid}/encounters/{eid}/markers/{marker}", "gm"),
    Route(
        "POST",
        "/campaigns/{cid}/encounters/{eid}/exchanges/1/declare",
        "act",  # the defender is the hero: their player or the GM
        201,
        {"choice": "none"},
    ),
    Route(
        "POST",
        "/campaigns/{cid}/encounters/{eid}/exchanges/1/withdraw",
        "gm",
        200,
        {"reason": "the rival thought better of it"},
    ),
    Route("POST", "/campaigns/{cid}/encounters/{eid}/end", "gm"),
    Route(
        "POST", "/campaigns/{cid}/encounters/{eid}/actions/1/void", "gm", 200, {"reason": "dispute"}
    ),
    Route(
        "POST",
        "/campaigns/{cid}/encounters/{eid}/actions/1/reroll",
        "gm",
        200,
        {"reason": "dispute", "dice": {"recovery": [1, 1, 1]}},
    ),
    Route(
        "POST",
        "/campaigns/{cid}/encounters/{eid}/rewind",
        "gm",
        200,
        {"to_version": 1, "reason": "start over"},
    ),
    Route(
        "POST",
        "/campaigns/{cid}/characters/{spare}/sheet",
        "gm",
        200,
        {"changes": {"con": 11}, "reason": "trained all winter"},
    ),
    Route(
        "POST",
        "/campaigns/{cid}/characters/{hero}/tracks",
        "gm",
        200,
        {"adjust": {"stamina": -1}, "reason": "a trap"},
    ),
    Route(
        "POST",
        "/campaigns/{cid}/encounters/{eid}/combatants",
        "gm",
        201,
        {"character_id": "{spare}", "side": "a", "reason": "reinforcements"},
    ),
    Route(
        "POST",
        "/campaigns/{cid}/encounters/{eid}/combatants/{hero}/leave",
        "gm",
        200,
        {"reason": "fled"},
    ),
    Route(
        "POST",
        "/campaigns/{cid}/encounters/{eid}/combatants/{hero}/move",
        "gm",
        200,
        {"rank": 2, "reason": "steps back"},
    ),
    Route(
        "POST",
        "/campaigns/{cid}/encounters/{eid}/actions/1/void/preview",
        "gm_preview",
        200,
        {"reason": "dispute"},
    ),
    Route(
        "POST",
        "/campaigns/{cid}/encounters/{eid}/actions/1/reroll/preview",
        "gm_preview",
        200,
        {"dice": {"recovery": [1, 1, 1]}},
    ),
    Route("GET", "/campaigns/{cid}/encounters/{eid}/actions/1/reroll/rolls", "gm_preview"),
    Route(
        "POST",
        "/campaigns/{cid}/encounters/{eid}/rewind/preview",
        "gm_preview",
        200,
        {"to_version": 1},
    ),
    Route(
        "POST",
        "/campaigns/{cid}/days/1/plans/{hero}/preview",
        "gm_preview",
        404,  # the table has advanced no day: the GM is let through to "no plan"
        {"plan": {"rest": "none"}},
        calm=True,
    ),
    Route(
        "POST",
        "/campaigns/{cid}/days/1/plans/{hero}",
        "gm",
        404,
        {"plan": {"rest": "none"}, "reason": "they marched"},
        calm=True,
    ),
    # Issue 38: the ruleset version on record, and its acceptance (none to accept here:
    # the GM is let through to the refusal, 409, which writes nothing).
    Route("GET", "/campaigns/{cid}/ruleset", "gm_preview", calm=True),
    Route("POST", "/campaigns/{cid}/ruleset/accept", "gm", 409, {"version": "0.0.0"}, calm=True),
    # Issue 38: the campaign's ended fights under changed options; writes nothing.
    Route("POST", "/campaigns/{cid}/rules/preview", "gm_preview", 200, {"options": {}}),
    Route("GET", "/campaigns/{cid}/encounters/{eid}/audit", "read"),
    Route(
        "POST",
        "/campaigns/{cid}/encounters/{eid}/preview",
        "read",  # writes nothing; any key of the campaign may ask
        200,
        {"kind": "recover", "actor": "{hero}"},
    ),
    Route("GET", "/campaigns/{cid}/encounters/{eid}/diff?from=1", "read"),
    Route("GET", "/campaigns/{cid}/vitals", "read"),
    Route("GET", "/campaigns/{cid}/encounters/{eid}/board", "read"),
    Route("GET", "/campaigns/{cid}/audit?offset=0&limit=5", "read"),
    Route("GET", "/campaigns/{cid}/me", "read"),
    # Every key reads the log, a player's and a viewer's redacted (tests/e2e/test_role_matrix.py).
    Route("GET", "/campaigns/{cid}/events?after=0&limit=5", "read"),
    Route("POST", "/campaigns/{cid}/webhooks", "gm", 201, HOOK),
    Route("GET", "/campaigns/{cid}/webhooks", "gm"),
    Route("POST", "/campaigns/{cid}/webhooks/{webhook}/disable", "gm", 200, {"reason": "x"}),
    Route("POST", "/campaigns/{cid}/webhooks/{quiet}/enable", "gm"),
    Route("POST", "/campaigns/{cid}/webhooks/{webhook}/test", "gm_preview", 202),
    Route("GET", "/campaigns/{cid}/webhooks/{webhook}/deliveries", "gm"),
    Route("DELETE", "/campaigns/{cid}/webhooks/{webhook}", "gm"),
    Route("GET", "/campaigns/{cid}/vitals/at?at=2100-01-01T00:00:00Z", "read"),
    # The bestiary (issue 23): the GM's preparation, the GM's alone.
    Route("GET", "/campaigns/{cid}/bestiary", "gm"),
    Route("POST", "/campaigns/{cid}/bestiary", "gm", 201, {"name": "Orc", "sheet": SHEET}),
    Route("PUT", "/campaigns/{cid}/bestiary/{beast}", "gm", 200, {"name": "Gob", "sheet": SHEET}),
    Route("DELETE", "/campaigns/{cid}/bestiary/{beast}", "gm"),
    Route("POST", "/campaigns/{cid}/bestiary/{beast}/enrol", "gm", 201, {"count": 3}),
    # Its saved encounters (issue 36): the GM's preparation too.
    Route("GET", "/campaigns/{cid}/saved-encounters", "gm"),
    Route(
        "POST",
        "/campaigns/{cid}/saved-encounters",
        "gm",
        201,
        {"name": "Pack", "foes": [{"entry_id": "{beast}", "count": 2}]},
    ),
    Route("DELETE", "/campaigns/{cid}/saved-encounters/{saved}", "gm"),
    Route("POST", "/campaigns/{cid}/saved-encounters/{saved}/setup", "gm", 201, {}),
    Route(
        "POST",
        "/campaigns/{cid}/encounters/{eid}/odds",
        "preview",
        200,
        {"kind": "attack", "actor": "{hero}", "params": {"target": "{rival}"}},
    ),
    Route(
        "GET", "/campaigns/{cid}/encounters/{eid}/combatants/{hero}/odds?against={rival}", "preview"
    ),
    # The hero's answers to the rival's waiting attack: their player or the GM (issue 24).
    Route("GET", "/campaigns/{cid}/encounters/{eid}/exchanges/1/odds", "preview"),
]
# The live feed never ends a response; its key checks, role by role, are in
# tests/e2e/test_feed.py.
ELSEWHERE = {("GET", "/campaigns/{campaign_id}/feed")}
OPEN = {
    ("GET", "/health"),
    ("GET", "/rulesets"),
    ("GET", "/rulesets/{ruleset_id}"),
    ("POST", "/campaigns"),
    ("GET", "/schema/events"),
    ("GET", "/server"),  # where the pages' links point (issue 36): no secret on its network
}


def expected(route: Route, caller: str) -> int:
    if caller in ("no key", "other campaign's GM"):
        return 401
    if caller == "gm" or route.kind == "read":
        return route.ok_status
    if route.kind in ("act", "preview") and caller == "player":
        return route.ok_status
    return 403


def build_table(client: TestClient, calm: bool) -> tuple[dict[str, str], dict[str, str]]:
    other = ok(
        client.post("/campaigns", json={"name": "Elsewhere", "ruleset": "stamina-body"}), 201
    )
    # Rolled initiative (issue 23), so that its route answers the GM; nothing else reads it.
    here = {"name": "Here", "ruleset": "stamina-body", "options": {"initiative": {"mode": "roll"}}}
    created = ok(client.post("/campaigns", json=here), 201)
    cid = created["id"]
    gm = {"authorization": f"Bearer {created['gm_key']}"}
    client.headers.update(gm)
    ids = {
        "cid": cid,
        **{n: enrol(client, cid, n.title(), SHEET) for n in ("hero", "rival", "spare")},
    }
    fight = ok(
        client.post(
            f"/campaigns/{cid}/encounters",
            json={
                "name": "Fight",
                "combatants": [
                    {"character_id": ids["hero"], "side": "a"},
                    {"character_id": ids["rival"], "side": "b"},
                ],
            },
        ),
        201,
    )
    ids["eid"] = fight["id"]
    ok(
        client.post(
            f"/campaigns/{cid}/encounters/{ids['eid']}/actions",
            json={"kind": "recover", "actor": ids["hero"], "dice": {"recovery": [4, 4, 4]}},
        ),
        201,
    )
    base = f"/campaigns/{cid}/encounters/{ids['eid']}"
    # The rival's attack waits for the hero's declaration: exchange 1 (a natural 3 always hits).
    attack = {"kind": "attack", "actor": ids["rival"], "params": {"target": ids["hero"]}}
    ok(client.post(f"{base}/actions", json={**attack, "dice": {"hit": [1, 1, 1]}}), 202)
    ok(client.post(f"{base}/round"))  # each has acted this round; the routes act in the next
    ok(client.put(f"{base}/order", json={"order": [ids["hero"], ids["rival"]]}))
    placed = ok(client.post(f"{base}/markers", json={"target": ids["rival"], "name": "x"}), 201)
    ids["marker"] = str(placed["markers"][0]["number"])
    if calm:
        ok(client.post(f"{base}/end"))

    def issue(role: str, characters: list[str]) -> dict[str, Any]:
        return dict(
            ok(
                client.post(
                    f"/campaigns/{cid}/keys", json={"role": role, "characters": characters}
                ),
                201,
            )
        )

    ids["webhook"] = ok(client.post(f"/campaigns/{cid}/webhooks", json=HOOK), 201)["id"]
    ids["quiet"] = ok(client.post(f"/campaigns/{cid}/webhooks", json=HOOK), 201)["id"]
    ok(client.post(f"/campaigns/{cid}/webhooks/{ids['quiet']}/disable", json={"reason": "q"}))
    goblin = {"name": "Goblin", "sheet": SHEET}
    ids["beast"] = ok(client.post(f"/campaigns/{cid}/bestiary", json=goblin), 201)["id"]
    wolf = {"name": "Wolf", "sheet": SHEET}  # not the Goblin: a saved encounter holds its entry
    wolves = [{"entry_id": ok(client.post(f"/campaigns/{cid}/bestiary", json=wolf), 201)["id"]}]
    den = {"name": "Den", "foes": wolves}
    ids["saved"] = ok(client.post(f"/campaigns/{cid}/saved-encounters", json=den), 201)["id"]
    viewer = issue("viewer", [])
    ids["viewer_id"] = viewer["id"]
    keys = {
        "other campaign's GM": other["gm_key"],
        "viewer": viewer["key"],
        "other player": issue("player", [ids["rival"]])["key"],
        "player": issue("player", [ids["hero"]])["key"],
        "gm": created["gm_key"],
    }
    del client.headers["authorization"]
    return ids, keys


def fill(value: Any, ids: dict[str, str]) -> Any:
    if isinstance(value, str):
        return value.format(**ids) if "{" in value else value
    if isinstance(value, dict):
        return {k: fill(v, ids) for k, v in value.items()}
    if isinstance(value, list):
        return [fill(v, ids) for v in value]
    return value


@pytest.mark.parametrize("caller", CALLERS)
@pytest.mark.parametrize("route", ROUTES, ids=[f"{r.method} {r.path}" for r in ROUTES])
def test_route_by_caller(client: TestClient, route: Route, caller: str) -> None:
    ids, keys = build_table(client, route.calm)
    headers = {"authorization": f"Bearer {keys[caller]}"} if caller in keys else {}
    before = event_count(client)
    response = client.request(
        route.method, fill(route.path, ids), json=fill(route.body, ids), headers=headers
    )
    want = expected(route, caller)
    assert response.status_code == want, response.text
    if want >= 400:
        assert response.json()["message"]
        assert event_count(client) == before
    elif route.method != "GET" and route.kind not in ("read", "preview", "gm_preview"):
        assert event_count(client) > before


# The pages hold no data: they load for anyone, and ask for a key (which they send as a
# header) before they read anything.
PAGES = ["/gm", "/play", "/overlay", "/campaigns/{cid}/dashboard", "/docs", "/redoc"]


def test_pages_load_without_a_key_and_read_nothing_without_one(client: TestClient) -> None:
    ids, _ = build_table(client, calm=True)
    client.headers.pop("authorization", None)
    for page in PAGES:
        response = client.get(page.format(**ids))
        assert response.status_code == 200, page
        assert response.headers["content-type"].startswith("text/html"), page
        assert ids["cid"] not in response.text, page


def test_the_matrix_covers_every_route(client: TestClient) -> None:
    schema = ok(client.get("/openapi.json"))
    served = {(method.upper(), path) for path, item in schema["paths"].items() for method in item}
    covered = {
        (
            r.method,
            r.path.split("?")[0]
            .replace("{hero}", "{character_id}")
            .replace("{spare}", "{character_id}")
            .replace("{cid}", "{campaign_id}")
            .replace("{eid}", "{encounter_id}")
            .replace("{viewer_id}", "{key_id}")
            .replace("{marker}", "{number}")
            .replace("{webhook}", "{webhook_id}")
            .replace("{quiet}", "{webhook_id}")
            .replace("{beast}", "{entry_id}")
            .replace("{saved}", "{saved_id}")
            .replace("/1/", "/{number}/")
            .replace("/days/{number}/", "/days/{day}/"),
        )
        for r in ROUTES
    }
    assert served - covered - OPEN - ELSEWHERE == set()


def test_a_revoked_key_is_refused(client: TestClient) -> None:
    ids, keys = build_table(client, calm=False)
    gm = {"authorization": f"Bearer {keys['gm']}"}
    ok(client.delete(f"/campaigns/{ids['cid']}/keys/{ids['viewer_id']}", headers=gm))
    refused = client.get(
        f"/campaigns/{ids['cid']}", headers={"authorization": f"Bearer {keys['viewer']}"}
    )
    assert refused.status_code == 401
    assert refused.json()["message"] == "this key was revoked by the GM"


def test_a_player_cannot_use_the_gms_take_hit_panel_even_naming_their_character(
    client: TestClient,
) -> None:
    ids, keys = build_table(client, calm=False)
    before = event_count(client)
    response = client.post(
        f"/campaigns/{ids['cid']}/encounters/{ids['eid']}/actions",
        headers={"authorization": f"Bearer {keys['player']}"},
        json={
            "kind": "take_hit",
            "actor": ids["hero"],
            "params": {"target": ids["rival"], "damage_type": "impact", "damage_class": 3},
        },
    )
    assert response.status_code == 403
    assert response.json()["message"] == (
        "only the GM may use 'take_hit', a GM's tool; this is a player key"
    )
    assert event_count(client) == before
