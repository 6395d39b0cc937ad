"""Turn order: who acts now, and how many actions each combatant has had this round.

The GM sets an encounter's order (and may change it); "next turn" moves down it and
past the last combatant starts the next round. Every combatant gets
``actions_per_round`` actions a round (default 1, an option of every ruleset);
answering an attack is a declaration, not an action, and the GM's own tools
(the Take-hit panel, marking a wound) are not a combatant's action either.
Acting out of turn or once too often is refused unless the GM overrides it with
a reason, which stays on record. Until the GM sets an order, anyone may act in
any order, still once a round each.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from pydantic import Field

from skald_campaign.domain.access import Forbidden
from skald_campaign.domain.errors import ActionRefused, InvalidInput
from skald_campaign.domain.play.actions import ActionRecord
from skald_campaign.domain.play.records import Exchange
from skald_campaign.domain.records import JSON

DEFAULT_ACTIONS_PER_ROUND = 1
MAX_OVERRIDE_REASON = 500


@dataclass(frozen=True)
class TurnState:
    round: int
    order: tuple[str, ...]
    turn: int  # index into order; meaningless while order is empty
    names: Mapping[str, str]

    @property
    def current(self) -> str | None:
        if not self.order:
            return None
        return self.order[self.turn % len(self.order)]

    def whose_turn(self) -> str:
        current = self.current
        if current is None:
            return f"no turn order is set: anyone may act in round {self.round}"
        position = f"turn {self.turn + 1} of {len(self.order)} in round {self.round}"
        return f"it is {self.names.get(current, current)}'s turn ({position})"

    def as_json(self) -> dict[str, JSON]:
        current = self.current
        return {
            "round": self.round,
            "order": [{"id": cid, "name": self.names.get(cid, cid)} for cid in self.order],
            "turn": self.turn if self.order else None,
            "current": current,
            "current_name": self.names.get(current) if current else None,
        }


def actions_per_round(options: Mapping[str, JSON]) -> int:
    # Campaigns created before the option existed carry no value: the ruling's default.
    value = options.get("actions_per_round", DEFAULT_ACTIONS_PER_ROUND)
    if not isinstance(value, int | float | str):
        raise TypeError(f"actions_per_round is a whole number, not {value!r}")
    return int(value)


def actions_taken(
    records: Iterable[ActionRecord],
    pending: Iterable[Exchange],
    actor: str,
    round: int,
    gm_tools: frozenset[str],
) -> int:
    """Active action records of ``actor`` this round, plus attacks still awaiting a defense."""
    done = sum(
        1
        for r in records
        if r.actor == actor and r.round == round and r.status == "active" and r.kind not in gm_tools
    )
    waiting = sum(1 for x in pending if x.actor == actor and x.round == round)
    return done + waiting


def refusal(turns: TurnState, actor: str, taken: int, per_round: int) -> str | None:
    """Why ``actor`` may not act now (whose turn it is, in words), or None."""
    name = turns.names.get(actor, actor)
    if taken >= per_round:
        # What they have taken, which is more than per_round after a GM's override.
        times = "once" if taken == 1 else f"{taken} times"
        return (
            f"{name} has already acted {times} in round {turns.round} "
            f"(actions_per_round is {per_round}); {turns.whose_turn()}"
        )
    current = turns.current
    if current is not None and current != actor:
        return f"{name} is acting out of turn: {turns.whose_turn()}"
    return None


def check_override(reason: str | None, role: str) -> str | None:
    if reason is None:
        return None
    if role != "gm":
        raise Forbidden(f"only the GM may override the turn order; this is a {role} key")
    cleaned = reason.strip()
    if not cleaned:
        raise InvalidInput("an override needs a reason: say why, it stays on record")
    if len(cleaned) > MAX_OVERRIDE_REASON:
        raise InvalidInput(
            f"the reason is {len(cleaned)} characters long; at most {MAX_OVERRIDE_REASON}"
        )
    return cleaned


def refuse_or_override(
    turns: TurnState,
    actor: str,
    taken: int,
    per_round: int,
    override: str | None,
    ruleset_refusal: str | None = None,
) -> str | None:
    """None when the actor may act; the refusal text when the GM overrides it; else 409.

    ``ruleset_refusal`` is the ruleset's own once-a-round rule (margin's M5), which
    the GM may override like the turn order.
    """
    why = refusal(turns, actor, taken, per_round) or ruleset_refusal
    if why is None:
        return None
    if override is None:
        raise ActionRefused(why + "; the GM may override with a reason")
    return why


def check_order(order: Sequence[str], combatants: Mapping[str, object]) -> list[str]:
    unknown = [cid for cid in order if cid not in combatants]
    if unknown:
        raise InvalidInput(f"not combatants in this encounter: {', '.join(unknown)}")
    if len(set(order)) != len(order):
        raise InvalidInput("a combatant may appear only once in the turn order")
    if not order:
        raise InvalidInput("a turn order names at least one combatant")
    return list(order)


def actions_per_round_field() -> int:
    """The option every ruleset carries (All rulesets: one action a round by default)."""
    return Field(
        default=DEFAULT_ACTIONS_PER_ROUND,
        ge=1,
        le=10,
        description="actions each combatant may take per round; answering an attack is not one",
    )
