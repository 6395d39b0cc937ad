"""What the Campaign answers about itself: the access a key grants, its rules under its
options, a character and their conditions, the open encounters and a day's plans.

They read a campaign's records (``CampaignRecords``, domain/campaign/view.py) and change
nothing; the campaign binds them as its methods and properties (``campaign.character(cid)``,
``campaign.rules``), so domain/campaign/aggregate.py keeps its events and the methods that
apply them.
"""

from __future__ import annotations

from skald_campaign.domain.access import Access
from skald_campaign.domain.campaign import roster
from skald_campaign.domain.campaign.calendar import DayPlans
from skald_campaign.domain.campaign.ruleset_versions import Standing, standing
from skald_campaign.domain.campaign.view import CampaignRecords
from skald_campaign.domain.play.standing import known_for
from skald_campaign.domain.records import Character
from skald_campaign.domain.rulesets import RULESETS, get_ruleset
from skald_campaign.domain.rulesets.base import Ruleset


def access_for(campaign: CampaignRecords, key_id: str, key_hash: str) -> Access:
    """The access a presented key grants here; hashes are compared in constant time."""
    return roster.access(campaign.keys, key_id, key_hash)


def rules(campaign: CampaignRecords) -> Ruleset:
    return get_ruleset(campaign.ruleset_id).under(campaign.options)


def character(campaign: CampaignRecords, character_id: str) -> Character:
    return roster.enrolled(campaign.characters, character_id)


def conditions_of(campaign: CampaignRecords, character_id: str) -> tuple[str, ...]:
    """The character's conditions as they stand: worked out once per change of their
    values (domain/play/standing.py), not on every read."""
    return _conditions(campaign, rules(campaign), character_id)


def standing_conditions(campaign: CampaignRecords, character_id: str) -> tuple[str, ...] | None:
    """``conditions_of``, or None when the campaign's ruleset is not installed (it is
    then read without the rules: domain/reading/installed.py)."""
    installed = RULESETS.get(campaign.ruleset_id)
    if installed is None:
        return None
    return _conditions(campaign, installed.under(campaign.options), character_id)


def _conditions(campaign: CampaignRecords, rules: Ruleset, character_id: str) -> tuple[str, ...]:
    enrolled = character(campaign, character_id)
    sheet = rules.sheet(enrolled.sheet)
    return known_for(campaign.id).of(rules, character_id, sheet, enrolled.tracks, enrolled.state)


def open_encounters(campaign: CampaignRecords) -> list[str]:
    return [eid for eid, entry in campaign.encounters.items() if entry.open]


def plans_on(campaign: CampaignRecords, day: int) -> DayPlans:
    """Every character's plan for the day (none before the first day)."""
    found = campaign.calendar.get(day)
    return {} if found is None else found.plans


def ruleset_standing(campaign: CampaignRecords) -> Standing:
    """The campaign's ruleset as recorded, beside the one installed."""
    return standing(
        str(campaign.id),
        campaign.ruleset_id,
        campaign.ruleset_distribution,
        campaign.ruleset_version,
    )
