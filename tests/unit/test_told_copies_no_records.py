"""Issue 39, "no command grows with the fight's length": an action copies its
encounter's list of records once (its applier appends by copying, as copies of the
encounter share the list: ``Encounter.SHARED``), not three times. Giving the new record
its texts (domain/encounter/telling.py) copied every record before it again, twice
(``[*actions[:-1], record]``): at 10,000 actions ~0.07 ms of each command, and the
freeing of the list it replaced ~0.02 ms more (bench/README.md, "told19").

(Since records20 the applier appends in place, copying none:
tests/unit/test_records_appended_in_place.py.)

Measured by what the command allocates at its peak (tracemalloc), on an encounter made
long by repeating its records: a list of N records is 8 N bytes of pointers. And what
the in-place way must keep: a copy of the encounter taken before the action still holds
its records as they were."""

from __future__ import annotations

import copy
import tracemalloc
from collections.abc import Callable

from skald_campaign.domain.encounter.aggregate import Encounter
from skald_campaign.domain.encounter.shared_records import SharedRecords
from tests.unit import scenes_stamina_body as scenes

LONG = 50_000  # records: a list of them is 400 KB of pointers


def a_long_encounter() -> tuple[Encounter, str]:
    t = scenes.table("Bran", "Ogre")
    t.act("take_hit", None, {"damage": [1]}, target="Ogre", damage_type="impact", damage_class=1)
    encounter: Encounter = t.app.repository.get(t.eid)
    encounter.actions = SharedRecords(list(encounter.actions) * LONG)
    encounter.collect_events()
    return encounter, t.ids["Ogre"]


def peak_allocated(do: Callable[[], object]) -> int:
    """The most ``do`` has allocated at once while it ran (tracemalloc), in bytes."""
    tracemalloc.start()
    try:
        do()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak


def hit(encounter: Encounter, ogre: str) -> None:
    params = {"target": ogre, "damage_type": "impact", "damage_class": 1}
    encounter.act("take_hit", None, params, {"damage": [1]}, None, "gm")


def test_an_action_on_a_long_encounter_copies_its_records_once() -> None:
    encounter, ogre = a_long_encounter()
    one_list = 8 * LONG
    peak = peak_allocated(lambda: hit(encounter, ogre))
    assert len(encounter.actions) == LONG + 1
    assert encounter.actions[-1].told is not None
    # One new list, and what the command itself makes (a few KB); the old code made
    # three, two of them alive at once beside the applier's: >= 3 lists. (Since records20
    # the applier appends in place, and the one list is the records' own growing at
    # this first append to a list made to measure above, amortized over the next N / 8:
    # tests/unit/test_records_appended_in_place.py measures past it.)
    assert one_list <= peak < 2 * one_list, f"{peak:,} bytes at the peak"


def test_a_copy_taken_before_an_action_keeps_its_records() -> None:
    encounter, ogre = a_long_encounter()
    before = copy.deepcopy(encounter)
    shared = before.actions
    assert shared is encounter.actions  # copies share the list (Encounter.SHARED)
    records = list(shared)
    hit(encounter, ogre)
    assert before.actions is shared and before.actions == records
    assert len(encounter.actions) == LONG + 1 and encounter.actions[:-1] == records
    assert encounter.actions[-1].told is not None and encounter.actions[-1] not in records
