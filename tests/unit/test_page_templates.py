"""The pages' quick-add NPC templates are sheets their rulesets accept."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from skald_campaign.domain.rulesets import get_ruleset

SOURCE = Path(__file__).resolve().parents[2] / "api" / "static" / "rulesets.js"
MARK = "export const TEMPLATES = "


def templates() -> dict[str, dict[str, dict[str, Any]]]:
    """The object literal, read as JSON once its bare keys are quoted and trailing
    commas dropped (the templates are plain data, written that way on purpose)."""
    text = SOURCE.read_text()
    body = text[text.index(MARK) + len(MARK) :]
    body = body[: body.rindex("};") + 1]
    quoted = re.sub(r"([{,]\s*)([A-Za-z_][A-Za-z0-9_]*)\s*:", r'\1"\2":', body)
    found: dict[str, dict[str, dict[str, Any]]] = json.loads(re.sub(r",(\s*[}\]])", r"\1", quoted))
    return found


@pytest.mark.parametrize("ruleset", ["stamina-body", "margin", "d20"])
def test_every_template_is_a_valid_sheet(ruleset: str) -> None:
    found = templates()[ruleset]
    assert found
    for sheet in found.values():
        get_ruleset(ruleset).validate_sheet(dict(sheet))


def initiative_fields() -> dict[str, list[str]]:
    """The GM screen's choice of what a rolled initiative adds, per ruleset (rulesets.js)."""
    mark = "export const INITIATIVE_ADD = "
    text = SOURCE.read_text()
    body = text[text.index(mark) + len(mark) :]
    body = body[: body.index("};") + 1]
    quoted = re.sub(r"([{,]\s*)([A-Za-z_][A-Za-z0-9_]*)\s*:", r'\1"\2":', body)
    found: dict[str, list[str]] = json.loads(re.sub(r",(\s*[}\]])", r"\1", quoted))
    return found


@pytest.mark.parametrize("ruleset", ["stamina-body", "margin", "d20"])
def test_the_initiative_fields_offered_are_the_options_own(ruleset: str) -> None:
    """The new-campaign form offers exactly the sheet fields the ruleset's rolled
    initiative accepts (T1): none it would refuse, none left out."""
    roll = get_ruleset(ruleset).campaign_options_model.model_json_schema()["$defs"]
    schema = next(d for name, d in roll.items() if name.endswith("InitiativeRoll"))
    accepted = schema["properties"]["add"]["anyOf"][0]["enum"]
    offered = initiative_fields()[ruleset]
    assert sorted(offered) == sorted(accepted) and len(set(offered)) == len(offered)
