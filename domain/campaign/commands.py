"""What the Campaign's commands work out before they record their events.

Each function here takes the campaign, runs the command's checks (domain/campaign/roster.py,
domain/campaign/calendar.py, domain/play/gm_changes.py) and records what they say through the
campaign's own event methods (domain/campaign/aggregate.py), where its events and their topics
stay. The campaign binds these as its methods (``campaign.enrol(name, sheet, by)``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING
from uuid import uuid4

from skald_campaign.domain.campaign import roster
from skald_campaign.domain.campaign.calendar import check_advance, daily_heals
from skald_campaign.domain.campaign.roster import check_name
from skald_campaign.domain.errors import ActionRefused
from skald_campaign.domain.play.gm_changes import adjust, amend, amended_sheet
from skald_campaign.domain.records import JSON, JSONObject, Sheet, State, Tracks, UUIDText
from skald_campaign.domain.rulesets import get_ruleset

if TYPE_CHECKING:
    from skald_campaign.domain.campaign.aggregate import Campaign

# Per character id, as the events carry them.
TracksOf = Mapping[UUIDText, Tracks]
StateOf = Mapping[UUIDText, State]
SheetsOf = Mapping[UUIDText, Sheet]


def create(
    cls: type[Campaign],
    name: str,
    ruleset_id: str,
    option_overrides: JSONObject | None,
    by: str,
    gm_key_id: str,
    gm_key_hash: str,
) -> Campaign:
    ruleset = get_ruleset(ruleset_id)
    options = ruleset.validate_options(option_overrides)
    name = check_name(name, "campaign name")
    return cls(
        name,
        ruleset.id,
        options,
        by,
        gm_key_id,
        gm_key_hash,
        ruleset.distribution,
        ruleset.version,
    )


# -- the ruleset's version (domain/campaign/ruleset_versions.py) -----------------------------------


def record_ruleset_version(campaign: Campaign) -> None:
    """Take on the installed version, whose replay changed no recorded action (the
    writer has checked that: application/ruleset_versions.py)."""
    found = campaign.ruleset_standing()
    if found.current or found.installed is None or found.installed_distribution is None:
        return
    campaign._ruleset_version_recorded(
        found.installed_distribution, found.installed, found.distribution, found.recorded
    )


def accept_ruleset_version(
    campaign: Campaign, version: str, differing: Sequence[JSON], by: str
) -> None:
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
    campaign._ruleset_version_accepted(
        found.installed_distribution,
        version,
        found.distribution,
        found.recorded,
        list(differing),
        by,
    )


# -- keys ------------------------------------------------------------------------------


def issue_key(
    campaign: Campaign,
    key_id: str,
    key_hash: str,
    role: str,
    characters: list[str],
    label: str,
    by: str,
) -> None:
    granted = roster.check_new_key(
        campaign.keys, campaign.characters, key_id, role, characters, label
    )
    campaign._key_issued(key_id, key_hash, *granted, by)


def revoke_key(campaign: Campaign, key_id: str, by: str) -> None:
    roster.check_revocable(campaign.keys, key_id)
    campaign._key_revoked(key_id, by)


# -- the roster and encounters ----------------------------------------------------------


def enrol(
    campaign: Campaign,
    name: str,
    sheet: JSONObject,
    by: str,
    npc: bool = False,
    player: str | None = None,
) -> str:
    rules, character_id = campaign.rules, str(uuid4())
    valid = roster.check_enrolment(rules, len(campaign.characters), sheet)
    name = check_name(name, "character name")
    roster.refuse_duplicate_name(campaign.characters, name)
    if player is not None:
        player = check_name(player, "player")
    tracks, state = rules.track_maxima(valid), rules.start_state(valid)
    campaign._enrolled(character_id, name, valid, tracks, state, by, npc, player)
    return character_id


def open_encounter(
    campaign: Campaign, encounter_id: str, name: str, character_ids: list[str]
) -> None:
    for character_id in character_ids:
        roster.refuse_if_held(campaign.character(character_id))
    campaign._encounter_opened(encounter_id, name, character_ids)


def join_encounter(campaign: Campaign, encounter_id: str, character_id: str, by: str) -> None:
    """A character joins an open encounter mid-fight; heal what they are owed first."""
    joining = campaign.character(character_id)
    roster.check_joining(campaign.open_encounters, encounter_id, joining)
    heal_before_joining(campaign, [character_id])
    campaign._character_joined(encounter_id, character_id, by)


def carry_over(
    campaign: Campaign,
    encounter_id: str,
    tracks: TracksOf,
    state: StateOf,
    by: str,
    sheets: SheetsOf | None = None,
) -> None:
    """Take the encounter's final tracks and lasting state back onto the roster, and the
    sheets amended during it (each as a SheetAmended event, before the closing)."""
    for character_id, sheet in (sheets or {}).items():
        if sheet != campaign.characters[character_id].sheet:
            reason = f"amended during encounter {encounter_id}"
            record_amendment(campaign, character_id, sheet, reason, by)
    rules = campaign.rules
    lasting = {cid: rules.state_after_encounter(values) for cid, values in state.items()}
    campaign._encounter_closed(encounter_id, tracks, lasting, by)


# -- the calendar ----------------------------------------------------------------------


def advance_days(
    campaign: Campaign,
    days: int,
    default_plan: JSONObject,
    plans: Mapping[str, JSONObject],
    by: str,
) -> None:
    """Move the in-game calendar on by ``days``, each with every character's plan."""
    opened = [campaign.encounters[eid].name for eid in campaign.open_encounters]
    day_plans = check_advance(
        campaign.rules, opened, days, campaign.characters, default_plan, plans
    )
    for _ in range(days):
        campaign._day_advanced(campaign.day + 1, day_plans, by)


def heal_through(campaign: Campaign, day: int) -> int:
    """Apply the daily rules to every day up to ``day`` not yet applied: exactly once,
    because each character remembers the last day it was healed for. A character in
    an open encounter is skipped: the encounter owns their tracks until it ends."""
    free = [cid for cid, c in campaign.characters.items() if c.in_encounter is None]
    return sum(heal_pending(campaign, cid, day) for cid in free)


def heal_before_joining(campaign: Campaign, character_ids: list[str]) -> int:
    """Apply every day already advanced to characters about to join an encounter: the
    roster hands an encounter only up-to-date tracks. Days cannot advance while an
    encounter is open, so no heal is owed while one holds them (docs/calendar.md)."""
    return sum(heal_pending(campaign, cid, campaign.day) for cid in character_ids)


def heal_pending(campaign: Campaign, character_id: str, day: int) -> int:
    now = partial(campaign.character, character_id)  # as the last day's heal left them
    healed = 0
    last = min(day, campaign.day)
    for d, daily in daily_heals(campaign.rules, campaign.calendar, now, last):
        tracks, state = {character_id: daily.tracks}, {character_id: daily.state}
        campaign._healed(character_id, d, daily.breakdown, tracks, state)
        healed += 1
    return healed


def mark_wound(
    campaign: Campaign, character_id: str, wound: str, present: bool, reason: str, by: str
) -> None:
    """Record a wound, its treatment or its end between fights, with who and why."""
    character = campaign.character(character_id)
    marked = roster.check_wound_mark(campaign.rules, character, wound, present)
    campaign._wound_marked(character_id, wound, present, reason, by, {character_id: marked})


# -- the GM's changes between fights (domain/play/gm_changes.py) ---------------------------


def amend_sheet(
    campaign: Campaign, character_id: str, changes: Mapping[str, JSON], reason: str, by: str
) -> None:
    character = roster.refuse_if_held(campaign.character(character_id), "amend the sheet")
    sheet = amended_sheet(campaign.rules, character.sheet, changes)
    record_amendment(campaign, character_id, sheet, reason, by)


def record_amendment(
    campaign: Campaign, character_id: str, sheet: Sheet, reason: str, by: str
) -> None:
    character = campaign.characters[character_id]
    changed = amend(campaign.rules, character.name, character.vitals, sheet)
    tracks = {character_id: dict(changed.vitals.tracks)}
    state = {character_id: dict(changed.vitals.state)}
    sheets = {character_id: sheet}
    campaign._sheet_amended(
        character_id, sheet, reason, by, changed.breakdown, tracks, state, sheets
    )


def adjust_tracks(
    campaign: Campaign,
    character_id: str,
    changes: Mapping[str, Mapping[str, int]],
    reason: str,
    by: str,
) -> None:
    character = roster.refuse_if_held(campaign.character(character_id), "adjust the tracks")
    changed = adjust(campaign.rules, character.name, character.vitals, changes)
    tracks = {character_id: dict(changed.vitals.tracks)}
    summary, breakdown = changed.summary, changed.breakdown
    if changed.vitals.state == character.vitals.state:  # tracks alone: as it always was
        campaign._tracks_adjusted(character_id, changes, reason, by, summary, breakdown, tracks)
        return
    state = {character_id: dict(changed.vitals.state)}
    campaign._tracks_adjusted(character_id, changes, reason, by, summary, breakdown, tracks, state)
