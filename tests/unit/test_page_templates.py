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


def rating_at(derived: Any, path: str) -> Any:
    for key in path.split("."):
        derived = derived[key]
    return derived


@pytest.mark.parametrize("ruleset", BUILT_IN)
def test_every_rating_shown_is_in_the_character_view(ruleset: str) -> None:
    """Each rating the player's page shows of their own character (`ratings`) is one the
    character view's `derived` holds for every starter sheet: a number, or a rating whose
    `value` is one."""
    rules = get_ruleset(ruleset)
    for sheet in presented(ruleset).templates.values():
        derived = rules.derived_ratings(dict(sheet), rules.start_state(dict(sheet)))
        for shown in presented(ruleset).ratings:
            found = rating_at(derived, shown.rating)
            value = found if isinstance(found, int) else found["value"]
            assert type(value) is int, (ruleset, shown.rating)


def test_d20_shows_the_seven_ratings_of_its_quick_reference() -> None:
    """RULINGS D2: the character view shows all seven (AV melee and vs. missiles), under
    the seed's names, the two bonuses with their sign."""
    shown = [(r.rating, r.label, r.signed) for r in presented("d20").ratings]
    assert shown == [
        ("hr_bonus", "HR bonus", True),
        ("fr_bonus", "FR bonus", True),
        ("ac", "AC", False),
        ("fd", "FD", False),
        ("av.melee", "AV", False),
        ("av.vs_missiles", "AV vs. missiles", False),
        ("insight_defense", "Insight Defense", False),
        ("shove_resist", "Shove Resist", False),
    ]
    assert [r.ratings for r in map(presented, ("stamina-body", "margin"))] == [[], []]
