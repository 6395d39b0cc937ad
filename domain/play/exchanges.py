"""Exchanges with parties: an attack that waits for the defender's declaration.

When the ruleset says an action waits (:meth:`Ruleset.awaiting`), the rolls made
before the choice (the hit) are recorded with the open exchange; the defender's
player key or the GM declares, and the action then resolves with those recorded
faces, the attacker's other supplied dice and the defender's own. Nothing here
rolls twice: a recorded face is fed back, never rolled again.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

import msgspec

from skald_campaign.domain.errors import ActionRefused, InvalidInput, NotFound
from skald_campaign.domain.play.actions import RollRecord
from skald_campaign.domain.play.dice import DiceTray, Roller
from skald_campaign.domain.play.records import Exchange
from skald_campaign.domain.play.resolution import Resolved, resolve
from skald_campaign.domain.play.roll_preview import refuse_unknown_rolls
from skald_campaign.domain.play.standing import KnownConditions
from skald_campaign.domain.records import JSON, JSONObject, replace
from skald_campaign.domain.rulesets.base import EncounterView, Frozen, JsonObject, Ruleset

PENDING = "pending"
RESOLVED = "resolved"
WITHDRAWN = "withdrawn"


class Opening(msgspec.Struct, frozen=True):
    """Either the action resolved at once, or the exchange to record as pending."""

    resolved: Resolved | None
    exchange: dict[str, JSON] | None  # the ExchangeOpened event's, before its number


def lenient_resolve(
    rules: Ruleset,
    view: EncounterView,
    kind: str,
    actor: str | None,
    params: JSONObject,
    tray: DiceTray,
    already: Sequence[RollRecord] = (),
    aliases: Mapping[str, str] | None = None,
    valid: Frozen | None = None,
    judged: Collection[str] | None = None,
    known: KnownConditions | None = None,
) -> Resolved:
    """Resolve; dice supplied for rolls that turned out not to be needed are noted, not refused.

    ``already`` are roll records made earlier (the hit of a waiting attack), whose
    faces ``tray`` carries: their records keep how they were first made. ``valid``:
    ``params`` already validated (domain/play/resolution.py ``resolve``). ``judged``: the
    names whose dice arrived with this request (a declaration's own), the only ones
    refused when the action never rolls them; default all. Dice the attacker supplied
    for a defense the declaration then did not roll were for a roll that might have
    followed: they are noted as unused, never refused after the fact.
    """
    aliases = aliases or {}
    resolved = resolve(
        rules, view, kind, actor, params, tray, strict_dice=False, valid=valid, known=known
    )
    left = tray.unused()
    names = [n for n in left if judged is None or n in judged]
    refuse_unknown_rolls(rules, view, kind, actor, params, names, aliases)
    if not left and not already:
        return resolved  # no dice to note, no earlier records to keep: as it resolved
    first = {r.name: r for r in already}
    rolls = tuple(first.get(r.name, r) for r in resolved.rolls)
    unused: JsonObject = {aliases.get(name, name): list(f) for name, f in left.items()}
    breakdown = resolved.outcome.breakdown
    if unused:
        breakdown = {**breakdown, "unused_dice": unused}
    outcome = type(resolved.outcome)(
        resolved.outcome.summary, breakdown, resolved.outcome.tracks, resolved.outcome.state
    )
    return Resolved(
        resolved.params, outcome, rolls, resolved.conditions_before, resolved.conditions_after
    )


def open_or_resolve(
    rules: Ruleset,
    view: EncounterView,
    kind: str,
    actor: str | None,
    params: JSONObject,
    dice: Mapping[str, Sequence[int]] | None,
    roller: Roller | None,
    aliases: Mapping[str, str] | None = None,
    known: KnownConditions | None = None,
) -> Opening:
    valid = rules.validate_params(kind, params)
    if actor is not None and actor in view.combatants:
        rules.refuse_if_cannot_act(view.combatants[actor], kind)  # before any waiting
    tray = DiceTray(roller, dice)
    waiting = rules.awaiting(view, kind, actor, params, tray)
    lead = tuple(RollRecord.of(roll) for roll in tray.rolls)
    supplied = {**tray.unused(), **{r.name: list(r.faces) for r in lead}}
    if waiting is None:
        again = DiceTray(roller, supplied)
        resolved = lenient_resolve(
            rules, view, kind, actor, params, again, lead, aliases, valid, known=known
        )
        return Opening(resolved, None)
    # The dice not rolled yet wait with the exchange: refuse now what none of its
    # choices would ever roll, before the exchange is recorded.
    refuse_unknown_rolls(rules, view, kind, actor, params, tray.unused(), aliases)
    defender = view.combatants[waiting.defender]
    attacker = view.combatants[actor].name if actor is not None else "the GM"
    exchange: dict[str, JSON] = {
        "kind": kind,
        "actor": actor,
        "defender": waiting.defender,
        "params": dict(params),
        "dice": tray.unused(),
        "rolls": [roll.as_json() for roll in lead],
        "param": waiting.param,
        "choices": list(waiting.choices),
        "shown": waiting.shown,
        "status": PENDING,
        "awaiting": f"{defender.name}'s declaration ({' / '.join(waiting.choices)})",
        "summary": f"{attacker}'s {kind} on {defender.name} waits for "
        f"{defender.name}'s {waiting.param}: {', '.join(waiting.choices)}",
    }
    return Opening(None, exchange)


def find(exchanges: Sequence[Exchange], number: int) -> Exchange:
    if not 1 <= number <= len(exchanges):
        raise NotFound(f"there is no exchange {number} in this encounter")
    return exchanges[number - 1]


def refuse_unless_pending(exchange: Exchange, doing: str) -> None:
    if exchange.status != PENDING:
        raise ActionRefused(
            f"exchange {exchange.number} is already {exchange.status}: cannot {doing} it"
        )


def resolve_declared(
    rules: Ruleset,
    view: EncounterView,
    exchange: Exchange,
    choice: str,
    dice: Mapping[str, Sequence[int]] | None,
    roller: Roller | None,
    aliases: Mapping[str, str] | None = None,
    known: KnownConditions | None = None,
) -> Resolved:
    if choice not in exchange.choices:
        raise InvalidInput(
            f"'{choice}' is not a choice here; {exchange.param} is one of: "
            f"{', '.join(exchange.choices)}"
        )
    lead = exchange.rolls
    clash = sorted(set(dice or {}) & {r.name for r in lead})
    if clash:
        raise InvalidInput(f"already rolled and recorded: {', '.join(clash)}")
    supplied: dict[str, Sequence[int]] = {
        **exchange.dice,
        **(dice or {}),
        **{r.name: list(r.faces) for r in lead},
    }
    params = {**exchange.params, exchange.param: choice}
    tray = DiceTray(roller, supplied)
    own = set(dice or {})
    return lenient_resolve(
        rules,
        view,
        exchange.kind,
        exchange.actor,
        params,
        tray,
        lead,
        aliases,
        judged=own,
        known=known,
    )


def pending(exchanges: Sequence[Exchange]) -> list[Exchange]:
    return [x for x in exchanges if x.status == PENDING]


def declared(exchange: Exchange, choice: str, by: str, action: int) -> Exchange:
    """The exchange once its defender declared: resolved into action ``action``."""
    return replace(exchange, status=RESOLVED, declared=choice, declared_by=by, action=action)


def withdrawn(exchange: Exchange, reason: str, by: str) -> Exchange:
    return replace(exchange, status=WITHDRAWN, reason=reason, withdrawn_by=by)
