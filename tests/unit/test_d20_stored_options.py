"""A stored campaign's options keep the meaning they had when it was created.

Campaign.Created stores every option written out (``validate_options`` dumps the defaults
too), so the default of ``double_success_distance`` moving from D6a's
``twice_max_displacement`` to the seed's ``seed_ten_feet`` reaches new campaigns only: the
d20 campaign of the store fe485e1 wrote names D6a's choice, and replays under it.
"""

from __future__ import annotations

import json
from pathlib import Path

from skald_campaign.domain.rulesets import get_ruleset
from skald_campaign.domain.rulesets.d20.sheet import D20Options
from tests.unit.test_d20_support import Table, fr_sheet

STORE = Path(__file__).parents[1] / "fixtures" / "compat" / "store-fe485e1.jsonl"


def stored_d20_options() -> dict[str, object]:
    for line in STORE.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record.get("topic") == "domain.campaign:Campaign.Created":
            state = json.loads(record["state"])
            if state["ruleset"] == "d20":
                options: dict[str, object] = state["options"]
                return options
    raise AssertionError("the compat store holds no d20 campaign")


def test_a_stored_d20_campaign_names_its_double_success_distance() -> None:
    stored = stored_d20_options()
    assert stored["double_success_distance"] == "twice_max_displacement"
    # Every option of its day is written out: validating it again adds only the options
    # newer than the store (issue 23's T1, issue 24's T3), at their defaults, so it keeps
    # its meaning.
    newer = {"initiative": {"mode": "manual"}, "skip_unable": True, "show_npc_numbers": False}
    assert get_ruleset("d20").validate_options(stored) == {**stored, **newer}
    # The campaign's options: the engine's table options and d20's own (issue 38).
    campaign = get_ruleset("d20").campaign_options_model
    assert set(stored) == set(campaign.model_fields) - set(newer)
    assert set(stored) - set(D20Options.model_fields) == {"actions_per_round"}


def test_a_campaign_created_under_the_old_default_still_moves_twice_the_max_displacement() -> None:
    table = Table(stored_d20_options())
    ids = table.fight(G=fr_sheet(0, size="huge"), N=fr_sheet(0))
    double = table.act("shove", ids["G"], {"shove": [20]}, target=ids["N"])
    assert double["summary"] == (
        "G shoves N 30 ft and knocks them prone (20 >= FD 10, double success)"
    )


def test_a_new_campaign_that_chooses_nothing_moves_the_seeds_10_ft() -> None:
    table = Table()
    ids = table.fight(G=fr_sheet(0, size="huge"), N=fr_sheet(0))
    double = table.act("shove", ids["G"], {"shove": [20]}, target=ids["N"])
    assert double["summary"] == (
        "G shoves N 10 ft and knocks them prone (20 >= FD 10, double success)"
    )
