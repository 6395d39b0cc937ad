"""The odds a reader may see (RULINGS T3a): those that depend only on public numbers and
the reader's own, never a probability that would tell an NPC's hidden numbers.

A player asking the odds of a blow on an NPC whose numbers are hidden reads:

- stamina-body: the chance to hit (3d6 against the attacker's own skill) and to miss, a
  hit being whatever the defender then makes of it (a parry or a dodge would tell its
  Parry or Dodge);
- margin and d20: no result (a chance to beat its defenses or its AC would tell them);
- in every ruleset: nothing of the NPC's tracks or conditions (a chance to stun it or
  to put it down would tell its tracks), nor the extras the answer reads off it, nor
  how many outcomes the exploration met and what it cost (they grow with its numbers).

The PCs' own entries stay. The GM's key, and every key of a campaign that shows NPCs'
numbers, reads the odds whole.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from fractions import Fraction

from pydantic import JsonValue

from skald_campaign.domain.odds.report import chance
from skald_campaign.domain.rulesets import RULESETS
from skald_campaign.domain.rulesets.base import JsonObject

WITHHELD = (
    "RULINGS T3a: odds that would tell an NPC's hidden numbers (its defenses, its AC, "
    "its tracks) are the GM's"
)


def _about(entry: JsonValue, hidden: Collection[str]) -> bool:
    return isinstance(entry, Mapping) and entry.get("combatant") in hidden


def _hit_or_miss(results: JsonValue) -> list[JsonValue]:
    """Every result but a miss is a hit: the chance the attacker's own skill gives."""
    missed = Fraction(0)
    total = Fraction(0)
    for row in results if isinstance(results, list) else []:
        if isinstance(row, Mapping):
            p = Fraction(str(row.get("probability")))
            total += p
            if row.get("result") == "miss":
                missed += p
    rows: list[JsonValue] = []
    if total - missed:
        rows.append({"result": "hit", **chance(total - missed)})
    if missed:
        rows.append({"result": "miss", **chance(missed)})
    return rows


def odds_for(
    odds: JsonObject, ruleset_id: str, target: str | None, hidden: Collection[str]
) -> JsonObject:
    """``odds`` of an action on ``target`` as a reader who may not see ``hidden``'s
    numbers (NPCs' ids; empty for the GM) reads them."""
    if not hidden:
        return odds
    out = dict(odds)
    answers = odds.get("answers")
    if isinstance(answers, Mapping) and answers:
        # Each answer's odds of a blow on a hidden NPC would tell its Parry or Dodge: the
        # chance to hit before the answer (``results``) is all such a reader reads.
        out["answers"] = (
            {}
            if target in hidden
            else {
                choice: odds_for(answer, ruleset_id, target, hidden)
                if isinstance(answer, dict)
                else answer
                for choice, answer in answers.items()
            }
        )
    for part in ("damage", "conditions", "luck"):
        entries = odds.get(part)
        if isinstance(entries, list):
            out[part] = [e for e in entries if not _about(e, hidden)]
    if target not in hidden:
        return out
    out["extras"] = {}
    shown: list[JsonValue] = []
    rules = RULESETS.get(ruleset_id)
    if rules is not None and odds.get("kind") in rules.odds_public_hit_or_miss:
        shown = _hit_or_miss(odds.get("results"))
    out["results"] = shown
    # How many outcomes the exploration met, and what it cost, grow with the NPC's
    # numbers (a higher Parry, more ways to parry): counted for the GM only.
    out.update(outcomes=len(shown), resolutions=0, cost=0, withheld=WITHHELD)
    return out
