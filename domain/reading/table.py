"""The table's and the GM's records as parts (RULINGS T3a), alike in every ruleset: a
marker put on, a combatant joining the turn order last, joining, moving, leaving, a
sheet amended, tracks set or adjusted (domain/play/table/markers.py, domain/play/table/commands.py,
domain/play/gm_changes.py write them).

Markers, their names, notes and durations, sides, ranks and the names of the fields a
GM amended are public (T3a: "marker names and durations", T3: where a combatant
stands): every reader reads them as the GM does. An NPC's tracks set or adjusted are
its own: others read its descriptor. Each is narrated as its summary (the plain lines,
domain/reading/told.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from skald_campaign.domain.reading import breakdowns as bd
from skald_campaign.domain.reading.breakdowns import read
from skald_campaign.domain.reading.narrative import Sheeted, name_of
from skald_campaign.domain.reading.texts import Descriptor, Text, secret
from skald_campaign.domain.records import JSONObject

Roster = Mapping[str, Sheeted]


class Marked(bd.Part, frozen=True):
    target: str
    name: str
    note: str | None = None
    rounds: int | None = None
    watch: str | None = None
    at: str | None = None


def marker(record: JSONObject, combatants: Roster) -> Text:
    """'Ogre: blessed (2 rounds, to the end of Bran's turn): the priest's word'."""
    m = read(record.get("params"), Marked)
    lasting = "until removed"
    if m.rounds is not None:
        rounds = "round" if m.rounds == 1 else "rounds"
        lasting = f"{m.rounds} {rounds}, to the {m.at} of {name_of(combatants, m.watch)}'s turn"
    note = f": {m.note}" if m.note else ""
    return (f"{name_of(combatants, m.target)}: {m.name} ({lasting}){note}",)


class Placed(bd.Part, frozen=True):
    name: str
    placed: str


class PlacedEntries(bd.Part, frozen=True):
    entries: list[Placed]


def placed_last(record: JSONObject, combatants: Roster) -> Text | None:
    """'Goblin 3 joins the turn order, last' (placed by the GM's order, no roll)."""
    entries = read(record.get("breakdown"), PlacedEntries).entries
    if len(entries) != 1 or entries[0].placed != "last" or record.get("rolls"):
        return None
    return (f"{entries[0].name} joins the turn order, last",)


class Joiner(bd.Part, frozen=True):
    name: str
    side: str
    rank: int


class Joining(bd.Part, frozen=True):
    combatant: Joiner


def joined(record: JSONObject, combatants: Roster) -> Text:
    c = read(record.get("params"), Joining).combatant
    return (f"{c.name} joins the fight ({c.side}, rank {c.rank})",)


class Targeted(bd.Part, frozen=True):
    target: str


def target(record: JSONObject) -> str:
    return read(record.get("params"), Targeted).target


def left(record: JSONObject, combatants: Roster) -> Text:
    return (f"{name_of(combatants, target(record))} leaves the fight",)


class Ranks(bd.Part, frozen=True):
    rank: bd.BeforeAfter


def moved(record: JSONObject, combatants: Roster) -> Text:
    rank = read(record.get("breakdown"), Ranks).rank
    who = name_of(combatants, target(record))
    return (f"{who} moves from rank {rank.before} to rank {rank.after}",)


class Fields(bd.Part, frozen=True):
    fields: dict[str, object]


def amended(record: JSONObject, combatants: Roster) -> Text:
    """'Ogre's sheet amended: body_max, parry': which fields, never their values."""
    fields = sorted(read(record.get("breakdown"), Fields).fields)
    return (f"{name_of(combatants, target(record))}'s sheet amended: {', '.join(fields)}",)


class Step(bd.Part, frozen=True):
    before: int
    after: int


class Adjusted(bd.Part, frozen=True):
    tracks: dict[str, Step]
    state: dict[str, Step] = {}


class Effects(bd.Part, frozen=True):
    tracks: dict[str, dict[str, int]]


def adjusted(record: JSONObject, combatants: Roster) -> Text:
    """'Ogre: body 21→19, stamina 23→14'; to others 'Ogre: hurt' (its tracks after)."""
    who = target(record)
    b = read(record.get("breakdown"), Adjusted)
    steps = sorted({**b.tracks, **b.state}.items())
    listed = ", ".join(f"{track} {step.before}→{step.after}" for track, step in steps)
    after = read(record.get("effects"), Effects).tracks.get(who, {})
    return (
        f"{name_of(combatants, who)}: ",
        *secret(who, listed, instead=(Descriptor(who, after),)),
    )


BUILDERS: dict[str, Callable[[JSONObject, Roster], Text | None]] = {
    "mark": marker,
    "initiative": placed_last,
    "join": joined,
    "leave": left,
    "move": moved,
    "amend_sheet": amended,
    "adjust_tracks": adjusted,
}


def summary(record: JSONObject, combatants: Roster) -> Text | None:
    """The record's summary as parts; None for a kind the table does not write."""
    builder = BUILDERS.get(str(record.get("kind")))
    return None if builder is None else builder(record, combatants)
