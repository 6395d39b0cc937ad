"""A/B of the record representation for domain/records.py (issue 22 item 4).

One Combatant-like record (name, side, rank, a sheet, tracks and state as mappings,
an optional flag) in three representations, each timed on what the command path
does with a record: build it from a stored event's dict, replace one field (an
action's new tracks), and turn it back into the dict the API answers and the
snapshot stores. Each figure is printed beside the frozen slotted dataclass (the
anchor) as a ratio, measured in the same run: below 1.0 is faster than the anchor.

    .venv/bin/python bench/records.py [--number 200000]
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from collections.abc import Callable, Mapping

import msgspec
import orjson
from pydantic import BaseModel, ConfigDict

STORED = {
    "name": "Bran",
    "side": "heroes",
    "rank": 1,
    "sheet": {"st": 12, "dx": 13, "iq": 10, "weapon": "broadsword", "armour": "leather"},
    "tracks": {"stamina": 12, "body": 12},
    "state": {"posture": "standing", "wounds": []},
}
NEW_TRACKS = {"stamina": 7, "body": 12}


@dataclasses.dataclass(frozen=True, slots=True)
class AsDataclass:
    name: str
    side: str
    rank: int
    sheet: Mapping[str, object]
    tracks: Mapping[str, int]
    state: Mapping[str, object]
    present: bool = True

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "name": self.name,
            "side": self.side,
            "rank": self.rank,
            "sheet": self.sheet,
            "tracks": self.tracks,
            "state": self.state,
        }
        if not self.present:
            out["present"] = False
        return out


class AsStruct(msgspec.Struct, frozen=True, omit_defaults=True):
    name: str
    side: str
    rank: int
    sheet: Mapping[str, object]
    tracks: Mapping[str, int]
    state: Mapping[str, object]
    present: bool = True

    def as_json(self) -> dict[str, object]:  # as domain/records.py writes it
        out: dict[str, object] = {
            "name": self.name,
            "side": self.side,
            "rank": self.rank,
            "sheet": self.sheet,
            "tracks": self.tracks,
            "state": self.state,
        }
        if not self.present:
            out["present"] = False
        return out


class AsPydantic(BaseModel):
    model_config = ConfigDict(frozen=True)
    name: str
    side: str
    rank: int
    sheet: Mapping[str, object]
    tracks: Mapping[str, int]
    state: Mapping[str, object]
    present: bool = True


Case = dict[str, Callable[[], object]]


def cases() -> dict[str, Case]:
    d = AsDataclass(**STORED)  # type: ignore[arg-type]
    s = AsStruct(**STORED)  # type: ignore[arg-type]
    p = AsPydantic(**STORED)  # type: ignore[arg-type]
    s_decoder = msgspec.convert
    return {
        "build from a stored dict": {
            "dataclass": lambda: AsDataclass(**STORED),  # type: ignore[arg-type]
            "msgspec": lambda: AsStruct(**STORED),  # type: ignore[arg-type]
            "msgspec convert (validating)": lambda: s_decoder(STORED, AsStruct),
            "pydantic (validating)": lambda: AsPydantic(**STORED),  # type: ignore[arg-type]
            "pydantic model_construct": lambda: AsPydantic.model_construct(**STORED),
        },
        "replace the tracks": {
            "dataclass": lambda: dataclasses.replace(d, tracks=NEW_TRACKS),
            "msgspec": lambda: msgspec.structs.replace(s, tracks=NEW_TRACKS),
            "pydantic": lambda: p.model_copy(update={"tracks": NEW_TRACKS}),
        },
        "to the answer's dict": {
            "dataclass": d.as_json,
            "msgspec, written out (records.py)": s.as_json,
            "msgspec to_builtins (copies)": lambda: msgspec.to_builtins(s),
            "pydantic": lambda: p.model_dump(mode="json"),
        },
        "to JSON bytes": {
            "dataclass": lambda: orjson.dumps(d.as_json()),
            "msgspec, written out + orjson": lambda: orjson.dumps(s.as_json()),
            "msgspec.json.encode": lambda: msgspec.json.encode(s),
            "pydantic": p.model_dump_json,
        },
    }


def per_call(fn: Callable[[], object], number: int) -> float:
    best = float("inf")
    for _ in range(3):  # the best of three: the machine is shared
        start = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - start) / number)
    return best


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--number", type=int, default=200_000)
    number = parser.parse_args().number
    for operation, variants in cases().items():
        print(operation)
        anchor = per_call(variants["dataclass"], number)
        for name, fn in variants.items():
            took = anchor if name == "dataclass" else per_call(fn, number)
            print(f"  {name:32} {took * 1e9:8.0f} ns  {took / anchor:5.2f}x the dataclass")


if __name__ == "__main__":
    main()
