"""Every POST, PUT and DELETE route honours Idempotency-Key (issue 26 item 3).

The routes are read from the OpenAPI document, so a new route without a case here
fails the first test. For a route that writes: the same key and body get the first
answer again (status and body, byte for byte) and nothing more is written; the same
key with another body is refused with 422, nothing written. A route that only reads
(previews, odds) writes nothing whatever the key, and answers the same request the
same way."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from uuid import UUID

import pytest
from fastapi.testclient import TestClient

from skald_campaign.application.commands import HealThrough
from skald_campaign.domain.rulesets import RULESETS
from tests.helpers import act, enrol, event_count, new_campaign, ok, start

SHEET = {"st": 12, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10}
OGRE = {
    **SHEET,
    "weapons": [{"name": "spear", "damage_class": 2, "damage_type": "piercing", "skill": 14}],
}
HIT = {"hit": [1, 2, 2], "damage": [6, 6]}


class World:
    """A stamina-body campaign: Ogre has speared Bran in an open fight; Mira waits."""

    def __init__(self, client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
        self.client = client
        self.monkeypatch = monkeypatch  # what a case installs for its test alone
        # Rolled initiative (issue 23), so that its route answers too; nothing else reads it.
        self.cid = new_campaign(client, "stamina-body", {"initiative": {"mode": "roll"}})
        self.ogre = enrol(client, self.cid, "Ogre", OGRE)
        self.bran = enrol(client, self.cid, "Bran", SHEET)
        self.mira = enrol(client, self.cid, "Mira", SHEET)
        lineup = [
            {"character_id": self.ogre, "side": "foes"},
            {"character_id": self.bran, "side": "party"},
        ]
        self.eid = start(client, self.cid, lineup)
        self.campaign = f"/campaigns/{self.cid}"
        self.fight = f"{self.campaign}/encounters/{self.eid}"
        self.spear = {"target": self.bran, "weapon": "spear"}
        act(client, self.cid, self.eid, "attack", self.ogre, HIT, defense="none", **self.spear)

    def post(self, path: str, body: Any = None, status: int = 200) -> Any:
        return ok(self.client.post(path, json=body), status)

    def waiting_attack(self) -> None:
        self.post(f"{self.fight}/round")
        body = {"kind": "attack", "actor": self.ogre, "params": self.spear, "dice": HIT}
        self.post(f"{self.fight}/actions", body, 202)

    def a_day_healed(self) -> None:
        self.post(f"{self.fight}/end")
        self.post(f"{self.campaign}/days", {"days": 1}, 201)
        backend: Any = self.client.app.state.backend  # type: ignore[attr-defined]
        backend.application.heal_through(HealThrough(UUID(self.cid), 1))


# What a case returns: the path, the body, another body (None: the route takes none).
Case = Callable[[World], tuple[str, Any, Any]]
CASES: dict[tuple[str, str], Case] = {}
READ_ONLY = {"preview", "odds", "test", "qr"}  # a path's last part: these write nothing


def case(method: str, path: str) -> Callable[[Case], Case]:
    def register(build: Case) -> Case:
        CASES[(method, path)] = build
        return build

    return register


C = "/campaigns/{campaign_id}"
E = C + "/encounters/{encounter_id}"


@case("POST", "/campaigns")
def _create(w: World) -> tuple[str, Any, Any]:
    body = {"name": "Again", "ruleset": "margin", "options": {}}
    return "/campaigns", body, {**body, "name": "Other"}


@case("POST", C + "/characters")
def _enrol(w: World) -> tuple[str, Any, Any]:
    body = {"name": "Cara", "sheet": SHEET}
    return f"{w.campaign}/characters", body, {**body, "name": "Dara"}


@case("POST", C + "/keys")
def _issue_key(w: World) -> tuple[str, Any, Any]:
    body = {"role": "player", "characters": [w.bran], "label": "Bran's player"}
    return f"{w.campaign}/keys", body, {**body, "label": "someone else"}


@case("POST", C + "/keys/qr")
def _key_qr(w: World) -> tuple[str, Any, Any]:
    body = {"link": "http://table.example/play#key=first"}
    return f"{w.campaign}/keys/qr", body, {"link": "http://table.example/play#key=other"}


@case("DELETE", C + "/keys/{key_id}")
def _revoke_key(w: World) -> tuple[str, Any, Any]:
    issued = w.post(f"{w.campaign}/keys", {"role": "viewer"}, 201)
    return f"{w.campaign}/keys/{issued['id']}", None, None


@case("POST", C + "/ruleset/accept")
def _accept_ruleset_version(w: World) -> tuple[str, Any, Any]:
    # Another version of stamina-body installed (issue 38): the GM accepts it.
    w.monkeypatch.setattr(type(RULESETS["stamina-body"]), "version", "1.0.1")
    body = {"version": "1.0.1"}
    return f"{w.campaign}/ruleset/accept", body, {"version": "1.0.2"}


HOOK = {"url": "https://93.184.215.14/hook", "role": "gm"}  # a public address: no lookup


def _webhook(w: World) -> str:
    return str(w.post(f"{w.campaign}/webhooks", HOOK, 201)["id"])


@case("POST", C + "/webhooks")
def _register_webhook(w: World) -> tuple[str, Any, Any]:
    return f"{w.campaign}/webhooks", HOOK, {**HOOK, "format": "discord"}


@case("POST", C + "/webhooks/{webhook_id}/disable")
def _disable_webhook(w: World) -> tuple[str, Any, Any]:
    path = f"{w.campaign}/webhooks/{_webhook(w)}/disable"
    return path, {"reason": "too loud"}, {"reason": "too quiet"}


@case("POST", C + "/webhooks/{webhook_id}/enable")
def _enable_webhook(w: World) -> tuple[str, Any, Any]:
    hook = _webhook(w)
    w.post(f"{w.campaign}/webhooks/{hook}/disable", {"reason": "for now"})
    return f"{w.campaign}/webhooks/{hook}/enable", None, None


@case("DELETE", C + "/webhooks/{webhook_id}")
def _delete_webhook(w: World) -> tuple[str, Any, Any]:
    return f"{w.campaign}/webhooks/{_webhook(w)}", None, None


@case("POST", C + "/webhooks/{webhook_id}/test")
def _test_webhook(w: World) -> tuple[str, Any, Any]:
    return f"{w.campaign}/webhooks/{_webhook(w)}/test", None, None


GOBLIN = {"name": "Goblin", "sheet": SHEET}


def _beast(w: World) -> str:
    return str(w.post(f"{w.campaign}/bestiary", GOBLIN, 201)["id"])


@case("POST", C + "/bestiary")
def _add_to_bestiary(w: World) -> tuple[str, Any, Any]:
    return f"{w.campaign}/bestiary", GOBLIN, {**GOBLIN, "name": "Orc"}


@case("PUT", C + "/bestiary/{entry_id}")
def _update_bestiary_entry(w: World) -> tuple[str, Any, Any]:
    body = {"name": "Goblin chief", "sheet": {**SHEET, "st": 14}}
    return f"{w.campaign}/bestiary/{_beast(w)}", body, {**body, "name": "Orc"}


@case("DELETE", C + "/bestiary/{entry_id}")
def _remove_from_bestiary(w: World) -> tuple[str, Any, Any]:
    return f"{w.campaign}/bestiary/{_beast(w)}", None, None


@case("POST", C + "/bestiary/{entry_id}/enrol")
def _enrol_from_bestiary(w: World) -> tuple[str, Any, Any]:
    return f"{w.campaign}/bestiary/{_beast(w)}/enrol", {"count": 3}, {"count": 2}


def _saved(w: World) -> str:
    den = {"name": "Den", "foes": [{"entry_id": _beast(w), "count": 2}]}
    return str(w.post(f"{w.campaign}/saved-encounters", den, 201)["id"])


@case("POST", C + "/saved-encounters")
def _save_encounter(w: World) -> tuple[str, Any, Any]:
    body = {"name": "Den", "foes": [{"entry_id": _beast(w), "count": 2}]}
    return f"{w.campaign}/saved-encounters", body, {**body, "name": "Lair"}


@case("DELETE", C + "/saved-encounters/{saved_id}")
def _remove_saved_encounter(w: World) -> tuple[str, Any, Any]:
    return f"{w.campaign}/saved-encounters/{_saved(w)}", None, None


@case("POST", C + "/saved-encounters/{saved_id}/setup")
def _set_up_saved_encounter(w: World) -> tuple[str, Any, Any]:
    return f"{w.campaign}/saved-encounters/{_saved(w)}/setup", {}, {"name": "Second wave"}


@case("POST", C + "/days")
def _days(w: World) -> tuple[str, Any, Any]:
    w.post(f"{w.fight}/end")
    return f"{w.campaign}/days", {"days": 1}, {"days": 2}


@case("POST", C + "/characters/{character_id}/wounds")
def _wound(w: World) -> tuple[str, Any, Any]:
    body = {"wound": "broken_bones", "reason": "fell"}
    return f"{w.campaign}/characters/{w.mira}/wounds", body, {**body, "reason": "tripped"}


@case("POST", C + "/characters/{character_id}/sheet")
def _amend(w: World) -> tuple[str, Any, Any]:
    path = f"{w.campaign}/characters/{w.mira}/sheet"
    return (
        path,
        {"changes": {"st": 13}, "reason": "trained"},
        {"changes": {"st": 14}, "reason": "x"},
    )


@case("POST", C + "/characters/{character_id}/tracks")
def _adjust(w: World) -> tuple[str, Any, Any]:
    path = f"{w.campaign}/characters/{w.mira}/tracks"
    return (
        path,
        {"adjust": {"stamina": -1}, "reason": "cut"},
        {"adjust": {"stamina": -2}, "reason": "x"},
    )


@case("POST", C + "/days/{day}/plans/{character_id}")
def _plan(w: World) -> tuple[str, Any, Any]:
    w.a_day_healed()
    body = {"plan": {"rest": "light"}, "reason": "they marched"}
    return f"{w.campaign}/days/1/plans/{w.bran}", body, {**body, "reason": "rode"}


@case("POST", C + "/days/{day}/plans/{character_id}/preview")
def _plan_preview(w: World) -> tuple[str, Any, Any]:
    w.a_day_healed()
    path = f"{w.campaign}/days/1/plans/{w.bran}/preview"
    return path, {"plan": {"rest": "light"}}, {"plan": {"rest": "full"}}


@case("POST", C + "/rules/preview")
def _house_rules_preview(w: World) -> tuple[str, Any, Any]:
    options = {"stunned_may_defend": True}
    return f"{w.campaign}/rules/preview", {"options": options}, {"options": {}}


@case("POST", C + "/encounters")
def _start(w: World) -> tuple[str, Any, Any]:
    body = {"name": "Second", "combatants": [{"character_id": w.mira, "side": "party"}]}
    return f"{w.campaign}/encounters", body, {**body, "name": "Third"}


@case("POST", E + "/actions")
def _act(w: World) -> tuple[str, Any, Any]:
    body = {"kind": "recover", "actor": w.bran, "params": {}, "dice": {"recovery": [3, 3, 3]}}
    return f"{w.fight}/actions", body, {**body, "dice": {"recovery": [4, 4, 4]}}


@case("POST", E + "/round")
def _round(w: World) -> tuple[str, Any, Any]:
    return f"{w.fight}/round", None, None


@case("POST", E + "/end")
def _end(w: World) -> tuple[str, Any, Any]:
    return f"{w.fight}/end", None, None


@case("PUT", E + "/order")
def _order(w: World) -> tuple[str, Any, Any]:
    return f"{w.fight}/order", {"order": [w.ogre, w.bran]}, {"order": [w.bran, w.ogre]}


@case("POST", E + "/turn")
def _turn(w: World) -> tuple[str, Any, Any]:
    w.client.put(f"{w.fight}/order", json={"order": [w.ogre, w.bran]})
    return f"{w.fight}/turn", None, None


@case("POST", E + "/initiative")
def _initiative(w: World) -> tuple[str, Any, Any]:
    body = {"dice": {w.ogre: [12], w.bran: [3]}}
    return f"{w.fight}/initiative", body, {"dice": {w.ogre: [2], w.bran: [13]}}


@case("POST", E + "/turn/previous")
def _previous_turn(w: World) -> tuple[str, Any, Any]:
    w.client.put(f"{w.fight}/order", json={"order": [w.ogre, w.bran]})
    w.post(f"{w.fight}/turn")
    return f"{w.fight}/turn/previous", None, None


@case("POST", E + "/turn/delay")
def _delay(w: World) -> tuple[str, Any, Any]:
    w.client.put(f"{w.fight}/order", json={"order": [w.ogre, w.bran]})
    return f"{w.fight}/turn/delay", {"after": w.bran}, {"after": None}


@case("POST", E + "/order/move")
def _order_move(w: World) -> tuple[str, Any, Any]:
    w.client.put(f"{w.fight}/order", json={"order": [w.ogre, w.bran]})
    body = {"combatant": w.bran, "direction": "up"}
    return f"{w.fight}/order/move", body, {**body, "direction": "down"}


@case("POST", E + "/markers")
def _marker(w: World) -> tuple[str, Any, Any]:
    body = {"target": w.bran, "name": "hidden"}
    return f"{w.fight}/markers", body, {**body, "name": "blessed"}


@case("DELETE", E + "/markers/{number}")
def _unmark(w: World) -> tuple[str, Any, Any]:
    placed = w.post(f"{w.fight}/markers", {"target": w.bran, "name": "hidden"}, 201)
    return f"{w.fight}/markers/{placed['markers'][0]['number']}", None, None


@case("POST", E + "/exchanges/{number}/declare")
def _declare(w: World) -> tuple[str, Any, Any]:
    w.waiting_attack()
    return f"{w.fight}/exchanges/1/declare", {"choice": "none"}, {"choice": "parry"}


@case("POST", E + "/exchanges/{number}/withdraw")
def _withdraw(w: World) -> tuple[str, Any, Any]:
    w.waiting_attack()
    return f"{w.fight}/exchanges/1/withdraw", {"reason": "flees"}, {"reason": "thinks again"}


@case("POST", E + "/preview")
def _roll_preview(w: World) -> tuple[str, Any, Any]:
    body = {"kind": "attack", "actor": w.ogre, "params": w.spear}
    return f"{w.fight}/preview", body, {**body, "params": {**w.spear, "defense": "none"}}


@case("POST", E + "/odds")
def _odds(w: World) -> tuple[str, Any, Any]:
    body = {"kind": "attack", "actor": w.ogre, "params": {**w.spear, "defense": "none"}}
    return f"{w.fight}/odds", body, {**body, "params": {**w.spear, "defense": "parry"}}


@case("POST", E + "/actions/{number}/void")
def _void(w: World) -> tuple[str, Any, Any]:
    return f"{w.fight}/actions/1/void", {"reason": "missed"}, {"reason": "out of reach"}


@case("POST", E + "/actions/{number}/reroll")
def _reroll(w: World) -> tuple[str, Any, Any]:
    body = {"reason": "die fell", "dice": {"hit": [1, 2, 2], "damage": [1, 1]}}
    return f"{w.fight}/actions/1/reroll", body, {**body, "reason": "cocked die"}


@case("POST", E + "/rewind")
def _rewind(w: World) -> tuple[str, Any, Any]:
    w.post(f"{w.fight}/actions", {"kind": "recover", "actor": w.bran, "params": {}}, 201)
    body = {"to_version": 2, "reason": "too soon"}
    return f"{w.fight}/rewind", body, {**body, "reason": "again"}


@case("POST", E + "/actions/{number}/void/preview")
def _void_preview(w: World) -> tuple[str, Any, Any]:
    return f"{w.fight}/actions/1/void/preview", {}, {"reason": "other"}


@case("POST", E + "/actions/{number}/reroll/preview")
def _reroll_preview(w: World) -> tuple[str, Any, Any]:
    body = {"dice": {"hit": [1, 2, 2], "damage": [1, 1]}}
    return f"{w.fight}/actions/1/reroll/preview", body, {"dice": {"hit": [6, 6, 6]}}


@case("POST", E + "/rewind/preview")
def _rewind_preview(w: World) -> tuple[str, Any, Any]:
    return f"{w.fight}/rewind/preview", {"to_version": 1}, {"to_version": 1, "reason": "x"}


@case("POST", E + "/combatants")
def _join(w: World) -> tuple[str, Any, Any]:
    body = {"character_id": w.mira, "side": "party", "reason": "arrives"}
    return f"{w.fight}/combatants", body, {**body, "side": "foes"}


@case("POST", E + "/combatants/{character_id}/leave")
def _leave(w: World) -> tuple[str, Any, Any]:
    return f"{w.fight}/combatants/{w.bran}/leave", {"reason": "flees"}, {"reason": "falls"}


@case("POST", E + "/combatants/{character_id}/move")
def _move(w: World) -> tuple[str, Any, Any]:
    path = f"{w.fight}/combatants/{w.bran}/move"
    return path, {"rank": 2, "reason": "steps back"}, {"rank": 3, "reason": "steps back"}


def untimed(body: Any) -> Any:
    return {k: v for k, v in body.items() if k != "elapsed_ms"}


def writing_routes(client: TestClient) -> set[tuple[str, str]]:
    paths = client.app.openapi()["paths"]  # type: ignore[attr-defined]
    return {
        (method.upper(), path)
        for path, operations in paths.items()
        for method in operations
        if method in ("post", "put", "delete", "patch")
    }


def test_every_route_that_takes_a_body_or_deletes_has_a_case(client: TestClient) -> None:
    assert writing_routes(client) == set(CASES)


@pytest.mark.parametrize("route", sorted(CASES), ids=lambda r: f"{r[0]} {r[1]}")
def test_a_retry_with_the_same_key_gets_the_first_answer_and_writes_nothing(
    client: TestClient, route: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    method, template = route
    world = World(client, monkeypatch)
    path, body, other = CASES[route](world)
    key = {"Idempotency-Key": f"retry-{method}-{template}"}
    before = event_count(client)
    first = client.request(method, path, json=body, headers=key)
    assert first.status_code in (200, 201, 202), first.text
    written = event_count(client)
    read_only = template.rsplit("/", 1)[-1] in READ_ONLY
    assert (written == before) is read_only, (before, written)

    if not read_only:  # the campaign moves on before the retry: the answer must not
        world.post(f"{world.campaign}/characters", {"name": "Late", "sheet": SHEET}, 201)
        written = event_count(client)
    again = client.request(method, path, json=body, headers=key)
    if read_only and not first.headers["content-type"].startswith("application/json"):
        assert (again.status_code, again.content) == (first.status_code, first.content)
    elif read_only:  # worked out again: the same answer, bar how long it took
        assert again.status_code == first.status_code
        assert untimed(again.json()) == untimed(first.json())
    else:
        assert (again.status_code, again.content) == (first.status_code, first.content)
    assert event_count(client) == written
    if other is None:
        return
    changed = client.request(method, path, json=other, headers=key)
    if read_only:  # nothing recorded: a preview of another request is just that
        assert changed.status_code == 200, changed.text
    else:
        assert changed.status_code == 422, changed.text
        assert changed.json()["message"] == (
            "this Idempotency-Key was already used with a different request body; "
            "use a new key for a new request"
        )
    assert event_count(client) == written
