"""The ruleset contract kit fails a ruleset that breaks the contract (issue 38), and
Skald's runtime never imports it (the kit imports pytest, a test extra)."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
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
