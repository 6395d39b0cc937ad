"""What the Encounter's commands decide: the events to record, worked out from what they read.

The checks (whose turn it is, whether a record may be corrected), the resolution
(domain/play/resolution.py, domain/play/exchanges.py), the replay of a correction
(domain/play/corrections.py) and the records a GM change makes: each function here
takes what it reads of the encounter (``Fight``, domain/play/fight.py), works the
command out and yields its decisions, each named as the Encounter's event it stands for
and with that event's fields in their order (a unit test holds them to it). The
aggregate (domain/encounter/aggregate.py) records each as that event before the command
goes on, so a command reads what its earlier events left, and its return value is its
answer: as eventsourcing's functional examples (aggregate7) have commands return the
events, and the aggregate keep them.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeAlias, TypeVar

from skald_campaign.domain.access import Access, Forbidden
from skald_campaign.domain.encounter.state import tracks_and_state
from skald_campaign.domain.errors import ActionRefused, DiceError, InvalidInput, NotFound
from skald_campaign.domain.play import corrections, exchanges, turns
from skald_campaign.domain.play.actions import ActionRecord, Override, actions_as_json
from skald_campaign.domain.play.corrections import (
    ACTIVE,
    VOID,
    Plan,
    Reroll,
    correction_plan,
    gm_record,
    refuse_unless_rerollable,
    replay,
)
from skald_campaign.domain.play.corrections import rewind_plan as plan_rewind
from skald_campaign.domain.play.dice import Roller, seeded_roller
from skald_campaign.domain.play.fight import Dice, Fight
from skald_campaign.domain.play.gm_calls import refuse_gm_calls
from skald_campaign.domain.play.gm_changes import AMEND, JOIN, amended_sheet, apply_gm_record
from skald_campaign.domain.play.options import table_options
from skald_campaign.domain.play.resolution import Resolved
from skald_campaign.domain.play.roll_preview import Preview, technical_dice
from skald_campaign.domain.play.table import commands as table_commands
from skald_campaign.domain.play.table.corrections import position_void
from skald_campaign.domain.play.table.records import (
    POSITION_KINDS,
    Position,
    TableRecorded,
    position,
    table_of,
)
from skald_campaign.domain.records import (
    JSON,
    Combatant,
    JSONObject,
    Sheet,
    State,
    Tracks,
    as_object,
    combatants_as_json,
)

# -- the decisions: one per event of the Encounter's, named and ordered as its fields -----


@dataclass(frozen=True)
class ActionResolved:
    number: int
    round: int
    kind: str
    actor: str | None
    params: JSONObject
    rolls: Sequence[JSON]
    summary: str
    breakdown: JSONObject
    tracks: Mapping[str, Tracks]
    state: Mapping[str, State]
    conditions_before: Mapping[str, Sequence[str]]
    by: str
    override: JSONObject | None
    hidden: bool


@dataclass(frozen=True)
class RoundStarted:
    round: int
    by: str


@dataclass(frozen=True)
class OrderSet:
    order: Sequence[str]
    summary: str
    by: str


@dataclass(frozen=True)
class TurnOverridden:
    actor: str | None
    round: int
    refusal: str
    reason: str
    summary: str
    by: str


@dataclass(frozen=True)
class ExchangeOpened:
    exchange: JSONObject
    summary: str
    by: str


@dataclass(frozen=True)
class DefenseDeclared:
    number: int
    choice: str
    action: int
    summary: str
    by: str


@dataclass(frozen=True)
class ExchangeWithdrawn:
    number: int
    reason: str
    summary: str
    by: str


@dataclass(frozen=True)
class Ended:
    by: str
    reason: str | None


@dataclass(frozen=True)
class Corrected:
    correction: JSONObject
    actions: Sequence[JSON]
    tracks: Mapping[str, Tracks]
    state: Mapping[str, State]
    round: int
    position: JSONObject | None
    table: JSONObject | None


@dataclass(frozen=True)
class GMChanged:
    record: JSONObject
    summary: str
    tracks: Mapping[str, Tracks]
    state: Mapping[str, State]
    sheets: Mapping[str, Sheet]


@dataclass(frozen=True)
class Recomputed:
    correction: JSONObject
    initial: Mapping[str, JSON]
    actions: Sequence[JSON]
    combatants: Mapping[str, JSON]
    tracks: Mapping[str, Tracks]
    state: Mapping[str, State]


Decision: TypeAlias = (
    ActionResolved
    | RoundStarted
    | OrderSet
    | TurnOverridden
    | ExchangeOpened
    | DefenseDeclared
    | ExchangeWithdrawn
    | Ended
    | Corrected
    | GMChanged
    | Recomputed
    | TableRecorded
)
Answer = TypeVar("Answer")
# A command: the decisions it yields, each recorded before it goes on, then its answer.
Command: TypeAlias = Generator[Decision, None, Answer]


def refuse_if_ended(e: Fight) -> None:
    if e.ended:
        raise ActionRefused(f"encounter '{e.name}' has ended; start a new one")


# -- actions and exchanges ---------------------------------------------------------


def refuse_for_role(
    e: Fight, kind: str, params: JSONObject, role: str, override_reason: str | None
) -> None:
    """What a key of this role may never ask of an action (403), whatever the fight's
    state: a GM's tool, a GM's parameter, an override of the turn order. Asked as the
    action is decided, and before its expected version is checked (a refused permission
    comes before a failed precondition: RFC 9110 13.2.2). An action the rules do not have
    is not this check's to refuse (422, as the action is decided)."""
    if role == "gm":
        return
    action_type = e.rules.actions.get(kind)
    if action_type is not None:
        if action_type.gm_only:
            raise Forbidden(f"only the GM may use '{kind}', a GM's tool; this is a {role} key")
        refuse_gm_calls(action_type.params, kind, params, role)
    if override_reason is not None:
        raise Forbidden(f"only the GM may override the turn order; this is a {role} key")


def act(
    e: Fight,
    kind: str,
    actor: str | None,
    params: JSONObject,
    dice: Dice | None,
    roller: Roller | None,
    by: str,
    *,
    role: str = "gm",
    override_reason: str | None = None,
    hidden: bool = False,
) -> Command[dict[str, JSON]]:
    """Resolve an action, rolling whatever the caller did not supply, and record it:
    the record's JSON. An attack whose defender has a choice to declare is recorded
    as a pending exchange instead (domain/play/exchanges.py); its JSON says which."""
    refuse_if_ended(e)
    rules = e.rules
    action_type = rules.action_type(kind)
    refuse_for_role(e, kind, params, role, override_reason)
    overridden = turn_check(e, actor, action_type.gm_only, override_reason, role)
    # The ruleset's own once-a-round rule (margin's M5) yields to the GM's override.
    view = e.view(turn_overridden=overridden is not None)
    dice, aliases = technical_dice(rules, view, kind, actor, params, dice)
    opening = exchanges.open_or_resolve(
        rules, view, kind, actor, params, dice, roller, aliases, e.known_conditions
    )
    override = None
    if overridden is not None:
        refusal, reason = overridden
        override = Override(refusal=refusal, reason=reason, by=by)
        summary = f"GM override: {refusal}; reason: {reason}"
        yield TurnOverridden(actor, e.round, refusal, reason, summary, by)
    if opening.exchange is not None:
        number = len(e.exchange_list) + 1
        # The exchange keeps the override for the action record it becomes.
        marks: dict[str, JSON] = {"number": number, "round": e.round, "by": by}
        if override is not None:
            marks["override"] = override.as_json()
        if hidden:
            marks["hidden"] = True
        summary = f"exchange {number}: {opening.exchange['summary']}"
        yield ExchangeOpened({**opening.exchange, **marks}, summary, by)
        return e.exchange_list[-1].as_json()
    assert opening.resolved is not None
    recorded = yield from record(e, kind, actor, opening.resolved, e.round, by, override, hidden)
    return recorded.as_json()


def record(
    e: Fight,
    kind: str,
    actor: str | None,
    resolved: Resolved,
    round: int,
    by: str,
    override: Override | None,
    hidden: bool = False,
) -> Command[ActionRecord]:
    outcome = resolved.outcome
    # Every field given: the aggregate records it without the event method's per-call
    # binding and argument filtering (eventsourcing's trigger_event).
    yield ActionResolved(
        number=len(e.actions) + 1,
        round=round,
        kind=kind,
        actor=actor,
        params=resolved.params,
        rolls=[roll.as_json() for roll in resolved.rolls],
        summary=outcome.summary,
        breakdown=outcome.breakdown,
        tracks=outcome.tracks,
        state=outcome.state,
        conditions_before=resolved.conditions_before,
        by=by,
        override=None if override is None else override.as_json(),
        hidden=hidden,
    )
    return e.actions[-1]


def turn_check(
    e: Fight, actor: str | None, gm_tool: bool, override_reason: str | None, role: str
) -> tuple[str, str] | None:
    """None when the actor may act now; (refusal, reason) when the GM overrides it."""
    reason = turns.check_override(override_reason, role)
    if actor is None or gm_tool or actor not in e.combatants:
        return None
    rules = e.rules
    gm_tools = frozenset(k for k, a in rules.actions.items() if a.gm_only)
    pending = exchanges.pending(e.exchange_list)
    taken = turns.actions_taken(e.actions, pending, actor, e.round, gm_tools)
    per_round = turns.actions_per_round(e.options)
    me = e.combatants[actor]
    own = rules.turn_refusal(me.name, me.state, e.round)
    refusal = turns.refuse_or_override(e.turn_state(), actor, taken, per_round, reason, own)
    return None if refusal is None or reason is None else (refusal, reason)


def next_round(
    e: Fight, by: str, roller: Roller | None = None, dice: Dice | None = None
) -> Command[None]:
    """The next round: its start records, then (``each_round``) initiative again, with
    the table's ``dice`` by combatant id where given. Dice for a round that rolls no
    initiative are refused before anything is recorded, never dropped."""
    refuse_if_ended(e)
    if dice:
        refuse_round_dice(e, dice, roller)
    yield RoundStarted(e.round + 1, by)
    # What the rules do by themselves at a round's start (bleeding, S10) is
    # recorded as actions, so that corrections replay it like any other; no dice.
    for kind in e.rules.round_start_actions(e.view()):
        yield from act(e, kind, None, {}, None, None, by)
    # T1: initiative rolled again every round (the server's dice; a table re-rolls
    # with its own through "roll initiative").
    if roller is not None and rolls_each_round(e, roller):
        yield from table_commands.roll_initiative(e, dice, roller, by)


def rolls_each_round(e: Fight, roller: Roller | None) -> bool:
    options = table_options(e.options)
    return options.roll and options.each_round and bool(e.order) and roller is not None


def refuse_round_dice(e: Fight, dice: Dice, roller: Roller | None) -> None:
    """Refuse the table's dice for a new round that rolls no initiative, naming them."""
    if rolls_each_round(e, roller):
        return
    options = table_options(e.options)
    if not options.roll:
        why = "this campaign's initiative is manual (option initiative)"
    elif not options.each_round:
        why = "initiative is rolled once, not every round (option initiative.each_round)"
    else:
        why = "no turn order is set, so there is no initiative to roll again"
    names = table_commands.initiative_roll_names(dice)
    raise DiceError(f"dice were supplied for {names}, which this new round never rolls: {why}")


def set_order(e: Fight, order: list[str], by: str) -> Command[None]:
    refuse_if_ended(e)
    checked = turns.check_order(order, e.combatants)
    names = ", ".join(e.combatants[cid].name for cid in checked)
    yield OrderSet(checked, f"Turn order: {names}", by)


def declare(
    e: Fight, number: int, choice: str, dice: Dice | None, roller: Roller, access: Access
) -> Command[dict[str, JSON]]:
    """The defender's declaration (their player or the GM); the exchange then resolves."""
    refuse_if_ended(e)
    exchange = exchanges.find(e.exchange_list, number)
    defender = exchange.defender
    access.require_writer_for(defender, f"declare {e.combatants[defender].name}'s defense")
    exchanges.refuse_unless_pending(exchange, "declare for")
    view = e.view(turn_overridden=exchange.override is not None)
    declared = {**exchange.params, exchange.param: choice}
    dice, aliases = technical_dice(e.rules, view, exchange.kind, exchange.actor, declared, dice)
    resolved = exchanges.resolve_declared(
        e.rules, view, exchange, choice, dice, roller, aliases, e.known_conditions
    )
    name = e.combatants[defender].name
    summary = f"exchange {number}: {name} declares {exchange.param} {choice}"
    yield DefenseDeclared(number, choice, len(e.actions) + 1, summary, access.who)
    recorded = yield from record(
        e,
        exchange.kind,
        exchange.actor,
        resolved,
        exchange.round,
        access.who,
        exchange.override,
        exchange.hidden,
    )
    return recorded.as_json()


def withdraw(e: Fight, number: int, reason: str, by: str) -> Command[dict[str, JSON]]:
    refuse_if_ended(e)
    exchanges.refuse_unless_pending(exchanges.find(e.exchange_list, number), "withdraw")
    yield ExchangeWithdrawn(number, reason, f"exchange {number} withdrawn: {reason}", by)
    return e.exchange_list[number - 1].as_json()


# -- corrections -------------------------------------------------------------------


def end(e: Fight, by: str, reason: str | None = None) -> Command[None]:
    refuse_if_ended(e)
    yield Ended(by, reason)


def correctable(e: Fight, number: int) -> ActionRecord:
    if e.ended:
        raise ActionRefused(
            f"encounter '{e.name}' has ended and its tracks went back to the roster; "
            "corrections are only taken while an encounter is open"
        )
    found = e.action(number)
    if found.status != ACTIVE:
        raise ActionRefused(f"action {number} is already {found.status}")
    return found


def void(e: Fight, number: int, reason: str, by: str, roller: Roller) -> Command[list[JSONObject]]:
    """Strike action ``number`` out; every later action is resolved again. A turn
    change or an initiative roll takes the turn back to where it stood before it
    (domain/play/table/corrections.py)."""
    found = correctable(e, number)
    if found.kind in POSITION_KINDS:
        moved_plan, moved = position_void(e.actions, found)
        return (yield from replayed(e, "void", number, moved_plan, reason, by, roller, moved))
    return (
        yield from replayed(e, "void", number, correction_plan(number, VOID), reason, by, roller)
    )


def reroll(
    e: Fight, number: int, dice: Dice | None, reason: str, by: str, roller: Roller
) -> Command[list[JSONObject]]:
    """Roll action ``number`` again (new or supplied dice); later actions follow."""
    refuse_unless_rerollable(correctable(e, number))
    plan = correction_plan(number, Reroll(dice))
    return (yield from replayed(e, "reroll", number, plan, reason, by, roller))


def reroll_rolls(e: Fight, number: int) -> Preview:
    """The rolls a reroll of action ``number`` takes (table dice go under these names),
    worked out as the reroll resolves it again, in an open or an ended fight."""
    record = e.action(number)
    return corrections.reroll_rolls(e.rules, e.options, e.initial_combatants, e.actions, record)


def replayed(
    e: Fight,
    kind: str,
    number: int,
    plan: Plan,
    reason: str,
    by: str,
    roller: Roller,
    moved: Position | None = None,
) -> Command[list[JSONObject]]:
    result = replay(
        e.rules, e.options, e.initial_combatants, e.actions, plan, roller, e.known_conditions
    )
    if moved is None and result.turn_moved is not None:
        # A lifted skip moved the last turn change: the turn goes with it, unless the GM
        # has set the order since (the turn no longer stands where that change left it).
        was, now = result.turn_moved
        moved = now if position(e) == was else None
    correction: dict[str, JSON] = {
        "kind": kind,
        "number": number,
        "reason": reason,
        "by": by,
        "report": list(result.report),
    }
    round = e.round if moved is None else moved.round
    yield from correct_after_end(e, correction, result.records, result.combatants, round, moved)
    return result.report


def rewind(e: Fight, past: Fight, reason: str, by: str) -> Command[list[JSONObject]]:
    """Go back to how ``past`` stood; everything after is superseded, kept on record."""
    refuse_if_ended(e)
    if past.version >= e.version:
        raise InvalidInput(
            f"rewind needs an earlier version than the current {e.version}, not {past.version}"
        )
    records, plan = plan_rewind(past.actions, e.actions)
    # Keeping and superseding never roll.
    result = replay(
        e.rules,
        e.options,
        e.initial_combatants,
        records,
        plan,
        seeded_roller(0),
        e.known_conditions,
    )
    correction: dict[str, JSON] = {
        "kind": "rewind",
        "to_version": past.version,
        "reason": reason,
        "by": by,
        "report": list(result.report),
    }
    back = Position(past.round, tuple(past.order), past.turn_index)
    yield from correct_after_end(e, correction, result.records, result.combatants, past.round, back)
    return result.report


# -- the GM's changes: sheets, tracks and the cast (domain/play/gm_changes.py) ---------------


def gm_change(
    e: Fight, kind: str, target: str, params: JSONObject, reason: str, by: str
) -> Command[dict[str, JSON]]:
    """Record a GM change among the actions, so a correction replays it in its place."""
    refuse_if_ended(e)
    if kind != JOIN and target not in e.combatants:
        raise NotFound(f"'{target}' is not a combatant in this encounter")
    if kind == JOIN and target in e.combatants:
        raise ActionRefused(f"{e.combatants[target].name} is already in this fight")
    rules = e.rules
    if kind == AMEND:
        current = e.combatants[target].sheet
        params = {"sheet": amended_sheet(rules, current, as_object(params["changes"]))}
    full = {**params, "target": target, "reason": reason}
    changed = apply_gm_record(rules, kind, full, e.combatants)
    before = e.conditions_of(target) if target in e.combatants else ()
    number = len(e.actions) + 1
    made = gm_record(rules, kind, full, changed, before, number, e.round, by, e.known_conditions)
    sheets = {target: changed.combatant.sheet}
    yield GMChanged(
        made.as_json(), changed.summary, made.effects.tracks, made.effects.state, sheets
    )
    return e.actions[-1].as_json()


# -- corrections carried forward through the campaign (application/carrying.py) ----------


def correct_after_end(
    e: Fight,
    correction: JSONObject,
    records: Sequence[ActionRecord],
    combatants: Mapping[str, Combatant],
    round: int,
    moved: Position | None = None,
) -> Command[None]:
    """A correction of this encounter: in the fight, or after its end, worked out by the
    campaign's carry (``correction`` as its event carries it, with its report); a
    correction that moved the turn says where it now stands."""
    tracks, state = tracks_and_state(combatants)
    names = {cid: c.name for cid, c in combatants.items()}
    table = table_of(records).as_json(names)
    where = None if moved is None else moved.as_json()
    yield Corrected(correction, actions_as_json(records), tracks, state, round, where, table)


def recompute(
    e: Fight,
    correction: JSONObject,
    initial: Mapping[str, Combatant],
    records: Sequence[ActionRecord],
    combatants: Mapping[str, Combatant],
) -> Command[None]:
    """A correction earlier in the campaign changed how this encounter started."""
    tracks, state = tracks_and_state(combatants)
    initial_json, now_json = combatants_as_json(initial), combatants_as_json(combatants)
    yield Recomputed(correction, initial_json, actions_as_json(records), now_json, tracks, state)
