"""A stored sheet is read into its ruleset's typed sheet once, and exactly as stored."""

from __future__ import annotations

from typing import Any

from skald_campaign.domain.rulesets.margin import Margin
from skald_campaign.domain.rulesets.margin.sheet import MarginSheet
from skald_campaign.domain.rulesets.stamina_body import StaminaBody
from skald_campaign.domain.rulesets.stamina_body.sheet import StaminaBodySheet, Weapon

RULES = StaminaBody()
SPEAR = {"name": "Spear", "damage_class": 2, "damage_type": "piercing", "skill": 12}


def stored(**changes: Any) -> dict[str, Any]:
    return RULES.validate_sheet({"st": 13, "con": 12, "stamina_max": 12, "body_max": 10, **changes})


def test_a_stored_sheet_is_read_into_the_typed_sheet_once() -> None:
    sheet = stored(weapons=[SPEAR])
    typed = RULES.sheet(sheet)
    assert isinstance(typed, StaminaBodySheet)
    assert (typed.con, typed.parry, typed.weapons) == (12, 0, (Weapon(**SPEAR),))
    assert RULES.sheet(sheet) is typed  # the same stored object is not read again
    assert RULES.sheet(typed) is typed
    assert RULES.sheet(dict(sheet)) == typed  # an equal copy reads the same


def test_the_typed_sheet_dumps_back_to_the_stored_json() -> None:
    sheet = stored(weapons=[SPEAR], parry=11)
    assert RULES.sheet(sheet).model_dump(mode="json") == sheet
    assert RULES.sheet(dict(sheet)).model_dump(mode="json") == sheet


def test_a_stored_sheet_that_todays_bounds_refuse_is_still_read_as_stored() -> None:
    # Stored events are forever: a sheet written under looser bounds stays readable.
    old = {**stored(), "con": 0, "weapons": [{**SPEAR, "skill": 1}]}
    typed = RULES.sheet(old)
    assert (typed.con, typed.weapons[0].skill, typed.weapons[0].name) == (0, 1, "Spear")
    assert RULES.track_maxima(old) == {"stamina": 12, "body": 10}


def test_margin_reads_the_campaign_default_health_it_stored() -> None:
    under = Margin().under(Margin().validate_options({"base_health": 20, "health_per_vigor": 5}))
    sheet = under.validate_sheet({"might": 1, "grace": 1, "vigor": 3, "aether": 0})
    assert sheet["health"] == 35
    typed = under.sheet(sheet)
    assert isinstance(typed, MarginSheet) and typed.max_health == 35
    assert under.track_maxima(sheet) == {"health": 35}
    assert Margin().sheet(dict(sheet)).max_health == 35
