"""Issue 38: a command asks its ruleset's ``conditions()`` at most once per combatant it
touches, and not at all for the others; counted through the real API (the fast path of
an action, the routes of the rest) with each built-in ruleset's conditions counted per
character, registered in place of the built-in (``RULESETS.added``).

The API runs without its workers (the ``client`` fixture): what is counted is the
command's own work, its resolution, its events' application and its answer, not a
projection runner's. Each count is of one request, exact: 1 for a combatant whose values
the command changed, 0 for everyone else (their conditions were worked out by an
earlier command and are reused: domain/play/standing.py)."""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any, TypeVar

import pytest
from fastapi.testclient import TestClient

from skald_campaign.domain.rulesets import RULESETS
from skald_campaign.domain.rulesets.base import JsonMapping, Ruleset, SheetLike
from skald_campaign.domain.rulesets.d20 import D20
from skald_campaign.domain.rulesets.margin import Margin
from skald_campaign.domain.rulesets.stamina_body import StaminaBody
from tests.helpers import GM, act, enrol, new_campaign, next_round, ok, start
from tests.integration.test_d20_api import d20_sheet
from tests.integration.test_margin_api import SWORD, Fight, sheet

R = TypeVar("R", bound=Ruleset)


class Calls:
    """The rules' ``conditions()`` calls, by the name of the character whose sheet it
    read (each character of a test has a sheet of their own)."""

    def __init__(self) -> None:
        self.by_sheet: Counter[str] = Counter()
        self.names: dict[str, str] = {}

    def key(self, rules: Ruleset, sheet: SheetLike) -> str:
        return json.dumps(rules.sheet(sheet).model_dump(mode="json"), sort_keys=True)

    def named(self, name: str, stored_sheet: Mapping[str, Any]) -> None:
        self.names[json.dumps(stored_sheet, sort_keys=True)] = name

    def take(self) -> dict[str, int]:
        """The calls since the last take, by name (a sheet of no one's fails the test)."""
        taken = {self.names[key]: n for key, n in self.by_sheet.items()}
        self.by_sheet.clear()
        return taken


CALLS = Calls()


def counting(base: type[R]) -> R:
    """The built-in ruleset ``base``, its ``conditions()`` counted; under any options too
    (margin makes one ruleset object per campaign's options: each is counted, and the
    same object is given for the same options, as margin's own cache does)."""

    class Counting(base):  # type: ignore[valid-type,misc]
        def conditions(
            self, sheet: SheetLike, tracks: Mapping[str, int], state: JsonMapping
        ) -> tuple[str, ...]:
            CALLS.by_sheet[CALLS.key(self, sheet)] += 1
            found: tuple[str, ...] = super().conditions(sheet, tracks, state)
            return found

        def under(self, options: JsonMapping) -> Ruleset:
            made = super().under(options)
            if made is self or isinstance(made, Counting):
                return made
            key = id(made)
            if key not in configured:
                counted = copy.copy(made)
                counted.__class__ = Counting
                configured[key] = (made, counted)
            return configured[key][1]

    configured: dict[int, tuple[Ruleset, Ruleset]] = {}
    ruleset: R = Counting()
    return ruleset


@pytest.fixture
def counted(request: pytest.FixtureRequest) -> Iterator[None]:
    """The three built-ins counted for the test's length; the counts start empty."""
    with (
        RULESETS.added(counting(D20)),
        RULESETS.added(counting(Margin)),
        RULESETS.added(counting(StaminaBody)),
    ):
        CALLS.by_sheet.clear()
        CALLS.names.clear()
        yield


def enrolled(client: TestClient, cid: str, name: str, given: dict[str, Any]) -> str:
    """Enrol a character and name their stored sheet for the counts."""
    character_id = enrol(client, cid, name, given)
    stored = ok(client.get(f"/campaigns/{cid}/characters/{character_id}"))["sheet"]
    CALLS.named(name, stored)
    return character_id


@pytest.mark.usefixtures("counted")
def test_a_d20_attack_that_downs_its_target_works_out_the_target_s_conditions_once(
    client: TestClient,
) -> None:
    cid = new_campaign(client, "d20")
    aldric = enrolled(client, cid, "Aldric", d20_sheet())
    grimm = enrolled(client, cid, "Grimm", d20_sheet(hp=5))
    CALLS.take()
    lineup = [{"character_id": aldric, "side": "a"}, {"character_id": grimm, "side": "b"}]
    eid = start(client, cid, lineup)
    assert CALLS.take() == {"Aldric": 1, "Grimm": 1}  # both enter the fight

    result = act(
        client,
        cid,
        eid,
        "attack",
        aldric,
        {"hit": [11], "damage": [9]},
        target=grimm,
        weapon="Bastard Sword",
    )
    assert result["action"]["conditions"] == {grimm: {"before": [], "after": ["down"]}}
    assert CALLS.take() == {"Grimm": 1}
    next_round(client, cid, eid)
    assert CALLS.take() == {}

    # A miss touches no one: nobody's conditions are asked for.
    missed = act(
        client,
        cid,
        eid,
        "attack",
        aldric,
        {"hit": [1]},
        target=grimm,
        weapon="Bastard Sword",
    )
    assert missed["action"]["conditions"] == {}
    assert CALLS.take() == {}


@pytest.mark.usefixtures("counted")
def test_a_margin_attack_against_two_defenses_works_out_the_defender_s_once(
    client: TestClient,
) -> None:
    raider = sheet(might=3, melee=2, weapons=[SWORD])
    guardian = sheet(evasion=2, guard=2, health=30)
    fight = Fight(client, ("raider", raider, "raiders", 1), ("guardian", guardian, "keep", 1))
    for name in ("raider", "guardian"):
        path = f"/campaigns/{fight.cid}/characters/{fight.ids[name]}"
        CALLS.named(name, ok(client.get(path))["sheet"])
    CALLS.take()

    fight.act("defend", "guardian", effort=1)
    assert CALLS.take() == {"guardian": 1}  # the defend posture is the guardian's state
    result = fight.act(
        "attack",
        "raider",
        fight.dice(
            attack=[6, 6, 6, 6, 6],
            defense__guardian__evasion=[6, 5, 1, 2, 3],
            defense__guardian__guard=[6, 2, 2, 2, 2],
        ),
        target="guardian",
        weapon="sword",
    )
    rolls = result["action"]["breakdown"]["defense"]["rolls"]
    assert [(r["defense"], r["mode"]) for r in rolls] == [
        ("evasion", "active"),
        ("guard", "active"),
    ]
    # The blow takes the guardian's health; the raider's state marks the round it acted.
    effects = result["action"]["effects"]
    assert (sorted(effects["tracks"]), sorted(effects["state"])) == (
        [fight.ids["guardian"]],
        [fight.ids["raider"]],
    )
    assert CALLS.take() == {"raider": 1, "guardian": 1}


STAMINA_BODY = {"st": 8, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10}


@pytest.mark.usefixtures("counted")
def test_take_hit_and_recover_work_out_the_touched_combatant_s_once(client: TestClient) -> None:
    cid = new_campaign(client, "stamina-body")
    bare = enrolled(client, cid, "Bare", STAMINA_BODY)
    other = enrolled(client, cid, "Other", {**STAMINA_BODY, "st": 9})
    lineup = [{"character_id": bare, "side": "a"}, {"character_id": other, "side": "b"}]
    eid = start(client, cid, lineup)
    CALLS.take()

    hit = {"target": bare, "damage_type": "impact", "damage_class": 2}
    act(client, cid, eid, "take_hit", None, {"damage": [6, 6]}, **hit)  # 12 -> 2 Stamina
    assert CALLS.take() == {"Bare": 1}
    recovered = act(client, cid, eid, "recover", bare, {"recovery": [3, 3, 3]})
    assert recovered["action"]["breakdown"]["gain"] == 3
    assert CALLS.take() == {"Bare": 1}


@pytest.mark.usefixtures("counted")
def test_a_track_change_in_a_fight_and_between_fights_works_out_the_character_s_once(
    client: TestClient,
) -> None:
    cid = new_campaign(client, "stamina-body")
    bare = enrolled(client, cid, "Bare", STAMINA_BODY)
    other = enrolled(client, cid, "Other", {**STAMINA_BODY, "st": 9})
    CALLS.take()

    body = {"set": {"stamina": 3}, "reason": "a ruling"}
    changed = ok(client.post(f"/campaigns/{cid}/characters/{bare}/tracks", json=body, headers=GM))
    assert changed["character"]["tracks"] == {"stamina": 3, "body": 10}
    assert CALLS.take() == {"Bare": 1}

    start(client, cid, [{"character_id": bare, "side": "a"}, {"character_id": other, "side": "b"}])
    assert CALLS.take() == {"Bare": 1, "Other": 1}
    body = {"adjust": {"stamina": -5}, "reason": "a trap"}
    changed = ok(client.post(f"/campaigns/{cid}/characters/{bare}/tracks", json=body, headers=GM))
    assert changed["record"]["conditions"] == {bare: {"before": [], "after": ["stunned"]}}
    assert CALLS.take() == {"Bare": 1}


@pytest.mark.usefixtures("counted")
def test_a_void_and_a_reroll_work_out_each_touched_combatant_s_once(client: TestClient) -> None:
    cid = new_campaign(client, "d20")
    aldric = enrolled(client, cid, "Aldric", d20_sheet())
    grimm = enrolled(client, cid, "Grimm", d20_sheet(hp=8))
    eid = start(
        client, cid, [{"character_id": aldric, "side": "a"}, {"character_id": grimm, "side": "b"}]
    )
    swing = {"target": grimm, "weapon": "Bastard Sword"}
    act(client, cid, eid, "attack", aldric, {"hit": [11], "damage": [4]}, **swing)  # 8 -> 4
    next_round(client, cid, eid)
    act(client, cid, eid, "attack", aldric, {"hit": [11], "damage": [9]}, **swing)  # 4 -> -5
    CALLS.take()
    base = f"/campaigns/{cid}/encounters/{eid}"

    # The first blow struck out: the second lands on 8 hp (8 -> -1), worked out once.
    voided = ok(client.post(f"{base}/actions/1/void", json={"reason": "out of reach"}))
    assert [c["tracks"] for c in voided["encounter"]["combatants"]] == [{"hp": 20}, {"hp": -1}]
    assert CALLS.take() == {"Grimm": 1}

    # The second blow rolled again (8 -> -2): Grimm's new values, worked out once.
    body = {"reason": "the die fell off the table", "dice": {"hit": [12], "damage": [10]}}
    rerolled = ok(client.post(f"{base}/actions/2/reroll", json=body))
    assert rerolled["encounter"]["actions"][1]["conditions"] == {
        grimm: {"before": [], "after": ["down"]}
    }
    assert CALLS.take() == {"Grimm": 1}


@pytest.mark.usefixtures("counted")
def test_advancing_the_days_asks_nobody_s_conditions_again(client: TestClient) -> None:
    cid = new_campaign(client, "stamina-body")
    enrolled(client, cid, "Bare", STAMINA_BODY)
    enrolled(client, cid, "Other", {**STAMINA_BODY, "st": 9})
    CALLS.take()

    advanced = ok(client.post(f"/campaigns/{cid}/days", json={"days": 2}, headers=GM), 201)
    assert [c["conditions"] for c in advanced["campaign"]["characters"]] == [[], []]
    assert CALLS.take() == {}
