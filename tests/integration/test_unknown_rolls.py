"""Dice for a roll the action never makes are refused (issue 26 item 5): every action of
every ruleset, brought to where it would resolve, answers 422 naming the unknown roll
as the caller wrote it and listing the rolls the action takes, and writes nothing.
A roll the action may make but did not (damage after a miss) is still taken."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from skald_campaign.domain.rulesets import RULESETS
from tests.helpers import act, enrol, event_count, new_campaign, next_round, ok, start
from tests.integration.test_d20_api import d20_sheet
from tests.integration.test_margin_api import FIREBOLT, SWORD
from tests.integration.test_margin_api import sheet as margin_sheet

SPEAR = {"name": "spear", "damage_class": 2, "damage_type": "piercing", "skill": 14}
SHEETS: dict[str, dict[str, Any]] = {
    "stamina-body": {
        "st": 12, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10,
        "weapons": [SPEAR],
    },
    "margin": margin_sheet(weapons=[SWORD], spells=[FIREBOLT]),
    "d20": d20_sheet(),
}  # fmt: skip
ELF = {"ann": {**SHEETS["margin"], "race": "elf"}}
DWARF = {"ann": {**SHEETS["margin"], "race": "dwarf"}}
FRAIL = {"bo": {**SHEETS["stamina-body"], "body_max": 1}}
HEAVY_HIT = {"damage_type": "impact", "damage_class": 3}


def knock_out_bo(table: Table) -> None:
    table.act("take_hit", None, {"damage": [6]}, target=table.bo, damage_type="piercing",
              damage_class=1)  # fmt: skip


class Table:
    """Ann and Bo in a fresh fight of the ruleset; ``lead`` brings it to the action."""

    def __init__(self, client: TestClient, ruleset: str, sheets: dict[str, Any] | None = None):
        self.client = client
        self.cid = new_campaign(client, ruleset)
        sheets = sheets or {}
        self.ann = enrol(client, self.cid, "Ann", sheets.get("ann", SHEETS[ruleset]))
        self.bo = enrol(client, self.cid, "Bo", sheets.get("bo", SHEETS[ruleset]))
        lineup = [{"character_id": self.ann, "side": "x"}, {"character_id": self.bo, "side": "y"}]
        self.eid = start(client, self.cid, lineup)

    def act(self, kind: str, actor: str | None, dice: dict[str, list[int]], **params: Any) -> Any:
        return act(self.client, self.cid, self.eid, kind, actor, dice, **params)

    def round(self) -> None:
        next_round(self.client, self.cid, self.eid)


# (ruleset, kind) -> (sheets other than the usual, how to get there, actor, params,
# the rolls it takes)
Lead = Any
CASES: dict[tuple[str, str], tuple[Any, Lead, str | None, dict[str, Any], str]] = {
    ("stamina-body", "attack"): (
        None, None, "ann", {"target": "bo", "weapon": "spear", "defense": "none"},
        "hit (Ann's hit), damage (Ann's damage)",
    ),
    ("stamina-body", "take_hit"): (
        None, None, None, {"target": "bo", **HEAVY_HIT}, "damage (Bo's damage)",
    ),
    ("stamina-body", "mark_wound"): (
        None, None, None, {"target": "bo", "wound": "broken_bones"}, "none",
    ),
    ("stamina-body", "recover"): (None, None, "ann", {}, "recovery (Ann's recovery)"),
    ("stamina-body", "treat_wound"): (
        None,
        lambda t: t.act("mark_wound", None, {}, target=t.bo, wound="piercing_wound"),
        "ann", {"target": "bo"}, "none",
    ),
    ("stamina-body", "bleed"): (FRAIL, knock_out_bo, None, {}, "none"),
    ("stamina-body", "stabilise"): (FRAIL, knock_out_bo, "ann", {"target": "bo"}, "none"),
    ("margin", "attack"): (
        None, None, "ann", {"target": "bo", "weapon": "sword"},
        "attack (Ann's attack), defense.{bo}.evasion (Bo's evasion), "
        "defense.{bo}.guard (Bo's guard)",
    ),
    ("margin", "cast"): (
        None, None, "ann", {"target": "bo", "spell": "firebolt"},
        "attack (Ann's attack), defense.{bo}.evasion (Bo's evasion), "
        "defense.{bo}.guard (Bo's guard), defense.{bo}.abjuration (Bo's abjuration)",
    ),
    ("margin", "defend"): (None, None, "ann", {}, "none"),
    ("margin", "riposte"): (ELF, None, "ann", {}, "none"),
    ("margin", "ward"): (DWARF, None, "ann", {}, "none"),
    ("d20", "attack"): (
        None, None, "ann", {"target": "bo", "weapon": "Bastard Sword"},
        "hit (Ann's hit), damage (Ann's damage)",
    ),
    ("d20", "defensive_stance"): (None, None, "ann", {}, "none"),
    ("d20", "grapple"): (None, None, "ann", {"target": "bo"}, "grapple (Ann's grapple)"),
    ("d20", "shove"): (None, None, "ann", {"target": "bo"}, "shove (Ann's shove)"),
    ("d20", "trip"): (None, None, "ann", {"target": "bo"}, "trip (Ann's trip)"),
    ("d20", "maintain"): (
        None,
        lambda t: (t.act("grapple", t.ann, {"grapple": [20]}, target=t.bo), t.round()),
        "ann", {}, "maintain (Ann's maintain)",
    ),
    ("d20", "release"): (
        None, lambda t: (t.act("grapple", t.ann, {"grapple": [20]}, target=t.bo), t.round()),
        "ann", {}, "none",
    ),
    ("d20", "throw"): (
        None, lambda t: (t.act("grapple", t.ann, {"grapple": [20]}, target=t.bo), t.round()),
        "ann", {}, "throw (Ann's throw), throw_damage (Ann's throw damage)",
    ),
    ("d20", "escape"): (
        None, lambda t: t.act("grapple", t.ann, {"grapple": [20]}, target=t.bo),
        "bo", {}, "escape (Bo's escape)",
    ),
    ("d20", "stand_up"): (
        None, lambda t: t.act("trip", t.ann, {"trip": [20]}, target=t.bo), "bo", {}, "none",
    ),
}  # fmt: skip


def test_every_action_of_every_ruleset_is_covered() -> None:
    every = {(r.id, kind) for r in RULESETS.values() for kind in r.actions}
    assert set(CASES) == every


@pytest.mark.parametrize("case", sorted(CASES), ids=lambda c: f"{c[0]}-{c[1]}")
@pytest.mark.parametrize("name", ["nonsense", "Damage"])
def test_dice_for_a_roll_the_action_never_makes_are_refused(
    client: TestClient, case: tuple[str, str], name: str
) -> None:
    ruleset, kind = case
    sheets, lead, actor, params, takes = CASES[case]
    table = Table(client, ruleset, sheets)
    if lead is not None:
        lead(table)
    who = {"ann": table.ann, "bo": table.bo}
    params = {k: who.get(v, v) if k == "target" else v for k, v in params.items()}
    body = {"kind": kind, "actor": who.get(actor or ""), "params": params, "dice": {name: [3]}}
    before = event_count(client)
    path = f"/campaigns/{table.cid}/encounters/{table.eid}/actions"
    refused = client.post(path, json=body)
    assert refused.status_code == 422, refused.text
    message = refused.json()["message"]
    assert message.startswith(
        f"dice were supplied for '{name}', which this {kind.replace('_', ' ')} never rolls; "
    ), message
    assert message.endswith(f"the rolls it takes: {takes.format(bo=table.bo)}"), message
    assert event_count(client) == before
    # Without the unknown roll the same action goes through: the refusal was the dice's.
    done = client.post(path, json={**body, "dice": None})
    assert done.status_code in (201, 202), done.text


def test_dice_for_a_roll_that_did_not_follow_are_still_taken(client: TestClient) -> None:
    table = Table(client, "stamina-body")
    missed = table.act("attack", table.ann, {"hit": [6, 6, 6], "damage": [3, 3]},
                       target=table.bo, weapon="spear", defense="none")  # fmt: skip
    assert missed["action"]["breakdown"]["unused_dice"] == {"damage": [3, 3]}
    assert [r["name"] for r in missed["action"]["rolls"]] == ["hit"]
    ok(client.get(f"/campaigns/{table.cid}/encounters/{table.eid}"))


def test_an_attack_that_waits_refuses_unknown_dice_when_opened_and_when_declared(
    client: TestClient,
) -> None:
    table = Table(client, "stamina-body")
    path = f"/campaigns/{table.cid}/encounters/{table.eid}"
    attack = {"kind": "attack", "actor": table.ann, "params": {"target": table.bo,
              "weapon": "spear"}}  # fmt: skip
    before = event_count(client)
    bogus = {"hit": [2, 2, 3], "Parry": [3, 3, 3]}
    opened = client.post(f"{path}/actions", json={**attack, "dice": bogus})
    assert opened.status_code == 422, opened.text
    assert opened.json()["message"] == (
        "dice were supplied for 'Parry', which this attack never rolls; the rolls it takes: "
        "hit (Ann's hit), defense (Bo's parry), damage (Ann's damage), "
        "defense (Bo's dodge)"
    )
    assert event_count(client) == before
    waiting = client.post(f"{path}/actions", json={**attack, "dice": {"hit": [2, 2, 3]}})
    assert waiting.status_code == 202, waiting.text
    count = event_count(client)
    declared = client.post(f"{path}/exchanges/1/declare",
                           json={"choice": "parry", "dice": {"nonsense": [3]}})  # fmt: skip
    assert declared.status_code == 422, declared.text
    assert declared.json()["message"].startswith(
        "dice were supplied for 'nonsense', which this attack never rolls; the rolls it takes: "
    )
    assert event_count(client) == count
    ok(client.post(f"{path}/exchanges/1/declare", json={"choice": "parry"}), 201)
