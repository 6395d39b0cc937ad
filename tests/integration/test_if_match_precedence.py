"""If-Match is a precondition (RFC 9110 13.2.2): evaluated after the request's key, its
permission, the existence of the campaign and encounter it names, and its body's schema,
but before the command decides anything (issue 40). A stale If-Match on a write the
command would refuse anyway is answered 412 and writes nothing; the same write without
If-Match, or with the current one, gets the command's own refusal. A retry (the same
Idempotency-Key) of a write that succeeded still gets its first answer.

The writes that take If-Match are read from the OpenAPI document: a new one without a
case here fails the first test."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.helpers import act, enrol, new_campaign, ok, start

SHEET = {"st": 12, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10}
OGRE = {
    **SHEET,
    "weapons": [{"name": "spear", "damage_class": 2, "damage_type": "piercing", "skill": 14}],
}
HIT = {"hit": [1, 2, 2], "damage": [6, 6]}
TAKE_HIT = {"damage_type": "impact", "damage_class": 1}


def position(client: TestClient) -> int:
    """The store's last notification id, asked of the store."""
    application: Any = client.app.state.backend.application  # type: ignore[attr-defined]
    return int(application.recorder.max_notification_id() or 0)


class World:
    """A stamina-body campaign: Ogre has speared Bran in an open fight (the encounter at
    version 2, no turn order); Mira is enrolled and in no fight."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.cid = new_campaign(client, "stamina-body")
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
        spear = {"target": self.bran, "weapon": "spear"}
        act(client, self.cid, self.eid, "attack", self.ogre, HIT, defense="none", **spear)

    def post(self, path: str, body: Any = None, status: int = 200) -> Any:
        return ok(self.client.post(path, json=body), status)

    def version(self, path: str) -> int:
        """The version of the campaign or encounter at `path`, as its ETag names it."""
        answer = self.client.get(path)
        assert answer.status_code == 200, answer.text
        tag = str(answer.headers["etag"])
        assert tag.startswith('"v') and tag.endswith('"'), tag
        return int(tag[2:-1])


class Refused:
    """A write the command refuses, its subject, and the refusal (status, error, message)."""

    def __init__(
        self,
        method: str,
        path: str,
        body: Any,
        subject: tuple[str, str, str],
        status: int,
        error: str,
        message: str,
    ) -> None:
        self.method, self.path, self.body = method, path, body
        self.kind, self.subject_id, self.subject_path = subject
        self.status, self.error, self.message = status, error, message


Case = Callable[[World], Refused]
CASES: dict[tuple[str, str], Case] = {}
C = "/campaigns/{campaign_id}"
E = C + "/encounters/{encounter_id}"


def case(method: str, path: str) -> Callable[[Case], Case]:
    def register(build: Case) -> Case:
        CASES[(method, path)] = build
        return build

    return register


def in_fight(w: World) -> tuple[str, str, str]:
    return "encounter", w.eid, w.fight


def on_campaign(w: World) -> tuple[str, str, str]:
    return "campaign", w.cid, w.campaign


# -- the writes on an encounter --------------------------------------------------------


@case("POST", E + "/actions")
def _act(w: World) -> Refused:
    body = {"kind": "attack", "actor": w.bran, "params": {"target": w.ogre, "weapon": "axe"}}
    return Refused(
        "POST",
        f"{w.fight}/actions",
        body,
        in_fight(w),
        422,
        "invalid_input",
        "Bran has no weapon 'axe'; weapons on the sheet: none (or 'unarmed')",
    )


@case("POST", E + "/round")
def _round(w: World) -> Refused:
    body = {"dice": {w.ogre: [3]}}
    return Refused(
        "POST",
        f"{w.fight}/round",
        body,
        in_fight(w),
        422,
        "invalid_input",
        f"dice were supplied for initiative.{w.ogre}, which this new round never rolls: "
        "this campaign's initiative is manual (option initiative)",
    )


@case("POST", E + "/end")
def _end(w: World) -> Refused:
    w.post(f"{w.fight}/end")
    return Refused(
        "POST",
        f"{w.fight}/end",
        None,
        in_fight(w),
        409,
        "action_refused",
        "encounter 'Fight' has ended; start a new one",
    )


@case("PUT", E + "/order")
def _order(w: World) -> Refused:
    body = {"order": [w.ogre, w.mira]}
    return Refused(
        "PUT",
        f"{w.fight}/order",
        body,
        in_fight(w),
        422,
        "invalid_input",
        f"not combatants in this encounter: {w.mira}",
    )


@case("POST", E + "/turn")
def _turn(w: World) -> Refused:
    return Refused(
        "POST",
        f"{w.fight}/turn",
        None,
        in_fight(w),
        409,
        "action_refused",
        "no turn order is set: the GM sets one (or rolls initiative) first",
    )


@case("POST", E + "/turn/previous")
def _previous_turn(w: World) -> Refused:
    return Refused(
        "POST",
        f"{w.fight}/turn/previous",
        None,
        in_fight(w),
        409,
        "action_refused",
        "no turn order is set: the GM sets one (or rolls initiative) first",
    )


@case("POST", E + "/turn/delay")
def _delay(w: World) -> Refused:
    body = {"after": w.bran}
    return Refused(
        "POST",
        f"{w.fight}/turn/delay",
        body,
        in_fight(w),
        409,
        "action_refused",
        "no turn order is set: the GM sets one (or rolls initiative) first",
    )


@case("POST", E + "/order/move")
def _order_move(w: World) -> Refused:
    body = {"combatant": w.bran, "direction": "up"}
    return Refused(
        "POST",
        f"{w.fight}/order/move",
        body,
        in_fight(w),
        409,
        "action_refused",
        "no turn order is set: the GM sets one (or rolls initiative) first",
    )


@case("POST", E + "/initiative")
def _initiative(w: World) -> Refused:
    body = {"dice": {w.mira: [12]}}
    return Refused(
        "POST",
        f"{w.fight}/initiative",
        body,
        in_fight(w),
        409,
        "action_refused",
        "this campaign's initiative is manual (option initiative): the GM sets the order",
    )


@case("POST", E + "/exchanges/{number}/declare")
def _declare(w: World) -> Refused:
    body = {"choice": "parry"}
    return Refused(
        "POST",
        f"{w.fight}/exchanges/7/declare",
        body,
        in_fight(w),
        404,
        "not_found",
        "there is no exchange 7 in this encounter",
    )


@case("POST", E + "/exchanges/{number}/withdraw")
def _withdraw(w: World) -> Refused:
    body = {"reason": "flees"}
    return Refused(
        "POST",
        f"{w.fight}/exchanges/7/withdraw",
        body,
        in_fight(w),
        404,
        "not_found",
        "there is no exchange 7 in this encounter",
    )


@case("POST", E + "/markers")
def _marker(w: World) -> Refused:
    body = {"target": w.mira, "name": "prone"}
    return Refused(
        "POST",
        f"{w.fight}/markers",
        body,
        in_fight(w),
        404,
        "not_found",
        f"'{w.mira}' is not a combatant in this encounter",
    )


@case("DELETE", E + "/markers/{number}")
def _unmark(w: World) -> Refused:
    return Refused(
        "DELETE",
        f"{w.fight}/markers/7",
        None,
        in_fight(w),
        404,
        "not_found",
        "no marker 7 stands in this encounter",
    )


@case("POST", E + "/actions/{number}/void")
def _void(w: World) -> Refused:
    body = {"reason": "never happened"}
    return Refused(
        "POST",
        f"{w.fight}/actions/7/void",
        body,
        in_fight(w),
        404,
        "not_found",
        "encounter 'Fight' has no action 7",
    )


@case("POST", E + "/actions/{number}/reroll")
def _reroll(w: World) -> Refused:
    w.post(f"{w.fight}/actions/1/void", {"reason": "out of reach"})
    body = {"reason": "die fell"}
    return Refused(
        "POST",
        f"{w.fight}/actions/1/reroll",
        body,
        in_fight(w),
        409,
        "action_refused",
        "action 1 is already voided",
    )


@case("POST", E + "/rewind")
def _rewind(w: World) -> Refused:
    body = {"to_version": 2, "reason": "too soon"}
    return Refused(
        "POST",
        f"{w.fight}/rewind",
        body,
        in_fight(w),
        422,
        "invalid_input",
        "rewind needs an earlier version than the current 2, not 2",
    )


@case("POST", E + "/combatants")
def _join(w: World) -> Refused:
    body = {"character_id": w.bran, "side": "party", "reason": "again"}
    return Refused(
        "POST",
        f"{w.fight}/combatants",
        body,
        in_fight(w),
        409,
        "action_refused",
        f"Bran is already in open encounter {w.eid}",
    )


@case("POST", E + "/combatants/{character_id}/leave")
def _leave(w: World) -> Refused:
    body = {"reason": "flees"}
    path = f"{w.fight}/combatants/{w.mira}/leave"
    return Refused(
        "POST",
        path,
        body,
        in_fight(w),
        404,
        "not_found",
        f"'{w.mira}' is not a combatant in this encounter",
    )


@case("POST", E + "/combatants/{character_id}/move")
def _move(w: World) -> Refused:
    body = {"rank": 2, "reason": "steps back"}
    path = f"{w.fight}/combatants/{w.mira}/move"
    return Refused(
        "POST",
        path,
        body,
        in_fight(w),
        404,
        "not_found",
        f"'{w.mira}' is not a combatant in this encounter",
    )


# -- a character's sheet and tracks: the fight's in one, the campaign's out of one ------


@case("POST", C + "/characters/{character_id}/tracks")
def _tracks_in_fight(w: World) -> Refused:
    body = {"set": {"mana": 3}, "reason": "a fall"}
    path = f"{w.campaign}/characters/{w.bran}/tracks"
    return Refused(
        "POST",
        path,
        body,
        in_fight(w),
        422,
        "invalid_input",
        "set.mana: no such track; the tracks are body, stamina",
    )


@case("POST", C + "/characters/{character_id}/sheet")
def _sheet_in_fight(w: World) -> Refused:
    body = {"changes": {"st": "strong"}, "reason": "trained"}
    path = f"{w.campaign}/characters/{w.bran}/sheet"
    return Refused(
        "POST",
        path,
        body,
        in_fight(w),
        422,
        "invalid_input",
        "invalid sheet: sheet.st: Input should be a valid integer",
    )


def _tracks_between_fights(w: World) -> Refused:
    body = {"set": {"mana": 3}, "reason": "a fall"}
    path = f"{w.campaign}/characters/{w.mira}/tracks"
    return Refused(
        "POST",
        path,
        body,
        on_campaign(w),
        422,
        "invalid_input",
        "set.mana: no such track; the tracks are body, stamina",
    )


def _sheet_between_fights(w: World) -> Refused:
    body = {"changes": {"st": "strong"}, "reason": "trained"}
    path = f"{w.campaign}/characters/{w.mira}/sheet"
    return Refused(
        "POST",
        path,
        body,
        on_campaign(w),
        422,
        "invalid_input",
        "invalid sheet: sheet.st: Input should be a valid integer",
    )


def _void_after_the_end(w: World) -> Refused:
    """A correction of an ended fight: still the encounter's version."""
    w.post(f"{w.fight}/end")
    body = {"reason": "never happened"}
    return Refused(
        "POST",
        f"{w.fight}/actions/7/void",
        body,
        in_fight(w),
        404,
        "not_found",
        "encounter 'Fight' has no action 7",
    )


# -- the writes on the campaign ----------------------------------------------------------


@case("POST", C + "/characters")
def _enrol(w: World) -> Refused:
    body = {"name": "Bran", "sheet": SHEET}
    return Refused(
        "POST",
        f"{w.campaign}/characters",
        body,
        on_campaign(w),
        409,
        "action_refused",
        "the campaign already has a character named Bran",
    )


@case("POST", C + "/days")
def _days(w: World) -> Refused:
    body = {"days": 1}
    return Refused(
        "POST",
        f"{w.campaign}/days",
        body,
        on_campaign(w),
        409,
        "action_refused",
        "end the open encounter(s) 'Fight' before advancing the day",
    )


@case("POST", C + "/characters/{character_id}/wounds")
def _wound(w: World) -> Refused:
    body = {"wound": "third_arm", "reason": "fell"}
    path = f"{w.campaign}/characters/{w.mira}/wounds"
    return Refused(
        "POST",
        path,
        body,
        on_campaign(w),
        422,
        "invalid_input",
        "the stamina-body ruleset tracks no wound 'third_arm'; it tracks: broken_bones, "
        "piercing_wound, severe_bruising",
    )


@case("POST", C + "/days/{day}/plans/{character_id}")
def _plan(w: World) -> Refused:
    body = {"plan": {"rest": "light"}, "reason": "they marched"}
    path = f"{w.campaign}/days/1/plans/{w.mira}"
    return Refused(
        "POST",
        path,
        body,
        on_campaign(w),
        404,
        "not_found",
        "day 1 has no plan for Mira",
    )


@case("POST", C + "/keys")
def _issue_key(w: World) -> Refused:
    body = {"role": "player", "characters": ["nobody"]}
    return Refused(
        "POST",
        f"{w.campaign}/keys",
        body,
        on_campaign(w),
        404,
        "not_found",
        "no such character(s) in this campaign: nobody",
    )


@case("DELETE", C + "/keys/{key_id}")
def _revoke_key(w: World) -> Refused:
    return Refused(
        "DELETE",
        f"{w.campaign}/keys/nokey",
        None,
        on_campaign(w),
        404,
        "not_found",
        "no key 'nokey' in this campaign",
    )


@case("POST", C + "/ruleset/accept")
def _accept_ruleset_version(w: World) -> Refused:
    body = {"version": "9.9.9"}
    return Refused(
        "POST",
        f"{w.campaign}/ruleset/accept",
        body,
        on_campaign(w),
        409,
        "action_refused",
        "the installed version of the ruleset 'stamina-body' is 1.0.0, not 9.9.9: "
        "accept the version installed",
    )


@case("POST", C + "/bestiary/{entry_id}/enrol")
def _enrol_from_bestiary(w: World) -> Refused:
    """Goblins until the campaign holds 183 characters (Ogre, Bran, Mira and 180
    goblins): 20 more are refused (a campaign holds at most 200)."""
    entry = w.post(f"{w.campaign}/bestiary", {"name": "Goblin", "sheet": SHEET}, 201)
    path = f"{w.campaign}/bestiary/{entry['id']}/enrol"
    for _ in range(9):
        w.post(path, {"count": 20}, 201)
    return Refused(
        "POST",
        path,
        {"count": 20},
        on_campaign(w),
        409,
        "action_refused",
        "a campaign holds at most 200 characters",
    )


EXTRA: dict[str, Case] = {
    "tracks between fights": _tracks_between_fights,
    "sheet between fights": _sheet_between_fights,
    "void after the end": _void_after_the_end,
}
ALL = {**{f"{m} {p}": build for (m, p), build in CASES.items()}, **EXTRA}


def test_every_write_that_takes_if_match_has_a_case(client: TestClient) -> None:
    paths = client.app.openapi()["paths"]  # type: ignore[attr-defined]
    takes = {
        (method.upper(), path)
        for path, operations in paths.items()
        for method, operation in operations.items()
        if "412" in operation.get("responses", {})
    }
    assert takes == set(CASES)


def mismatch(kind: str, asked: str, current: int) -> str:
    return (
        f"this write was decided on {kind} version {asked}, but the {kind} is at version "
        f"{current} now: read it again, decide again, and send the version read (If-Match)"
    )


@pytest.mark.parametrize("name", sorted(ALL))
def test_a_stale_if_match_is_412_before_the_command_refuses(client: TestClient, name: str) -> None:
    w = World(client)
    write = ALL[name](w)
    current = w.version(write.subject_path)
    stale = f'"v{current - 1}"'
    before = position(client)
    answer = client.request(write.method, write.path, json=write.body, headers={"if-match": stale})
    assert answer.status_code == 412, answer.text
    assert answer.headers["content-type"] == "application/problem+json"
    problem = answer.json()
    assert problem == {
        "type": "urn:skald:problem:version-mismatch",
        "title": "the version this write was decided on is not the current one",
        "status": 412,
        "detail": mismatch(write.kind, stale, current),
        "instance": write.path,
        "error": "version_mismatch",
        "message": mismatch(write.kind, stale, current),
        "aggregate": write.kind,
        "aggregate_id": write.subject_id,
        "current_version": current,
        "if_match": stale,
    }
    assert position(client) == before
    # Without If-Match, and with the current version: the command's own refusal.
    for headers in ({}, {"if-match": f'"v{current}"'}):
        answer = client.request(write.method, write.path, json=write.body, headers=headers)
        refusal = answer.json()
        assert (answer.status_code, refusal["error"], refusal["message"]) == (
            write.status,
            write.error,
            write.message,
        ), headers
        assert position(client) == before


def test_the_key_its_permission_the_subjects_existence_and_the_schema_come_before_412(
    client: TestClient,
) -> None:
    w = World(client)
    player = w.post(f"{w.campaign}/keys", {"role": "player", "characters": [w.bran]}, 201)
    stale = '"v1"'  # the fight is at 2, the campaign at 6
    as_player = {"authorization": f"Bearer {player['key']}", "if-match": stale}
    nobody = "00000000-0000-4000-8000-000000000000"
    before = position(client)
    answers = [
        # No key: 401.
        client.post(f"{w.fight}/turn", headers={"authorization": "", "if-match": stale}),
        # A player's key on a GM's write, and acting for another's character: 403.
        client.post(f"{w.fight}/turn", headers=as_player),
        client.post(
            f"{w.fight}/actions",
            json={"kind": "recover", "actor": w.ogre, "params": {}},
            headers=as_player,
        ),
        # A GM's tool, and an override of the turn order, asked with a player's key (the
        # rules say which action is a GM's tool): 403.
        client.post(
            f"{w.fight}/actions",
            json={"kind": "take_hit", "actor": w.bran, "params": TAKE_HIT},
            headers=as_player,
        ),
        client.post(
            f"{w.fight}/actions",
            json={"kind": "recover", "actor": w.bran, "params": {}, "override_reason": "now"},
            headers=as_player,
        ),
        # No such encounter; no such campaign: 404.
        client.post(f"{w.campaign}/encounters/{nobody}/turn", headers={"if-match": stale}),
        client.post(f"/campaigns/{nobody}/days", json={"days": 1}, headers={"if-match": stale}),
        # A body its schema refuses: 422.
        client.post(f"{w.campaign}/days", json={"days": "one"}, headers={"if-match": stale}),
    ]
    assert [(a.status_code, a.json()["error"], a.json()["message"]) for a in answers] == [
        (
            401,
            "unauthenticated",
            "this request needs a campaign key: send 'Authorization: Bearer <key>'",
        ),
        (403, "forbidden", f"only the GM may POST {w.fight}/turn; this is a player key"),
        (403, "forbidden", f"this player key does not act for character '{w.ogre}'"),
        (403, "forbidden", "only the GM may use 'take_hit', a GM's tool; this is a player key"),
        (403, "forbidden", "only the GM may override the turn order; this is a player key"),
        (404, "not_found", f"no encounter with id {nobody}"),
        (404, "not_found", f"no campaign with id {nobody}"),
        (422, "invalid_input", "invalid request: days: Input should be a valid integer"),
    ]
    assert position(client) == before


def test_a_retry_of_a_write_that_succeeded_gets_its_first_answer_not_412_nor_a_refusal(
    client: TestClient,
) -> None:
    """The fight ended by a write with an Idempotency-Key: its retry (its If-Match stale by
    then, and the fight ended, which the command would refuse) gets the first answer."""
    w = World(client)
    headers = {"if-match": '"v2"', "idempotency-key": "the end"}
    first = client.post(f"{w.fight}/end", headers=headers)
    assert first.status_code == 200, first.text
    assert first.json()["version"] == 3
    before = position(client)
    again = client.post(f"{w.fight}/end", headers=headers)
    assert (again.status_code, again.json()) == (200, first.json())
    assert position(client) == before
    # Another key is another write: its stale If-Match is refused first (412, not 409).
    other = client.post(f"{w.fight}/end", headers={**headers, "idempotency-key": "again"})
    assert (other.status_code, other.json()["current_version"]) == (412, 3)
    assert position(client) == before
