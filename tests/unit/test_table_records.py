"""The table's records on the Encounter aggregate itself (issue 23, RULINGS T1, T2):
which turn boundaries a turn change passes, how markers count them, what a replay does
with a removal whose marker is gone, and what a void of a turn change refuses."""

from __future__ import annotations

from uuid import uuid4

import msgspec
import pytest

from skald_campaign.domain.encounter.aggregate import Encounter
from skald_campaign.domain.errors import ActionRefused
from skald_campaign.domain.play.table.corrections import position_void, table_step_refusal
from skald_campaign.domain.play.table.records import boundaries_of, table_of
from skald_campaign.domain.records import Combatant, JSONObject
from skald_campaign.domain.rulesets import get_ruleset

MARGIN = {"might": 2, "grace": 2, "vigor": 2, "aether": 2}


def fight(*names: str, options: JSONObject | None = None) -> tuple[Encounter, list[str]]:
    rules = get_ruleset("margin")
    sheet = rules.validate_sheet(MARGIN)
    lineup = {
        f"id-{n}": Combatant(n, "party", 1, sheet, {"health": 14}, rules.start_state(sheet))
        for n in names
    }
    encounter = Encounter(
        uuid4(), "Fight", "margin", options or {}, {k: c.as_json() for k, c in lineup.items()}, "gm"
    )
    ids = list(lineup)
    encounter.set_order(ids, "gm")
    return encounter, ids


def test_a_turn_change_passes_the_end_it_leaves_the_skipped_and_the_start_it_reaches() -> None:
    e, (a, b, c) = fight("Ash", "Bran", "Cora")
    e.gm_change("adjust_tracks", b, {"changes": {"health": {"set": 0}}}, "down", "gm")
    moved = e.next_turn("gm")
    assert boundaries_of(moved) == [(a, "end"), (b, "start"), (b, "end"), (c, "start")]
    assert moved.breakdown["skipped"] == [{"id": b, "name": "Bran", "why": "Bran is down"}]
    with pytest.raises(ActionRefused, match=r"^Cora is last in the order already$"):
        e.delay(None, "gm")


def test_delay_passes_only_the_start_of_the_turn_it_reaches() -> None:
    e, (a, b, c) = fight("Ash", "Bran", "Cora")
    delayed = e.delay(b, "gm")
    assert e.order == [b, a, c]
    assert boundaries_of(delayed) == [(b, "start")]
    e.next_turn("gm")
    back = e.previous_turn("gm")  # going back passes no boundary
    assert (boundaries_of(back), e.round, e.order[e.turn_index]) == ([], 1, b)
    with pytest.raises(ActionRefused, match=r"^it is the first turn of round 1"):
        e.previous_turn("gm")


def test_markers_count_their_watched_boundaries_and_expire_at_the_nth() -> None:
    e, (a, b, c) = fight("Ash", "Bran", "Cora")
    e.mark(c, "on fire", None, 2, b, "start", "gm")
    e.mark(a, "hidden", "in the reeds", None, None, "end", "gm")
    e.next_turn("gm")  # Bran's turn starts: 1 of 2
    table = table_of(e.actions)
    assert [(m.name, m.rounds_left) for m in table.markers.values()] == [
        ("on fire", 1),
        ("hidden", None),
    ]
    e.next_turn("gm")
    e.next_turn("gm")  # round 2, Ash's turn
    e.next_turn("gm")  # Bran's turn starts again: 2 of 2, the marker expires
    assert [r.kind for r in e.actions[-2:]] == ["turn", "expire"]
    assert e.actions[-1].params == {"marker": 1, "cause": e.actions[-2].number}
    assert [m.name for m in table_of(e.actions).markers.values()] == ["hidden"]


def test_a_replayed_removal_or_expiry_whose_marker_is_gone_cannot_stand() -> None:
    e, (a, _, _) = fight("Ash", "Bran", "Cora")
    placed = e.mark(a, "blessed", None, 1, None, "end", "gm")
    e.next_turn("gm")
    expiry = e.actions[-1]
    assert table_step_refusal(expiry, e.actions[:-1]) is None
    struck = [msgspec.structs.replace(placed, status="voided"), *e.actions[1:-1]]
    assert table_step_refusal(expiry, struck) == "marker 1 no longer stands"
    without_turn = [e.actions[0]]
    assert table_step_refusal(expiry, without_turn) == (
        "the turn change (action 2) that expired it was struck out"
    )


def test_only_the_last_standing_turn_change_is_voided_and_the_turn_goes_back() -> None:
    e, (a, b, _) = fight("Ash", "Bran", "Cora")
    first = e.next_turn("gm")
    e.next_turn("gm")
    with pytest.raises(ActionRefused, match="moved the turn after it: void that first"):
        position_void(e.actions, first)
    plan, back = position_void(e.actions, e.actions[-1])
    assert (back.round, back.current) == (1, b)
    assert [plan(r) for r in e.actions] == ["keep", "void"]
    assert a in e.order
