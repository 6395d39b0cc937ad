"""What the Campaign's commands decide: the events to record, worked out from what they read.

Each function here takes what it reads of the campaign (``CampaignView``,
domain/campaign/view.py), runs the command's checks (domain/campaign/roster.py,
domain/campaign/calendar.py, domain/play/gm_changes.py) and returns the events to record
as decisions: one record per event, named as the Campaign's event class and with its
fields in their order (a unit test holds them to it). The aggregate
(domain/campaign/aggregate.py) records each one as that event, whose method applies it,
as eventsourcing's functional examples (aggregate7) have commands return the events.
A command whose later events read what its earlier ones left (a character healed day
after day) yields them, and the aggregate records each before the next is worked out.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TypeAlias
from uuid import uuid4

from skald_campaign.domain.access import Role
from skald_campaign.domain.campaign import roster
from skald_campaign.domain.campaign.calendar import DayPlans, check_advance, daily_heals
from skald_campaign.domain.campaign.roster import check_name
from skald_campaign.domain.campaign.view import CampaignView
from skald_campaign.domain.errors import ActionRefused
from skald_campaign.domain.play.gm_changes import adjust, amend, amended_sheet
from skald_campaign.domain.records import JSON, JSONObject, Sheet, State, Tracks, UUIDText
from skald_campaign.domain.rulesets import get_ruleset

# Per character id, as the events carry them.
TracksOf = Mapping[UUIDText, Tracks]
StateOf = Mapping[UUIDText, State]
SheetsOf = Mapping[UUIDText, Sheet]


# -- the decisions: one per event of the Campaign's, named and ordered as its fields ------


@dataclass(frozen=True)
class Created:
    name: str
    ruleset: str
    options: JSONObject
    by: str
    gm_key_id: str
    gm_key_hash: str
    ruleset_distribution: str
    ruleset_version: str


@dataclass(frozen=True)
class KeyIssued:
    key_id: str
    key_hash: str
    role: Role
    characters: Sequence[str]
    label: str
    by: str


@dataclass(frozen=True)
class KeyRevoked:
    key_id: str
    by: str


@dataclass(frozen=True)
class CharacterEnrolled:
    character_id: str
    name: str
    sheet: Sheet
    tracks: Tracks
    state: State
    by: str
    npc: bool
    player: str | None


@dataclass(frozen=True)
class EncounterOpened:
    encounter_id: str
    name: str
    character_ids: Sequence[str]


@dataclass(frozen=True)
class CharacterJoined:
    encounter_id: str
    character_id: str
    by: str


@dataclass(frozen=True)
class EncounterClosed:
    encounter_id: str
    tracks: TracksOf
    state: StateOf
    by: str


@dataclass(frozen=True)
class DayAdvanced:
    day: int
    plans: DayPlans
    by: str


@dataclass(frozen=True)
class CharacterHealed:
    character_id: str
    day: int
    breakdown: JSONObject
    tracks: TracksOf
    state: StateOf


@dataclass(frozen=True)
class WoundMarked:
    character_id: str
    wound: str
    present: bool
    reason: str
    by: str
    state: StateOf


@dataclass(frozen=True)
class SheetAmended:
    character_id: str
    sheet: Sheet
    reason: str
    by: str
    breakdown: JSONObject
    tracks: TracksOf
    state: StateOf
    sheets: SheetsOf


@dataclass(frozen=True)
class TracksAdjusted:
    character_id: str
    changes: Mapping[str, Mapping[str, int]]
    reason: str
    by: str
    summary: str
    breakdown: JSONObject
    tracks: TracksOf
    state: StateOf | None


@dataclass(frozen=True)
class RulesetVersionRecorded:
    distribution: str
    version: str
    previous_distribution: str
    previous_version: str


@dataclass(frozen=True)
class RulesetVersionAccepted:
    distribution: str
    version: str
    previous_distribution: str
    previous_version: str
    differing: Sequence[JSON]
    by: str


Decision: TypeAlias = (
    KeyIssued
    | KeyRevoked
    | CharacterEnrolled
    | EncounterOpened
    | CharacterJoined
    | EncounterClosed
    | DayAdvanced
    | CharacterHealed
    | WoundMarked
    | SheetAmended
    | TracksAdjusted
    | RulesetVersionRecorded
    | RulesetVersionAccepted
)


def create(
    name: str,
    ruleset_id: str,
    option_overrides: JSONObject | None,
    by: str,
    gm_key_id: str,
    gm_key_hash: str,
) -> Created:
    ruleset = get_ruleset(ruleset_id)
    options = ruleset.validate_options(option_overrides)
    name = check_name(name, "campaign name")
    return Created(
        name,
        ruleset.id,
        options,
        by,
        gm_key_id,
        gm_key_hash,
        ruleset.distribution,
        ruleset.version,
    )


# -- the ruleset's version (domain/campaign/ruleset_versions.py) ---------------------------


def record_ruleset_version(campaign: CampaignView) -> list[Decision]:
    """Take on the installed version, whose replay changed no recorded action (the
    writer has checked that: application/ruleset_versions.py)."""
    found = campaign.ruleset_standing()
    if found.current or found.installed is None or found.installed_distribution is None:
        return []
    return [
        RulesetVersionRecorded(
            found.installed_distribution, found.installed, found.distribution, found.recorded
        )
    ]


def accept_ruleset_version(
    campaign: CampaignView, version: str, differing: Sequence[JSON], by: str
) -> RulesetVersionAccepted:
    """The GM accepts the installed version, having seen ``differing``."""
    found = campaign.ruleset_standing()
    if found.installed is None or found.installed_distribution is None:
        raise ActionRefused(
            f"the ruleset '{found.ruleset}' is not installed: there is no version to accept"
        )
    if version != found.installed:
        raise ActionRefused(
            f"the installed version of the ruleset '{found.ruleset}' is {found.installed}, "
            f"not {version}: accept the version installed"
        )
    if found.current:
        raise ActionRefused(
            f"campaign {campaign.id} already has version {version} of the ruleset "
            f"'{found.ruleset}' on record"
        )
    return RulesetVersionAccepted(
        found.installed_distribution,
        version,
        found.distribution,
        found.recorded,
        list(differing),
        by,
    )


# -- keys ------------------------------------------------------------------------------


def issue_key(
    campaign: CampaignView,
    key_id: str,
    key_hash: str,
    role: str,
    characters: list[str],
    label: str,
    by: str,
) -> KeyIssued:
    granted = roster.check_new_key(
        campaign.keys, campaign.characters, key_id, role, characters, label
    )
    return KeyIssued(key_id, key_hash, *granted, by)


def revoke_key(campaign: CampaignView, key_id: str, by: str) -> KeyRevoked:
    roster.check_revocable(campaign.keys, key_id)
    return KeyRevoked(key_id, by)


# -- the roster and encounters ----------------------------------------------------------


def enrol(
    campaign: CampaignView,
    name: str,
    sheet: JSONObject,
    by: str,
    npc: bool = False,
    player: str | None = None,
) -> CharacterEnrolled:
    rules, character_id = campaign.rules, str(uuid4())
    valid = roster.check_enrolment(rules, len(campaign.characters), sheet)
    name = check_name(name, "character name")
    roster.refuse_duplicate_name(campaign.characters, name)
    if player is not None:
        player = check_name(player, "player")
    tracks, state = rules.track_maxima(valid), rules.start_state(valid)
    return CharacterEnrolled(character_id, name, valid, tracks, state, by, npc, player)


def open_encounter(
    campaign: CampaignView, encounter_id: str, name: str, character_ids: list[str]
) -> EncounterOpened:
    for character_id in character_ids:
        roster.refuse_if_held(campaign.character(character_id))
    return EncounterOpened(encounter_id, name, character_ids)


def join_encounter(
    campaign: CampaignView, encounter_id: str, character_id: str, by: str
) -> Iterator[Decision]:
    """A character joins an open encounter mid-fight; heal what they are owed first."""
    joining = campaign.character(character_id)
    roster.check_joining(campaign.open_encounters, encounter_id, joining)
    yield from heal_before_joining(campaign, [character_id])
    yield CharacterJoined(encounter_id, character_id, by)


def carry_over(
    campaign: CampaignView,
    encounter_id: str,
    tracks: TracksOf,
    state: StateOf,
    by: str,
    sheets: SheetsOf | None = None,
) -> Iterator[Decision]:
    """Take the encounter's final tracks and lasting state back onto the roster, and the
    sheets amended during it (each as a SheetAmended event, before the closing)."""
    for character_id, sheet in (sheets or {}).items():
        if sheet != campaign.characters[character_id].sheet:
            reason = f"amended during encounter {encounter_id}"
            yield record_amendment(campaign, character_id, sheet, reason, by)
    rules = campaign.rules
    lasting = {cid: rules.state_after_encounter(values) for cid, values in state.items()}
    yield EncounterClosed(encounter_id, tracks, lasting, by)


# -- the calendar ----------------------------------------------------------------------


def advance_days(
    campaign: CampaignView,
    days: int,
    default_plan: JSONObject,
    plans: Mapping[str, JSONObject],
    by: str,
) -> list[Decision]:
    """Move the in-game calendar on by ``days``, each with every character's plan."""
    opened = [campaign.encounters[eid].name for eid in campaign.open_encounters]
    day_plans = check_advance(
        campaign.rules, opened, days, campaign.characters, default_plan, plans
    )
    return [DayAdvanced(campaign.day + n, day_plans, by) for n in range(1, days + 1)]


def heal_through(campaign: CampaignView, day: int) -> Iterator[Decision]:
    """Apply the daily rules to every day up to ``day`` not yet applied: exactly once,
    because each character remembers the last day it was healed for. A character in
    an open encounter is skipped: the encounter owns their tracks until it ends."""
    free = [cid for cid, c in campaign.characters.items() if c.in_encounter is None]
    for cid in free:
        yield from heal_pending(campaign, cid, day)


def heal_before_joining(campaign: CampaignView, character_ids: list[str]) -> Iterator[Decision]:
    """Apply every day already advanced to characters about to join an encounter: the
    roster hands an encounter only up-to-date tracks. Days cannot advance while an
    encounter is open, so no heal is owed while one holds them (docs/calendar.md)."""
    for cid in character_ids:
        yield from heal_pending(campaign, cid, campaign.day)


def heal_pending(campaign: CampaignView, character_id: str, day: int) -> Iterator[Decision]:
    """Each day's heal in turn: the next is worked out from the character as the last
    one left them, so the campaign records each before the next is asked for."""
    now = partial(campaign.character, character_id)  # as the last day's heal left them
    last = min(day, campaign.day)
    for d, daily in daily_heals(campaign.rules, campaign.calendar, now, last):
        tracks, state = {character_id: daily.tracks}, {character_id: daily.state}
        yield CharacterHealed(character_id, d, daily.breakdown, tracks, state)


def mark_wound(
    campaign: CampaignView,
    character_id: str,
    wound: str,
    present: bool,
    reason: str,
    by: str,
) -> WoundMarked:
    """Record a wound, its treatment or its end between fights, with who and why."""
    character = campaign.character(character_id)
    marked = roster.check_wound_mark(campaign.rules, character, wound, present)
    return WoundMarked(character_id, wound, present, reason, by, {character_id: marked})


# -- the GM's changes between fights (domain/play/gm_changes.py) ---------------------------


def amend_sheet(
    campaign: CampaignView, character_id: str, changes: Mapping[str, JSON], reason: str, by: str
) -> SheetAmended:
    character = roster.refuse_if_held(campaign.character(character_id), "amend the sheet")
    sheet = amended_sheet(campaign.rules, character.sheet, changes)
    return record_amendment(campaign, character_id, sheet, reason, by)


def record_amendment(
    campaign: CampaignView, character_id: str, sheet: Sheet, reason: str, by: str
) -> SheetAmended:
    character = campaign.characters[character_id]
    changed = amend(campaign.rules, character.name, character.vitals, sheet)
    tracks = {character_id: dict(changed.vitals.tracks)}
    state = {character_id: dict(changed.vitals.state)}
    sheets = {character_id: sheet}
    return SheetAmended(character_id, sheet, reason, by, changed.breakdown, tracks, state, sheets)


def adjust_tracks(
    campaign: CampaignView,
    character_id: str,
    changes: Mapping[str, Mapping[str, int]],
    reason: str,
    by: str,
) -> TracksAdjusted:
    character = roster.refuse_if_held(campaign.character(character_id), "adjust the tracks")
    changed = adjust(campaign.rules, character.name, character.vitals, changes)
    tracks = {character_id: dict(changed.vitals.tracks)}
    summary, breakdown = changed.summary, changed.breakdown
    # Tracks alone carry no state, as it always was.
    state = (
        None
        if changed.vitals.state == character.vitals.state
        else {character_id: dict(changed.vitals.state)}
    )
    return TracksAdjusted(character_id, changes, reason, by, summary, breakdown, tracks, state)
