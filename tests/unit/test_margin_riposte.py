"""The Elf's Riposte (M14, M15): sharpened evasion, and a turned blow's margin comes back."""

from __future__ import annotations

from typing import Any

import pytest

from skald_campaign.domain.errors import ActionRefused, InvalidInput
from tests.unit.test_margin_table import (
    BOW,
    HALBERD,
    SLING,
    SPEAR,
    SWORD,
    Table,
    sheet,
)

ELF = dict(race="elf", might=2, grace=3, vigor=1, aether=1, melee=1, evasion=2)
LIA = sheet(**ELF, weapons=[SWORD, BOW])
ORC = sheet(
    might=3, grace=2, melee=2, armor=[{"name": "hide", "rating": 2}], weapons=[SWORD]
)  # health 14
TURNED = [6, 6, 6, 1, 1, 1, 2]  # three successes on Lia's seven evasion dice (effort 1)


def blanks(n: int) -> list[int]:
    return [2] * n


def attack_lia(
    table: Table,
    attacker: str,
    weapon: str,
    attack: list[int],
    evasion: list[int],
    guard: list[int] | None = None,
    elf: str = "lia",
) -> dict[str, Any]:
    return table.act(
        "attack",
        attacker,
        target=elf,
        weapon=weapon,
        dice={
            "attack": attack,
            f"defense.{elf}.evasion": evasion,
            f"defense.{elf}.guard": guard or [2],
        },
    )


@pytest.fixture
def table() -> Table:
    table = Table()
    table.enrol("lia", LIA)
    table.enrol("orc", ORC)
    table.enrol("orc2", ORC)
    table.enrol("archer", sheet(grace=2, marksmanship=1, weapons=[BOW]))
    table.enrol("slinger", sheet(grace=2, marksmanship=1, weapons=[SLING]))
    table.enrol("thrain", sheet(race="dwarf"))
    table.start(
        ("lia", "fellowship", 1),
        ("thrain", "fellowship", 1),
        ("orc", "horde", 1),
        ("orc2", "horde", 1),
        ("archer", "horde", 1),
        ("slinger", "horde", 1),
    )
    return table


def test_only_an_elf_can_riposte(table: Table) -> None:
    assert table.refused(ActionRefused, "riposte", "thrain") == (
        "only an elf can riposte; thrain is a dwarf"
    )


def test_the_stance_sharpens_evasion_and_drops_everything_else_to_passive(table: Table) -> None:
    declared = table.act("riposte", "lia", effort=1)
    assert declared["breakdown"]["defense_pools"]["guard"]["mode"] == "passive"
    record = attack_lia(table, "orc", "sword", blanks(5), blanks(7))
    evasion, guard = record["breakdown"]["defense"]["rolls"]
    assert (evasion["mode"], guard["mode"]) == ("active", "passive")
    assert {t["term"]: t["dice"] for t in evasion["pool"]["terms"]} == {
        "grace": 3,
        "evasion": 2,
        "effort": 1,
        "riposte_sharpening": 1,
        "exhaustion": 0,
        "wounded": 0,
    }
    assert evasion["pool"]["dice"] == 7
    assert guard["pool"]["terms"] == [{"term": "vigor", "dice": 1}]


def test_a_turned_blow_comes_back_as_a_counter_with_no_roll(table: Table) -> None:
    table.act("riposte", "lia", effort=1)
    record = attack_lia(table, "orc", "sword", [6, 1, 1, 1, 2], TURNED)
    assert record["breakdown"]["margin"]["value"] == -2
    counter = record["breakdown"]["riposte"]
    assert counter["answered"] is True and counter["counter_margin"] == 2
    assert counter["weapon"] == "sword"
    # Lia's sword: 2 + 1 x 2 = 4, through the orc's own hide (Armor 2): 3.24 -> 3.
    assert counter["damage"]["armor"]["multiplier"] == "81/100"
    assert counter["damage"]["final"] == 3
    assert counter["health"] == {"before": 14, "after": 11}
    assert table.health("orc") == 11 and table.health("lia") == 12
    assert sorted(table.rolls(record)) == ["attack", "defense.lia.evasion", "defense.lia.guard"]
    assert record["summary"].endswith("turned; lia counters with sword: orc takes 3")


def test_a_counter_goes_through_the_attacker_s_nature() -> None:
    table = Table()
    table.enrol("lia", LIA)
    table.enrol("wraith", sheet(might=3, melee=2, nature={"slash": "immune"}, weapons=[SWORD]))
    table.start(("lia", "a", 1), ("wraith", "b", 1))
    table.act("riposte", "lia", effort=1)
    record = attack_lia(table, "wraith", "sword", [6, 1, 1, 1, 2], TURNED)
    assert record["breakdown"]["riposte"]["damage"]["final"] == 0
    assert table.health("wraith") == 14


def test_nothing_is_answered_unless_the_blow_was_turned(table: Table) -> None:
    table.act("riposte", "lia", effort=1)
    even = attack_lia(table, "orc", "sword", [6, 6, 6, 1, 1], TURNED)
    assert even["breakdown"]["margin"]["value"] == 0
    assert even["breakdown"]["riposte"] is None
    landed = attack_lia(table, "orc2", "sword", [6, 6, 6, 6, 6], TURNED)
    assert landed["breakdown"]["margin"]["value"] == 2
    assert landed["breakdown"]["riposte"] is None
    assert table.health("lia") == 8 and table.health("orc2") == 14


def test_every_turned_blow_is_answered(table: Table) -> None:
    table.act("riposte", "lia", effort=1)
    for attacker in ("orc", "orc2"):
        record = attack_lia(table, attacker, "sword", [6, 1, 1, 1, 2], TURNED)
        assert record["breakdown"]["riposte"]["answered"] is True
    assert table.health("orc") == table.health("orc2") == 11


@pytest.mark.parametrize(("shooter", "weapon"), [("archer", "bow"), ("slinger", "sling")])
def test_a_bow_or_a_sling_is_never_answered_even_at_arm_s_length(
    table: Table,
    shooter: str,
    weapon: str,
) -> None:
    table.act("riposte", "lia", effort=1)
    record = attack_lia(table, shooter, weapon, [1, 2, 3], [6, 6, 6, 6, 6, 6, 6])
    assert record["breakdown"]["distance"]["value"] == 1  # at arm's length
    assert record["breakdown"]["margin"]["value"] == -7
    counter = record["breakdown"]["riposte"]
    assert counter["answered"] is False
    assert counter["why"].startswith(f"{weapon} is a ranged weapon")
    assert table.health(shooter) == 14  # untouched


def reach_table(elf_weapons: list[dict[str, Any]]) -> Table:
    table = Table()
    table.enrol("elf", sheet(**ELF, weapons=elf_weapons))
    table.enrol("shieldwall", sheet())
    table.enrol("pikeman", sheet(might=3, melee=2, weapons=[HALBERD]))
    table.enrol("brawler", sheet(might=3, melee=2, weapons=[SWORD]))
    table.start(("elf", "a", 1), ("shieldwall", "b", 1), ("brawler", "b", 1), ("pikeman", "b", 2))
    table.act("riposte", "elf", effort=1)
    return table


def halberd_at_elf(table: Table) -> dict[str, Any]:
    record = attack_lia(table, "pikeman", "halberd", [6, 1, 1, 1, 2], TURNED, elf="elf")
    assert record["breakdown"]["distance"]["value"] == 2  # one rank back
    assert record["breakdown"]["margin"]["value"] == -2
    return record


def test_a_reach_attacker_one_rank_back_is_not_answered_by_a_sword() -> None:
    table = reach_table([SWORD])
    counter = halberd_at_elf(table)["breakdown"]["riposte"]
    assert counter["answered"] is False
    assert counter["why"] == "nothing elf holds reaches pikeman at distance 2 right now"
    assert [c["weapon"] for c in counter["weapons_considered"]] == ["sword", "fists"]
    assert table.health("pikeman") == 14


def test_a_reach_attacker_one_rank_back_is_answered_by_an_elf_with_a_spear() -> None:
    table = reach_table([SWORD, SPEAR])
    counter = halberd_at_elf(table)["breakdown"]["riposte"]
    assert counter["answered"] is True and counter["weapon"] == "spear"
    assert counter["damage"]["final"] == 4  # spear: 2 + 1 x 2, no armor
    assert table.health("pikeman") == 10


def test_an_archer_with_arrows_answers_a_long_weapon_and_spends_an_arrow() -> None:
    table = reach_table([BOW])
    counter = halberd_at_elf(table)["breakdown"]["riposte"]
    assert counter["answered"] is True and counter["weapon"] == "bow"
    assert counter["ammunition"] == {"weapon": "bow", "before": 5, "after": 4}
    assert table.state("elf")["ammunition"] == {"bow": 4}
    assert table.health("pikeman") == 11  # bow: 1 + 1 x 2


def test_an_archer_out_of_arrows_counters_only_what_stands_over_them() -> None:
    table = reach_table([{**BOW, "ammunition": 0}])
    far = halberd_at_elf(table)["breakdown"]["riposte"]
    assert far["answered"] is False
    assert far["weapons_considered"][0] == {
        "weapon": "bow",
        "reaches": False,
        "why": "bow is out of ammunition",
    }
    near = attack_lia(table, "brawler", "sword", [6, 1, 1, 1, 2], TURNED, elf="elf")
    counter = near["breakdown"]["riposte"]
    assert counter["answered"] is True and counter["weapon"] == "fists"
    assert counter["damage"]["final"] == 2  # fists: 0 + 1 x 2
    assert table.health("brawler") == 12 and table.health("pikeman") == 14


def test_the_riposte_may_name_the_weapon_to_counter_with(table: Table) -> None:
    table.act("riposte", "lia", effort=1, weapon="bow")
    counter = attack_lia(table, "orc", "sword", [6, 1, 1, 1, 2], TURNED)["breakdown"]["riposte"]
    assert counter["weapon"] == "bow"
    assert table.state("lia")["ammunition"] == {"bow": 4}


def test_the_named_counter_weapon_must_be_on_the_sheet(table: Table) -> None:
    message = table.refused(InvalidInput, "riposte", "lia", weapon="glaive")
    assert message == (
        "lia has no weapon or spell 'glaive' to counter with; their weapons: sword, bow, "
        "fists; their spells: none"
    )


def test_the_riposte_ends_with_the_round(table: Table) -> None:
    table.act("riposte", "lia", effort=1)
    table.next_round()
    record = attack_lia(table, "orc", "sword", [1, 1, 1, 1, 2], blanks(3), blanks(1))
    assert record["breakdown"]["riposte"] is None
    assert record["breakdown"]["defense"]["posture"] is None
