"""What each ruleset publishes for the pages (its `presentation`) fits the ruleset: the
quick-add NPC templates are sheets it accepts, the initiative fields offered are the
ones its options accept, and every action or answer it names is one it has."""

from __future__ import annotations

from typing import Any

import pytest

from skald_campaign.api.schemas import RulesetPresentation
from skald_campaign.domain.rulesets import RULESETS, get_ruleset

BUILT_IN = ["stamina-body", "margin", "d20"]


def presented(ruleset: str) -> RulesetPresentation:
    return RulesetPresentation.model_validate(get_ruleset(ruleset).presentation())


@pytest.mark.parametrize("ruleset", BUILT_IN)
def test_every_template_is_a_valid_sheet(ruleset: str) -> None:
    found: dict[str, dict[str, Any]] = presented(ruleset).templates
    assert found
    for sheet in found.values():
        get_ruleset(ruleset).validate_sheet(dict(sheet))


@pytest.mark.parametrize("ruleset", BUILT_IN)
def test_the_initiative_fields_offered_are_the_options_own(ruleset: str) -> None:
    """The new-campaign form offers exactly the sheet fields the ruleset's rolled
    initiative accepts (T1): none it would refuse, none left out."""
    roll = get_ruleset(ruleset).campaign_options_model.model_json_schema()["$defs"]
    schema = next(d for name, d in roll.items() if name.endswith("InitiativeRoll"))
    accepted = schema["properties"]["add"]["anyOf"][0]["enum"]
    offered = presented(ruleset).initiative_add
    assert sorted(offered) == sorted(accepted) and len(set(offered)) == len(offered)


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_the_presentation_names_only_the_rulesets_actions(ruleset: str) -> None:
    """Every action kind the presentation names is one of the ruleset's (a label may
    also name a defender's answer, which a "declare:" panel entry names too)."""
    shown = presented(ruleset)
    actions = set(get_ruleset(ruleset).actions)
    answers = {e.removeprefix("declare:") for e in shown.panel if e.startswith("declare:")}
    assert {e for e in shown.panel if not e.startswith("declare:")} <= actions
    assert (
        set(shown.panel_titles) | set(shown.server_recorded) | set(shown.self_targeted) <= actions
    )
    assert set(shown.labels) <= actions | answers | {"none"}
    assert set(shown.shortcuts.values()) <= actions


def test_a_ruleset_may_not_take_the_screens_own_keys() -> None:
    """n, p and u step the turns and undo on every GM screen: a ruleset's key among them
    would leave the GM without one or the other."""
    with pytest.raises(ValueError, match="shortcuts: n, u are the GM screen's own keys"):
        RulesetPresentation.model_validate({"shortcuts": {"u": "attack", "n": "x", "h": "y"}})
    with pytest.raises(ValueError, match="String should match pattern"):
        RulesetPresentation.model_validate({"shortcuts": {"H": "attack"}})
