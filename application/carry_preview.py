"""What a correction carried through the campaign changes, as typed records.

The walk (domain/timeline.py) finds what moves; ``summarise`` makes it a preview, which
the commit reads (does it change anything?), the API answers as JSON and
Campaign.CorrectionCarried keeps; ``CarriedRecord`` reads that event back, so a retried
commit answers what the first did (application/carrying.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from skald_campaign.domain.campaign.aggregate import Campaign
from skald_campaign.domain.encounter.aggregate import Encounter
from skald_campaign.domain.play.actions import as_list
from skald_campaign.domain.play.corrections import ReportLine
from skald_campaign.domain.records import JSON, JSONObject, Record, Vitals, as_object
from skald_campaign.domain.walk import Walk, published_counters

Preview = dict[str, JSON]  # what the API answers (PreviewOut): JSON, as CorrectionCarried keeps it
NOTHING_CHANGES = "this correction changes nothing: no track, condition or later outcome moves"


class CarriedRecord(Record, frozen=True):
    """A correction as Campaign.CorrectionCarried recorded it: its own fields, and what it
    carried (CarryPreview.recorded_as_json), so a retried commit answers what the first did."""

    correction: JSONObject  # kind, day, character_id, plan, reason, by...
    steps: Sequence[JSON]
    actions: Sequence[JSON]
    characters: JSONObject
    encounters: Sequence[JSON]  # none recorded before issue 26
    # Recorded (true) since issue 37 when it was so: a day's plan corrected before the
    # day was healed moves nothing then. Older records of such a commit have none.
    changes_nothing: bool = False

    @classmethod
    def from_json(cls, stored: JSONObject) -> CarriedRecord:
        carried = as_object(stored["carried"])
        return cls(
            correction={key: value for key, value in stored.items() if key != "carried"},
            steps=as_list(carried["steps"]),
            actions=as_list(carried["actions"]),
            characters=as_object(carried["characters"]),
            encounters=as_list(carried.get("encounters", [])),
            changes_nothing=carried.get("changes_nothing") is True,
        )

    def as_preview(self) -> Preview:
        """The preview the commit that recorded it answered, as it answered it."""
        return {
            "correction": self.correction,
            "changes_nothing": self.changes_nothing,
            "message": message(self.changes_nothing, self.steps, self.actions),
            "steps": self.steps,
            "actions": self.actions,
            "characters": self.characters,
            "encounters": self.encounters,
        }


class CarryPreview(Record, frozen=True):
    """What a correction carried through the campaign changes (summarise): read by the
    commit, answered as JSON (as_json) and kept in CorrectionCarried (recorded_as_json)."""

    correction: JSONObject
    changes_nothing: bool
    message: str
    steps: Sequence[JSON]
    actions: Sequence[JSON]
    characters: JSONObject
    encounters: Sequence[JSON]

    def as_json(self) -> Preview:
        return {
            "correction": self.correction,
            "changes_nothing": self.changes_nothing,
            "message": self.message,
            **self.carried_as_json(),
        }

    def carried_as_json(self) -> dict[str, JSON]:
        # The encounters too, so that a retried commit answers exactly what the first did.
        return {
            "steps": self.steps,
            "actions": self.actions,
            "characters": self.characters,
            "encounters": self.encounters,
        }

    def recorded_as_json(self) -> dict[str, JSON]:
        """What CorrectionCarried keeps of it: what it carried and, when nothing moves
        (a day's plan corrected before the healing worker applied the day: the commit
        goes on, the worker heals with the new plan), that it said so; so a retried
        commit answers exactly what the first did (CarriedRecord.as_preview)."""
        carried = self.carried_as_json()
        if self.changes_nothing:
            carried["changes_nothing"] = True
        return carried


def summarise(
    campaign: Campaign, found: Walk, encounters: dict[str, Encounter], correction: JSONObject
) -> CarryPreview:
    """The preview: the campaign-wide diff per character and step, the later actions whose
    outcome changes, every character's tracks before and after (a character in an open
    fight: the fight's), and whether anything moves."""
    now: dict[str, JSON] = {}
    for cid, entry in found.roster.items():
        before, after = found.believed[cid].vitals, entry.vitals
        held = campaign.characters[cid].in_encounter if cid in campaign.characters else None
        if held is not None:
            # An open fight owns its combatants' tracks from joining to its end: theirs
            # now are the fight's, as it stands and as the correction works it out again
            # (the roster's entry waits for the fight to hand them back). A fight the
            # correction does not reach keeps them as they are.
            reached = found.encounters.get(held)
            was = encounters[held].combatants.get(cid) if held in encounters else None
            will = reached.replayed.combatants.get(cid) if reached is not None else None
            if was is None or will is None:
                continue
            before, after = was.vitals, will.vitals
        # Listed when what it shows moved: its tracks or the ruleset's counters (a change
        # of state alone, a posture or margin's ammunition, would read "X -> X").
        was_shown, now_shown = shown(campaign, before), shown(campaign, after)
        if was_shown != now_shown:
            now[cid] = {"name": entry.name, "before": was_shown, "after": now_shown}
    outcome_changed = False
    for eid, result in found.encounters.items():
        old = {cid: c.vitals for cid, c in encounters[eid].combatants.items()}
        new = {cid: c.vitals for cid, c in result.replayed.combatants.items()}
        outcome_changed = outcome_changed or old != new
    # A reroll onto the same faces shows up as "rerolled" with the same outcome.
    lines = [ReportLine.from_json(a) for a in found.actions]
    moved = [line for line in lines if line.status != "rerolled" or line.before != line.after]
    nothing = not found.steps and not found.unlisted and not moved and not outcome_changed
    return CarryPreview(
        correction=correction,
        changes_nothing=nothing,
        message=message(nothing, found.steps, found.actions),
        steps=found.steps,
        actions=found.actions,
        characters=now,
        encounters=sorted(found.encounters),
    )


def shown(campaign: Campaign, vitals: Vitals) -> dict[str, JSON]:
    """A character's values as the preview's ``characters`` show them: their tracks and
    the counters the ruleset publishes (domain/walk.py ``published_counters``)."""
    values: dict[str, JSON] = {"tracks": vitals.tracks}
    held = published_counters(campaign.rules, vitals.state)
    if held is not None:
        values["counters"] = held
    return values


def message(nothing: bool, steps: Sequence[object], actions: Sequence[object]) -> str:
    return NOTHING_CHANGES if nothing else changes_message(steps, actions)


def changes_message(steps: Sequence[object], actions: Sequence[object]) -> str:
    return f"{len(steps)} step(s) and {len(actions)} action(s) change"
