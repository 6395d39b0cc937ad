"""House rules previewed: an ended fight replayed under changed options (issue 38).

The GM asks what the campaign's fights would have come to under other options (a
natural 20 that always hits, a larger magic minimum). Each ended fight is rebuilt
from its recorded starting line-up with every action resolved again on its recorded
dice, by the one path every correction takes (domain/play/corrections.py's ``replay``),
under the ruleset as the changed options play it. Nothing here writes, and nothing
rolls: an action that the changed options would give a roll it never made (a hit that
now lands, whose damage was never rolled) is named with the rolls it lacks, and keeps
its recorded outcome in the preview, so the actions after it still meet the fight as
it went. Each fight is replayed on its own, from its line-up as recorded: what a
changed fight would hand on to the next is not carried (a correction does that).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from skald_campaign.domain.play.actions import ActionRecord
from skald_campaign.domain.play.corrections import ACTIVE, KEEP, RESOLVE, Replay, Step, replay
from skald_campaign.domain.records import JSON, Combatant, JSONObject, Tracks
from skald_campaign.domain.rulesets.base import Ruleset

NEEDS_DICE = "needs_dice"


class _Unrolled:
    """A roller that rolls nothing anyone reads: the lowest face, every time. A replay
    that asks it for a face marks that roll (``new``, or refitted with more dice than
    recorded); the action so marked is taken out of the preview's resolution."""

    def randint(self, a: int, b: int) -> int:
        return a


@dataclass(frozen=True)
class FightPreview:
    """One ended fight under the changed options: the actions that came out otherwise
    (the answer's JSON), how many actions were resolved again, and each combatant's
    tracks at the fight's end, as recorded and as the changed options leave them."""

    actions: list[JSONObject]
    replayed: int
    tracks: dict[str, JSONObject]


def unrolled(recorded: ActionRecord, replayed: ActionRecord) -> list[str]:
    """The rolls ``replayed`` took that ``recorded`` never rolled (a new roll, or a pool
    refitted with more dice than were recorded)."""
    faces = {r.name: len(r.faces) for r in recorded.rolls}
    return [
        r.name
        for r in replayed.rolls
        if r.name not in faces or r.new or len(r.faces) > faces[r.name]
    ]


def preview_fight(
    rules: Ruleset,
    options: JSONObject,
    initial: Mapping[str, Combatant],
    records: Sequence[ActionRecord],
    final: Mapping[str, Combatant],
) -> FightPreview:
    """Replay ``records`` from ``initial`` under ``rules`` and ``options`` (the changed
    ones), every active action resolved again on its recorded dice; ``final``: the
    fight's combatants as it ended."""
    held: dict[int, list[str]] = {}  # actions kept as recorded: the rolls they lack

    def plan(record: ActionRecord) -> Step:
        if record.status != ACTIVE or record.number in held:
            return KEEP
        return RESOLVE

    by_number = {r.number: r for r in records}
    # Each pass holds back the actions that would roll; holding one back can change
    # what a later action meets, so the replay runs again until none rolls.
    for _ in range(len(records) + 1):
        result = replay(rules, options, initial, records, plan, _Unrolled())
        found = {
            r.number: lacking
            for r in result.records
            if r.number not in held and (lacking := unrolled(by_number[r.number], r))
        }
        if not found:
            break
        held.update(found)
    names = {cid: c.name for cid, c in initial.items()}
    return FightPreview(
        actions=_differences(result, by_number, held, names),
        replayed=len(result.report) + len(held),
        tracks=_final_tracks(final, result.combatants),
    )


def _differences(
    result: Replay,
    recorded: Mapping[int, ActionRecord],
    held: Mapping[int, list[str]],
    names: Mapping[str, str],
) -> list[JSONObject]:
    now = {r.number: r for r in result.records}
    lines: dict[int, dict[str, JSON]] = {}
    for entry in result.changed:
        number = entry["number"]
        assert isinstance(number, int)
        before, after = recorded[number], now[number]
        if not _outcome_differs(before, after):
            continue  # worked out otherwise (its breakdown), to the same outcome
        line: dict[str, JSON] = {
            key: value
            for key, value in entry.items()
            if key in ("number", "kind", "before", "after", "status", "why", "hidden")
        }
        after_tracks = after.effects.tracks if after.status == ACTIVE else {}
        line["tracks"] = _tracks(before.effects.tracks, after_tracks, names)
        lines[number] = line
    for number, lacking in held.items():
        record = recorded[number]
        line = {
            "number": number,
            "kind": record.kind,
            "before": record.summary,
            "after": None,
            "status": NEEDS_DICE,
            "needs_rolls": list(lacking),
            "why": "the changed options would roll "
            + ", ".join(lacking)
            + ", never rolled in this fight: its outcome is left as recorded",
            "tracks": [],
        }
        if record.hidden:
            line["hidden"] = True
        lines[number] = line
    return [lines[n] for n in sorted(lines)]


def _outcome_differs(before: ActionRecord, after: ActionRecord) -> bool:
    """An action's outcome: whether it stands, its summary, what it set (tracks, state,
    conditions). A breakdown that reads otherwise to the same outcome is no difference."""
    return (before.status, before.summary, before.effects, before.conditions) != (
        after.status,
        after.summary,
        after.effects,
        after.conditions,
    )


def _tracks(
    before: Mapping[str, Tracks], after: Mapping[str, Tracks], names: Mapping[str, str]
) -> list[JSON]:
    """Each combatant whose tracks the action set otherwise: as recorded, as now."""
    rows: list[JSON] = []
    for cid in sorted(set(before) | set(after), key=lambda c: (names.get(c, c), c)):
        was, now = before.get(cid), after.get(cid)
        if was != now:
            rows.append(
                {
                    "id": cid,
                    "name": names.get(cid, cid),
                    "before": None if was is None else dict(was),
                    "after": None if now is None else dict(now),
                }
            )
    return rows


def _final_tracks(
    recorded: Mapping[str, Combatant], replayed: Mapping[str, Combatant]
) -> dict[str, JSONObject]:
    """Each combatant whose tracks the fight would have ended with otherwise."""
    return {
        cid: {
            "name": combatant.name,
            "before": dict(combatant.tracks),
            "after": dict(replayed[cid].tracks),
        }
        for cid, combatant in recorded.items()
        if cid in replayed and dict(replayed[cid].tracks) != dict(combatant.tracks)
    }
