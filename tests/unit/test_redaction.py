"""The read-side policy (application/redaction.py) on the shapes every read shares."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from skald_campaign.application.redaction import Npc, ReadOnce, Redaction

BRAN, OGRE = "pc-bran", "npc-ogre"


@dataclass(frozen=True)
class Named:
    name: str
    sheet: dict[str, Any]


ROSTER = {BRAN: Named("Bran", {}), OGRE: Named("Ogre", {})}
POLICY = Redaction(
    "stamina-body",
    {OGRE: Npc("Ogre", {"stamina": 30, "body": 20})},
    {BRAN: "Bran", OGRE: "Ogre"},
    roster=ROSTER,
)
HIDDEN_ONLY = Redaction("stamina-body", {}, {BRAN: "Bran", OGRE: "Ogre"})


def combatant(cid: str, name: str, tracks: dict[str, int]) -> dict[str, Any]:
    return {
        "id": cid, "name": name, "side": "foes", "rank": 2, "present": True,
        "tracks": tracks, "maxima": {"stamina": 30, "body": 20}, "conditions": ["stunned"],
        "state": {"fatigue": 3},
    }  # fmt: skip


def test_an_npc_keeps_its_words_and_loses_its_numbers_for_a_descriptor() -> None:
    doc = {"combatants": [combatant(BRAN, "Bran", {"stamina": 9, "body": 8}),
                          combatant(OGRE, "Ogre", {"stamina": -2, "body": 20})]}  # fmt: skip
    seen: Any = POLICY.document(doc)
    assert seen["combatants"][0] == doc["combatants"][0]
    assert seen["combatants"][1] == {
        "id": OGRE, "name": "Ogre", "side": "foes", "rank": 2, "present": True,
        "tracks": {}, "maxima": {}, "conditions": ["stunned"], "state": {},
        "descriptor": "stunned",
    }  # fmt: skip
    assert doc["combatants"][1]["tracks"] == {"stamina": -2, "body": 20}  # not changed in place
    assert HIDDEN_ONLY.document(doc) == doc


def test_vitals_bars_and_maps_keyed_by_an_npc() -> None:
    bars = {"stamina": {"current": 10, "max": 30}, "body": {"current": 20, "max": 20}}
    vitals = {"id": OGRE, "name": "Ogre", "changes": 2, "tracks": bars}
    assert POLICY.document(vitals) == {
        "id": OGRE, "name": "Ogre", "changes": 2, "tracks": {}, "descriptor": "winded"
    }  # fmt: skip
    ogre = {"name": "Ogre", "tracks": {"from": {"body": 20}, "to": {"body": 3}}}
    bran = {"name": "Bran", "tracks": {"from": {"body": 8}, "to": {"body": 7}}}
    diff = {"combatants": {OGRE: ogre, BRAN: bran}}
    seen: Any = POLICY.document(diff)
    assert seen["combatants"][OGRE] == {"name": "Ogre", "tracks": {}}
    assert seen["combatants"][BRAN] == diff["combatants"][BRAN]


def attack(by: str, on: str, hidden: bool = False) -> dict[str, Any]:
    record = {
        "number": 4, "round": 2, "kind": "attack", "actor": by, "params": {"target": on},
        "rolls": [{"name": "hit", "dice": "3d6", "faces": [1, 2, 3], "total": 6}],
        "summary": f"{by} hits: {on} takes 8 Stamina and 3 Body (9/4 raw)",
        "breakdown": {"tracks": {"stamina": {"before": 27, "after": 19}}},
        "status": "active",
        "effects": {"tracks": {on: {"stamina": 19, "body": 17}}, "state": {on: {}}},
        "conditions": {on: {"before": [], "after": ["piercing_wound"]}},
        "narrative": ["line one", "line two"],
    }  # fmt: skip
    if hidden:
        record["hidden"] = True
    return record


def test_an_action_on_an_npc_is_its_outcome() -> None:
    """A record whose breakdown its ruleset's parts cannot read (this one's is made up):
    its own lines go to nobody but the GM; the open dice and the outcome to the others."""
    seen: Any = POLICY.document(attack(BRAN, OGRE))
    line = "Bran's attack on Ogre: Ogre is hurt; Ogre gains: piercing wound"
    assert seen["summary"] == line
    assert seen["narrative"] == ["hit: 3d6 rolled 1, 2, 3 = 6", line, "Ogre gains: piercing wound"]
    assert seen["breakdown"] == {}
    assert seen["effects"] == {"tracks": {}, "state": {}}
    assert seen["rolls"] == attack(BRAN, OGRE)["rolls"]  # rolled in the open
    assert HIDDEN_ONLY.document(attack(BRAN, OGRE)) == attack(BRAN, OGRE)


def test_an_open_npc_attack_on_a_pc_states_none_of_the_npcs_working() -> None:
    """T3a: the NPC's attack on a PC is shown but for its breakdown (the NPC's skill and
    hit score are in it) and lines no parts were built for; the PC's tracks stay."""
    seen: Any = POLICY.document(attack(OGRE, BRAN))
    line = "Ogre's attack on Bran: Bran is at 19 Stamina and 17 Body; Bran gains: piercing wound"
    assert seen["breakdown"] == {} and seen["summary"] == line
    assert seen["narrative"] == ["hit: 3d6 rolled 1, 2, 3 = 6", line, "Bran gains: piercing wound"]
    assert (
        seen["effects"] == attack(OGRE, BRAN)["effects"]
        and seen["rolls"] == attack(OGRE, BRAN)["rolls"]
    )
    assert HIDDEN_ONLY.document(attack(OGRE, BRAN)) == attack(OGRE, BRAN)


def test_a_hidden_action_shows_its_outcome_whatever_the_option() -> None:
    for policy in (POLICY, HIDDEN_ONLY):
        seen: Any = policy.document(attack(OGRE, BRAN, hidden=True))
        assert seen["rolls"] == [] and seen["breakdown"] == {}
        assert seen["summary"] == (
            "Ogre's attack on Bran: Bran is at 19 Stamina and 17 Body; Bran gains: piercing wound"
        )
        assert seen["effects"] == attack(OGRE, BRAN)["effects"]  # the PC's own tracks


def test_a_pending_attack_on_an_npc_hides_its_defenses_and_a_hidden_one_its_hit() -> None:
    shown = {"hit_score": 7, "scores": {"parry": 11}}
    exchange = {"kind": "attack", "actor": BRAN, "defender": OGRE, "rolls": [{"total": 6}],
                "shown": shown, "status": "pending"}  # fmt: skip
    seen: Any = POLICY.document(exchange)
    assert seen["shown"] == {"hit_score": 7, "scores": {}} and seen["rolls"] == [{"total": 6}]
    hidden = {**exchange, "actor": OGRE, "defender": BRAN, "hidden": True}
    seen = HIDDEN_ONLY.document(hidden)
    assert seen["shown"] == {} and seen["rolls"] == []


def test_an_entry_naming_an_npc_is_told_as_the_record_that_wrote_it() -> None:
    """T3a: no digit is scrubbed; the summary is the one of the record that wrote it, as
    this reader reads it (here its outcome), and a summary no record wrote stands."""
    record = {**attack(BRAN, OGRE), "summary": "Bran hits: Ogre takes 8 Stamina (9/4 raw)"}
    policy = Redaction(
        POLICY.ruleset_id, POLICY.npcs, POLICY.names, roster=ROSTER,
        written=ReadOnce(lambda: {record["summary"]: record}),
    )  # fmt: skip
    entry = {"id": 7, "summary": record["summary"], "number": 3}
    line = "Bran's attack on Ogre: Ogre is hurt; Ogre gains: piercing wound"
    assert policy.document(entry) == {**entry, "summary": line}
    turn = {"id": 8, "summary": "Goblin 2's turn (round 3)", "number": 4}
    assert policy.document(turn) == turn
    exchange = {"summary": "exchange 1: Ogre declares defense parry"}
    assert POLICY.document(exchange) == exchange
    enrolment = {"character_id": OGRE, "name": "Ogre", "sheet": {"st": 30}, "by": "gm:GM",
                 "summary": "Ogre joins the campaign"}  # fmt: skip
    assert POLICY.document(enrolment) == {**enrolment, "sheet": {}}


# What a command recorded of a record's texts (issue 38, domain/reading/told_form.py): the
# GM's working, every number in it, the NPC's too.
TOLD = {
    "summary": [
        "npc-ogre hits: pc-bran takes ",
        {"part": "secret", "owner": BRAN, "parts": ["8 Stamina"]},
        " and 3 Body (9/4 raw)",
    ],
    "outcome": ["Ogre attacks Bran and hits"],
    "parties": [],
    "standing": {BRAN: ["19 Stamina and 17 Body", "hurt"]},
}


def test_what_a_command_recorded_of_its_texts_reaches_no_player_or_viewer() -> None:
    open_blow = {**attack(BRAN, BRAN), "told": TOLD}  # no NPC: walked, not told again
    on_npc = {**attack(OGRE, BRAN), "told": TOLD}
    hidden = {**attack(OGRE, BRAN, hidden=True), "told": TOLD}
    # The campaign audit's entry holds it in its data (projections/audit.py).
    entry = {"kind": "attack", "rolls": [], "summary": on_npc["summary"], "actor": OGRE,
             "data": {"tracks": {BRAN: {"stamina": 19}}, "told": TOLD}}  # fmt: skip
    log = {"payload": {"actions": [on_npc, open_blow]}, "type": "Encounter.Corrected"}
    for policy in (POLICY, HIDDEN_ONLY):  # hidden NPC numbers, or show_npc_numbers
        for record in (open_blow, on_npc, hidden, entry, log):
            seen = policy.document(record)
            assert '"told"' not in json.dumps(seen), (policy, record)
            assert "told" in json.dumps(record)  # the GM's answer keeps it


def test_a_record_that_recorded_its_texts_is_told_from_them() -> None:
    """The recorded outcome and standing are read, not asked of the ruleset: the words
    here are no ruleset's (stamina-body's would say 'Ogre hits Bran')."""
    hidden = {**attack(OGRE, BRAN, hidden=True), "told": TOLD}
    seen: Any = POLICY.document(hidden)
    assert seen["summary"] == (
        "Ogre attacks Bran and hits: Bran is at 19 Stamina and 17 Body; Bran gains: piercing wound"
    )
