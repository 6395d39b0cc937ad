"""Webhooks to a real local HTTP receiver: every event of a fight arrives, in order,
signed (verified by the `standardwebhooks` package's own verifier); a receiver that
fails for a while gets them all in order once it answers; a redirecting or slow one
stalls no other webhook; a blocked address is refused at registration."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import orjson
import pytest
import standardwebhooks
from fastapi.testclient import TestClient

from skald_campaign.api.app import create_app
from skald_campaign.services import build_services
from skald_campaign.settings import Settings
from tests.helpers import act, enrol, new_campaign, next_round, ok, start
from tests.integration.projection_support import wait_until
from tests.patience import HANG_SECONDS
from tests.receiver import Receiver

SHEET = {"st": 12, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 30, "body_max": 20}


@pytest.fixture
def hooked(settings: Settings) -> Iterator[TestClient]:
    """The API with its workers, webhooks allowed to reach this machine, quick retries."""
    tuned = settings.model_copy(
        update={
            "webhooks_allow_private": True,
            "webhooks_backoff_initial": 0.05,
            "webhooks_backoff_max": 0.2,
            "webhooks_failure_limit": 10,
            "webhooks_timeout": HANG_SECONDS,  # a held receiver is slow, not failing
        }
    )
    with TestClient(create_app(lambda: build_services(tuned, workers=True))) as client:
        yield client


def fight(client: TestClient, cid: str, rounds: int = 3) -> None:
    hero = enrol(client, cid, "Hero", SHEET)
    rival = enrol(client, cid, "Rival", SHEET)
    sides = [{"character_id": hero, "side": "a"}, {"character_id": rival, "side": "b"}]
    eid = start(client, cid, sides)
    for face in range(rounds):
        act(client, cid, eid, "recover", hero, dice={"recovery": [face + 1] * 3})
        act(client, cid, eid, "recover", rival, dice={"recovery": [face + 2] * 3})
        next_round(client, cid, eid)
    ok(client.post(f"/campaigns/{cid}/encounters/{eid}/end"))


def logged_positions(client: TestClient, cid: str, after: int) -> list[int]:
    """The log's positions after one, once the views have caught up with the store."""

    def caught_up() -> bool:
        answer = ok(client.get(f"/campaigns/{cid}/events?limit=1"))
        return bool(answer["projection"]["behind"] == 0)

    wait_until(caught_up, HANG_SECONDS, "the views to catch up")
    answer = ok(client.get(f"/campaigns/{cid}/events?after={after}&limit=500"))
    return [e["position"] for e in answer["events"]]


def register(client: TestClient, cid: str, url: str, **extra: Any) -> dict[str, Any]:
    body = {"url": url, "role": "gm", **extra}
    return dict(ok(client.post(f"/campaigns/{cid}/webhooks", json=body), 201))


def verified(secret: str, received: Any) -> dict[str, Any]:
    """The body, once the package's own verifier accepted its signature."""
    found: dict[str, Any] = standardwebhooks.Webhook(secret).verify(
        received.body.decode(), received.headers
    )
    return found


def wait_for(receiver: Receiver, count: int) -> None:
    wait_until(lambda: len(receiver.bodies()) >= count, HANG_SECONDS, f"{count} deliveries")


def test_every_event_of_a_fight_arrives_signed_in_order(hooked: TestClient) -> None:
    cid = new_campaign(hooked, "stamina-body", name="Hooked")
    with Receiver() as receiver:
        hook = register(hooked, cid, receiver.url)
        assert hook["secret"].startswith("whsec_")
        fight(hooked, cid)
        expected = logged_positions(hooked, cid, 1)  # all but the campaign's creation
        assert len(expected) == 15
        wait_for(receiver, len(expected))
        got = [verified(hook["secret"], r) for r in receiver.bodies()]
    assert [g["data"]["position"] for g in got] == expected
    assert [r.headers["webhook-id"] for r in receiver.bodies()] == [f"msg_{p}" for p in expected]
    assert got[0]["type"] == "Campaign.CharacterEnrolled"
    assert got[0]["data"]["campaign_id"] == cid
    with pytest.raises(standardwebhooks.WebhookVerificationError):
        tampered = receiver.bodies()[0]
        tampered.body = tampered.body.replace(b"Hero", b"Zero")
        verified(hook["secret"], tampered)
    deliveries = ok(hooked.get(f"/campaigns/{cid}/webhooks/{hook['id']}/deliveries"))
    assert deliveries["delivered_through"] == expected[-1]
    assert [d["position"] for d in deliveries["deliveries"]] == expected[::-1]
    assert {d["outcome"] for d in deliveries["deliveries"]} == {"delivered"}
    listed = ok(hooked.get(f"/campaigns/{cid}/webhooks"))
    assert listed == [{k: v for k, v in hook.items() if k != "secret"}]


def test_a_receiver_down_for_a_while_gets_everything_in_order(hooked: TestClient) -> None:
    cid = new_campaign(hooked, "stamina-body", name="Down")
    with Receiver(fail_first=5) as receiver:
        hook = register(hooked, cid, receiver.url, events=["Encounter.ActionResolved"])
        fight(hooked, cid)
        wait_for(receiver, 6)
        got = [verified(hook["secret"], r) for r in receiver.bodies()]
    assert receiver.refused == 5
    assert [g["type"] for g in got] == ["Encounter.ActionResolved"] * 6
    positions = [g["data"]["position"] for g in got]
    assert positions == sorted(positions) and len(set(positions)) == 6
    first = ok(hooked.get(f"/campaigns/{cid}/webhooks/{hook['id']}/deliveries"))["deliveries"][-1]
    assert first["attempts"] == 6 and first["outcome"] == "delivered"
    assert first["last_error"].startswith("503")


def test_a_redirecting_or_slow_receiver_stalls_no_other_webhook(hooked: TestClient) -> None:
    cid = new_campaign(hooked, "stamina-body", name="Stalls")
    held = threading.Event()
    with (
        Receiver(redirect=True) as redirecting,
        Receiver(hold=held) as slow,
        Receiver() as healthy,
    ):
        bad = register(hooked, cid, redirecting.url)
        register(hooked, cid, slow.url)
        register(hooked, cid, healthy.url)
        fight(hooked, cid, rounds=1)
        expected = logged_positions(hooked, cid, 1)
        wait_for(healthy, len(expected))
        # The slow one still holds its first delivery; the redirecting one got none.
        assert slow.bodies() == [] and redirecting.bodies() == []

        def disabled() -> bool:
            hooks = ok(hooked.get(f"/campaigns/{cid}/webhooks"))
            return not next(h for h in hooks if h["id"] == bad["id"])["enabled"]

        wait_until(disabled, HANG_SECONDS, "the redirecting webhook to be disabled")
        held.set()  # the slow receiver answers at last: it gets everything, in order
        wait_for(slow, len(expected))
        assert [orjson.loads(r.body)["data"]["position"] for r in slow.bodies()] == expected
    hooks = ok(hooked.get(f"/campaigns/{cid}/webhooks"))
    reason = next(h for h in hooks if h["id"] == bad["id"])["disabled_reason"]
    assert reason.startswith("10 failed attempts in a row; the last: 302: redirects are not")


def test_the_delivery_log_records_the_status_of_a_failed_answer(hooked: TestClient) -> None:
    cid = new_campaign(hooked, "stamina-body", name="Failing")
    with Receiver(fail_first=100, fail_status=500) as failing:
        hook = register(hooked, cid, failing.url, events=["Campaign.CharacterEnrolled"])
        base = f"/campaigns/{cid}/webhooks/{hook['id']}"
        enrol(hooked, cid, "Hero", SHEET)

        def disabled() -> bool:
            return not ok(hooked.get(f"/campaigns/{cid}/webhooks"))[0]["enabled"]

        wait_until(disabled, HANG_SECONDS, "the failing webhook to be disabled")
        ok(hooked.post(f"{base}/test"), 202)

        def tested() -> bool:
            entries = ok(hooked.get(f"{base}/deliveries"))["deliveries"]
            return any(e["message_id"].startswith("msg_test_") for e in entries)

        wait_until(tested, HANG_SECONDS, "the test event's attempt to be logged")
        test_entry, delivery = ok(hooked.get(f"{base}/deliveries"))["deliveries"]
    assert failing.refused == 11
    assert [delivery[k] for k in ("outcome", "attempts", "status_code")] == ["failed", 10, 500]
    assert delivery["last_error"] == "500: "
    assert [test_entry[k] for k in ("outcome", "attempts", "status_code")] == ["failed", 1, 500]


@pytest.mark.parametrize(
    ("url", "rule"),
    [
        ("ftp://example.com/hook", "must be http or https"),
        ("http://127.0.0.1:8000/hook", "loopback"),
        ("http://[::1]/hook", "loopback"),
        ("http://169.254.169.254/latest/meta-data", "link-local"),
        ("http://10.1.2.3/hook", "private"),
        ("http://192.168.0.10/hook", "private"),
        ("http://user:pw@93.184.215.14/hook", "user name or password"),
        ("http://[::1/hook", "cannot be read"),
        ("http://93.184.215.14:port/hook", "cannot be read"),
        ("http:///hook", "names no host"),
    ],
)
def test_a_blocked_address_is_refused_naming_the_rule(
    client: TestClient, url: str, rule: str
) -> None:
    cid = new_campaign(client, "stamina-body")
    answer = client.post(f"/campaigns/{cid}/webhooks", json={"url": url, "role": "gm"})
    assert answer.status_code == 422
    assert rule in answer.json()["message"]
    assert ok(client.get(f"/campaigns/{cid}/webhooks")) == []


PC = {"st": 13, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10}
OGRE = {**PC, "stamina_max": 187, "body_max": 173}  # numbers nothing else here comes near
OGRES_NUMBERS = {187, 173, 172, 170}  # its maxima, and its tracks after Bran's blow


def whole_numbers(value: Any) -> set[int]:
    if isinstance(value, bool):
        return set()
    if isinstance(value, int):
        return {value}
    if isinstance(value, dict):
        return {n for v in value.values() for n in whole_numbers(v)}
    if isinstance(value, list):
        return {n for v in value for n in whole_numbers(v)}
    return set()


def test_a_viewers_and_a_players_webhook_deliver_what_their_keys_read(hooked: TestClient) -> None:
    """Deliveries take the registered role's view (a viewer's by default): the events as
    that role's key reads them in the log, redacted as every read (RULINGS T3)."""
    cid = new_campaign(hooked, "stamina-body", name="Views")
    with Receiver() as gm_rx, Receiver() as viewer_rx, Receiver() as player_rx, \
            Receiver() as discord_rx:  # fmt: skip
        register(hooked, cid, gm_rx.url)
        body = {"url": viewer_rx.url}  # no role: a viewer's view
        viewer_hook = ok(hooked.post(f"/campaigns/{cid}/webhooks", json=body), 201)
        assert viewer_hook["role"] == "viewer"
        register(hooked, cid, player_rx.url, role="player")
        register(hooked, cid, discord_rx.url, role="viewer", format="discord")

        def enrol_as(name: str, sheet: dict[str, int], npc: bool) -> str:
            answer = hooked.post(
                f"/campaigns/{cid}/characters", json={"name": name, "sheet": sheet, "npc": npc}
            )
            return str(ok(answer, 201)["id"])

        bran, ogre = enrol_as("Bran", PC, False), enrol_as("Ogre", OGRE, True)
        keys = {
            role: ok(hooked.post(f"/campaigns/{cid}/keys", json=body), 201)["key"]
            for role, body in (
                ("viewer", {"role": "viewer"}),
                ("player", {"role": "player", "characters": [bran]}),
            )
        }
        sides = [{"character_id": bran, "side": "party"}, {"character_id": ogre, "side": "foes"}]
        eid = start(hooked, cid, sides)
        blow = {"target": ogre, "defense": "none"}
        act(hooked, cid, eid, "attack", bran, dice={"hit": [1, 1, 1], "damage": [6, 6, 6]}, **blow)
        hidden = {"kind": "attack", "actor": ogre, "params": {"target": bran, "defense": "none"},
                  "dice": {"hit": [1, 2, 2], "damage": [3, 3, 3]}, "hidden": True}  # fmt: skip
        ok(hooked.post(f"/campaigns/{cid}/encounters/{eid}/actions", json=hidden), 201)
        expected = logged_positions(hooked, cid, 1)
        assert len(expected) == 8  # 2 enrolled, 2 keys, started, opened, 2 actions
        for receiver in (gm_rx, viewer_rx, player_rx, discord_rx):
            wait_for(receiver, len(expected))

        def log(key: str | None) -> list[dict[str, Any]]:
            headers = {} if key is None else {"authorization": f"Bearer {key}"}
            path = f"/campaigns/{cid}/events?after=1&limit=500"
            return list(ok(hooked.get(path, headers=headers))["events"])

        def delivered(receiver: Receiver) -> list[dict[str, Any]]:
            return [orjson.loads(r.body)["data"] for r in receiver.bodies()]

        views = {"gm": log(None), "viewer": log(keys["viewer"]), "player": log(keys["player"])}
        for role, receiver in (("gm", gm_rx), ("viewer", viewer_rx), ("player", player_rx)):
            assert delivered(receiver) == [{"campaign_id": cid, **e} for e in views[role]], role
        discord = [orjson.loads(r.body)["content"] for r in discord_rx.bodies()]
    gm, viewer = views["gm"], views["viewer"]
    assert [e["position"] for e in viewer] == [e["position"] for e in gm] == expected
    assert views["player"] == viewer  # the same policy: a player's key is no GM's
    assert whole_numbers(gm) >= OGRES_NUMBERS
    assert not OGRES_NUMBERS & whole_numbers(viewer)
    enrolled = [e["payload"] for e in viewer if e["type"] == "Campaign.CharacterEnrolled"]
    assert [(p["name"], p["sheet"] == {}, p["tracks"]) for p in enrolled] == [
        ("Bran", False, {"stamina": 12, "body": 10}),
        ("Ogre", True, {}),
    ]
    assert enrolled[1]["descriptor"] == "unhurt"
    started = next(e["payload"] for e in viewer if e["type"] == "Encounter.Started")
    assert started["combatants"][ogre]["tracks"] == {}
    assert started["combatants"][ogre]["descriptor"] == "unhurt"
    assert started["combatants"][bran]["tracks"] == {"stamina": 12, "body": 10}
    actions = {
        e["payload"]["number"]: (g["payload"], e["payload"])
        for g, e in zip(gm, viewer, strict=True)
        if e["type"] == "Encounter.ActionResolved"
    }
    (gm_blow, seen_blow), (gm_hidden, seen_hidden) = actions[1], actions[2]
    assert gm_blow["summary"] == "Bran hits: Ogre takes 15 Stamina and 3 Body (15/3 raw)"
    assert gm_blow["tracks"] == {ogre: {"stamina": 172, "body": 170}}
    # T3a: the summary is built from parts; the outcome word "hits" stays.
    assert (seen_blow["summary"], seen_blow["breakdown"], seen_blow["tracks"]) == (
        "Bran hits: Ogre is hurt", {}, {},
    )  # fmt: skip
    assert [r["faces"] for r in seen_blow["rolls"]] == [[1, 1, 1], [6, 6, 6]]  # rolled openly
    assert [r["faces"] for r in gm_hidden["rolls"]] == [[1, 2, 2], [3, 3, 3]]
    assert gm_hidden["breakdown"]["hit_score"] == 5
    assert (seen_hidden["rolls"], seen_hidden["breakdown"], seen_hidden["summary"]) == (
        [], {}, "Ogre attacks Bran unarmed and hits: Bran is at 6 Stamina and 10 Body",
    )  # fmt: skip
    assert seen_hidden["tracks"] == {bran: {"stamina": 6, "body": 10}}
    assert discord[-2:] == [
        "Bran hits: Ogre is hurt",
        "Ogre attacks Bran unarmed and hits: Bran is at 6 Stamina and 10 Body",
    ]


def test_disable_enable_delete_and_a_test_event(hooked: TestClient) -> None:
    cid = new_campaign(hooked, "stamina-body", name="Manage")
    with Receiver() as receiver:
        hook = register(hooked, cid, receiver.url, format="discord")
        base = f"/campaigns/{cid}/webhooks/{hook['id']}"
        off = ok(hooked.post(f"{base}/disable", json={"reason": "quiet please"}))
        assert (off["enabled"], off["disabled_reason"]) == (False, "quiet please")
        assert ok(hooked.post(f"{base}/enable"))["enabled"] is True
        assert ok(hooked.post(f"{base}/test"), 202) == {"queued": hook["id"]}
        wait_for(receiver, 1)
        sent = receiver.bodies()[0]
        assert sent.headers["webhook-id"].startswith("msg_test_")
        message = verified(hook["secret"], sent)
        assert message["embeds"][0]["description"] == "Skald test event: this webhook is set up"
        assert ok(hooked.delete(base)) == {"deleted": hook["id"]}
        assert ok(hooked.get(f"/campaigns/{cid}/webhooks")) == []
        assert hooked.get(f"{base}/deliveries").status_code == 404
    assert orjson.loads(sent.body)["username"] == "Skald"
