"""M17, the counter's weapon, and whether a Dwarf's Ward intercepts an Elf's counter."""

from __future__ import annotations

from typing import Any

from tests.unit.test_margin_riposte import ELF, TURNED, attack_lia
from tests.unit.test_margin_table import (
    BOW,
    FIREBOLT,
    FROST_TOUCH,
    HALBERD,
    SPEAR,
    SWORD,
    Table,
    sheet,
)

ORC = sheet(might=3, melee=2, armor=[{"name": "hide", "rating": 2}], weapons=[SWORD])  # 14


def counter_table(riposte: dict[str, Any], **elf: Any) -> Table:
    """The elf at the front; a swordsman next to her; a halberdier one rank back."""
    table = Table()
    table.enrol("elf", sheet(**{**ELF, **elf}))
    table.enrol("swordsman", ORC)
    table.enrol("pikeman", sheet(might=3, melee=2, weapons=[HALBERD]))
    table.start(("elf", "a", 1), ("swordsman", "b", 1), ("pikeman", "b", 2))
    table.act("riposte", "elf", effort=1, **riposte)
    return table


def sword_at_elf(table: Table) -> dict[str, Any]:
    record = attack_lia(table, "swordsman", "sword", [6, 1, 1, 1, 2], TURNED, elf="elf")
    assert record["breakdown"]["margin"]["value"] == -2
    return dict(record["breakdown"]["riposte"])


def halberd_at_elf(table: Table) -> dict[str, Any]:
    record = attack_lia(table, "pikeman", "halberd", [6, 1, 1, 1, 2], TURNED, elf="elf")
    assert record["breakdown"]["distance"]["value"] == 2
    return dict(record["breakdown"]["riposte"])


def considered(counter: dict[str, Any]) -> list[str]:
    return [c["weapon"] for c in counter["weapons_considered"]]


def test_an_elf_whose_only_melee_attack_is_a_spell_counters_with_it_not_fists() -> None:
    table = counter_table({}, spells=[FROST_TOUCH])
    counter = sword_at_elf(table)
    assert counter["answered"] is True and counter["weapon"] == "frost touch"
    # frost touch: 1 + 1 x 2 = 3 cold; the orc's hide does nothing against cold.
    assert counter["damage"]["armor"]["physical"] is False
    assert counter["damage"]["final"] == 3
    assert table.health("swordsman") == 11


def test_a_bow_listed_first_is_passed_over_for_a_sword_against_an_adjacent_foe() -> None:
    table = counter_table({}, weapons=[BOW, SWORD])
    counter = sword_at_elf(table)
    assert counter["weapon"] == "sword"
    assert considered(counter) == ["sword"]
    assert counter["ammunition"] is None
    assert table.state("elf")["ammunition"] == {"bow": 5}  # no arrow spent
    assert counter["damage"]["final"] == 3  # sword: 2 + 1 x 2 = 4, x 81/100 = 3.24


def test_a_weapon_that_spends_ammunition_comes_after_every_one_that_does_not() -> None:
    table = counter_table({}, weapons=[BOW, SWORD], spells=[FIREBOLT])
    counter = halberd_at_elf(table)  # the sword cannot reach rank 2; the firebolt can
    assert considered(counter) == ["sword", "firebolt"]
    assert counter["weapon"] == "firebolt"
    assert table.state("elf")["ammunition"] == {"bow": 5}


def test_with_only_a_bow_the_bow_answers_before_fists() -> None:
    table = counter_table({}, weapons=[BOW])
    counter = sword_at_elf(table)
    assert considered(counter) == ["bow"]
    assert counter["ammunition"] == {"weapon": "bow", "before": 5, "after": 4}


def test_fists_answer_only_when_nothing_on_the_sheet_reaches() -> None:
    table = counter_table({}, weapons=[{**BOW, "ammunition": 0}, SPEAR])
    counter = sword_at_elf(table)
    assert considered(counter) == ["spear"]  # the spear reaches 2, so 1 too
    table = counter_table({}, weapons=[{**BOW, "ammunition": 0}])
    counter = sword_at_elf(table)
    assert considered(counter) == ["bow", "fists"] and counter["weapon"] == "fists"


def test_a_named_weapon_is_the_only_one_tried() -> None:
    table = counter_table({"weapon": "sword"}, weapons=[SWORD, SPEAR])
    counter = halberd_at_elf(table)
    assert counter["answered"] is False
    assert considered(counter) == ["sword"]
    assert counter["why"] == "sword, named with the Riposte, does not reach pikeman at distance 2"
    assert table.health("pikeman") == 14


def test_a_named_spell_or_fists_may_be_the_counter() -> None:
    table = counter_table({"weapon": "frost touch"}, weapons=[SWORD], spells=[FROST_TOUCH])
    assert sword_at_elf(table)["weapon"] == "frost touch"
    table = counter_table({"weapon": "fists"}, weapons=[SWORD])
    assert sword_at_elf(table)["weapon"] == "fists"


# -- the Ward and the counter ----------------------------------------------------------


def test_a_dwarfs_ward_does_not_intercept_an_elfs_counter() -> None:
    # The counter is no attack: it is not rolled and the attacker does not defend it, so no
    # blow "has already beaten" the ally for the dwarf to take over (M13). It lands.
    table = Table()
    table.enrol("elf", sheet(**ELF, weapons=[SWORD]))
    table.enrol("swordsman", ORC)
    table.enrol("thrain", sheet(race="dwarf", vigor=3, guard=3, health=30))
    table.start(("elf", "a", 1), ("swordsman", "b", 1), ("thrain", "b", 1))
    table.act("ward", "thrain", effort=1)
    table.act("riposte", "elf", effort=1)
    record = attack_lia(table, "swordsman", "sword", [6, 1, 1, 1, 2], TURNED, elf="elf")
    assert record["breakdown"]["ward"] is None
    assert record["breakdown"]["riposte"]["answered"] is True
    assert table.health("swordsman") == 11  # sword: 4 x 81/100 = 3.24 -> 3
    assert table.health("thrain") == 30
    assert "thrain" not in {r.split(".")[1] for r in table.rolls(record) if "." in r}


def test_a_friend_turned_against_the_elf_is_measured_on_her_own_side() -> None:
    # A charmed ally one rank behind her stands 1 away (|1 - 2|), not 2: her sword answers.
    table = Table()
    table.enrol("elf", sheet(**ELF, weapons=[SWORD]))
    table.enrol("charmed", ORC)
    table.start(("elf", "a", 1), ("charmed", "a", 2))
    table.act("riposte", "elf", effort=1)
    record = attack_lia(table, "charmed", "sword", [6, 1, 1, 1, 2], TURNED, elf="elf")
    assert record["breakdown"]["distance"]["value"] == 1
    assert record["breakdown"]["riposte"]["weapon"] == "sword"
    assert table.health("charmed") == 11
