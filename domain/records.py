"""Typed, immutable records: what the Campaign and Encounter aggregates hold.

Each record is a frozen ``msgspec.Struct``: bench/records.py measured it against a
frozen slotted dataclass and a frozen pydantic model on what the command path does
with a record (build one from a stored event, replace a field, turn it back into a
dict), and it builds 4x and replaces 20x faster than the dataclass (bench/README.md).

Stored events and snapshots keep the JSON they always had: ``from_json`` reads what
an event carried (today's and every older shape), ``as_json`` writes the very dict
today's code wrote, with the same keys in the same order, so the API's answers and
new events are byte for byte what they were. A record is never changed in place
(``msgspec.structs.replace`` makes a new one), so copies of an aggregate share them.

What a ruleset defines (a sheet's fields, its tracks' names, its per-character
state) is JSON here, typed as such: the rulesets validate it at the edge.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, TypeAlias, cast

import msgspec

from skald_campaign.domain.access import Role

# JSON as stored: read through Mapping and Sequence, so a record's values are read-only.
JSON: TypeAlias = str | int | float | bool | Sequence["JSON"] | Mapping[str, "JSON"] | None
JSONObject: TypeAlias = Mapping[str, JSON]
Sheet: TypeAlias = Mapping[str, JSON]  # a ruleset's validated sheet
Tracks: TypeAlias = Mapping[str, int]  # track name -> current value (stamina, body, hp...)
State: TypeAlias = Mapping[str, JSON]  # a ruleset's per-character state (wounds, postures)

# Text of a fixed form, as the server writes it into events: an import checks each
# event's fields against their declared types (skald_campaign/payload_types.py), and these say
# what `str` alone cannot. A type checker sees plain `str`.
UUID_TEXT = "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"
UUIDText: TypeAlias = Annotated[  # a character's or an encounter's id: str(uuid4())
    str, msgspec.Meta(pattern=UUID_TEXT, min_length=36, max_length=36)
]
KeyId: TypeAlias = Annotated[  # a key's id: secrets.token_hex(8) (api/keys.py)
    str, msgspec.Meta(pattern="^[0-9a-f]+$", min_length=16, max_length=16)
]
Sha256Hex: TypeAlias = Annotated[  # a key's or a request body's SHA-256, hex
    str, msgspec.Meta(pattern="^[0-9a-f]+$", min_length=64, max_length=64)
]


class Record(msgspec.Struct, frozen=True):
    """Base of every record: immutable, so a deep copy may share it."""

    def __copy__(self) -> Record:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Record:
        return self


def as_object(value: JSON) -> JSONObject:
    """A stored value that is a JSON object (an event's shape, not a request's)."""
    if not isinstance(value, Mapping):
        raise TypeError(f"a JSON object was stored here, not {value!r}")
    return value


def as_int(value: JSON) -> int:
    if not isinstance(value, int):
        raise TypeError(f"a whole number was stored here, not {value!r}")
    return value


def as_str(value: JSON) -> str:
    if not isinstance(value, str):
        raise TypeError(f"a string was stored here, not {value!r}")
    return value


def as_tracks(value: JSON) -> Tracks:
    # Tracks are stored as {name: int}; read as they are (a copy per load costs).
    return cast(Tracks, as_object(value))


class Vitals(Record, frozen=True):
    """A character's sheet, tracks and state: what the GM's changes and the rules act on."""

    sheet: Sheet
    tracks: Tracks
    state: State


class Combatant(Record, frozen=True):
    """One character in an encounter: its copy of the sheet, tracks and state."""

    name: str
    side: str
    rank: int
    sheet: Sheet
    tracks: Tracks
    state: State
    present: bool = True  # False once they left the fight (domain/play/gm_changes.py)

    @classmethod
    def from_json(cls, stored: JSONObject) -> Combatant:
        return cls(
            name=as_str(stored["name"]),
            side=as_str(stored["side"]),
            rank=as_int(stored["rank"]),
            sheet=as_object(stored["sheet"]),
            tracks=as_tracks(stored["tracks"]),
            state=as_object(stored["state"]),
            present=stored.get("present", True) is not False,
        )

    def as_json(self) -> dict[str, JSON]:
        stored: dict[str, JSON] = {
            "name": self.name,
            "side": self.side,
            "rank": self.rank,
            "sheet": self.sheet,
            "tracks": self.tracks,
            "state": self.state,
        }
        if not self.present:
            stored["present"] = False
        return stored

    @property
    def vitals(self) -> Vitals:
        return Vitals(self.sheet, self.tracks, self.state)

    def with_vitals(self, vitals: Vitals) -> Combatant:
        return msgspec.structs.replace(
            self, sheet=vitals.sheet, tracks=vitals.tracks, state=vitals.state
        )


def combatants_from_json(stored: Mapping[str, JSON]) -> dict[str, Combatant]:
    return {cid: Combatant.from_json(as_object(c)) for cid, c in stored.items()}


def combatants_as_json(combatants: Mapping[str, Combatant]) -> dict[str, JSON]:
    return {cid: c.as_json() for cid, c in combatants.items()}


class Character(Record, frozen=True):
    """One character on the campaign's roster."""

    id: str
    name: str
    sheet: Sheet
    tracks: Tracks
    state: State
    enrolled_by: str
    in_encounter: str | None  # the open encounter that owns their tracks now
    healed_through: int  # the last day whose heal they had
    # T3: an NPC's tracks are a descriptor to players and viewers; a PC may name its player.
    # Written only when set, so a roster without them keeps its stored JSON.
    npc: bool = False
    player: str | None = None

    @classmethod
    def from_json(cls, stored: JSONObject) -> Character:
        held = stored["in_encounter"]
        return cls(
            id=as_str(stored["id"]),
            name=as_str(stored["name"]),
            sheet=as_object(stored["sheet"]),
            tracks=as_tracks(stored["tracks"]),
            state=as_object(stored["state"]),
            enrolled_by=as_str(stored["enrolled_by"]),
            in_encounter=None if held is None else as_str(held),
            healed_through=as_int(stored["healed_through"]),
            npc=stored.get("npc", False) is True,
            player=None if stored.get("player") is None else as_str(stored["player"]),
        )

    def as_json(self) -> dict[str, JSON]:
        stored: dict[str, JSON] = {
            "id": self.id,
            "name": self.name,
            "sheet": self.sheet,
            "tracks": self.tracks,
            "state": self.state,
            "enrolled_by": self.enrolled_by,
            "in_encounter": self.in_encounter,
            "healed_through": self.healed_through,
        }
        stored.update(self.part())
        return stored

    def part(self) -> dict[str, JSON]:
        """T3's fields as answers and snapshots show them: only those that are set."""
        shown: dict[str, JSON] = {}
        if self.npc:
            shown["npc"] = True
        if self.player is not None:
            shown["player"] = self.player
        return shown

    @property
    def vitals(self) -> Vitals:
        return Vitals(self.sheet, self.tracks, self.state)

    def with_vitals(self, vitals: Vitals) -> Character:
        return msgspec.structs.replace(
            self, sheet=vitals.sheet, tracks=vitals.tracks, state=vitals.state
        )


ROLES: tuple[Role, ...] = ("gm", "player", "viewer")


class KeyGrant(Record, frozen=True):
    """One access key of a campaign: its role, the characters it acts for, its hash."""

    id: str
    role: Role
    characters: tuple[str, ...]
    label: str
    hash: str  # of the secret; the secret itself is never stored
    revoked: bool = False

    @classmethod
    def from_json(cls, stored: JSONObject) -> KeyGrant:
        characters, role = stored["characters"], stored["role"]
        if role not in ROLES:
            raise TypeError(f"a key's role is gm, player or viewer, not {role!r}")
        if not isinstance(characters, Sequence):
            raise TypeError(f"a key's characters were stored as a list, not {characters!r}")
        return cls(
            id=as_str(stored["id"]),
            role=role,
            characters=tuple(as_str(c) for c in characters),
            label=as_str(stored["label"]),
            hash=as_str(stored["hash"]),
            revoked=stored["revoked"] is True,
        )

    def as_json(self) -> dict[str, JSON]:
        return {
            "id": self.id,
            "role": self.role,
            "characters": list(self.characters),
            "label": self.label,
            "hash": self.hash,
            "revoked": self.revoked,
        }


class EncounterEntry(Record, frozen=True):
    """An encounter as its campaign lists it: open until it ends."""

    id: str
    name: str
    open: bool = True

    @classmethod
    def from_json(cls, stored: JSONObject) -> EncounterEntry:
        return cls(
            id=as_str(stored["id"]), name=as_str(stored["name"]), open=stored["open"] is True
        )

    def as_json(self) -> dict[str, JSON]:
        return {"id": self.id, "name": self.name, "open": self.open}


replace = msgspec.structs.replace
