"""An action's outcome as parts (RULINGS T3, T3a): what a hidden roll shows a player and a
viewer, and what they read of a record whose own texts are not built from parts.

A hidden roll shows only its outcome: who did what to whom and the outcome words the
rules give (hits, misses, parried, turned, shoves 5 ft), then where each one it changed
now stands, then the conditions it brought on. Never its dice, its totals, its scores or
the sheet values it rolled against. Each ruleset's package words its kinds
(``outcome`` in domain/rulesets/<name>/texts.py) and its tracks (``standing``); a kind
none of them words is said by its name ("Ogre's attack on Bran"). A standing is a
secret of its character's: a reader who may see that character's numbers reads them
("Mira is at 14 HP", a PC's, public), another its descriptor ("Goblin 1 is stunned").
Nothing is scrubbed: the parts hold no number of the roll's to begin with.

For example, a hidden stamina-body blow that the GM reads as "Ogre hits: Bran takes 9
Stamina and 1 Body (9/1 raw)" reads to Bran's player and to a viewer as "Ogre attacks
Bran with maul and hits: Bran is at 3 Stamina and 9 Body".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from skald_campaign.domain.reading import breakdowns as bd
from skald_campaign.domain.reading.breakdowns import read
from skald_campaign.domain.reading.narrative import Sheeted, name_of
from skald_campaign.domain.reading.texts import Descriptor, Part, Text, joined, render, secret
from skald_campaign.domain.reading.told_form import Told, recorded, text_of
from skald_campaign.domain.records import JSONObject
from skald_campaign.domain.rulesets import RULESETS
from skald_campaign.domain.rulesets.base import UNREADABLE

Roster = Mapping[str, Sheeted]
Head = Callable[[JSONObject, Roster], Text | None]
Tracks = Mapping[str, Mapping[str, int]]

# What a waiting exchange (an attack the defender has still to answer) says of itself.
WAITING = {"pending": "waiting for {}'s answer", "resolved": "answered", "withdrawn": "withdrawn"}


class Acted(bd.Part, frozen=True):
    """What every outcome reads of a record, an exchange or an event's payload."""

    kind: str = "action"
    actor: str | None = None
    params: dict[str, object] = {}
    defender: str | None = None  # an exchange's
    awaiting: str | None = None  # an exchange's
    status: str = "active"


def named(acted: Acted, combatants: Roster) -> list[str]:
    """The characters the parameters name besides the actor, in their order."""
    found = [acted.defender] if acted.defender else []
    found += [v for v in acted.params.values() if isinstance(v, str) and v in combatants]
    return [cid for n, cid in enumerate(found) if cid != acted.actor and cid not in found[:n]]


def head(ruleset: str, record: JSONObject, combatants: Roster) -> Text:
    """What the action did, in its ruleset's words; a waiting exchange and a kind no
    ruleset words are said by their kind's name."""
    acted = read(record, Acted)
    actor = "the GM" if acted.actor is None else name_of(combatants, acted.actor)
    others = [name_of(combatants, cid) for cid in named(acted, combatants)]
    if acted.awaiting is not None:
        who = others[0] if others else "the defender"
        waiting = WAITING.get(acted.status, acted.status).format(who)
        return (f"{actor} {acted.kind.replace('_', ' ')}s {who}: {waiting}",)
    told = recorded(record)
    if told is not None:  # as its command recorded it (domain/reading/told_form.py)
        built = None if told.outcome is None else text_of(told.outcome)
    else:
        rules = RULESETS.get(ruleset)
        try:
            built = None if rules is None else rules.outcome(record, combatants)
        except UNREADABLE:
            built = None
    if built is not None:
        return built
    on = f" on {', '.join(others)}" if others else ""
    return (f"{actor}'s {acted.kind.replace('_', ' ')}{on}",)


def listed(tracks: Mapping[str, int]) -> str:
    """A ruleset's tracks no package words: 'hp 14, stamina 3'."""
    return ", ".join(f"{name} {value}" for name, value in tracks.items())


def standing(
    ruleset: str,
    owner: str,
    tracks: Mapping[str, int],
    combatants: Roster,
    told: Told | None = None,
) -> Text:
    """'Mira is at 14 HP' to a reader who sees Mira's numbers; 'Goblin 1 is stunned' to
    one who does not see the goblin's. ``told``: what the record's command recorded,
    whose ``standing`` words these tracks if it holds the owner's."""
    recorded = None if told is None else told.standing.get(owner)
    seen_as = None
    if recorded is not None:
        words, seen_as = recorded.words, recorded.seen_as
    else:
        rules = RULESETS.get(ruleset)
        words = None if rules is None else rules.standing(tracks)
    said = listed(tracks) if words is None else words
    return (
        f"{name_of(combatants, owner)} is ",
        *secret(owner, f"at {said}", instead=(Descriptor(owner, tracks, seen_as),)),
    )


def outcome(ruleset: str, record: JSONObject, combatants: Roster, tracks: Tracks) -> Text:
    """The action's outcome: what it did, then where each character whose ``tracks`` it
    changed stands now ('Bandit 1 attacks Mira with Sword and hits: Mira is at 14 HP').
    The conditions it brought on follow when it is rendered (domain/reading/narrative.py
    ``new_conditions_note``), as they follow every summary."""
    said = head(ruleset, record, combatants)
    told = recorded(record)
    stands = [standing(ruleset, cid, values, combatants, told) for cid, values in tracks.items()]
    if not stands:
        return said
    separator: Part = "; " if ": " in render(said) else ": "
    return (*said, separator, *joined(stands, "; "))
