"""Margin's records whose texts tests/unit/test_told_margin.py reads: a posture of each
kind, and attacks with a Dwarf's Ward or an Elf's Riposte in them, NPCs on both sides.

Sheets (human unless said): Bran (PC) Might 3 Melee 2, 5 attack dice; Lia (PC elf)
Grace 3 Evasion 2, her Riposte's evasion 6 dice, her blows 3; Gimli (PC dwarf) and
Thrain (NPC dwarf) Grace 1 Evasion 1 Vigor 3 Guard 3, mail 4, health 16; Goblin 2 (NPC)
Might 2 Melee 1, health 20; Sylvan (NPC elf) as Lia; the Archer (NPC) a bow, 3 dice.
"""

from __future__ import annotations

from typing import Any

from skald_campaign.domain.records import JSON
from tests.unit.test_margin_table import BOW, SWORD, sheet
from tests.unit.told_support import Table

ELF = {"race": "elf", "might": 2, "grace": 3, "vigor": 1, "aether": 1, "melee": 1,
       "evasion": 2}  # fmt: skip
DWARF = {"race": "dwarf", "grace": 1, "vigor": 3, "aether": 1, "evasion": 1, "guard": 3,
         "armor": [{"name": "mail", "rating": 4}], "weapons": [SWORD]}  # fmt: skip
SHEETS: dict[str, tuple[dict[str, Any], bool]] = {
    "Bran": (sheet(might=3, melee=2, weapons=[SWORD]), False),
    "Lia": (sheet(**ELF, weapons=[SWORD, BOW]), False),
    "Gimli": (sheet(**DWARF), False),
    "Thrain": (sheet(**DWARF), True),
    "Goblin 2": (sheet(melee=1, health=20, weapons=[SWORD]), True),
    "Sylvan": (sheet(**ELF, weapons=[SWORD, BOW]), True),
    "Archer": (sheet(marksmanship=1, weapons=[BOW]), True),
}


def table(*lineup: tuple[str, str, int]) -> Table:
    t = Table("margin")
    for name, _, _ in lineup:
        character, npc = SHEETS[name]
        t.enrol(name, character, npc=npc)
    t.start(*lineup)
    return t


def blanks(n: int) -> list[int]:
    return [2] * n


FOES = (("Bran", "party", 1), ("Goblin 2", "foes", 1), ("Thrain", "foes", 1))


def ward_by_an_npc() -> tuple[Table, dict[str, JSON]]:
    t = table(*FOES)
    return t, t.act("ward", "Thrain", effort=1)


def riposte_by_an_npc() -> tuple[Table, dict[str, JSON]]:
    t = table(("Lia", "party", 1), ("Sylvan", "foes", 1))
    return t, t.act("riposte", "Sylvan", weapon="sword")


def defend_by_an_npc() -> tuple[Table, dict[str, JSON]]:
    t = table(*FOES)
    return t, t.act("defend", "Goblin 2", effort=2)


def bran_hits_goblin(ward: dict[str, list[int]]) -> tuple[Table, dict[str, JSON]]:
    t = table(*FOES)
    t.act("ward", "Thrain", effort=1)
    dice = {"attack": [6, 6, 6, 6, 1], "defense.{Goblin 2}.evasion": [2, 3],
            "defense.{Goblin 2}.guard": [2, 3],
            **{f"ward.{{Thrain}}.{d}": faces for d, faces in ward.items()}}  # fmt: skip
    return t, t.act("attack", "Bran", dice, target="Goblin 2", weapon="sword")


def an_npc_dwarf_takes_a_pcs_blow() -> tuple[Table, dict[str, JSON]]:
    """Thrain's evasion shows nothing but ones (below nothing, counted as 0), his guard
    one success: 4 - 1 = 3 comes through, to him."""
    return bran_hits_goblin({"evasion": [1, 1, 1], "guard": [6, 2, 2, 2, 2, 2, 2]})


def an_npc_dwarf_stops_a_pcs_blow() -> tuple[Table, dict[str, JSON]]:
    return bran_hits_goblin({"evasion": [6, 6, 2], "guard": [6, 6, 2, 2, 2, 2, 2]})


def a_pc_dwarf_takes_an_npcs_blow() -> tuple[Table, dict[str, JSON]]:
    t = table(("Lia", "party", 1), ("Gimli", "party", 1), ("Goblin 2", "foes", 1))
    t.act("ward", "Gimli")
    dice = {"attack": [6, 6, 6], "defense.{Lia}.evasion": blanks(3),
            "defense.{Lia}.guard": blanks(1), "ward.{Gimli}.evasion": blanks(2),
            "ward.{Gimli}.guard": [6, 2, 2, 2, 2, 2]}  # fmt: skip
    return t, t.act("attack", "Goblin 2", dice, target="Lia", weapon="sword")


def an_npc_dwarf_stops_a_blow_between_pcs() -> tuple[Table, dict[str, JSON]]:
    """Thrain, an NPC hireling on the party's side, wards Lia from Bran in a duel: the
    record names no NPC but in its Ward, and his pools are still his own."""
    t = table(("Lia", "party", 1), ("Thrain", "party", 1), ("Bran", "rivals", 1))
    t.act("ward", "Thrain")
    dice = {"attack": [6, 6, 6, 1, 1], "defense.{Lia}.evasion": blanks(3),
            "defense.{Lia}.guard": blanks(1), "ward.{Thrain}.evasion": blanks(2),
            "ward.{Thrain}.guard": [6, 6, 6, 2, 2, 2]}  # fmt: skip
    return t, t.act("attack", "Bran", dice, target="Lia", weapon="sword")


def a_ward_from_behind_covers_nobody() -> tuple[Table, dict[str, JSON]]:
    """Thrain wards from rank 2: the Goblin at rank 1 stands in front of him."""
    t = table(("Bran", "party", 1), ("Goblin 2", "foes", 1), ("Thrain", "foes", 2))
    t.act("ward", "Thrain")
    dice = {"attack": [6, 6, 1, 1, 1], "defense.{Goblin 2}.evasion": [2, 3],
            "defense.{Goblin 2}.guard": [2, 3]}  # fmt: skip
    return t, t.act("attack", "Bran", dice, target="Goblin 2", weapon="sword")


def a_ward_declared_from_behind_covers_nobody() -> tuple[Table, dict[str, JSON]]:
    """Thrain wards from rank 2; both his allies stand at rank 1, in front of him."""
    t = table(("Bran", "party", 1), ("Goblin 2", "foes", 1), ("Archer", "foes", 1),
              ("Thrain", "foes", 2))  # fmt: skip
    return t, t.act("ward", "Thrain", effort=1)


def a_pc_dwarf_with_no_ally_wards() -> tuple[Table, dict[str, JSON]]:
    """Gimli stands alone on his side."""
    t = table(("Gimli", "party", 1), ("Goblin 2", "foes", 1))
    return t, t.act("ward", "Gimli")


def an_npc_elf_answers_a_pc() -> tuple[Table, dict[str, JSON]]:
    t = table(("Lia", "party", 1), ("Sylvan", "foes", 1))
    t.act("riposte", "Sylvan")
    dice = {"attack": [6, 1, 1], "defense.{Sylvan}.evasion": [6, 6, 6, 1, 1, 1],
            "defense.{Sylvan}.guard": [2]}  # fmt: skip
    return t, t.act("attack", "Lia", dice, target="Sylvan", weapon="sword")


def a_pc_elf_answers_an_npc() -> tuple[Table, dict[str, JSON]]:
    t = table(("Lia", "party", 1), ("Goblin 2", "foes", 1))
    t.act("riposte", "Lia")
    dice = {"attack": [6, 1, 1], "defense.{Lia}.evasion": [6, 6, 6, 1, 1, 1],
            "defense.{Lia}.guard": [2]}  # fmt: skip
    return t, t.act("attack", "Goblin 2", dice, target="Lia", weapon="sword")


def a_shot_at_a_riposting_elf_is_not_answered() -> tuple[Table, dict[str, JSON]]:
    t = table(("Lia", "party", 1), ("Archer", "foes", 2))
    t.act("riposte", "Lia")
    dice = {"attack": [6, 1, 1], "defense.{Lia}.evasion": [6, 6, 1, 1, 1, 1],
            "defense.{Lia}.guard": [2]}  # fmt: skip
    return t, t.act("attack", "Archer", dice, target="Lia", weapon="bow")


SCENES = [
    ward_by_an_npc,
    riposte_by_an_npc,
    defend_by_an_npc,
    an_npc_dwarf_takes_a_pcs_blow,
    an_npc_dwarf_stops_a_pcs_blow,
    a_pc_dwarf_takes_an_npcs_blow,
    an_npc_dwarf_stops_a_blow_between_pcs,
    a_ward_from_behind_covers_nobody,
    a_ward_declared_from_behind_covers_nobody,
    a_pc_dwarf_with_no_ally_wards,
    an_npc_elf_answers_a_pc,
    a_pc_elf_answers_an_npc,
    a_shot_at_a_riposting_elf_is_not_answered,
]
