"""The ruleset contract kit fails a ruleset that breaks the contract (issue 38), and
Skald's runtime never imports it (the kit imports pytest, a test extra)."""

from __future__ import annotations

import itertools
import random
import re
import subprocess
import sys
import uuid
from collections.abc import Mapping
from pathlib import Path

import pytest

from skald_campaign.domain.rulesets.base import (
    ActionType,
    EncounterView,
    JsonMapping,
    Outcome,
    SheetLike,
)
from skald_campaign.domain.rulesets.d20 import D20
from skald_campaign.domain.rulesets.d20.actions import ACTIONS
from skald_campaign.ruleset_api import JSONObject
from skald_campaign.ruleset_api.narrative import Roster
from skald_campaign.ruleset_api.texts import Part, Secret, Text
from skald_campaign.ruleset_kit import registered
from tests.unit import test_ruleset_kit_d20

COUNTER = itertools.count()


class CountingD20(D20):
    """d20 whose attack summary carries how many attacks this process resolved."""

    id = "kit-counting-d20"

    def __init__(self) -> None:
        attack = ACTIONS["attack"]

        def counted(
            view: EncounterView, actor: str | None, params: object, tray: object
        ) -> Outcome:
            outcome = attack.resolve(view, actor, params, tray)  # type: ignore[arg-type]
            return Outcome(f"{outcome.summary} #{next(COUNTER)}", outcome.breakdown)

        self.actions = {**ACTIONS, "attack": ActionType("attack", attack.params, counted, "")}


class DiceInConditions(D20):
    """d20 whose conditions draw from the random module (a 'lucky' that comes and goes)."""

    id = "kit-random-d20"

    def conditions(
        self, sheet: SheetLike, tracks: Mapping[str, int], state: JsonMapping
    ) -> tuple[str, ...]:
        lucky = ("lucky",) if random.random() < 0.5 else ()
        return super().conditions(sheet, tracks, state) + lucky


def test_a_resolution_that_is_not_a_function_of_its_dice_fails_the_kit() -> None:
    contract = test_ruleset_kit_d20.TestD20Contract()
    contract.ruleset = CountingD20()  # type: ignore[misc]
    with pytest.raises(AssertionError):
        contract.test_resolution_is_deterministic_from_given_dice()


def test_rules_that_roll_while_the_store_applies_events_fail_the_kit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    contract = test_ruleset_kit_d20.TestD20Contract()
    contract.ruleset = DiceInConditions()  # type: ignore[misc]
    failing = pytest.raises(pytest.fail.Exception, match=r"random\.random was called")
    with failing, registered(contract.ruleset):
        contract.test_applying_never_rolls(tmp_path, monkeypatch)


def test_a_bad_sheet_the_ruleset_takes_fails_the_kit() -> None:
    from skald_campaign.ruleset_kit import BadInput

    contract = test_ruleset_kit_d20.TestD20Contract()
    contract.bad_sheets = (BadInput({**contract.sheets[0], "hp": 5}, "sheet.hp"),)  # type: ignore[misc]
    with pytest.raises(pytest.fail.Exception, match="DID NOT RAISE"):
        contract.test_bad_sheets_are_refused_naming_the_field()


def test_skalds_runtime_never_imports_the_kit_or_pytest() -> None:
    program = (
        "import sys\n"
        "import skald_campaign.cli, skald_campaign.api.app, skald_campaign.workers\n"
        "print(sorted(m for m in sys.modules if m.startswith(('pytest', '_pytest', "
        "'skald_campaign.ruleset_kit'))))\n"
    )
    found = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=True
    ).stdout
    assert found == "[]\n"


# -- RULINGS T3: every condition has a descriptor -------------------------------------


class NumberedD20(D20):
    """d20 whose word for an NPC states its hit points."""

    id = "kit-numbered-d20"

    def track_descriptor(self, tracks: Mapping[str, int], maxima: Mapping[str, int]) -> str | None:
        return f"{tracks['hp']} HP"


class EarlyDownD20(D20):
    """d20 that calls an NPC down at half its hit points (its condition comes at 0)."""

    id = "kit-early-down-d20"

    def track_descriptor(self, tracks: Mapping[str, int], maxima: Mapping[str, int]) -> str | None:
        return "down" if 2 * tracks["hp"] <= maxima["hp"] else None


class AlwaysFineD20(D20):
    """d20 that reads every NPC as fine, down or not."""

    id = "kit-always-fine-d20"

    def track_descriptor(self, tracks: Mapping[str, int], maxima: Mapping[str, int]) -> str | None:
        return "fine"


@pytest.mark.parametrize(
    ("broken", "says"),
    [
        (NumberedD20, "a descriptor states a number: sheet 0 at {'hp': 20}: [] read as '20 HP'"),
        (
            EarlyDownD20,
            "a descriptor names a condition not had: sheet 0 at {'hp': 10}: [] read as 'down'",
        ),
        (
            AlwaysFineD20,
            "a condition with no descriptor: sheet 0 at {'hp': 0}: ['down'] read as 'fine'",
        ),
    ],
)
def test_a_descriptor_that_breaks_t3_fails_the_kit(broken: type[D20], says: str) -> None:
    contract = test_ruleset_kit_d20.TestD20Contract()
    contract.test_every_condition_has_a_descriptor()  # d20 itself passes
    contract.ruleset = broken()  # type: ignore[misc]
    with pytest.raises(AssertionError, match=re.escape(says)):
        contract.test_every_condition_has_a_descriptor()


# -- RULINGS T3a: every text part has a reader-safe rendering -------------------------


def plain(text: Text) -> Text:
    """The text with every secret's parts said to everyone."""
    out: list[Part] = []
    for part in text:
        out.extend(plain(part.parts) if isinstance(part, Secret) else (part,))
    return tuple(out)


class TellingD20(D20):
    """d20 whose outcomes state the NPC's numbers plainly (no Secret around them)."""

    id = "kit-telling-d20"

    def outcome(self, record: JSONObject, combatants: Roster) -> Text | None:
        told = super().outcome(record, combatants)
        return None if told is None else plain(told)

    def summary(self, record: JSONObject, combatants: Roster) -> Text | None:
        told = super().summary(record, combatants)
        return None if told is None else plain(told)


class NumberPartD20(D20):
    """d20 whose narrative puts a number in a line as an int, a part no reader renders."""

    id = "kit-number-part-d20"

    def narrative(self, record: JSONObject, combatants: Roster) -> list[Text] | None:
        lines = super().narrative(record, combatants)
        return None if lines is None else [(*lines[0], 7), *lines[1:]]  # type: ignore[list-item]


class AnotherSummaryD20(D20):
    """d20 whose summary's parts say something else than the record's summary."""

    id = "kit-another-summary-d20"

    def summary(self, record: JSONObject, combatants: Roster) -> Text | None:
        told = super().summary(record, combatants)
        return None if told is None else ("Somebody attacks.",)


@pytest.mark.parametrize(
    ("broken", "says"),
    [
        (TellingD20, "an NPC's numbers stated"),
        (NumberPartD20, "a part no reader can render"),
        (AnotherSummaryD20, "the summary's parts do not read as the record's summary"),
    ],
)
def test_texts_a_reader_cannot_read_safely_fail_the_kit(
    broken: type[D20], says: str, tmp_path: Path
) -> None:
    contract = test_ruleset_kit_d20.TestD20Contract()
    with registered(contract.ruleset):
        contract.test_every_text_part_has_a_reader_safe_rendering(tmp_path)
    contract.ruleset = broken()  # type: ignore[misc]
    with pytest.raises(AssertionError, match=re.escape(says)), registered(contract.ruleset):
        (tmp_path / "broken").mkdir()
        contract.test_every_text_part_has_a_reader_safe_rendering(tmp_path / "broken")


def test_a_number_stated_is_caught_whatever_digits_the_ids_hold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The parameters name the target by its id, a uuid4: its digits are no number any
    reader reads. Once in about fifty runs the target's id held the digits "12" (its
    hit points) between two letters, and the kit read the summary's "HP 12 -> 6" as
    the parameters' 12: TellingD20 passed."""
    import skald_campaign.domain.campaign.commands as enrolling

    # Every id holds "12" between non-digits (and differs from the others).
    ids = (uuid.UUID(f"{n:08x}-a12a-4000-8000-0000000000c0") for n in itertools.count(0xA0))
    monkeypatch.setattr(enrolling, "uuid4", lambda: next(ids))
    contract = test_ruleset_kit_d20.TestD20Contract()
    with registered(contract.ruleset):
        contract.test_every_text_part_has_a_reader_safe_rendering(tmp_path)  # d20 passes
    contract.ruleset = TellingD20()  # type: ignore[misc]
    (tmp_path / "telling").mkdir()
    with (
        pytest.raises(AssertionError, match="an NPC's numbers stated"),
        registered(contract.ruleset),
    ):
        contract.test_every_text_part_has_a_reader_safe_rendering(tmp_path / "telling")
