"""Issue 38, "a read side that needs no rules code": the campaign's and an encounter's GET
(built from the aggregate), their replays at every version, a character's GET, the
reads at an instant and a diff answer from what the events recorded of the rules
(domain/reading/recorded.py), so they answer the same bytes with the campaign's ruleset
hidden (``RULESETS.removed``, as if its plugin were uninstalled) as with it installed,
and ask its ``track_maxima``, ``derived_ratings``, ``equipment`` and ``conditions``
nothing (counted through a subclass of each built-in installed with ``RULESETS.added``).

A campaign of each built-in ruleset is written today through the API with its workers:
an enrolment of a PC and an NPC, a fight with a hit that brings a condition, a GM's
amendment in the fight, a void, the fight's end, a day the healing worker heals, an
amendment of a sheet and an adjustment of tracks between fights.

The texts told from parts for a reader (an action's ``narrative``: each ruleset's own
words, built at read time) are the recorded text parts' work (issue 38's "texts from
parts"), not this test's: they are set aside before the answers are compared, and
checked apart to be there.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any, TypeVar

import pytest
from fastapi.testclient import TestClient

from skald_campaign.domain.play.standing import forget_all
from skald_campaign.domain.rulesets import RULESETS
from skald_campaign.domain.rulesets.base import Ruleset
from skald_campaign.domain.rulesets.d20 import D20
from skald_campaign.domain.rulesets.margin import Margin
from skald_campaign.domain.rulesets.stamina_body import StaminaBody
from tests.helpers import act, enrol, new_campaign, ok, start
from tests.integration.projection_support import wait_until
from tests.integration.ruleset_counting import built_ins_counted
from tests.integration.test_d20_api import d20_sheet
from tests.integration.test_margin_api import SWORD
from tests.integration.test_margin_api import sheet as margin_sheet

R = TypeVar("R", bound=Ruleset)

STAMINA_BODY = {"st": 12, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10}
OGRE = {"st": 16, "con": 14, "parry": 9, "dodge": 8, "stamina_max": 14, "body_max": 12}

# What the read side may ask of a ruleset, counted by method name.
READS = ("track_maxima", "derived_ratings", "equipment", "conditions")
ASKED: Counter[str] = Counter()


BUILT_IN: dict[str, type[Ruleset]] = {"stamina-body": StaminaBody, "d20": D20, "margin": Margin}


@pytest.fixture
def counted() -> Iterator[None]:
    """The three built-ins, their reads counted, for the test's length."""
    with built_ins_counted(READS, ASKED):
        yield


def npc(client: TestClient, cid: str, name: str, sheet: dict[str, Any]) -> str:
    body = {"name": name, "sheet": sheet, "npc": True}
    return str(ok(client.post(f"/campaigns/{cid}/characters", json=body), 201)["id"])


def story(client: TestClient, ruleset: str) -> dict[str, Any]:
    """One campaign of ``ruleset``: its id, its fight's, its characters' ids by name."""
    if ruleset == "stamina-body":
        cid = new_campaign(client, ruleset, name="Barrow")
        pc, foe = enrol(client, cid, "Bran", STAMINA_BODY), npc(client, cid, "Ogre", OGRE)
        amended_in_fight, amended_after = {"parry": 12}, {"stamina_max": 10}
    elif ruleset == "d20":
        cid = new_campaign(client, ruleset, name="Ruins")
        pc = enrol(client, cid, "Aldric", d20_sheet())
        foe = npc(client, cid, "Grimm", d20_sheet(hp=5))
        amended_in_fight, amended_after = {"hp": 22}, {"armor": "chain_mail"}
    else:
        cid = new_campaign(client, ruleset, name="Marches")
        pc = enrol(client, cid, "Mira", margin_sheet(might=3, melee=2, weapons=[SWORD]))
        foe = npc(client, cid, "Wolf", margin_sheet(health=8))
        amended_in_fight, amended_after = {"grace": 3}, {"vigor": 3}
    lineup = [
        {"character_id": pc, "side": "party", "rank": 1},
        {"character_id": foe, "side": "foes", "rank": 1},
    ]
    eid = start(client, cid, lineup)
    fight = f"/campaigns/{cid}/encounters/{eid}"
    if ruleset == "stamina-body":
        for target, faces in ((foe, [6, 6]), (pc, [6, 5]), (foe, [6, 6]), (foe, [6, 6])):
            act(
                client, cid, eid, "take_hit", None, {"damage": faces},
                target=target, damage_type="impact", damage_class=2,
            )  # fmt: skip
    elif ruleset == "d20":
        for damage in ([2], [9]):  # the second downs Grimm
            act(
                client, cid, eid, "attack", pc, {"hit": [11], "damage": damage},
                target=foe, weapon="Bastard Sword",
            )  # fmt: skip
            ok(client.post(f"{fight}/round"))
    else:
        for _ in range(2):
            dice = {"attack": [6, 6, 6, 6, 6], f"defense.{foe}.evasion": [1, 1]}
            act(client, cid, eid, "attack", pc, dice, target=foe, weapon="sword")
            ok(client.post(f"{fight}/round"))
    amend = {"changes": amended_in_fight, "reason": "a better blade"}
    ok(client.post(f"/campaigns/{cid}/characters/{pc}/sheet", json=amend))
    ok(client.post(f"{fight}/actions/1/void", json={"reason": "it never landed"}))
    ok(client.post(f"{fight}/end"))
    ok(client.post(f"/campaigns/{cid}/days", json={"days": 1}), 201)
    if BUILT_IN[ruleset].day_plan_model is not None:  # d20 has no rules for a day
        wait_until(  # the healing worker heals the day, before the GM's changes below
            lambda: ok(client.get(f"/campaigns/{cid}/history?kind=CharacterHealed"))["total"],
            10,
            "the healing worker to heal the day",
        )
    amend = {"changes": amended_after, "reason": "a new trinket"}
    ok(client.post(f"/campaigns/{cid}/characters/{pc}/sheet", json=amend))
    track = next(iter(ok(client.get(f"/campaigns/{cid}/characters/{foe}"))["tracks"]))
    adjust = {"adjust": {track: -1}, "reason": "a fall"}
    ok(client.post(f"/campaigns/{cid}/characters/{foe}/tracks", json=adjust))
    return {"id": cid, "encounter": eid, "characters": [pc, foe]}


def paths(client: TestClient, written: dict[str, Any]) -> list[str]:
    """Every GET this test reads of one campaign: the campaign and its fight now and at
    every version (each a replay of the store), each character, the reads at an
    instant and the fight's diff."""
    cid, eid = written["id"], written["encounter"]
    campaign, fight = f"/campaigns/{cid}", f"/campaigns/{cid}/encounters/{eid}"
    campaign_version = ok(client.get(campaign))["version"]
    fight_version = ok(client.get(fight))["version"]
    now = datetime.now(UTC).isoformat().replace("+00:00", "Z")
    return [
        campaign,
        *(f"{campaign}?version={v}" for v in range(1, campaign_version + 1)),
        *(f"{campaign}/characters/{ch}" for ch in written["characters"]),
        fight,
        *(f"{fight}?version={v}" for v in range(1, fight_version + 1)),
        f"{campaign}/vitals/at?at={now}",
        f"{fight}/diff?from=1",
        f"{fight}/diff?from=3",
    ]


def told_apart(answer: Any) -> tuple[Any, list[Any]]:
    """The answer with each action's narrative set aside, and the narratives."""
    narratives: list[Any] = []

    def without(value: Any) -> Any:
        if isinstance(value, dict):
            if "narrative" in value:
                narratives.append(value["narrative"])
            return {k: without(v) for k, v in value.items() if k != "narrative"}
        if isinstance(value, list):
            return [without(v) for v in value]
        return value

    return without(answer), narratives


def read(client: TestClient, path: str) -> tuple[bytes, list[Any]]:
    got = client.get(path)
    assert got.status_code == 200, (path, got.text)
    rest, narratives = told_apart(got.json())
    return json.dumps(rest, sort_keys=False).encode(), narratives


@pytest.mark.usefixtures("counted")
@pytest.mark.parametrize("ruleset", ["stamina-body", "d20", "margin"])
def test_the_gets_built_from_the_aggregates_answer_the_same_with_the_ruleset_hidden(
    live_client: TestClient, ruleset: str
) -> None:
    written = story(live_client, ruleset)
    cid = written["id"]
    asked = paths(live_client, written)
    assert len(asked) >= 20
    # The story brought conditions, and the character view its ratings and gear.
    vitals = ok(live_client.get(f"/campaigns/{cid}/encounters/{written['encounter']}"))
    conditions = [
        c["conditions"]
        for v in range(1, vitals["version"] + 1)
        for c in ok(
            live_client.get(f"/campaigns/{cid}/encounters/{written['encounter']}?version={v}")
        )["combatants"]
    ]
    assert any(conditions), conditions
    forget_all()  # nothing worked out before: as a process that has only read
    ASKED.clear()
    installed = {path: read(live_client, path) for path in asked}
    assert dict(ASKED) == {}  # not one maximum, rating, piece of gear or condition asked
    character = json.loads(installed[f"/campaigns/{cid}/characters/{written['characters'][0]}"][0])
    assert character["maxima"] and "derived" in character and "equipment" in character
    with RULESETS.removed(ruleset) as hidden:
        assert hidden is not None
        forget_all()
        without = {path: read(live_client, path) for path in asked}
    differing = [path for path in asked if installed[path][0] != without[path][0]]
    assert differing == []
    assert dict(ASKED) == {}
    # The narratives were set aside (told from parts at read time: not this test's).
    fight = f"/campaigns/{cid}/encounters/{written['encounter']}"
    assert len(installed[fight][1]) == len(without[fight][1]) > 0
