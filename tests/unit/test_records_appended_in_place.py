"""Issue 39, "no command grows with the fight's length": an action appends its record to
the encounter's records in place, in O(1), not by copying every record before it (the
applier's copy was ~0.11 ms of each command at 10,000 actions: bench/README.md,
"records20 lane"). Copies of the encounter share the records (``Encounter.SHARED``: the
writer's kept aggregate, each command's answer, the snapshot thread's copy), each
seeing only its own first records (domain/encounter/shared_records.py): a copy taken
before an action keeps exactly its records, and a copy that then acts itself (a branch)
gets records of its own, neither seeing the other's.

The cost is measured by what an action allocates at its peak (tracemalloc), on
encounters made long by repeating their records, at two lengths: a list of N records is
8 N bytes of pointers."""

from __future__ import annotations

import copy
import operator
from typing import Any

import pytest

from skald_campaign.application.snapshotting import RecordsWritten
from skald_campaign.domain.encounter.aggregate import Encounter
from skald_campaign.domain.encounter.shared_records import SharedRecords
from skald_campaign.domain.play.actions import ActionRecord
from skald_campaign.store import MAPPER, TRANSCODER
from tests.unit import scenes_stamina_body as scenes
from tests.unit.test_snapshots_apart import stored_bytes
from tests.unit.test_told_copies_no_records import peak_allocated

SHORT, LONG = 1_000, 100_000  # records: a list of LONG is 800 KB of pointers


def an_encounter(records: int) -> tuple[Encounter, str]:
    t = scenes.table("Bran", "Ogre")
    t.act("take_hit", None, {"damage": [1]}, target="Ogre", damage_type="impact", damage_class=1)
    encounter: Encounter = t.app.repository.get(t.eid)
    # Whatever holds the records (a list on the code before this test), holding more.
    holder: Any = type(encounter.actions)
    encounter.actions = holder(list(encounter.actions) * records)
    encounter.collect_events()
    return encounter, t.ids["Ogre"]


def hit(encounter: Encounter, ogre: str, damage: int = 1) -> ActionRecord:
    params = {"target": ogre, "damage_type": "impact", "damage_class": 1}
    encounter.act("take_hit", None, params, {"damage": [damage]}, None, "gm")
    return encounter.actions[-1]


def peak_of_an_action(records: int) -> int:
    """The most an action allocates at once, of three on an encounter of ``records``.
    One action first, unmeasured: its append grows the list of records by an eighth,
    which the next N / 8 appends use (amortized O(1), as any list's append)."""
    encounter, ogre = an_encounter(records)
    hit(encounter, ogre)
    peaks = [peak_allocated(lambda: hit(encounter, ogre)) for _ in range(3)]
    assert len(encounter.actions) == records + 4
    assert encounter.actions[-1].told is not None
    return max(peaks)


def test_an_action_allocates_the_same_on_a_long_encounter_as_on_a_short_one() -> None:
    short, long = peak_of_an_action(SHORT), peak_of_an_action(LONG)
    # What the command itself makes (its event, record, texts: tens of KB) at either
    # length; a copy of the records would be 8 * LONG = 800,000 bytes more.
    assert long - short < 8 * SHORT, f"{short:,} bytes at {SHORT:,}, {long:,} at {LONG:,}"


def test_a_copy_taken_before_an_action_keeps_exactly_its_records() -> None:
    encounter, ogre = an_encounter(10)
    before = copy.deepcopy(encounter)
    assert before.actions is encounter.actions  # shared, not copied
    records = list(before.actions)
    for n in range(3):
        hit(encounter, ogre, 1 + n)
    assert len(before.actions) == 10 and list(before.actions) == records
    assert all(a is b for a, b in zip(before.actions, records, strict=True))
    assert before.actions[-1] is records[-1] and before.actions[:] == records
    assert len(encounter.actions) == 13 and encounter.actions[:10] == records


def test_a_copy_that_acts_after_the_other_has_its_own_records_and_neither_sees_the_others() -> None:
    encounter, ogre = an_encounter(10)
    branch = copy.deepcopy(encounter)
    records = list(encounter.actions)
    ours = hit(encounter, ogre, 2)
    theirs = hit(branch, ogre, 5)  # after the other's append: a branch
    assert ours is not theirs and ours.rolls != theirs.rolls
    assert list(encounter.actions) == [*records, ours]
    assert list(branch.actions) == [*records, theirs]
    # Each goes on with its own, in either order.
    ours2, theirs2 = hit(encounter, ogre, 3), hit(branch, ogre, 4)
    theirs3, ours3 = hit(branch, ogre, 6), hit(encounter, ogre, 1)
    assert list(encounter.actions) == [*records, ours, ours2, ours3]
    assert list(branch.actions) == [*records, theirs, theirs2, theirs3]
    assert [a.number for a in encounter.actions[10:]] == [11, 12, 13]
    assert [a.number for a in branch.actions[10:]] == [11, 12, 13]
    # The combatants too, as each copy's own actions left them.
    assert encounter.combatants[ogre].tracks != branch.combatants[ogre].tracks


def test_a_snapshot_taken_meanwhile_holds_exactly_its_records() -> None:
    """As the writer hands a copy to the snapshot thread and goes on: the snapshot, taken
    after the original acted again, holds the copy's records, written to the bytes of a
    snapshot of the same records in a plain list, and reads back to them."""
    from skald_campaign.application.application import SkaldApplication

    app = SkaldApplication(
        env={
            "TRANSCODER_TOPIC": TRANSCODER,
            "MAPPER_TOPIC": MAPPER,
            "PERSISTENCE_MODULE": "eventsourcing.popo",
        }
    )
    encounter, ogre = an_encounter(5)
    written = RecordsWritten()  # the snapshot thread's reuse of records' JSON
    Encounter.Snapshot.take(copy.deepcopy(encounter), written)
    hit(encounter, ogre, 2)
    handed = copy.deepcopy(encounter)
    records = list(handed.actions)
    for n in range(4):
        hit(encounter, ogre, 1 + n)  # the writer goes on meanwhile
    snapshot = Encounter.Snapshot.take(handed, written)
    plain = copy.deepcopy(handed)
    plain.actions = list(records)  # type: ignore[assignment]  # a list, as before
    whole = Encounter.Snapshot.take(plain)
    stored = app.mapper.to_stored_event(snapshot)
    assert stored.state == stored_bytes(app, whole, snapshot)
    read = app.mapper.to_domain_event(stored).mutate(None)
    assert isinstance(read, Encounter)
    assert read.actions == records and len(read.actions) == 6
    assert [a.as_json() for a in read.actions] == [a.as_json() for a in records]
    app.close()


def test_the_shared_records_read_as_a_list_of_their_own_first_records() -> None:
    first = SharedRecords(["a", "b"])
    longer = first.appended("c")
    branch = first.appended("x")  # first ends before the list it shares now: a branch
    longest = longer.appended("d")
    assert list(first) == ["a", "b"] and len(first) == 2
    assert list(longer) == ["a", "b", "c"] and list(branch) == ["a", "b", "x"]
    assert list(longest) == ["a", "b", "c", "d"]
    assert longer[-1] == "c" and longer[0] == "a" and longer[1:] == ["b", "c"]
    assert longer[::-1] == ["c", "b", "a"] and longer[:10] == ["a", "b", "c"]
    assert longest[1::-1] == ["b", "a"] and longest[-2::-2] == ["c", "a"] and longer[5:] == []
    assert list(reversed(longer)) == ["c", "b", "a"] and "d" not in longer
    for index in (3, -4):
        with pytest.raises(IndexError):
            longer[index]
    # A list on either side (domain/timeline.py compares a list with an encounter's).
    assert longer == ["a", "b", "c"] and operator.eq(["a", "b", "c"], longer)
    assert not operator.ne(["a", "b", "c"], longer) and operator.ne(["a", "b"], longer)
    assert longer == SharedRecords(["a", "b", "c"]) and longer != longest
    assert longer != ("a", "b", "c")  # as a list: equal to lists, not tuples
    assert copy.deepcopy(longer) is longer and copy.copy(longer) is longer
    assert repr(longer) == "SharedRecords(['a', 'b', 'c'])"
    # Reading a view while its list grows: its own records only, each read.
    reading = iter(longer)
    assert next(reading) == "a"
    longest.appended("e")
    assert list(reading) == ["b", "c"]


def test_the_last_record_is_replaced_in_place_only_in_a_view_just_made() -> None:
    first = SharedRecords(["a", "b"])
    made = first.appended("c")
    assert made.with_last("C", just_made=True) is made and list(made) == ["a", "b", "C"]
    assert list(first) == ["a", "b"]
    # A view others may hold: copied, theirs unchanged.
    shared = made.with_last("Z", just_made=False)
    assert list(shared) == ["a", "b", "Z"] and list(made) == ["a", "b", "C"]
    # A view the list went on past (a copy of it appended): copied, even if just made.
    made.appended("d")
    replaced = made.with_last("Y", just_made=True)
    assert replaced is not made and list(made) == ["a", "b", "C"]
    with pytest.raises(IndexError):
        SharedRecords[str]().with_last("a", just_made=True)
