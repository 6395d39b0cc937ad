"""The odds over HTTP: exact values, nothing written, and refused as acting would be."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.helpers import GM, act, enrol, event_count, new_campaign, ok, start

CLUB = {"name": "club", "damage_class": 1, "damage_type": "impact", "skill": 13}
FIGHTER = {"st": 12, "con": 12, "parry": 11, "dodge": 9, "stamina_max": 20, "body_max": 12}


def table(client: TestClient) -> dict[str, str]:
    cid = new_campaign(client, "stamina-body")
    ids = {
        "cid": cid,
        "hero": enrol(client, cid, "Hero", {**FIGHTER, "weapons": [CLUB]}),
        "rival": enrol(client, cid, "Rival", FIGHTER),
    }
    ids["eid"] = start(
        client,
        cid,
        [
            {"character_id": ids["hero"], "side": "a"},
            {"character_id": ids["rival"], "side": "b"},
        ],
    )
    return ids


def odds_path(ids: dict[str, str]) -> str:
    return f"/campaigns/{ids['cid']}/encounters/{ids['eid']}/odds"


def post_odds(
    client: TestClient, ids: dict[str, str], kind: str, actor: str | None, **p: Any
) -> Any:
    body = {"kind": kind, "actor": actor, "params": p}
    return client.post(odds_path(ids), json=body, headers=GM)


def test_the_odds_of_a_hit_are_exact_and_nothing_is_written(client: TestClient) -> None:
    ids = table(client)
    before = event_count(client)
    report = ok(post_odds(client, ids, "attack", ids["hero"], target=ids["rival"], weapon="club"))
    assert event_count(client) == before
    assert report["results"] == [
        {"result": "hit", "probability": "181/216", "decimal": 0.837963},
        {"result": "miss", "probability": "35/216", "decimal": 0.162037},
    ]
    assert report["exact"] is True
    # Not naming the defense, the attack waits for Rival's answer when it hits (S3): the
    # harm is each answer's (below), not that of a defense nobody declared.
    assert "defense" not in report["params"]
    assert report["damage"] == []
    body = next(d for d in report["answers"]["none"]["damage"] if d["track"] == "body")
    assert body["distribution"] == [
        {"value": 0, "probability": "1115/1296", "decimal": 0.860340},
        {"value": 1, "probability": "181/1296", "decimal": 0.139660},
    ]
    assert body["name"] == "Rival"


def without_timing(odds: dict[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in odds.items() if name != "elapsed_ms"}


def test_an_attack_left_to_wait_has_the_odds_of_each_answer(client: TestClient) -> None:
    """Seed 001 S3: "the defender answers one attack with a parry, a dodge or nothing";
    an attack whose defense is left out waits for that answer when it hits. Its odds
    said "hit 181/216" and then Rival's harm as if Rival answered nothing; they now say
    the chance to hit, that Rival answers, and what each answer leads to."""
    ids = table(client)
    report = ok(post_odds(client, ids, "attack", ids["hero"], target=ids["rival"], weapon="club"))
    assert report["awaits"] == {
        "defender": ids["rival"],
        "name": "Rival",
        "param": "defense",
        "choices": ["parry", "dodge", "none"],
    }
    assert report["results"] == [
        {"result": "hit", "probability": "181/216", "decimal": 0.837963},
        {"result": "miss", "probability": "35/216", "decimal": 0.162037},
    ]
    assert (report["damage"], report["conditions"]) == ([], [])
    answers = report["answers"]
    assert list(answers) == ["parry", "dodge", "none"]
    # Club skill 13 against Rival's Parry 11 and Dodge 9.
    assert {
        c: [(r["result"], r["probability"]) for r in a["results"]] for c, a in answers.items()
    } == {
        "parry": [("hit", "9457/15552"), ("miss", "35/216"), ("parried", "3575/15552")],
        "dodge": [("hit", "11387/15552"), ("miss", "35/216"), ("dodged", "1645/15552")],
        "none": [("hit", "181/216"), ("miss", "35/216")],
    }
    stamina = {
        c: next(d for d in a["damage"] if d["track"] == "stamina")["at_least_one"]["probability"]
        for c, a in answers.items()
    }
    assert stamina == {"parry": "9457/15552", "dodge": "11387/15552", "none": "181/216"}
    # Each answer is exactly the odds of the attack that names it.
    for choice, answer in answers.items():
        named = post_odds(
            client, ids, "attack", ids["hero"], target=ids["rival"], weapon="club", defense=choice
        )
        assert without_timing(answer) == without_timing({**ok(named), "answers": {}})
        assert ok(named)["awaits"] is None


def test_a_defender_who_cannot_answer_is_not_waited_for(client: TestClient) -> None:
    """S9: a stunned defender answers with nothing at once; so do its odds."""
    ids = table(client)
    act(
        client,
        ids["cid"],
        ids["eid"],
        "take_hit",
        None,
        {"damage": [6, 6, 6, 6, 6]},
        target=ids["rival"],
        damage_type="impact",
        damage_class=5,
    )
    report = ok(post_odds(client, ids, "attack", ids["hero"], target=ids["rival"], weapon="club"))
    assert (report["awaits"], report["answers"]) == (None, {})
    assert report["params"]["defense"] == "none"
    stamina = next(d for d in report["damage"] if d["track"] == "stamina")
    assert stamina["at_least_one"]["probability"] == "181/216"


def test_the_odds_follow_the_encounter_as_it_stands(client: TestClient) -> None:
    ids = table(client)
    # A landed blow that leaves the rival on 2 Stamina: from then on 4, 5 and 6 stun.
    act(
        client,
        ids["cid"],
        ids["eid"],
        "take_hit",
        None,
        {"damage": [6, 6, 6, 4]},
        target=ids["rival"],
        damage_type="impact",
        damage_class=4,
    )
    report = ok(post_odds(client, ids, "attack", ids["hero"], target=ids["rival"], weapon="club"))
    stunned = next(
        c for c in report["answers"]["none"]["conditions"] if c["condition"] == "stunned"
    )
    assert stunned["gained"]["probability"] == "181/432"


def test_refusals_name_what_is_wrong_and_write_nothing(client: TestClient) -> None:
    ids = table(client)
    before = event_count(client)
    unknown = post_odds(client, ids, "fireball", ids["hero"])
    assert unknown.status_code == 422
    assert "has no action 'fireball'" in unknown.json()["message"]
    no_weapon = post_odds(client, ids, "attack", ids["hero"], target=ids["rival"], weapon="axe")
    assert no_weapon.status_code == 422
    assert "has no weapon 'axe'" in no_weapon.json()["message"]
    assert event_count(client) == before


def test_a_request_too_large_is_refused_quickly(client: TestClient) -> None:
    cid = new_campaign(client, "d20")
    sheet = {
        "strength": {"modifier": 0},
        "dexterity": {"modifier": 0},
        "constitution": {"modifier": 0},
        "wisdom": {"modifier": 0},
        "level": 1,
        "hp": 20,
        "save_vs_death_ray": 12,
    }
    giant = enrol(client, cid, "Giant", {**sheet, "fr_skill_slots": 20})
    ogre = enrol(client, cid, "Ogre", {**sheet, "size": "large"})
    eid = start(
        client, cid, [{"character_id": giant, "side": "a"}, {"character_id": ogre, "side": "b"}]
    )
    ids = {"cid": cid, "eid": eid}
    refused = post_odds(client, ids, "shove", giant, target=ogre, wall_at_feet=0)
    assert refused.status_code == 422
    assert refused.json()["message"].startswith("too large to compute exactly: ")
    assert " outcomes (the limit is " in refused.json()["message"]


def test_an_ended_encounter_has_no_odds(client: TestClient) -> None:
    ids = table(client)
    ok(client.post(f"/campaigns/{ids['cid']}/encounters/{ids['eid']}/end", headers=GM))
    refused = post_odds(client, ids, "attack", ids["hero"], target=ids["rival"], weapon="club")
    assert refused.status_code == 409
    assert "has ended" in refused.json()["message"]
    view = client.get(
        f"/campaigns/{ids['cid']}/encounters/{ids['eid']}/combatants/{ids['hero']}/odds",
        params={"against": ids["rival"]},
    )
    assert view.status_code == 409


def test_players_see_odds_as_they_act(client: TestClient) -> None:
    ids = table(client)
    keys = ok(
        client.post(
            f"/campaigns/{ids['cid']}/keys", json={"role": "player", "characters": [ids["hero"]]}
        ),
        201,
    )
    player = {"authorization": f"Bearer {keys['key']}"}
    body = {"kind": "attack", "actor": ids["hero"], "params": {"target": ids["rival"]}}
    assert client.post(odds_path(ids), json=body, headers=player).status_code == 200
    body["actor"] = ids["rival"]
    refused = client.post(odds_path(ids), json=body, headers=player)
    assert refused.status_code == 403
    panel = {
        "kind": "take_hit",
        "actor": ids["hero"],
        "params": {"target": ids["hero"], "damage_type": "impact", "damage_class": 1},
    }
    gm_tool = client.post(odds_path(ids), json=panel, headers=player)
    assert gm_tool.status_code == 403
    assert gm_tool.json()["message"] == (
        "only the GM may use 'take_hit', a GM's tool; this is a player key"
    )


def test_a_character_view_shows_each_attack_against_a_chosen_opponent(client: TestClient) -> None:
    ids = table(client)
    view = ok(
        client.get(
            f"/campaigns/{ids['cid']}/encounters/{ids['eid']}/combatants/{ids['hero']}/odds",
            params={"against": ids["rival"]},
        )
    )
    assert view["against_name"] == "Rival"
    labels = [a["label"] for a in view["attacks"]]
    assert labels == [
        "club (no defense)",
        "club (parry)",
        "club (dodge)",
        "unarmed (no defense)",
        "unarmed (parry)",
        "unarmed (dodge)",
    ]
    first = view["attacks"][0]
    assert first["odds"]["results"][0]["probability"] == "181/216"
    assert first["params"] == {**first["odds"]["params"]}
    missing = client.get(
        f"/campaigns/{ids['cid']}/encounters/{ids['eid']}/combatants/{ids['hero']}/odds",
        params={"against": "nobody"},
    )
    assert missing.status_code == 404
    assert "opponent 'nobody'" in missing.json()["message"]


def test_a_margin_character_view_says_why_a_weapon_cannot_reach(client: TestClient) -> None:
    cid = new_campaign(client, "margin")
    sword = {
        "name": "sword",
        "attribute": "might",
        "skill": "melee",
        "category": "melee",
        "base_damage": 2,
        "per_margin": 1,
        "damage_type": "slash",
    }
    sheet = {"might": 2, "grace": 2, "vigor": 2, "aether": 2}
    hero = enrol(client, cid, "Hero", {**sheet, "weapons": [sword]})
    archer = enrol(client, cid, "Archer", sheet)
    eid = start(
        client,
        cid,
        [
            {"character_id": hero, "side": "a", "rank": 1},
            {"character_id": archer, "side": "b", "rank": 3},
        ],
    )
    view = ok(
        client.get(
            f"/campaigns/{cid}/encounters/{eid}/combatants/{hero}/odds", params={"against": archer}
        )
    )
    by_label = {a["label"]: a for a in view["attacks"]}
    assert set(by_label) == {"sword (effort 0)", "fists (effort 0)"}
    assert "reaches only 1; distance is 3" in by_label["sword (effort 0)"]["refused"]
    assert by_label["sword (effort 0)"]["odds"] is None
