"""What the campaign's commands and reads see of a campaign: two small protocols.

The Campaign aggregate (domain/campaign/aggregate.py) satisfies both; the modules that
work out its commands (domain/campaign/commands.py), answer its reads
(domain/campaign/reads.py) and write its snapshots (domain/campaign/state.py) import
these and never the aggregate, so none of them imports back up into the module that
imports them (issue 38).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol
from uuid import UUID

from skald_campaign.domain.campaign.calendar import Day
from skald_campaign.domain.campaign.ruleset_versions import Standing
from skald_campaign.domain.records import JSON, Character, EncounterEntry, KeyGrant
from skald_campaign.domain.rulesets.base import Ruleset


class CampaignRecords(Protocol):
    """A campaign's state: what its events left, read-only."""

    @property
    def id(self) -> UUID: ...
    @property
    def ruleset_id(self) -> str: ...
    @property
    def ruleset_distribution(self) -> str: ...
    @property
    def ruleset_version(self) -> str: ...
    @property
    def options(self) -> Mapping[str, JSON]: ...
    @property
    def keys(self) -> Mapping[str, KeyGrant]: ...
    @property
    def characters(self) -> Mapping[str, Character]: ...
    @property
    def encounters(self) -> Mapping[str, EncounterEntry]: ...
    @property
    def day(self) -> int: ...
    @property
    def calendar(self) -> Mapping[int, Day]: ...


class CampaignView(CampaignRecords, Protocol):
    """A campaign's state and what it answers about itself (domain/campaign/reads.py):
    what a command reads before it decides which events to record."""

    @property
    def rules(self) -> Ruleset: ...
    @property
    def open_encounters(self) -> list[str]: ...
    def character(self, character_id: str) -> Character: ...
    def ruleset_standing(self) -> Standing: ...
