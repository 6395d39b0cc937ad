"""Seed 000 through HTTP, on the real store, with the dice the table rolled."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from skald_campaign.domain.rulesets import RULESETS
from tests.helpers import act, act_response, encounter, enrol, new_campaign, ok, start

SWORD = {
    "name": "sword",
    "attribute": "might",
    "skill": "melee",
    "category": "melee",
    "base_damage": 2,
    "per_margin": 1,
    "damage_type": "slash",
}
HALBERD = {**SWORD, "name": "halberd", "category": "reach", "base_damage": 3}
SPEAR = {**SWORD, "name": "spear", "category": "reach", "damage_type": "pierce"}
BOW = {
    "name": "bow",
    "attribute": "grace",
    "skill": "marksmanship",
    "category": "ranged",
    "base_damage": 1,
    "per_margin": 1,
    "damage_type": "pierce",
    "ammunition": 5,
}
FIREBOLT = {
    "name": "firebolt",
    "attribute": "aether",
    "skill": "abjuration",
    "category": "ranged",
    "base_damage": 2,
    "per_margin": 1,
    "damage_type": "fire",
}


def sheet(**fields: Any) -> dict[str, Any]:
    return {"might": 2, "grace": 2, "vigor": 2, "aether": 2, **fields}


def blanks(n: int) -> list[int]:
    return [2] * n


class Fight:
    """One margin campaign and encounter; combatants as (name, sheet, side, rank)."""

    def __init__(
        self,
        client: TestClient,
        *lineup: tuple[str, dict[str, Any], str, int],
        options: dict[str, Any] | None = None,
    ) -> None:
        self.client = client
        self.cid = new_campaign(client, "margin", options)
        self.ids = {name: enrol(client, self.cid, name, s) for name, s, _, _ in lineup}
        self.eid = start(
            client,
            self.cid,
            [
                {"character_id": self.ids[name], "side": side, "rank": rank}
                for name, _, side, rank in lineup
            ],
        )

    def dice(self, **rolls: list[int]) -> dict[str, list[int]]:
        """Roll names with a table name in the middle: defense__orc__guard."""
        out = {}
        for key, faces in rolls.items():
            parts = key.split("__")
            if len(parts) > 1:
                parts[1] = self.ids[parts[1]]
            out[".".join(parts)] = faces
        return out

    def act(
        self, kind: str, actor: str, dice: dict[str, list[int]] | None = None, **params: Any
    ) -> dict[str, Any]:
        if "target" in params:
            params["target"] = self.ids[params["target"]]
        return dict(act(self.client, self.cid, self.eid, kind, self.ids[actor], dice, **params))

    def health(self, result: dict[str, Any], name: str) -> int:
        """After the action: from its answer when it touched them, else from the
        encounter read at the version the action produced."""
        everyone = result["encounter"]["combatants"]
        if all(c["id"] != self.ids[name] for c in everyone):
            then = encounter(self.client, self.cid, self.eid, result["encounter"]["version"])
            everyone = then["combatants"]
        found = next(c for c in everyone if c["id"] == self.ids[name])
        return int(found["tracks"]["health"])


def test_the_margin_ruleset_is_listed_with_its_options_and_actions(client: TestClient) -> None:
    ruleset = ok(client.get("/rulesets/margin"))
    assert ruleset["options"]["armor_blunting"] == "1/10"
    assert ruleset["options"]["max_effort"] == 3
    assert sorted(ruleset["actions"]) == ["attack", "cast", "defend", "riposte", "ward"]


def test_rulesets_publish_the_counters_the_track_route_takes(client: TestClient) -> None:
    """/rulesets names each ruleset's counters (the pages show them on the cards): exactly
    the ones the track route sets and adjusts as tracks (margin's fatigue and luck, M6
    and M8), none for a ruleset that keeps none."""
    published = {r["id"]: r["counters"] for r in ok(client.get("/rulesets"))}
    assert {ruleset: sorted(counters) for ruleset, counters in published.items()} == {
        "margin": ["fatigue", "luck"], "stamina-body": [], "d20": [],
    }  # fmt: skip
    assert published["margin"]["luck"].startswith("luck points left")
    assert ok(client.get("/rulesets/margin"))["counters"] == published["margin"]
    # Only margin keeps counters: the others' state_counters is the kit's (none, whatever
    # the sheet), so a margin sheet asks them all.
    for ruleset in RULESETS.values():
        kept = ruleset.state_counters(sheet(luck=2))
        assert sorted(published[ruleset.id]) == sorted(kept), ruleset.id


def test_defend_blunts_four_attackers_in_one_round(client: TestClient) -> None:
    raider = sheet(might=3, melee=2, weapons=[SWORD])
    fight = Fight(
        client,
        *[(f"r{n}", raider, "raiders", 1) for n in range(4)],
        ("guardian", sheet(evasion=2, guard=2, health=30), "keep", 1),
    )
    fight.act("defend", "guardian", effort=1)
    margins = []
    for n in range(4):
        result = fight.act(
            "attack",
            f"r{n}",
            fight.dice(
                attack=[6, 6, 6, 6, 6] if n < 2 else [6, 6, 6, 1, 1],
                defense__guardian__evasion=[6, 5, 1, 2, 3],
                defense__guardian__guard=[6, 2, 2, 2, 2],
            ),
            target="guardian",
            weapon="sword",
        )
        rolls = result["action"]["breakdown"]["defense"]["rolls"]
        assert [(r["mode"], r["pool"]["dice"]) for r in rolls] == [("active", 5), ("active", 5)]
        margins.append(result["action"]["breakdown"]["margin"]["value"])
    assert margins == [2, 2, 0, 0]
    assert fight.health(result, "guardian") == 22


def test_passive_defense_rolls_the_bare_attribute_for_every_allowed_defense(
    client: TestClient,
) -> None:
    fight = Fight(
        client,
        ("mage", sheet(aether=4, abjuration=3, spells=[FIREBOLT]), "a", 1),
        ("scholar", sheet(grace=3, vigor=1, aether=2, evasion=4, guard=4, abjuration=4), "b", 1),
    )
    result = fight.act(
        "cast",
        "mage",
        fight.dice(
            attack=[6, 6, 6, 1, 2, 3, 4],
            defense__scholar__evasion=blanks(3),
            defense__scholar__guard=blanks(1),
            defense__scholar__abjuration=blanks(2),
        ),
        target="scholar",
        spell="firebolt",
    )
    rolls = result["action"]["breakdown"]["defense"]["rolls"]
    assert [(r["defense"], r["mode"], r["pool"]["dice"]) for r in rolls] == [
        ("evasion", "passive", 3),
        ("guard", "passive", 1),
        ("abjuration", "passive", 2),
    ]
    assert fight.health(result, "scholar") == 7  # 12 - (2 + 1 x 3): fire ignores armor


def test_a_strong_melee_character_with_a_bow_rolls_grace_and_marksmanship(
    client: TestClient,
) -> None:
    fight = Fight(
        client,
        ("brute", sheet(might=5, melee=5, grace=1, weapons=[SWORD, BOW]), "a", 1),
        ("orc", sheet(), "b", 1),
    )
    result = fight.act(
        "attack",
        "brute",
        fight.dice(
            attack=[6],
            defense__orc__evasion=blanks(2),
            defense__orc__guard=blanks(2),
        ),
        target="orc",
        weapon="bow",
    )
    assert result["action"]["rolls"][0] == {
        "name": "attack",
        "dice": "1d6",
        "faces": [6],
        "total": 6,
        "supplied": True,
    }


def test_a_bow_is_never_answered_even_at_arm_s_length(client: TestClient) -> None:
    elf = sheet(race="elf", grace=3, evasion=2, weapons=[SWORD])
    fight = Fight(client, ("lia", elf, "a", 1), ("archer", sheet(weapons=[BOW]), "b", 1))
    fight.act("riposte", "lia", effort=1)
    result = fight.act(
        "attack",
        "archer",
        fight.dice(
            attack=[1, 2],
            defense__lia__evasion=[6, 6, 6, 6, 1, 1, 1],
            defense__lia__guard=[2, 2],
        ),
        target="lia",
        weapon="bow",
    )
    riposte = result["action"]["breakdown"]["riposte"]
    assert result["action"]["breakdown"]["distance"]["value"] == 1
    assert riposte["answered"] is False
    assert fight.health(result, "archer") == 14


def test_a_reach_attacker_one_rank_back_is_answered_only_by_an_elf_who_reaches(
    client: TestClient,
) -> None:
    pikeman = sheet(might=3, melee=2, weapons=[HALBERD])
    answered = {}
    for elf_weapon in (SWORD, SPEAR):
        elf = sheet(race="elf", grace=3, evasion=2, weapons=[elf_weapon])
        fight = Fight(
            client, ("elf", elf, "a", 1), ("wall", sheet(), "b", 1), ("pikeman", pikeman, "b", 2)
        )
        fight.act("riposte", "elf", effort=1)
        result = fight.act(
            "attack",
            "pikeman",
            fight.dice(
                attack=[6, 1, 1, 1, 2],
                defense__elf__evasion=[6, 6, 6, 1, 1, 1, 2],
                defense__elf__guard=[2, 2],
            ),
            target="elf",
            weapon="halberd",
        )
        answered[elf_weapon["name"]] = result["action"]["breakdown"]["riposte"]["answered"]
    assert answered == {"sword": False, "spear": True}


def test_a_ward_never_makes_a_blow_land(client: TestClient) -> None:
    dwarf = sheet(
        race="dwarf", grace=1, vigor=3, evasion=1, guard=3, armor=[{"name": "mail", "rating": 4}]
    )
    fight = Fight(
        client,
        ("orc", sheet(might=3, melee=2, weapons=[SWORD]), "b", 1),
        ("thrain", dwarf, "a", 1),
        ("ally", sheet(health=20), "a", 1),
    )
    fight.act("ward", "thrain", effort=1)
    result = fight.act(
        "attack",
        "orc",
        fight.dice(
            attack=[6, 1, 1, 1, 2],
            defense__ally__evasion=blanks(2),
            defense__ally__guard=blanks(2),
            ward__thrain__evasion=[1, 1, 1],
            ward__thrain__guard=[1] * 7,
        ),
        target="ally",
        weapon="sword",
    )
    ward = result["action"]["breakdown"]["ward"]
    assert ward["totals"] == [0, 0] and ward["remaining"] == ward["margin_before"] == 1
    assert fight.health(result, "ally") == 20
    assert fight.health(result, "thrain") == 14  # 3 x 0.6561 = 1.97 -> 2, through his mail


def test_refusals_come_back_as_409_and_bad_input_as_422(client: TestClient) -> None:
    fight = Fight(client, ("a", sheet(weapons=[SWORD]), "x", 1), ("b", sheet(), "y", 2))
    too_far = act_response(
        client,
        fight.cid,
        fight.eid,
        "attack",
        fight.ids["a"],
        target=fight.ids["b"],
        weapon="sword",
    )
    assert too_far.status_code == 409
    assert too_far.json()["message"] == (
        "a cannot attack b: sword (melee) reaches only 1; distance is 2"
    )
    not_a_dwarf = act_response(client, fight.cid, fight.eid, "ward", fight.ids["a"])
    assert not_a_dwarf.status_code == 409
    unknown = act_response(
        client, fight.cid, fight.eid, "attack", fight.ids["a"], target=fight.ids["b"], weapon="maul"
    )
    assert unknown.status_code == 422
    assert "their weapons: sword, fists" in unknown.json()["message"]


def test_voiding_a_defend_refits_the_later_attack_to_passive_pools(client: TestClient) -> None:
    raider = sheet(might=3, melee=2, weapons=[SWORD])
    fight = Fight(
        client,
        ("r0", raider, "raiders", 1),
        ("guardian", sheet(evasion=2, guard=2, health=30), "keep", 1),
    )
    fight.act("defend", "guardian", effort=1)
    fight.act(
        "attack",
        "r0",
        fight.dice(
            attack=[6, 6, 6, 6, 6],
            defense__guardian__evasion=[6, 5, 1, 2, 3],
            defense__guardian__guard=[6, 2, 2, 2, 2],
        ),
        target="guardian",
        weapon="sword",
    )
    path = f"/campaigns/{fight.cid}/encounters/{fight.eid}/actions/1/void"
    voided = ok(client.post(path, json={"reason": "the guardian was asleep"}))
    (line,) = voided["report"]
    assert line["status"] == "changed"
    assert line["refitted_rolls"] == {
        f"defense.{fight.ids['guardian']}.evasion": "5 dice recorded, 2 needed now: kept 2",
        f"defense.{fight.ids['guardian']}.guard": "5 dice recorded, 2 needed now: kept 2",
    }
    attack = voided["encounter"]["actions"][1]
    rolls = attack["breakdown"]["defense"]["rolls"]
    assert [(r["mode"], r["pool"]["dice"]) for r in rolls] == [("passive", 2), ("passive", 2)]
    assert attack["breakdown"]["margin"]["value"] == 5 - 2 - 1


def test_round_marks_do_not_follow_a_character_into_the_next_encounter(
    client: TestClient,
) -> None:
    fight = Fight(client, ("guardian", sheet(evasion=2, guard=2), "keep", 1))
    fight.act("defend", "guardian", effort=1)
    ok(client.post(f"/campaigns/{fight.cid}/encounters/{fight.eid}/end"))
    again = start(
        client,
        fight.cid,
        [{"character_id": fight.ids["guardian"], "side": "keep", "rank": 1}],
        name="Next",
    )
    result = act(client, fight.cid, again, "defend", fight.ids["guardian"], effort=0)
    assert result["action"]["kind"] == "defend"
