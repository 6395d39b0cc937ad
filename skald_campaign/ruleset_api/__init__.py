"""Skald's ruleset API: the one thing a ruleset imports from Skald (docs/rulesets.md,
"Reference").

A ruleset is a ``RulesetOf[Sheet]`` over its own typed sheet: it validates sheets and
its own options, says which tracks a character has, derives conditions, and resolves
each ``ActionType`` as a pure function of the ``EncounterView``, the validated
parameters and the ``DiceTray``, returning an ``Outcome``. Refusals are ``InvalidInput``
(a 422 naming the field), ``ActionRefused`` (a 409) and ``NotFound``. The table options
(initiative, skipping, actions per round, NPC numbers) are the engine's: a ruleset's
``options_model`` holds only its own rules' options, and ``initiative_adds`` names the
sheet fields an initiative roll may add.

Skald finds a ruleset through the ``skald.rulesets`` entry point group; each entry
point names a ruleset object, a ``RulesetOf`` subclass or a factory of one::

    [project.entry-points."skald.rulesets"]
    hitpoints = "my_rules:HitPoints"

Beyond the base class, a ruleset may offer the optional capabilities of
``ruleset_api.capabilities``, each its own protocol. Texts a narration returns are built
from ``ruleset_api.texts``; records it reads, with ``ruleset_api.records``.

``API_VERSION`` is this API's version: the minor number grows when a name is added,
the major one when a name is removed or changes meaning.
"""

from __future__ import annotations

from skald_campaign.domain.errors import ActionRefused as ActionRefused
from skald_campaign.domain.errors import DiceError as DiceError
from skald_campaign.domain.errors import DomainError as DomainError
from skald_campaign.domain.errors import InvalidInput as InvalidInput
from skald_campaign.domain.errors import NotFound as NotFound
from skald_campaign.domain.play.dice import MAX_DICE_PER_ROLL as MAX_DICE_PER_ROLL
from skald_campaign.domain.play.dice import MAX_SIDES as MAX_SIDES
from skald_campaign.domain.play.dice import DiceExpression as DiceExpression
from skald_campaign.domain.play.dice import DiceTray as DiceTray
from skald_campaign.domain.play.dice import Roll as Roll
from skald_campaign.domain.play.dice import Roller as Roller
from skald_campaign.domain.play.dice import replay_tray as replay_tray
from skald_campaign.domain.play.dice import seeded_roller as seeded_roller
from skald_campaign.domain.play.gm_calls import GM_CALL as GM_CALL
from skald_campaign.domain.play.options import TableOptions as TableOptions
from skald_campaign.domain.play.options import table_options as table_options
from skald_campaign.domain.records import JSON as JSON
from skald_campaign.domain.records import JSONObject as JSONObject
from skald_campaign.domain.rulesets.base import ActionType as ActionType
from skald_campaign.domain.rulesets.base import Awaiting as Awaiting
from skald_campaign.domain.rulesets.base import CombatantView as CombatantView
from skald_campaign.domain.rulesets.base import DailyOutcome as DailyOutcome
from skald_campaign.domain.rulesets.base import EncounterView as EncounterView
from skald_campaign.domain.rulesets.base import Frozen as Frozen
from skald_campaign.domain.rulesets.base import JsonMapping as JsonMapping
from skald_campaign.domain.rulesets.base import JsonObject as JsonObject
from skald_campaign.domain.rulesets.base import NoOptions as NoOptions
from skald_campaign.domain.rulesets.base import Outcome as Outcome
from skald_campaign.domain.rulesets.base import Resolver as Resolver
from skald_campaign.domain.rulesets.base import Ruleset as Ruleset
from skald_campaign.domain.rulesets.base import RulesetOf as RulesetOf
from skald_campaign.domain.rulesets.base import SheetLike as SheetLike
from skald_campaign.domain.rulesets.base import StateObject as StateObject
from skald_campaign.domain.rulesets.base import StoredSheet as StoredSheet
from skald_campaign.domain.rulesets.base import read_own_options as read_own_options
from skald_campaign.domain.rulesets.base import read_sheet as read_sheet
from skald_campaign.domain.rulesets.base import read_stored as read_stored
from skald_campaign.domain.rulesets.jsonread import as_int as as_int
from skald_campaign.domain.rulesets.jsonread import as_object as as_object
from skald_campaign.domain.rulesets.jsonread import as_optional_str as as_optional_str
from skald_campaign.domain.validation import validate as validate

# The API's submodules, each an attribute of the package (ruleset_api.texts, ...), not
# only once a ruleset happens to have imported them.
from skald_campaign.ruleset_api import narrative as narrative
from skald_campaign.ruleset_api import odds as odds
from skald_campaign.ruleset_api import records as records
from skald_campaign.ruleset_api import texts as texts
from skald_campaign.ruleset_api.capabilities import CharacterRatings as CharacterRatings
from skald_campaign.ruleset_api.capabilities import DailyRules as DailyRules
from skald_campaign.ruleset_api.capabilities import Narration as Narration
from skald_campaign.ruleset_api.capabilities import NpcDescriptors as NpcDescriptors
from skald_campaign.ruleset_api.capabilities import OddsHelpers as OddsHelpers
from skald_campaign.ruleset_api.capabilities import PagePresentation as PagePresentation
from skald_campaign.ruleset_api.capabilities import TurnRules as TurnRules
from skald_campaign.ruleset_api.capabilities import has_daily_rules as has_daily_rules

API_VERSION = "1.1"  # 1.1: the capabilities TurnRules and CharacterRatings

__all__ = [
    "API_VERSION",
    "GM_CALL",
    "JSON",
    "MAX_DICE_PER_ROLL",
    "MAX_SIDES",
    "ActionRefused",
    "ActionType",
    "Awaiting",
    "CharacterRatings",
    "CombatantView",
    "DailyOutcome",
    "DailyRules",
    "DiceError",
    "DiceExpression",
    "DiceTray",
    "DomainError",
    "EncounterView",
    "Frozen",
    "InvalidInput",
    "JSONObject",
    "JsonMapping",
    "JsonObject",
    "Narration",
    "NoOptions",
    "NotFound",
    "NpcDescriptors",
    "OddsHelpers",
    "Outcome",
    "PagePresentation",
    "Resolver",
    "Roll",
    "Roller",
    "Ruleset",
    "RulesetOf",
    "SheetLike",
    "StateObject",
    "StoredSheet",
    "TableOptions",
    "TurnRules",
    "as_int",
    "as_object",
    "as_optional_str",
    "has_daily_rules",
    "read_own_options",
    "read_sheet",
    "read_stored",
    "replay_tray",
    "seeded_roller",
    "table_options",
    "validate",
]
