"""The table's commands on an encounter (RULINGS T1, T2): what each works out before
the encounter records it (as records among its actions: domain/play/table/records.py).

Initiative rolls every present combatant (or the ones named: a combatant joining
mid-fight) and orders them, highest total first, ties in enrolment order. Next turn
moves down the order, passing over a combatant who cannot act at all under its
ruleset (option ``skip_unable``) and saying why; past the last it starts the next
round (domain/encounter/commands.py ``next_round``). Previous turn moves back one;
delay moves the current combatant to a later place in the order. Markers are in
domain/play/table/markers.py.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence

from skald_campaign.domain.errors import ActionRefused, DiceError, InvalidInput, NotFound
from skald_campaign.domain.play.actions import ActionRecord, RollRecord
from skald_campaign.domain.play.dice import DiceTray, Roller
from skald_campaign.domain.play.fight import Dice, Fight
from skald_campaign.domain.play.options import dice_of, table_options
from skald_campaign.domain.play.resolution import conditions_of
from skald_campaign.domain.play.standing import KnownConditions
from skald_campaign.domain.play.table.markers import expire_markers
from skald_campaign.domain.play.table.params import PassedOver
from skald_campaign.domain.play.table.records import (
    INITIATIVE,
    TURN,
    Position,
    TableRecorded,
    position,
    table_of,
    table_record,
)
from skald_campaign.domain.records import JSON, Combatant
from skald_campaign.domain.rulesets.base import Ruleset

# A table command's answer, once the encounter has recorded what it yielded.
Recording = Generator[TableRecorded, None, ActionRecord]
ROLL_PREFIX = "initiative."


# -- initiative --------------------------------------------------------------------


def initiative_roll_names(dice: Dice) -> str:
    """The initiative rolls ``dice`` name, as the roll records name them, for a refusal."""
    return ", ".join(sorted(k if k.startswith(ROLL_PREFIX) else ROLL_PREFIX + k for k in dice))


def sheet_bonus(rules: Ruleset, combatant: Combatant, field: str) -> int:
    """The sheet field's value; an ability (d20) adds its D1 modifier, score or stated."""
    value: object = getattr(rules.sheet(combatant.sheet), field, None)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    modifier: object = getattr(value, "value", None)
    return modifier if isinstance(modifier, int) else 0


def roll_initiative(
    e: Fight, dice: Dice | None, roller: Roller, by: str, only: Sequence[str] | None = None
) -> Recording:
    """Roll for every present combatant (or ``only`` those, placed into the order)."""
    if e.ended:
        raise ActionRefused(f"encounter '{e.name}' has ended; start a new one")
    options = table_options(e.options)
    if not options.roll:
        raise ActionRefused(
            "this campaign's initiative is manual (option initiative): the GM sets the order"
        )
    present = [cid for cid, c in e.combatants.items() if c.present]
    rolling = list(only) if only is not None else present
    strangers = [cid for cid in rolling if cid not in present]
    if strangers:
        raise NotFound(f"not combatants in this fight: {', '.join(strangers)}")
    if len(set(rolling)) != len(rolling):
        raise InvalidInput("a combatant rolls initiative once")
    if not rolling:
        raise ActionRefused("nobody is left in the fight to roll initiative")
    supplied = {
        k if k.startswith(ROLL_PREFIX) else ROLL_PREFIX + k: v for k, v in (dice or {}).items()
    }
    tray = DiceTray(roller, supplied)
    count, sides = dice_of(options.dice)
    rules = e.rules
    entries: list[JSON] = []
    totals: dict[str, int] = {}
    for cid in rolling:
        c = e.combatants[cid]
        roll = tray.roll(ROLL_PREFIX + cid, count, sides)
        bonus = sheet_bonus(rules, c, options.add) if options.add else 0
        totals[cid] = roll.total + bonus
        entries.append(
            {
                "id": cid,
                "name": c.name,
                "roll": roll.total,
                "add": options.add,
                "bonus": bonus,
                "total": totals[cid],
            }
        )
    rolls = tuple(RollRecord.from_json(r) for r in tray.close())
    before = position(e)
    if only is None:
        order = sorted(rolling, key=lambda cid: -totals[cid])  # stable: enrolment order
        after = Position(e.round, tuple(order), 0)
    else:
        after = _placed(e, before, totals)
    listed = ", ".join(f"{e.combatants[cid].name} {totals[cid]}" for cid in rolling)
    summary = f"Initiative ({options.dice}{' + ' + options.add if options.add else ''}): {listed}"
    params: dict[str, JSON] = {"from": before.as_json(), "to": after.as_json()}
    if only is not None:
        params["only"] = list(only)
    breakdown: dict[str, JSON] = {"entries": entries, "order": list(after.order)}
    return (yield from table_record(e, INITIATIVE, params, summary, breakdown, by, rolls, after))


def seat_joiner(
    e: Fight, joiner: str, roller: Roller, by: str
) -> Generator[TableRecorded, None, None]:
    """T1: one who joins once the order is set rolls on joining (rolled initiative,
    placed by total) or is placed last (manual: the GM may move them)."""
    if not e.order or joiner in e.order:
        return
    if table_options(e.options).roll:
        yield from roll_initiative(e, None, roller, by, [joiner])
        return
    before = position(e)
    after = Position(before.round, (*before.order, joiner), before.turn)
    name = e.combatants[joiner].name
    params: dict[str, JSON] = {"from": before.as_json(), "to": after.as_json(), "only": [joiner]}
    breakdown: dict[str, JSON] = {"entries": [{"id": joiner, "name": name, "placed": "last"}]}
    summary = f"{name} joins the turn order, last"
    yield from table_record(e, INITIATIVE, params, summary, breakdown, by, moved_to=after)


def _placed(e: Fight, before: Position, totals: Mapping[str, int]) -> Position:
    """Each newly rolled combatant before the first one standing with a lower total;
    the turn stays with whoever has it."""
    known = dict(table_of(e.actions).initiative)
    order = [cid for cid in before.order if cid not in totals]
    for cid, total in totals.items():
        at = next((i for i, o in enumerate(order) if known.get(o, total) < total), len(order))
        order.insert(at, cid)
        known[cid] = total
    current = before.current
    turn = order.index(current) if current in order else 0
    return Position(before.round, tuple(order), turn)


# -- turns ---------------------------------------------------------------------------


def unable(
    rules: Ruleset, cid: str, combatant: Combatant, known: KnownConditions | None
) -> str | None:
    """Why the combatant cannot act at all under its ruleset (T1), or None (``known``:
    the conditions worked out so far, domain/play/standing.py)."""
    if not combatant.present:
        return f"{combatant.name} has left the fight"
    words = rules.cannot_act_words(conditions_of(rules, known, cid, combatant))
    return f"{combatant.name} {words}" if words is not None else None


def next_turn(
    e: Fight, by: str, roller: Roller | None = None, dice: Dice | None = None
) -> Recording:
    """Move down the order, passing over who cannot act; past the last, a new round
    (with ``dice``: the table's for its each-round initiative; refused if none rolls)."""
    refuse_without_order(e)
    before = position(e)
    current = before.current
    passed: list[JSON] = [[current, "end"]] if current is not None else []
    made: list[int] = []
    skipped: list[JSON] = []
    index = e.turn_index + 1
    skip = table_options(e.options).skip_unable
    rules = e.rules
    for steps in range(len(e.order) + 1):
        if index >= len(e.order):
            first = len(e.actions) + 1
            e.next_round(by, roller, dice)
            dice = None  # taken by the new round's initiative
            made += range(first, len(e.actions) + 1)
            index = 0
        cid = e.order[index]
        combatant = e.combatants[cid]
        known = e.known_conditions
        why = unable(rules, cid, combatant, known) if skip and steps < len(e.order) else None
        if why is None:
            break
        skipped.append({"id": cid, "name": e.combatants[cid].name, "why": why})
        passed += [[cid, "start"], [cid, "end"]]
        index += 1
    if dice:  # this turn starts no round, so there is no initiative to take them
        names = initiative_roll_names(dice)
        raise DiceError(
            f"dice were supplied for {names}, which this turn never rolls: it starts no "
            "new round (the table's initiative dice go with the turn that starts one)"
        )
    after = Position(e.round, tuple(e.order), index)
    return (yield from _turn_moved(e, "next", before, after, passed, skipped, made, by))


def previous_turn(e: Fight, by: str) -> Recording:
    """Back one place in the order (from the top of a round, to the previous round's last)."""
    refuse_without_order(e)
    before = position(e)
    if before.turn == 0 and before.round == 1:
        raise ActionRefused("it is the first turn of round 1: there is no turn before it")
    if before.turn == 0:
        after = Position(before.round - 1, before.order, len(before.order) - 1)
    else:
        after = Position(before.round, before.order, before.turn - 1)
    return (yield from _turn_moved(e, "previous", before, after, [], [], [], by))


def delay(e: Fight, after_id: str | None, by: str) -> Recording:
    """The current combatant acts later: placed after ``after_id`` (default: the last)."""
    refuse_without_order(e)
    before = position(e)
    order = list(before.order)
    current = order[before.turn]
    if before.turn == len(order) - 1:
        raise ActionRefused(f"{e.combatants[current].name} is last in the order already")
    later = order[before.turn + 1 :]
    behind = later[-1] if after_id is None else after_id
    if behind not in later:
        names = ", ".join(e.combatants[cid].name for cid in later)
        raise InvalidInput(f"delay after one who acts later this round: {names}")
    order.remove(current)
    order.insert(order.index(behind) + 1, current)
    after = Position(before.round, tuple(order), before.turn)
    landed = after.current
    passed: list[JSON] = [[landed, "start"]] if landed is not None else []
    return (yield from _turn_moved(e, "delay", before, after, passed, [], [], by, delayed=current))


def _turn_moved(
    e: Fight,
    move: str,
    before: Position,
    after: Position,
    passed: list[JSON],
    skipped: list[JSON],
    made: list[int],
    by: str,
    delayed: str | None = None,
) -> Recording:
    if after.current is not None:
        passed = [*passed, [after.current, "start"]] if move == "next" else passed
    summary = turn_summary(e.names, move, after, skipped, delayed)
    params: dict[str, JSON] = {"move": move, "from": before.as_json(), "to": after.as_json()}
    if made:
        params["with"] = list(made)
    if delayed is not None:
        params["delayed"] = delayed
    breakdown: dict[str, JSON] = {"skipped": skipped, "boundaries": passed}
    record = yield from table_record(e, TURN, params, summary, breakdown, by, moved_to=after)
    yield from expire_markers(e, record.number, by)
    return record


def turn_summary(
    names: Mapping[str, str],
    move: str,
    after: Position,
    skipped: Sequence[JSON],
    delayed: str | None = None,
) -> str:
    """A turn change's line: whose turn, the round, who delayed, who was passed over."""
    name = names.get(after.current, after.current) if after.current else "nobody"
    words = {"next": "'s turn", "previous": "'s turn again (previous turn)", "delay": "'s turn"}
    summary = f"{name}{words[move]} (round {after.round})"
    if delayed is not None:
        summary = f"{names.get(delayed, delayed)} delays; {summary}"
    if skipped:
        summary += "; passed over: " + "; ".join(PassedOver.from_json(s).why for s in skipped)
    return summary


def refuse_without_order(e: Fight) -> None:
    if e.ended:
        raise ActionRefused(f"encounter '{e.name}' has ended; start a new one")
    if not e.order:
        raise ActionRefused("no turn order is set: the GM sets one (or rolls initiative) first")


def move_in_order(e: Fight, combatant: str, steps: int) -> list[str]:
    """The order with ``combatant`` moved ``steps`` places (negative: up, earlier)."""
    refuse_without_order(e)
    order = list(e.order)
    if combatant not in order:
        raise NotFound(f"'{combatant}' is not in the turn order")
    at = order.index(combatant)
    to = at + steps
    if not 0 <= to < len(order):
        where = "first" if steps < 0 else "last"
        raise ActionRefused(f"{e.combatants[combatant].name} is {where} in the order already")
    order.insert(to, order.pop(at))
    return order
