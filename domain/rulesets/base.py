"""The ruleset seam: what a built-in ruleset provides to the aggregates and the API.

A ruleset is a plug-in. It validates sheets and options, says which tracks a
character has, derives conditions, and resolves actions as pure functions of
the encounter's frozen state, the validated parameters and the dice tray.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, Generic, TypeVar, cast, get_args, get_origin

from pydantic import JsonValue, ValidationError

from skald_campaign.domain.errors import ActionRefused, InvalidInput, NotFound
from skald_campaign.domain.play.dice import DiceTray
from skald_campaign.domain.play.options import campaign_options_model
from skald_campaign.domain.play.remembered_params import valid_params
from skald_campaign.domain.records import JSON, JSONObject
from skald_campaign.domain.validation import Frozen as Frozen
from skald_campaign.domain.validation import validate

if TYPE_CHECKING:  # the narration's and the odds' types (their modules read no ruleset)
    from skald_campaign.domain.odds.choices import Choice
    from skald_campaign.domain.odds.explore import Memo, RunCost
    from skald_campaign.domain.odds.faces import FaceModel
    from skald_campaign.domain.reading.narrative import Sheeted
    from skald_campaign.domain.reading.texts import Text

    Roster = Mapping[str, Sheeted]


class NoOptions(Frozen):
    """The options of a ruleset whose rules have none (its campaigns still take the
    engine's table options)."""


# JSON an event records as it is (a breakdown, a combatant's state), typed as JSON: a
# value that JSON cannot carry is a type error where it is put in. A ruleset builds
# JsonObject (pydantic's JsonValue) and reads JsonMapping, the read-only JSON the
# records carry (domain/records.py ``JSON``), of which every JsonObject is one. A
# combatant's new state is StateObject: its stored state (JSON) with keys changed.
JsonObject = dict[str, JsonValue]
JsonMapping = Mapping[str, JSON]
StateObject = dict[str, JSON]

# A sheet as events, snapshots and views carry it: the JSON object validate_sheet wrote.
StoredSheet = Mapping[str, object]
# What a ruleset's methods take: the typed sheet, or the stored JSON they read once.
SheetLike = Frozen | StoredSheet
SheetT = TypeVar("SheetT", bound=Frozen, covariant=True)
S = TypeVar("S", bound=Frozen)

# Stored JSON -> its typed record, by the stored object's identity. The aggregates keep
# each stored sheet (and a campaign's options) as one object for as long as they hold it
# (nothing edits one in place: an amendment is a new sheet), so each is read once, not
# once per action or condition check. Each entry holds its object, so no id is reused
# while it is here.
_READ: dict[tuple[type[Frozen], int], tuple[object, Frozen]] = {}
_READ_LIMIT = 4096


def read_stored(model: type[S], stored: object) -> S:
    """The typed record of stored JSON (or the typed record itself), read once."""
    if type(stored) is model:
        return stored
    key = (model, id(stored))
    known = _READ.get(key)
    if known is not None and known[0] is stored:
        return cast(S, known[1])
    typed = _parse(model, stored)
    remember_sheet(stored, typed)
    return typed


# The sheet edge: a combatant's or character's stored sheet as its ruleset's sheet model.
read_sheet = read_stored


def read_own_options(model: type[S], stored: object) -> S:
    """A ruleset's own options (its ``options_model``) out of a campaign's recorded
    options, which hold the engine's table options beside them; read once per recorded
    object, like ``read_stored``."""
    if isinstance(stored, model):
        return stored
    key = (model, id(stored))
    known = _READ.get(key)
    if known is not None and known[0] is stored:
        return cast(S, known[1])
    own = (
        {name: value for name, value in stored.items() if name in model.model_fields}
        if isinstance(stored, Mapping)
        else stored
    )
    typed = _parse(model, own)
    if len(_READ) >= _READ_LIMIT:
        _READ.clear()
    _READ[key] = (stored, typed)
    return typed


def remember_sheet(stored: object, typed: Frozen) -> None:
    if len(_READ) >= _READ_LIMIT:
        _READ.clear()  # a bound, not a policy: the live aggregates' sheets come back at once
    _READ[(type(typed), id(stored))] = (stored, typed)


def _parse(model: type[S], stored: object) -> S:
    try:
        return model.model_validate(stored)
    except ValidationError:
        # Stored sheets are forever: one that an older version wrote and today's bounds
        # refuse is still read, as it was stored, rather than make its campaign unreadable.
        return _construct(model, stored)


def _construct(model: type[S], stored: object) -> S:
    if not isinstance(stored, Mapping):
        raise TypeError(f"a stored {model.__name__} is a JSON object, not {type(stored)}")
    values = {
        name: _nested(info.annotation, stored[name])
        for name, info in model.model_fields.items()
        if name in stored
    }
    return cast(S, model.model_construct(None, **values))


def _nested(annotation: object, value: object) -> object:
    if isinstance(annotation, type) and issubclass(annotation, Frozen):
        return _construct(annotation, value)
    if get_origin(annotation) is tuple and isinstance(value, list | tuple):
        member = get_args(annotation)[0]
        return tuple(_nested(member, item) for item in value)
    return value


@dataclass(frozen=True)
class CombatantView:
    """One combatant as the rules see it at the moment an action resolves."""

    id: str
    name: str
    side: str
    rank: int
    # The typed sheet of the combatant's ruleset; each ruleset reads it with read_sheet,
    # so a view built by hand from stored JSON (a test, a tool) reads the same.
    sheet: SheetLike
    tracks: Mapping[str, int]
    state: JsonMapping
    conditions: tuple[str, ...]


@dataclass(frozen=True)
class EncounterView:
    round: int
    combatants: Mapping[str, CombatantView]
    options: JsonMapping
    # The GM overrode the turn check for the action resolving now (a TurnOverridden
    # event, or a replayed record that carries one). Only the encounter sets it, and
    # only after checking the override came from the GM key, so a ruleset's own
    # once-a-round rule (margin's M5) may yield to it without trusting the caller.
    turn_overridden: bool = False

    def combatant(self, combatant_id: str, role: str) -> CombatantView:
        try:
            return self.combatants[combatant_id]
        except KeyError:
            raise NotFound(
                f"{role} '{combatant_id}' is not a combatant in this encounter"
            ) from None


@dataclass(frozen=True)
class Outcome:
    """What an action did: the full breakdown and each touched combatant's new values."""

    summary: str
    breakdown: JsonObject
    tracks: dict[str, dict[str, int]] = field(default_factory=dict)
    state: dict[str, StateObject] = field(default_factory=dict)


@dataclass(frozen=True)
class DailyOutcome:
    """One character's day between fights: new tracks and state, and the arithmetic."""

    tracks: dict[str, int]
    state: StateObject
    breakdown: JsonObject


@dataclass(frozen=True)
class Awaiting:
    """An action that waits for a declaration by its target (the defender's choice).

    ``param`` is the action parameter the declaration fills; ``shown`` is what the
    defender may know when choosing (the rolls made so far stay in the tray).
    """

    defender: str
    param: str
    choices: tuple[str, ...]
    shown: JsonObject


# An action's resolver as the encounter calls it: with the validated parameters of the
# action's own model (``ActionType`` checks that they are).
Resolver = Callable[[EncounterView, str | None, Frozen, DiceTray], Outcome]
P = TypeVar("P", bound=Frozen)


class ActionType:
    """One action of a ruleset: its parameters' model and the resolver that reads them."""

    __slots__ = ("description", "gm_only", "kind", "params", "resolve")

    def __init__(
        self,
        kind: str,
        params: type[P],
        resolve: Callable[[EncounterView, str | None, P, DiceTray], Outcome],
        description: str,
        gm_only: bool = False,  # a GM's tool (the Take-hit panel), not a character's action
    ) -> None:
        def checked(
            view: EncounterView, actor: str | None, given: Frozen, tray: DiceTray
        ) -> Outcome:
            if not isinstance(given, params):
                raise TypeError(f"{kind} takes {params.__name__}, not {type(given).__name__}")
            return resolve(view, actor, given, tray)

        self.kind = kind
        self.params: type[Frozen] = params
        self.resolve: Resolver = checked
        self.description = description
        self.gm_only = gm_only


# A builder of a record's texts (a ruleset's, in its package): the record's JSON and
# the combatants by id (each a name and a sheet) to what it builds, or None.
B = TypeVar("B")
Builder = Callable[["JSONObject", "Roster"], B | None]
# What a builder's reading of a record shaped otherwise raises (domain/reading/breakdowns.py).
UNREADABLE = (KeyError, TypeError, ValueError, IndexError, AttributeError)


def narrates_its_narrative(kind: type[Ruleset]) -> bool:
    """``narrate_is_narrative`` as declared by the class whose ``narrate`` ``kind`` uses
    (False when that class does not declare it)."""
    for klass in kind.__mro__:
        if "narrate" in vars(klass):
            return vars(klass).get("narrate_is_narrative", False) is True
    return False


def first_built(
    builders: Sequence[Callable[[JSONObject, Roster], B | None]],
    record: JSONObject,
    combatants: Roster,
) -> B | None:
    """What the first builder that builds the record's texts builds; None if none does
    (a builder that cannot read the record counts as none)."""
    for builder in builders:
        try:
            built = builder(record, combatants)
        except UNREADABLE:
            continue
        if built is not None:
            return built
    return None


class RulesetOf(ABC, Generic[SheetT]):
    """A ruleset over its own typed sheet ``SheetT``: stored sheets are read into it once
    (``sheet``), and the rules read its attributes, never the JSON's keys."""

    id: ClassVar[str]
    title: ClassVar[str]
    # Its own version, bumped only when one of its rules changes (what an action, a day,
    # a sheet or a condition comes to), never with a Skald release; and the distribution
    # that installs it. A campaign records both when it is created (docs/rulesets.md,
    # "Versions"): a version it has not accepted makes it read-only until it is.
    version: ClassVar[str]
    distribution: ClassVar[str]
    sheet_model: type[SheetT]
    # The ruleset's own rules' options, and only those: the engine's table options
    # (initiative, skip_unable, actions_per_round, show_npc_numbers) come with every
    # ruleset (``campaign_options_model``). An initiative roll may add one of the sheet
    # fields ``initiative_adds`` names (none: its dice alone).
    options_model: ClassVar[type[Frozen]] = NoOptions
    initiative_adds: ClassVar[tuple[str, ...]] = ()
    initiative_add_description: ClassVar[str] = "T1: the sheet field added to each roll"
    actions: ClassVar[Mapping[str, ActionType]]

    @property
    def campaign_options_model(self) -> type[Frozen]:
        """Every option a campaign of this ruleset takes: the engine's table options,
        then the ruleset's own (domain/play/options.py builds it, once per ruleset)."""
        return campaign_options_model(self)

    def validate_options(self, overrides: JsonMapping | None) -> JsonObject:
        options = validate(self.campaign_options_model, overrides or {}, "options")
        return options.model_dump(mode="json")

    def under(self, options: JsonMapping) -> RulesetOf[SheetT]:
        """This ruleset as a campaign with these validated options plays it.

        Sheets, conditions and days read the options through the ruleset this returns
        (margin's health default, wounded threshold and light day are options: M18). A
        ruleset whose sheets, conditions and days use no option is returned as it is.
        """
        return self

    def validate_sheet(self, sheet: JsonMapping) -> JsonObject:
        """The sheet's JSON as events store it (every default written out)."""
        typed = self.complete_sheet(validate(self.sheet_model, sheet, "sheet"), sheet)
        stored = typed.model_dump(mode="json")
        remember_sheet(stored, typed)  # enrolment reads it next (maxima, start state)
        return stored

    def complete_sheet(self, typed: Frozen, given: JsonMapping) -> Frozen:
        """A validated sheet with what the campaign's options fill in (margin's health)."""
        return typed

    def sheet(self, stored: SheetLike) -> SheetT:
        """The typed sheet of a stored one: the one edge where JSON becomes a sheet."""
        return read_sheet(self.sheet_model, stored)

    def action_type(self, kind: str) -> ActionType:
        try:
            return self.actions[kind]
        except KeyError:
            known = ", ".join(sorted(self.actions))
            raise InvalidInput(
                f"the {self.id} ruleset has no action '{kind}'; its actions are: {known}"
            ) from None

    def validate_params(self, kind: str, params: JsonMapping) -> Frozen:
        return valid_params(self.action_type(kind).params, params, kind)

    def start_state(self, sheet: SheetLike) -> StateObject:
        """Ruleset-specific per-character state carried between encounters."""
        return {}

    def state_counters(self, sheet: SheetLike) -> dict[str, int | None]:
        """Counters kept in the state (margin's fatigue and luck) that the GM sets or
        adjusts through the track route as a track: each one's maximum (None: none).
        A counter never goes below 0."""
        return {}

    # The same counters as the pages show them beside the tracks (published at /rulesets
    # as `counters`): each one's name in the state, and what it is.
    counters: ClassVar[Mapping[str, str]] = {}

    def presentation(self) -> JsonMapping:
        """How the pages show this ruleset (published at /rulesets as `presentation`):
        plain data in the fields of api/schemas.py ``RulesetPresentation`` (the buttons'
        words, the panel's order, starter sheets, the initiative fields...). None given:
        the pages show each action under its own name, in the order the ruleset lists them."""
        return {}

    def state_after_encounter(self, state: JsonMapping) -> StateObject:
        """What of a combatant's state outlasts the encounter (postures and holds do not)."""
        return dict(state)

    def refuse_if_cannot_act(self, actor: CombatantView, kind: str) -> None:
        blocking = [c for c in actor.conditions if c in self.incapacitating]
        if blocking:
            raise ActionRefused(
                f"{actor.name} cannot {kind.replace('_', ' ')}: {' and '.join(blocking)}"
            )

    incapacitating: ClassVar[frozenset[str]] = frozenset()
    # T1: conditions under which a combatant cannot act at all, so its turn is passed
    # over (option skip_unable); T2: marker names the ruleset tracks itself, each with
    # the refusal that says where.
    cannot_act_at_all: ClassVar[frozenset[str]] = frozenset()
    own_markers: ClassVar[Mapping[str, str]] = {}

    def cannot_act_words(self, conditions: Sequence[str]) -> str | None:
        """What keeps a combatant from acting at all (T1), in words after its name
        ("is down"), or None when it may act."""
        blocking = [c for c in conditions if c in self.cannot_act_at_all]
        return f"is {' and '.join(blocking)}" if blocking else None

    def turn_refusal(self, name: str, state: JsonMapping, round: int) -> str | None:
        """Why this ruleset's own rules refuse the combatant another action this round
        (margin's M5), or None. The encounter puts it to the GM's override beside its
        own turn check, and tells the resolver through ``EncounterView.turn_overridden``."""
        return None

    def round_start_actions(self, view: EncounterView) -> tuple[str, ...]:
        """Actions the rules take by themselves as a new round starts (stamina-body's
        bleeding); the encounter records each as an action with no actor."""
        return ()

    def refuse_wound_mark(self, name: str, state: JsonMapping, wound: str, present: bool) -> None:
        """Refuse a between-fight wound mark the rules reject (none by default)."""
        return None

    def awaiting(
        self,
        view: EncounterView,
        kind: str,
        actor: str | None,
        params: JsonMapping,
        tray: DiceTray,
    ) -> Awaiting | None:
        """Whether this action must wait for its defender's declaration.

        A ruleset where the defender chooses how to answer an attack rolls what comes
        before the choice (the hit) in ``tray`` and says who declares what. Rulesets
        whose defenses are declared on the defender's own turn never wait.
        """
        return None

    def track_descriptor(self, tracks: Mapping[str, int], maxima: Mapping[str, int]) -> str | None:
        """T3: this ruleset's own word for an NPC's tracks, the first of its list that
        applies ("stunned", "bloodied"), or None: the engine then says ``hurt`` (a track
        below its maximum) or ``unhurt`` (domain/reading/visibility.py ``descriptor``)."""
        return None

    # -- narration (RULINGS T3a; ruleset_api.Narration): the ruleset's builders of a
    # stored record's texts, in its package, tried in turn: one that cannot read the
    # record (UNREADABLE) counts as none, the first that builds wins. None built (and
    # the defaults): the engine's plain words.
    summaries: ClassVar[tuple[Builder[Text], ...]] = ()
    narratives: ClassVar[tuple[Builder[list[Text]], ...]] = ()
    outcomes: ClassVar[tuple[Builder[Text], ...]] = ()
    # Who a record involves that neither its actor, its parameters nor its changes name
    # (a Ward's dwarf, a hold's other party): their numbers are in its lines.
    party_finders: ClassVar[tuple[Callable[[JSONObject, Roster], set[str]], ...]] = ()

    def summary(self, record: JSONObject, combatants: Roster) -> Text | None:
        """The record in one line (the feed's, the log's), or None."""
        return first_built(self.summaries, record, combatants)

    def narrative(self, record: JSONObject, combatants: Roster) -> list[Text] | None:
        """The record, line by line, in the order things happened, or None."""
        return first_built(self.narratives, record, combatants)

    def outcome(self, record: JSONObject, combatants: Roster) -> Text | None:
        """What came of it, in one sentence (a hidden roll's outcome), or None."""
        return first_built(self.outcomes, record, combatants)

    def parties(self, record: JSONObject, combatants: Roster) -> set[str]:
        """The characters the record's texts speak of beyond its actor, its parameters
        and its changes."""
        found: set[str] = set()
        for finder in self.party_finders:
            try:
                found |= finder(record, combatants)
            except UNREADABLE:
                continue
        return found

    def standing(self, tracks: Mapping[str, int]) -> str | None:
        """A combatant's tracks in words ("3 Stamina and 9 Body"), or None: the engine
        lists them by name."""
        return None

    def narrate(self, record: JSONObject, combatants: Roster) -> list[str] | None:
        """The record's plain narrative (the action view's ``narrative``), or None: the
        engine's plain lines (domain/reading/narrators.py)."""
        return None

    # True when ``narrate`` is ``narrative`` with each line rendered for the GM, nothing
    # else (stamina-body's): a command's texts then build the narrative once and take its
    # rendered lines as the plain narrative (domain/reading/told.py ``worked_out``),
    # instead of asking the ruleset to build the same lines a second time (issue 39).
    # Declared beside the ``narrate`` it speaks of: a subclass that overrides ``narrate``
    # without declaring it again is asked (``narrates_its_narrative``).
    narrate_is_narrative: ClassVar[bool] = False

    # -- odds (docs/odds.md; ruleset_api.OddsHelpers): what the exact odds ask of the
    # rules, each answered in the ruleset's package; the defaults help nothing (every
    # face apart, no memo, no attacks listed, the dearest cost, the first check's result).
    # A resolver run's measured cost (domain/odds/cost.py); None: the dearest.
    odds_run_cost: ClassVar[RunCost | None] = None
    # Kinds whose chance to hit or miss a player may read against an NPC whose numbers
    # are hidden (the attacker's own skill against a fixed target; RULINGS T3a).
    odds_public_hit_or_miss: ClassVar[frozenset[str]] = frozenset()

    def face_model(
        self, options: JsonMapping, roll_name: str, damage_type: str | None
    ) -> FaceModel | None:
        """How the rules read one roll's faces (its total, a table reading), or None."""
        return None

    def odds_damage_type(
        self, view: EncounterView, kind: str, actor: str | None, params: JsonMapping
    ) -> str | None:
        """The table an action's damage dice are read on, when it can be told before
        rolling (``face_model``'s ``damage_type``), or None."""
        return None

    def odds_memo(
        self, view: EncounterView, kind: str, actor: str | None, params: JsonMapping
    ) -> Memo | None:
        """The key that tells apart the paths of dice the rules can tell apart, or None."""
        return None

    def attack_choices(self, attacker: CombatantView, target: str, effort: int) -> list[Choice]:
        """Every attack the attacker can make on the target, as the action it would be."""
        return []

    def odds_result(self, kind: str, breakdown: JsonMapping) -> str | None:
        """An outcome's one-word result as the odds report it ("hit"), or None: the
        breakdown's first check's success or failure (domain/odds/readers.py)."""
        return None

    def odds_extras(self, kind: str, breakdown: JsonMapping) -> tuple[tuple[str, int | str], ...]:
        """What else the odds report of an outcome (a shove's distance), by name."""
        return ()

    def derived_ratings(self, sheet: SheetLike, state: JsonMapping) -> JsonObject:
        """Ratings the character view shows beside the sheet, each with its terms."""
        return {}

    def equipment(self, sheet: SheetLike) -> JsonObject:
        """What the character view shows of the gear the sheet names (none by default)."""
        return {}

    # The calendar: a ruleset with between-fight rules names its day plan (how a
    # character spent the day) and applies it; one without leaves both unset.
    day_plan_model: ClassVar[type[Frozen] | None] = None
    wound_flags: ClassVar[frozenset[str]] = frozenset()

    def daily(
        self,
        sheet: SheetLike,
        tracks: Mapping[str, int],
        state: JsonMapping,
        plan: Frozen,
    ) -> DailyOutcome:
        raise NotImplementedError(f"the {self.id} ruleset has no between-fight rules")

    @abstractmethod
    def track_maxima(self, sheet: SheetLike) -> dict[str, int]: ...

    @abstractmethod
    def conditions(
        self, sheet: SheetLike, tracks: Mapping[str, int], state: JsonMapping
    ) -> tuple[str, ...]: ...


# Any ruleset, as the aggregates, projections and API hold one: they hand it stored
# sheets and never need to know its sheet type.
Ruleset = RulesetOf[Frozen]
