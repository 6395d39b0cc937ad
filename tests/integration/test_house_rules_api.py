"""The house-rule preview (issue 38): POST /campaigns/{id}/rules/preview replays the
campaign's ended fights under changed options, on their recorded dice, and answers per
fight and per action what would have come out otherwise; nothing is written, and dice
the changed options would need that were never rolled are named, not rolled."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.helpers import GM, act, enrol, new_campaign, ok, start
from tests.integration.test_d20_api_rulings import d20_sheet
from tests.integration.test_stamina_body_api_rulings import BARE, KNIGHT


def newest(client: TestClient) -> int:
    """The store's max notification id: a preview must leave it where it was."""
    application = client.app.state.backend.application  # type: ignore[attr-defined]
    return int(application.recorder.max_notification_id() or 0)


def fight(client: TestClient, cid: str, name: str, ids: list[str]) -> str:
    lineup = [{"character_id": c, "side": f"side-{n}"} for n, c in enumerate(ids)]
    return start(client, cid, lineup, name)


def end(client: TestClient, cid: str, eid: str) -> None:
    ok(client.post(f"/campaigns/{cid}/encounters/{eid}/end", headers=GM, json={}))


def preview(client: TestClient, cid: str, options: dict[str, Any], **headers: str) -> Any:
    return client.post(f"/campaigns/{cid}/rules/preview", json={"options": options}, **headers)


def by_name(answer: Any) -> dict[str, Any]:
    return {f["encounter"]: f for f in answer["fights"]}


def d20_campaign(client: TestClient) -> tuple[str, str, str]:
    """Two ended fights: a magic Spark that hit for its minimum and a natural 20 that
    missed (no damage rolled); then a plain Sword +2 hit that no option here touches."""
    cid = new_campaign(client, "d20", {"actions_per_round": 10})
    mage = enrol(client, cid, "Mage", d20_sheet())
    foe = enrol(client, cid, "Foe", d20_sheet())
    sparks = fight(client, cid, "Sparks", [mage, foe])
    spark = {"hit": [11], "damage": [1]}
    act(client, cid, sparks, "attack", mage, spark, target=foe, weapon="Spark")
    act(
        client,
        cid,
        sparks,
        "attack",
        mage,
        {"hit": [20]},
        target=foe,
        weapon="Sword +2",
        ac_modifier=20,
    )
    end(client, cid, sparks)
    swords = fight(client, cid, "Swords", [mage, foe])
    act(
        client,
        cid,
        swords,
        "attack",
        mage,
        {"hit": [11], "damage": [3]},
        target=foe,
        weapon="Sword +2",
    )
    end(client, cid, swords)
    return cid, mage, foe


def test_d20_a_larger_magic_minimum_changes_the_spark_and_names_the_unrolled_damage(
    client: TestClient,
) -> None:
    cid, _, foe = d20_campaign(client)
    before = newest(client)
    answer = ok(preview(client, cid, {"magic_minimum_damage": 3, "natural_20_hits": True}))
    assert newest(client) == before
    assert answer["changed_options"] == {"magic_minimum_damage": 3, "natural_20_hits": True}
    assert (answer["fights_replayed"], answer["actions_replayed"]) == (2, 3)
    fights = by_name(answer)
    assert fights["Swords"]["actions"] == []
    assert fights["Swords"]["tracks"] == {}
    sparks = fights["Sparks"]
    assert sparks["actions_replayed"] == 2
    assert sparks["actions"] == [
        {
            "number": 1,
            "kind": "attack",
            "status": "changed",
            "before": "Mage hits Foe with Spark (11 >= AC 11): -2 rolled, 1 dealt; HP 20 -> 19",
            "after": "Mage hits Foe with Spark (11 >= AC 11): -2 rolled, 3 dealt; HP 20 -> 17",
            "why": None,
            "needs_rolls": [],
            "hidden": False,
            "tracks": [
                {"id": foe, "name": "Foe", "before": {"hp": 19}, "after": {"hp": 17}},
            ],
        },
        {
            "number": 2,
            "kind": "attack",
            "status": "needs_dice",
            "before": "Mage misses Foe with Sword +2 (22 < AC 31)",
            "after": None,
            "why": "the changed options would roll damage, never rolled in this fight: "
            "its outcome is left as recorded",
            "needs_rolls": ["damage"],
            "hidden": False,
            "tracks": [],
        },
    ]
    assert sparks["tracks"] == {foe: {"name": "Foe", "before": {"hp": 19}, "after": {"hp": 17}}}
    # Asked again, the same answer: nothing was rolled or kept.
    assert ok(preview(client, cid, {"magic_minimum_damage": 3, "natural_20_hits": True})) == answer
    assert newest(client) == before


def test_d20_the_campaigns_own_options_change_nothing(client: TestClient) -> None:
    cid, _, _ = d20_campaign(client)
    before = newest(client)
    answer = ok(preview(client, cid, {"magic_minimum_damage": 1}))
    assert answer["changed_options"] == {}
    assert [(f["encounter"], f["actions"], f["tracks"]) for f in answer["fights"]] == [
        ("Sparks", [], {}),
        ("Swords", [], {}),
    ]
    assert newest(client) == before


def test_a_bad_option_is_refused_naming_the_field_and_a_player_may_not_ask(
    client: TestClient,
) -> None:
    cid, mage, _ = d20_campaign(client)
    before = newest(client)
    refused = preview(client, cid, {"magic_minimum_damage": 99})
    assert refused.status_code == 422
    assert refused.json()["problems"] == [
        {
            "field": "options.magic_minimum_damage",
            "problem": "Input should be less than or equal to 10",
        }
    ]
    unknown = preview(client, cid, {"natural_21_hits": True})
    assert unknown.status_code == 422
    assert [p["field"] for p in unknown.json()["problems"]] == ["options.natural_21_hits"]
    assert newest(client) == before
    key = ok(
        client.post(f"/campaigns/{cid}/keys", json={"role": "player", "characters": [mage]}), 201
    )["key"]
    before = newest(client)
    player = preview(client, cid, {}, headers={"authorization": f"Bearer {key}"})
    assert player.status_code == 403
    assert newest(client) == before


def test_stamina_body_fewer_extra_dice_change_a_charge_and_more_need_dice(
    client: TestClient,
) -> None:
    cid = new_campaign(client, "stamina-body", {"extra_dice_per_option": 2})
    knight = enrol(client, cid, "Knight", KNIGHT)
    bare = enrol(client, cid, "Bare", BARE)
    charge = fight(client, cid, "Charge", [knight, bare])
    act(
        client,
        cid,
        charge,
        "take_hit",
        None,
        {"damage": [3, 4, 5, 6, 2]},
        target=bare,
        damage_type="impact",
        damage_class=1,
        set_weapon=True,
        charge=True,
    )
    end(client, cid, charge)
    stab = fight(client, cid, "Stab", [knight, bare])
    act(
        client,
        cid,
        stab,
        "take_hit",
        None,
        {"damage": [6]},
        target=bare,
        damage_type="piercing",
        damage_class=1,
    )
    end(client, cid, stab)
    before = newest(client)

    fewer = ok(preview(client, cid, {"extra_dice_per_option": 1}))
    assert (fewer["fights_replayed"], fewer["actions_replayed"]) == (2, 2)
    fights = by_name(fewer)
    assert fights["Stab"]["actions"] == []
    assert fights["Charge"]["actions"] == [
        {
            "number": 1,
            "kind": "take_hit",
            "status": "changed",
            "before": "Bare takes 15 Stamina and 1 Body (15/1 raw); Bare gains: stunned",
            "after": "Bare takes 9 Stamina and 0 Body (9/0 raw)",
            "why": None,
            "needs_rolls": [],
            "hidden": False,
            "tracks": [
                {
                    "id": bare,
                    "name": "Bare",
                    "before": {"stamina": -3, "body": 9},
                    "after": {"stamina": 3, "body": 10},
                }
            ],
        }
    ]
    assert fights["Charge"]["tracks"] == {
        bare: {
            "name": "Bare",
            "before": {"stamina": -3, "body": 9},
            "after": {"stamina": 3, "body": 10},
        }
    }

    more = ok(preview(client, cid, {"extra_dice_per_option": 3}))
    fights = by_name(more)
    assert fights["Stab"]["actions"] == []
    assert [(a["number"], a["status"], a["needs_rolls"]) for a in fights["Charge"]["actions"]] == [
        (1, "needs_dice", ["damage"])
    ]
    assert fights["Charge"]["tracks"] == {}
    assert newest(client) == before
