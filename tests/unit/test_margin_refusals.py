"""What margin refuses, and how it says so: one action a round, reach, ammunition,
a character who is down, effort over the cap, and names that do not exist."""

from __future__ import annotations

import pytest

from skald_campaign.domain.errors import ActionRefused, InvalidInput, NotFound
from tests.unit.test_margin_table import AXE, BOW, FIREBOLT, SPEAR, SWORD, Table, sheet

BRENNA = sheet(might=4, grace=1, vigor=3, aether=0, melee=4, weapons=[SWORD, BOW])
ORC = sheet(might=3, melee=2, health=20, weapons=[AXE])


def blanks(n: int) -> list[int]:
    return [2] * n


@pytest.fixture
def table() -> Table:
    table = Table()
    table.enrol("brenna", BRENNA)
    table.enrol("orc", ORC)
    table.enrol("mage", sheet(aether=4, abjuration=3, spells=[FIREBOLT]))
    table.start(("brenna", "pcs", 1), ("mage", "pcs", 2), ("orc", "foes", 1))
    return table


# -- reach and ammunition ------------------------------------------------------------


def test_a_melee_weapon_reaches_only_the_enemy_front() -> None:
    table = Table()
    table.enrol("brenna", sheet(might=3, melee=2, weapons=[SWORD, SPEAR, BOW]))
    table.enrol("orc", ORC)
    table.start(("brenna", "pcs", 2), ("orc", "foes", 1))
    message = table.refused(ActionRefused, "attack", "brenna", target="orc", weapon="sword")
    assert message == ("brenna cannot attack orc: sword (melee) reaches only 1; distance is 2")
    quiet = {"defense.orc.evasion": blanks(2), "defense.orc.guard": blanks(2)}
    record = table.act(
        "attack", "brenna", target="orc", weapon="spear", dice={"attack": blanks(5), **quiet}
    )
    assert record["breakdown"]["distance"]["value"] == 2
    table.next_round()
    table.act("attack", "brenna", target="orc", weapon="bow", dice={"attack": blanks(2), **quiet})


def test_a_bow_out_of_arrows_cannot_shoot() -> None:
    table = Table()
    table.enrol("archer", sheet(grace=3, marksmanship=2, weapons=[{**BOW, "ammunition": 1}]))
    table.enrol("orc", ORC)
    table.start(("archer", "pcs", 3), ("orc", "foes", 2))
    quiet = {"defense.orc.evasion": blanks(2), "defense.orc.guard": blanks(2)}
    table.act("attack", "archer", target="orc", weapon="bow", dice={"attack": blanks(5), **quiet})
    table.next_round()
    message = table.refused(ActionRefused, "attack", "archer", target="orc", weapon="bow")
    assert message == "archer cannot attack orc: bow is out of ammunition"


# -- refusals --------------------------------------------------------------------------


def test_one_action_per_combatant_per_round(table: Table) -> None:
    quiet = {"defense.orc.evasion": blanks(2), "defense.orc.guard": blanks(2)}
    table.act("attack", "brenna", target="orc", weapon="sword", dice={"attack": blanks(8), **quiet})
    message = table.refused(ActionRefused, "attack", "brenna", target="orc", weapon="sword")
    assert message == (
        "brenna has already acted once in round 1 (actions_per_round is 1); no turn order "
        "is set: anyone may act in round 1; the GM may override with a reason"
    )
    table.refused(ActionRefused, "defend", "brenna")
    table.next_round()
    table.act("attack", "brenna", target="orc", weapon="sword", dice={"attack": blanks(8), **quiet})


def test_a_posture_is_the_round_s_action(table: Table) -> None:
    table.act("defend", "brenna")
    table.refused(ActionRefused, "attack", "brenna", target="orc", weapon="sword")


def test_a_character_who_is_down_cannot_act() -> None:
    table = Table()
    table.enrol("brenna", BRENNA)
    table.enrol("goblin", sheet(grace=1, vigor=0, health=3, weapons=[SWORD]))
    table.start(("brenna", "pcs", 1), ("goblin", "foes", 1))
    table.act(
        "attack",
        "brenna",
        target="goblin",
        weapon="sword",
        dice={
            "attack": [6, 6, 1, 1, 1, 1, 1, 2],
            "defense.goblin.evasion": [2],
        },
    )
    assert table.health("goblin") == -1
    assert table.conditions("goblin") == ("wounded", "down")
    message = table.refused(ActionRefused, "attack", "goblin", target="brenna", weapon="sword")
    assert message == "goblin cannot attack: down"


def test_effort_is_capped_by_the_campaign_option(table: Table) -> None:
    message = table.refused(InvalidInput, "attack", "brenna", target="orc", effort=4)
    assert message == "effort 4 is more than this campaign allows: at most 3 effort dice"
    generous = Table({"max_effort": 5})
    generous.enrol("brenna", BRENNA)
    generous.enrol("orc", ORC)
    generous.start(("brenna", "pcs", 1), ("orc", "foes", 1))
    record = generous.act(
        "attack",
        "brenna",
        target="orc",
        weapon="sword",
        effort=5,
        dice={
            "attack": blanks(13),
            "defense.orc.evasion": blanks(2),
            "defense.orc.guard": blanks(2),
        },
    )
    assert record["breakdown"]["attack"]["pool"]["dice"] == 13


def test_unknown_weapons_spells_and_targets_are_named(table: Table) -> None:
    assert table.refused(InvalidInput, "attack", "brenna", target="orc", weapon="maul") == (
        "brenna has no weapon 'maul'; their weapons: sword, bow, fists"
    )
    assert "a spell is cast, not attacked with" in table.refused(
        InvalidInput, "attack", "mage", target="orc", weapon="firebolt"
    )
    assert table.refused(InvalidInput, "cast", "brenna", target="orc", spell="firebolt") == (
        "brenna has no spell 'firebolt'; their spells: none"
    )
    assert table.refused(NotFound, "attack", "brenna", target="nobody") == (
        "target 'nobody' is not a combatant in this encounter"
    )
    assert table.refused(InvalidInput, "attack", "brenna", target="brenna") == (
        "brenna cannot attack themselves; pick another target"
    )
