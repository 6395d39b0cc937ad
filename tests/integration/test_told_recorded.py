"""Issue 38, "a read side that needs no rules code": the texts of an action record (its
summary's, narrative's and outcome's parts, its plain narrative, who else it speaks of,
each changed character's standing in words) are worked out once, as the command is
recorded, and recorded with its event (``told``, domain/reading/told_form.py); the
read side tells them to each reader from there and asks the ruleset nothing.

A fight in each built-in ruleset is written through the real API today (blows both
ways, a hidden roll, a GM's change in the fight, a void and a reroll: the events
``ActionResolved``, ``GMChanged`` and ``Corrected`` of version 4), with each ruleset's
narration counted through a subclass registered in its place (``RULESETS.added``).
Then every text a GM, a player and a viewer read of it (the fight's actions, its audit,
the campaign's audit and history, the event log: summaries, narratives, a correction
report's before and after) is read:

- the ruleset's narration is asked nothing by those reads;
- with the ruleset hidden (``RULESETS.removed``: its campaign is read without its
  plugin), every one of those texts is byte for byte the same;
- written as before version 4 (no ``told``, as the upcast reads a stored event), the
  same story reads the same texts with the ruleset installed, asking it; hidden, it
  falls back to the engine's plain words, which differ: so the recording is what keeps
  them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from typing import Any, TypeVar

import pytest
from fastapi.testclient import TestClient

from skald_campaign.domain.encounter import telling
from skald_campaign.domain.rulesets import RULESETS
from skald_campaign.domain.rulesets.base import Ruleset
from tests.helpers import ok
from tests.integration.projection_support import wait_until
from tests.integration.ruleset_counting import built_ins_counted
from tests.integration.test_told_api import (
    OGRE_D20,
    OGRE_M,
    OGRE_SB,
    PC_D20,
    PC_M,
    PC_SB,
    Table,
)

R = TypeVar("R", bound=Ruleset)
# What the reads would ask of a ruleset's narration (ruleset_api.capabilities.Narration).
NARRATION = ("summary", "narrative", "outcome", "parties", "standing", "narrate")
CALLS: Counter[str] = Counter()
TEXTS = frozenset({"summary", "narrative", "before", "after"})
ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


@pytest.fixture
def counted() -> Iterator[None]:
    with built_ins_counted(NARRATION, CALLS):
        yield


def written(client: TestClient, ruleset: str) -> Table:
    """A fight of ``ruleset``'s: blows both ways (and a hidden one), a GM's change of the
    NPC's tracks in the fight, a marker on it, a void of the first blow and a reroll of
    the last."""
    if ruleset == "stamina-body":
        t = Table(client, ruleset, PC_SB, OGRE_SB)
        t.blow(t.ogre, t.bran, {"hit": [2, 2, 2], "damage": [2, 3]}, weapon="club", defense="none")
        t.blow(t.bran, t.ogre, {"hit": [1, 2, 2], "defense": [6, 6, 5], "damage": [4, 1]},
               weapon="sword", defense="parry")  # fmt: skip
        hidden = {"kind": "attack", "actor": t.ogre, "hidden": True,
                  "dice": {"hit": [3, 3, 3], "damage": [4, 4]},
                  "params": {"target": t.bran, "weapon": "club", "defense": "none"}}  # fmt: skip
        t.post(t.fight.removeprefix(t.base) + "/actions", hidden, 201)
        adjust = {"stamina": 9}
        again = {"hit": [2, 3, 3], "damage": [5, 5]}
    elif ruleset == "d20":
        t = Table(client, ruleset, PC_D20, OGRE_D20)
        t.blow(t.ogre, t.bran, {"hit": [19], "damage": [4]}, weapon="Club")
        # Bran's player strikes: the answer holds no parts (the Ogre's numbers are in them).
        blow = {"kind": "attack", "actor": t.bran, "params": {"target": t.ogre, "weapon": "Sword"},
                "dice": {"hit": [20], "damage": [6]}}  # fmt: skip
        player = {"authorization": f"Bearer {t.keys['player']}"}
        answer = client.post(f"{t.fight}/actions", json=blow, headers=player)
        assert answer.status_code == 201 and '"told"' not in answer.text, answer.text
        adjust = {"hp": 12}
        again = {"hit": [15], "damage": [2]}
    else:
        t = Table(client, ruleset, PC_M, OGRE_M)
        ogre_defends = {f"defense.{t.ogre}.evasion": [2, 3], f"defense.{t.ogre}.guard": [2, 3]}
        t.blow(t.bran, t.ogre, {"attack": [6, 6, 6, 5], **ogre_defends}, weapon="sword")
        t.post(t.fight.removeprefix(t.base) + "/round", None)
        t.blow(t.bran, t.ogre, {"attack": [6, 5, 4, 4], **ogre_defends}, weapon="sword")
        adjust = {"health": 11}
        again = {"attack": [6, 6, 5, 5], **ogre_defends}
    t.post(f"/characters/{t.ogre}/tracks", {"set": adjust, "reason": "a fall"})
    mark = {"target": t.ogre, "name": "blessed", "note": "+1", "rounds": 2}
    t.post(t.fight.removeprefix(t.base) + "/markers", mark, 201)  # a table's record
    fight = t.fight.removeprefix(t.base)
    t.post(f"{fight}/actions/1/void", {"reason": "never landed"})
    actions = ok(client.get(t.fight, headers={"authorization": f"Bearer {t.keys['gm']}"}))
    last = max(a["number"] for a in actions["actions"] if a["kind"] == "attack")
    t.post(f"{fight}/actions/{last}/reroll", {"reason": "a die fell off", "dice": again})
    return t


def caught_up(client: TestClient, t: Table) -> None:
    gm = {"authorization": f"Bearer {t.keys['gm']}"}

    def done() -> bool:
        read = ok(client.get(f"{t.base}/vitals", headers=gm))
        return bool(read["projection"]["behind"] == 0)

    wait_until(done, 20, "the views to catch up")


def texts_in(value: Any, where: str = "") -> Iterator[tuple[str, Any]]:
    """Every text of an answer, by where it is in it: each summary, narrative, and a
    correction report's before and after. An issued key's entry (issued below to
    read again) is left out."""
    if isinstance(value, dict):
        if any(str(value.get(k)).endswith("KeyIssued") for k in ("event", "type")):
            return
        for key, item in value.items():
            if key == "told":  # the parts the texts are told from: the GM's working
                continue
            if key in ("summary", "narrative") or (key in TEXTS and isinstance(item, str)):
                yield f"{where}.{key}", item
            else:
                yield from texts_in(item, f"{where}.{ID.sub('<id>', key)}")
    elif isinstance(value, list):
        for n, item in enumerate(value):
            yield from texts_in(item, f"{where}[{n}]")


def read_texts(client: TestClient, t: Table, told: bool = True) -> dict[str, dict[str, Any]]:
    """Every text the GM, the player and the viewer read of the campaign, by reader and
    where it is (the paths name no id). ``told``: its records hold their texts' parts."""
    caught_up(client, t)
    reads = {
        "fight": t.fight,
        "fight audit": f"{t.fight}/audit?limit=500",
        "campaign audit": f"{t.base}/audit?limit=500",
        "history": f"{t.base}/history?limit=500",
        "log": f"{t.base}/events?limit=500",
    }
    found: dict[str, dict[str, Any]] = {}
    for role in ("gm", "player", "viewer"):
        headers = {"authorization": f"Bearer {t.keys[role]}"}
        found[role] = {}
        for name, path in reads.items():
            answer = client.get(path, headers=headers)
            # The parts state the NPC's numbers: only the GM's answers hold them.
            if role != "gm":
                assert '"told"' not in answer.text, (role, name)
            else:  # an event written before reads ``"told": null`` (not recorded)
                recorded = told and name != "history"
                assert ('"told":{' in answer.text) == recorded, (role, name)
            found[role].update((f"{name}{where}", text) for where, text in texts_in(ok(answer)))
    return found


def differences(
    read: dict[str, dict[str, Any]], expected: dict[str, dict[str, Any]]
) -> dict[str, Any]:
    """Each text that reads otherwise than expected (or is not read), by reader and place."""
    return {
        f"{role} {where}": (read[role].get(where), text)
        for role, texts in expected.items()
        for where, text in texts.items()
        if read[role].get(where) != text
    } | {
        f"{role} {where}": "not expected"
        for role in read
        for where in read[role].keys() - expected[role].keys()
    }


def issue_a_key(client: TestClient, t: Table) -> None:
    """A campaign's keys stay manageable with its ruleset missing: a key issued moves
    the campaign's version and its views, so no answer kept from before is sent again."""
    t.post("/keys", {"role": "viewer"}, 201)


@pytest.mark.usefixtures("counted")
@pytest.mark.parametrize("ruleset", ["stamina-body", "d20", "margin"])
def test_texts_read_as_recorded_with_no_ruleset_asked_and_none_installed(
    live_client: TestClient, ruleset: str
) -> None:
    t = written(live_client, ruleset)
    assert CALLS["summary"] > 0 and CALLS["narrative"] > 0  # the command asked, once
    caught_up(live_client, t)
    CALLS.clear()

    installed = read_texts(live_client, t)

    assert dict(CALLS) == {}  # not one call of the narration for events written today
    for role in ("player", "viewer"):
        assert len(installed[role]) == len(installed["gm"])
    # What the redaction tells a player differs from what the GM reads (the NPC's
    # numbers are left out): the texts compared below are the ones told from parts.
    assert installed["player"] != installed["gm"]
    with RULESETS.removed(ruleset) as hidden:
        assert hidden is not None
        issue_a_key(live_client, t)
        missing = read_texts(live_client, t)
    assert differences(missing, installed) == {}
    assert dict(CALLS) == {}


@pytest.mark.usefixtures("counted")
@pytest.mark.parametrize("ruleset", ["stamina-body", "d20", "margin"])
def test_records_written_without_their_texts_read_as_before(
    live_client: TestClient, ruleset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same story written twice, once as today, once as before version 4 (no
    ``told``, what the upcast gives a stored event): the same texts for every reader
    with the ruleset installed, which only the older one asks; hidden, only the
    recorded one keeps them."""
    today = written(live_client, ruleset)
    with monkeypatch.context() as before_v4:
        before_v4.setattr(telling, "with_told", lambda *args: None)
        older = written(live_client, ruleset)
    caught_up(live_client, today)
    caught_up(live_client, older)
    recorded = read_texts(live_client, today)
    CALLS.clear()

    not_recorded = read_texts(live_client, older, told=False)

    assert differences(not_recorded, recorded) == {}
    assert CALLS["summary"] > 0 and CALLS["narrative"] > 0  # read through the ruleset
    with RULESETS.removed(ruleset):
        issue_a_key(live_client, older)
        plain = read_texts(live_client, older, told=False)
    for role in ("gm", "player", "viewer"):
        # The engine's plain words where the ruleset's package would have told them.
        assert plain[role].keys() == recorded[role].keys()
        assert plain[role] != recorded[role]
