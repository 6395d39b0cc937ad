"""The ``d20`` ruleset (seed 004): d20 + HR vs AC, d20 + FR vs FD, armor value, size, shove.

Tables live in ``tables``, the sheet and options in ``sheet``, the seven
derived ratings in ``ratings``, pure rules in ``rules`` and the actions in
``actions``. ``RULES.md`` beside this module explains them for a GM.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from skald_campaign.domain.rulesets.d20 import move_texts, narrator, odds, ratings, texts
from skald_campaign.domain.rulesets.d20.actions import ACTIONS
from skald_campaign.domain.rulesets.d20.actions.common import (
    GRAPPLED_BY,
    GRAPPLING,
    PRONE,
    STANCE_ROUND,
)
from skald_campaign.domain.rulesets.d20.presentation import PRESENTATION
from skald_campaign.domain.rulesets.d20.sheet import (
    INITIATIVE_ADD_DESCRIPTION,
    INITIATIVE_ADDS,
    D20Options,
    D20Sheet,
)
from skald_campaign.domain.rulesets.d20.tracks import HitPoints
from skald_campaign.ruleset_api import (
    ActionType,
    CombatantView,
    JsonMapping,
    JSONObject,
    JsonObject,
    RulesetOf,
    SheetLike,
    StateObject,
)
from skald_campaign.ruleset_api.narrative import Roster
from skald_campaign.ruleset_api.odds import TOTAL, Choice, Extras, FaceModel, RunCost

# Every d20 state key describes the fight in progress; none should outlive it.
ENCOUNTER_SCOPED_STATE = frozenset({STANCE_ROUND, PRONE, GRAPPLING, GRAPPLED_BY})


class D20(RulesetOf[D20Sheet]):
    id = "d20"
    title = "d20 (seed 004)"
    version = "1.0.0"  # bumped only when a rule changes (docs/rulesets.md, "Versions")
    distribution = "skald-campaign"
    sheet_model = D20Sheet
    options_model = D20Options
    initiative_adds = INITIATIVE_ADDS

    # Narration (RULINGS T3a): its texts' builders, an attack's (texts.py) before a
    # move's (move_texts.py), and its plain narrative.
    summaries = (texts.summary, move_texts.summary)
    narratives = (texts.narrative, move_texts.narrative)
    outcomes = (texts.outcome, move_texts.outcome)
    party_finders = (move_texts.parties,)

    # The odds (docs/odds.md): every roll read as its total.
    odds_run_cost = RunCost(base=100, per_die=30)

    def face_model(
        self, options: JsonMapping, roll_name: str, damage_type: str | None
    ) -> FaceModel | None:
        return TOTAL

    def attack_choices(self, attacker: CombatantView, target: str, effort: int) -> list[Choice]:
        return odds.attack_choices(attacker, target)

    def odds_result(self, kind: str, breakdown: JsonMapping) -> str | None:
        return odds.result(kind, breakdown)

    def odds_extras(self, kind: str, breakdown: JsonMapping) -> Extras:
        return odds.extras(kind, breakdown)

    def standing(self, tracks: Mapping[str, int]) -> str:
        return texts.standing(tracks)

    def narrate(self, record: JSONObject, combatants: Roster) -> list[str] | None:
        return narrator.d20(record, combatants)

    initiative_add_description = INITIATIVE_ADD_DESCRIPTION
    actions: ClassVar[Mapping[str, ActionType]] = ACTIONS
    incapacitating = frozenset({"down"})
    cannot_act_at_all = frozenset({"down"})
    own_markers = {
        "prone": "on d20, prone is the rules' own condition (D6, D9): a shove's double "
        "success, a trip or a throw puts it on, stand_up takes it off, and it shows among "
        "the conditions; it is not a marker"
    }

    def track_descriptor(self, tracks: Mapping[str, int], maxima: Mapping[str, int]) -> str | None:
        """T3: down (HP <= 0), bloodied (HP <= half its maximum)."""
        hp = tracks.get("hp", 0)
        if hp <= 0:
            return "down"
        if "hp" in maxima and 2 * hp <= maxima["hp"]:
            return "bloodied"
        return None

    def track_maxima(self, sheet: SheetLike) -> dict[str, int]:
        return {"hp": self.sheet(sheet).hp}

    def conditions(
        self, sheet: SheetLike, tracks: Mapping[str, int], state: JsonMapping
    ) -> tuple[str, ...]:
        found: list[str] = []
        if HitPoints.from_json(tracks).hp <= 0:
            found.append("down")
        if state.get(PRONE):
            found.append("prone")
        if state.get(GRAPPLED_BY):
            found.append("grappled")
        if state.get(GRAPPLING):
            found.append("grappling")
        return tuple(found)

    def derived_ratings(self, sheet: SheetLike, state: JsonMapping) -> JsonObject:
        return ratings.derived_ratings(self.sheet(sheet))

    def equipment(self, sheet: SheetLike) -> JsonObject:
        return ratings.equipment(self.sheet(sheet))

    def state_after_encounter(self, state: JsonMapping) -> StateObject:
        """The state a character takes back to the roster when an encounter ends.

        Rounds restart at 1 in the next encounter, so a carried ``stance_round``
        would switch the stance back on, and a carried hold would bind two
        characters who are no longer fighting.
        """
        return {k: v for k, v in state.items() if k not in ENCOUNTER_SCOPED_STATE}

    def presentation(self) -> JsonMapping:
        return PRESENTATION
