"""Seed 001 through the API: every table reading, both worked examples, attacks,
conditions, recovery and refusals."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.helpers import act, act_response, enrol, event_count, new_campaign, start

NO_ARMOUR = {"st": 8, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10}
KNIGHT = {
    **NO_ARMOUR,
    "st": 13,
    "armour_resilience": 2,
    "shield_resilience": 2,
    "weapons": [
        {"name": "longsword", "damage_class": 3, "damage_type": "piercing", "skill": 13},
        {"name": "mace", "damage_class": 2, "damage_type": "impact", "skill": 12},
    ],
}


class Table:
    def __init__(self, client: TestClient, **sheets: dict[str, Any]) -> None:
        self.client = client
        self.cid = new_campaign(client, "stamina-body")
        self.ids = {
            name: enrol(client, self.cid, name.title(), sheet) for name, sheet in sheets.items()
        }
        self.eid = start(
            client,
            self.cid,
            [
                {"character_id": cid, "side": f"side-{n}", "rank": 1}
                for n, cid in enumerate(self.ids.values())
            ],
        )

    def act(
        self,
        kind: str,
        actor: str | None = None,
        dice: dict[str, list[int]] | None = None,
        **params: Any,
    ) -> Any:
        return act(
            self.client,
            self.cid,
            self.eid,
            kind,
            self.ids[actor] if actor else None,
            dice,
            **params,
        )

    def refused(
        self,
        kind: str,
        actor: str | None = None,
        dice: dict[str, list[int]] | None = None,
        **params: Any,
    ) -> Any:
        before = event_count(self.client)
        response = act_response(
            self.client,
            self.cid,
            self.eid,
            kind,
            self.ids[actor] if actor else None,
            dice,
            **params,
        )
        assert event_count(self.client) == before
        return response

    def who(self, result: Any, name: str) -> Any:
        return next(c for c in result["encounter"]["combatants"] if c["id"] == self.ids[name])


TABLE_ROWS = [
    ("impact", face, s, b)
    for face, s, b in [(1, 1, 0), (2, 1, 0), (3, 2, 0), (4, 3, 0), (5, 4, 0), (6, 5, 1)]
] + [
    ("piercing", face, s, b)
    for face, s, b in [(1, 1, 0), (2, 1, 0), (3, 1, 0), (4, 2, 1), (5, 3, 1), (6, 4, 2)]
]


@pytest.mark.parametrize(
    ("table", "face", "stamina", "body"), TABLE_ROWS, ids=[f"{t}-{f}" for t, f, _, _ in TABLE_ROWS]
)
def test_every_table_reading_through_the_api(
    client: TestClient, table: str, face: int, stamina: int, body: int
) -> None:
    t = Table(client, bare=NO_ARMOUR)
    result = t.act(
        "take_hit", dice={"damage": [face]}, target=t.ids["bare"], damage_type=table, damage_class=1
    )
    assert result["action"]["breakdown"]["reading"]["readings"] == [
        {"die": face, "stamina": stamina, "body": body}
    ]
    assert t.who(result, "bare")["tracks"] == {"stamina": 12 - stamina, "body": 10 - body}


def test_worked_example_longsword_2_4_6_through_resilience_4(client: TestClient) -> None:
    t = Table(client, knight=KNIGHT)
    result = t.act(
        "take_hit",
        dice={"damage": [2, 4, 6]},
        target=t.ids["knight"],
        damage_type="piercing",
        damage_class=3,
        parried=True,
        hit_score=3,
        parry_score=1,
    )
    breakdown = result["action"]["breakdown"]
    assert breakdown["reading"]["raw"] == {"stamina": 7, "body": 3}
    assert breakdown["resilience"]["total"] == 4
    assert [s["pool"] for s in breakdown["absorption"]["steps"]] == [
        "body",
        "stamina",
        "body",
        "stamina",
    ]
    assert breakdown["absorption"]["net"] == {"stamina": 5, "body": 1}


def test_an_attack_that_misses_rolls_no_defense_and_no_damage(client: TestClient) -> None:
    t = Table(client, knight=KNIGHT, bare=NO_ARMOUR)
    result = t.act(
        "attack",
        "knight",
        {"hit": [6, 6, 5]},
        target=t.ids["bare"],
        weapon="longsword",
        defense="parry",
    )
    assert result["action"]["breakdown"]["result"] == "missed"
    assert [r["name"] for r in result["action"]["rolls"]] == ["hit"]
    assert t.who(result, "bare")["tracks"] == {"stamina": 12, "body": 10}


def test_a_parry_scoring_at_least_the_hit_score_stops_the_attack(client: TestClient) -> None:
    t = Table(client, knight=KNIGHT, bare=NO_ARMOUR)
    # hit 9 vs 13: score 4; parry 7 vs 11: score 4 -> stopped.
    result = t.act(
        "attack",
        "knight",
        {"hit": [3, 3, 3], "defense": [2, 2, 3]},
        target=t.ids["bare"],
        weapon="longsword",
        defense="parry",
    )
    assert result["action"]["breakdown"]["result"] == "parried"
    assert t.who(result, "bare")["tracks"] == {"stamina": 12, "body": 10}


def test_a_dodge_that_succeeds_but_scores_less_lets_the_blow_land(client: TestClient) -> None:
    t = Table(client, knight=KNIGHT, bare=NO_ARMOUR)
    # hit 6 vs 13: score 7; dodge 8 vs 10: score 2 -> lands, no shield (not a parry).
    result = t.act(
        "attack",
        "knight",
        {"hit": [2, 2, 2], "defense": [2, 3, 3], "damage": [1, 1, 1]},
        target=t.ids["bare"],
        weapon="longsword",
        defense="dodge",
    )
    breakdown = result["action"]["breakdown"]
    assert breakdown["result"] == "landed"
    assert breakdown["damage"]["shield"]["counts"] is False
    assert t.who(result, "bare")["tracks"] == {"stamina": 9, "body": 10}


def test_the_shield_joins_when_the_hit_beats_the_parry_by_two(client: TestClient) -> None:
    t = Table(client, knight=KNIGHT, target=KNIGHT)
    # hit 7 vs 13: score 6; parry 7 vs 11: score 4; 6 - 4 = 2 -> shield counts (2 + 2).
    result = t.act(
        "attack",
        "knight",
        {"hit": [2, 2, 3], "defense": [2, 2, 3], "damage": [2, 4, 6]},
        target=t.ids["target"],
        weapon="longsword",
        defense="parry",
    )
    damage = result["action"]["breakdown"]["damage"]
    assert damage["shield"]["counts"] is True
    assert damage["resilience"]["total"] == 4
    assert damage["absorption"]["net"] == {"stamina": 5, "body": 1}


def test_the_shield_is_bypassed_when_the_hit_beats_the_parry_by_three(client: TestClient) -> None:
    t = Table(client, knight=KNIGHT, target=KNIGHT)
    # hit 6 vs 13: score 7; parry 7 vs 11: score 4; 7 - 4 = 3 -> armour only.
    result = t.act(
        "attack",
        "knight",
        {"hit": [2, 2, 2], "defense": [2, 2, 3], "damage": [2, 4, 6]},
        target=t.ids["target"],
        weapon="longsword",
        defense="parry",
    )
    damage = result["action"]["breakdown"]["damage"]
    assert damage["shield"]["counts"] is False
    assert damage["resilience"]["total"] == 2
    assert damage["absorption"]["net"] == {"stamina": 6, "body": 2}


def test_ignore_armour_and_ignore_shield_on_the_take_hit_panel(client: TestClient) -> None:
    t = Table(client, knight=KNIGHT)
    result = t.act(
        "take_hit",
        dice={"damage": [6]},
        target=t.ids["knight"],
        damage_type="impact",
        damage_class=1,
        parried=True,
        hit_score=3,
        parry_score=2,
        ignore_armour=True,
        ignore_shield=True,
    )
    # The parry counts (3 - 2 <= 2), so the shield would soak: ignore_shield removes it.
    assert result["action"]["breakdown"]["shield"]["counts"] is True
    assert result["action"]["breakdown"]["resilience"]["notes"] == [
        "ignore armour: armour resilience 2 removed",
        "ignore shield: shield resilience 2 removed",
    ]
    assert result["action"]["breakdown"]["resilience"]["total"] == 0
    assert t.who(result, "knight")["tracks"] == {"stamina": 7, "body": 9}


def test_unarmed_rolls_strength_over_four_impact_dice(client: TestClient) -> None:
    t = Table(client, knight=KNIGHT, bare=NO_ARMOUR)
    result = t.act(
        "attack",
        "knight",
        {"hit": [1, 2, 2], "damage": [6, 6, 6]},
        target=t.ids["bare"],
        defense="none",
    )
    damage = result["action"]["breakdown"]["damage"]
    assert damage["damage_dice"]["count"] == 3  # ST 13 // 4
    assert damage["reading"]["table"] == "impact"


def test_set_weapon_charge_and_extra_strength_each_add_a_die(client: TestClient) -> None:
    t = Table(client, knight=KNIGHT, bare=NO_ARMOUR)
    result = t.act(
        "attack",
        "knight",
        {"hit": [1, 2, 2], "damage": [1, 1, 1, 1, 1, 1]},
        target=t.ids["bare"],
        weapon="longsword",
        set_weapon=True,
        charge=True,
        extra_strength=True,
        defense="none",
    )
    assert result["action"]["breakdown"]["damage"]["damage_dice"]["count"] == 6


def test_conditions_stunned_unconscious_and_cannot_act(client: TestClient) -> None:
    t = Table(client, bare={**NO_ARMOUR, "stamina_max": 3, "body_max": 1})
    hit = t.act(
        "take_hit",
        dice={"damage": [6]},
        target=t.ids["bare"],
        damage_type="piercing",
        damage_class=1,
    )
    assert t.who(hit, "bare")["tracks"] == {"stamina": -1, "body": -1}
    assert t.who(hit, "bare")["conditions"] == [
        "stunned",
        "unconscious",
        "cannot_act",
        "piercing_wound",
    ]


def test_body_at_zero_cannot_act_but_is_not_unconscious(client: TestClient) -> None:
    t = Table(client, bare={**NO_ARMOUR, "body_max": 1})
    hit = t.act(
        "take_hit", dice={"damage": [6]}, target=t.ids["bare"], damage_type="impact", damage_class=1
    )
    assert t.who(hit, "bare")["conditions"] == ["cannot_act"]


def test_a_piercing_hit_soaked_before_body_leaves_no_wound(client: TestClient) -> None:
    t = Table(client, knight=KNIGHT)
    hit = t.act(
        "take_hit",
        dice={"damage": [4]},
        target=t.ids["knight"],
        damage_type="piercing",
        damage_class=1,
    )
    assert hit["action"]["breakdown"]["piercing_wound"] is False
    assert t.who(hit, "knight")["conditions"] == []


def test_treating_clears_a_piercing_wound_and_the_gm_marks_broken_bones(
    client: TestClient,
) -> None:
    t = Table(client, bare=NO_ARMOUR)
    t.act(
        "take_hit",
        dice={"damage": [6]},
        target=t.ids["bare"],
        damage_type="piercing",
        damage_class=1,
    )
    treated = t.act("treat_wound", target=t.ids["bare"], reason="bandaged by Mira")
    assert "piercing_wound" not in t.who(treated, "bare")["conditions"]
    marked = t.act("mark_wound", target=t.ids["bare"], wound="broken_bones", reason="fell")
    assert t.who(marked, "bare")["conditions"] == ["broken_bones"]
    again = t.refused("treat_wound", target=t.ids["bare"])
    assert again.status_code == 409
    assert "no untreated piercing wound" in again.json()["message"]


@pytest.mark.parametrize(
    ("faces", "gain", "why"),
    [
        ([6, 6, 6], 0, "natural 18"),
        ([6, 6, 1], 1, "failure"),
        ([3, 3, 3], 3, "success by 3"),
        ([4, 4, 4], 1, "success by 0"),
    ],
)
def test_recovery_outcomes(client: TestClient, faces: list[int], gain: int, why: str) -> None:
    t = Table(client, bare=NO_ARMOUR)
    t.act(
        "take_hit",
        dice={"damage": [6, 6]},
        target=t.ids["bare"],
        damage_type="impact",
        damage_class=2,
    )  # 12 -> 2 Stamina, 10 -> 8 Body
    result = t.act("recover", "bare", {"recovery": faces})
    breakdown = result["action"]["breakdown"]
    assert breakdown["gain"] == gain
    assert why in breakdown["why"]
    assert t.who(result, "bare")["tracks"] == {"stamina": 2 + gain, "body": 8}


def test_recovery_never_passes_max_stamina(client: TestClient) -> None:
    t = Table(client, bare=NO_ARMOUR)
    t.act(
        "take_hit", dice={"damage": [1]}, target=t.ids["bare"], damage_type="impact", damage_class=1
    )
    result = t.act("recover", "bare", {"recovery": [1, 1, 1]})
    assert t.who(result, "bare")["tracks"]["stamina"] == 12
    assert result["action"]["breakdown"]["capped"] is True


def test_an_unconscious_character_cannot_attack_or_recover(client: TestClient) -> None:
    t = Table(client, bare={**NO_ARMOUR, "body_max": 1}, knight=KNIGHT)
    t.act(
        "take_hit",
        dice={"damage": [6]},
        target=t.ids["bare"],
        damage_type="piercing",
        damage_class=1,
    )
    for kind, params in (("attack", {"target": t.ids["knight"]}), ("recover", {})):
        response = t.refused(kind, "bare", **params)
        assert response.status_code == 409
        assert response.json()["message"] == (f"Bare cannot {kind}: unconscious and cannot_act")


def test_an_unconscious_defender_cannot_parry(client: TestClient) -> None:
    t = Table(client, bare={**NO_ARMOUR, "body_max": 1}, knight=KNIGHT)
    t.act(
        "take_hit",
        dice={"damage": [6]},
        target=t.ids["bare"],
        damage_type="piercing",
        damage_class=1,
    )
    result = t.act(
        "attack",
        "knight",
        {"hit": [1, 2, 2], "damage": [1, 1]},
        target=t.ids["bare"],
        weapon="mace",
        defense="parry",
    )
    defense = result["action"]["breakdown"]["defense"]
    assert defense["rolled"] is False
    assert "cannot parry" in defense["why"]


def test_an_unknown_weapon_is_named_in_the_refusal(client: TestClient) -> None:
    t = Table(client, knight=KNIGHT, bare=NO_ARMOUR)
    response = t.refused("attack", "knight", target=t.ids["bare"], weapon="halberd")
    assert response.status_code == 422
    assert "no weapon 'halberd'" in response.json()["message"]
