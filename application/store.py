"""The store Skald's commands work on: the eventsourcing application and its reads.

Every group of commands (application/campaigns.py, encounters.py, table_commands.py,
amending.py, corrections.py) is handed this one object: it reads aggregates, saves
them and runs each command on the writer (application/writes.py).
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable
from typing import TypeVar
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate, DomainEventProtocol

from skald_campaign.application.idempotency import own_fact
from skald_campaign.application.writes import WriteRunner, unguarded, writing
from skald_campaign.domain.campaign.aggregate import Campaign
from skald_campaign.domain.campaign.ruleset_versions import RulesetNotCurrent, differing_actions
from skald_campaign.domain.encounter.aggregate import Encounter
from skald_campaign.domain.errors import InvalidInput, NotFound
from skald_campaign.domain.play.dice import Roller, seeded_roller
from skald_campaign.domain.records import JSONObject
from skald_campaign.domain.timeline import Seed, Walk, walk

A = TypeVar("A", bound=Aggregate)
T = TypeVar("T")
DIFFERING_KEPT = 64  # campaigns' checks kept (a bound: one is worked out again at worst)


class Store(WriteRunner):
    snapshotting_intervals = {Campaign: 100, Encounter: 100}
    env = {"AGGREGATE_CACHE_MAXSIZE": "1000"}

    def __init__(
        self,
        env: dict[str, str] | None = None,
        roller: Roller | None = None,
        write_attempts: int = 5,
        snapshot_interval: int = 100,
    ) -> None:
        # Per instance, so a deployment can tune it; the class value switches snapshots on.
        self.snapshotting_intervals = {Campaign: snapshot_interval, Encounter: snapshot_interval}  # type: ignore[misc]
        super().__init__(env)
        self.roller = roller or seeded_roller()
        self.write_attempts = write_attempts
        self._differing: dict[tuple[object, ...], list[JSONObject]] = {}
        self._campaign_events: tuple[tuple[UUID, int], list[DomainEventProtocol[UUID]]] | None = (
            None
        )

    # -- aggregates ---------------------------------------------------------------------

    def campaign(self, campaign_id: UUID, version: int | None = None) -> Campaign:
        campaign = self._get(Campaign, campaign_id, version, "campaign")
        if version is None and writing():
            self._writable(campaign)
        return campaign

    def encounter(
        self, campaign_id: UUID, encounter_id: UUID, version: int | None = None
    ) -> Encounter:
        encounter = self._get(Encounter, encounter_id, version, "encounter")
        if encounter.campaign_id != campaign_id:
            raise NotFound(f"encounter {encounter_id} does not belong to campaign {campaign_id}")
        if version is None and writing():
            self.campaign(campaign_id)  # the campaign's ruleset version guards its fights
        return encounter

    # -- the ruleset's version on record (domain/campaign/ruleset_versions.py) -----------------

    def rules_installed(self, campaign_id: UUID) -> None:
        """The reads that run the campaign's rules (the odds of an action, the rolls a
        reroll takes) prepare a write: with its ruleset not installed they are refused
        as its writes are (409, naming the ruleset); every other read answers without
        the rules (domain/reading/installed.py)."""
        found = self.campaign(campaign_id).ruleset_standing()
        if found.missing:
            raise RulesetNotCurrent(found, 0)

    def _writable(self, campaign: Campaign) -> None:
        """A command reads the campaign to write: its ruleset must be the version it has
        on record. If it is another, the campaign's recorded actions are resolved again
        under it (nothing written): the same outcomes, and the new version is recorded
        here, once (another process that recorded it first wins the race, and this
        command, re-run, finds it recorded); others, and the campaign is read-only."""
        found = campaign.ruleset_standing()
        if found.current:
            return
        if found.missing:
            raise RulesetNotCurrent(found, 0)
        differing = self.differing_actions(campaign)
        if differing:
            raise RulesetNotCurrent(found, len(differing))
        campaign.record_ruleset_version()
        with own_fact():  # not the request's answer, nor its subject
            self.save(campaign)

    def differing_actions(self, campaign: Campaign) -> list[JSONObject]:
        """The campaign's recorded actions that come out differently under the ruleset
        installed now (domain/campaign/ruleset_versions.py), worked out once per state of the
        campaign and its fights (while it is read-only, nothing of them changes)."""
        with unguarded():
            encounters = [self.encounter(campaign.id, UUID(eid)) for eid in campaign.encounters]
        found = campaign.ruleset_standing()
        key = (
            campaign.id,
            campaign.version,
            found.installed_distribution,
            found.installed,
            tuple(e.version for e in encounters),
        )
        known = self._differing.get(key)
        if known is None:
            known = differing_actions(encounters)
            if len(self._differing) >= DIFFERING_KEPT:
                self._differing.clear()
            self._differing[key] = known
        return copy.deepcopy(known)

    def _get(self, cls: type[A], aggregate_id: UUID, version: int | None, what: str) -> A:
        if version is not None and version < 1:
            raise InvalidInput(f"version must be 1 or more, not {version}")
        try:
            aggregate: object = (
                self.repository.get(aggregate_id, version=version)
                if version is not None
                else self._batched_get(aggregate_id, lambda: self.repository.get(aggregate_id))
            )
        except AggregateNotFoundError:
            raise NotFound(f"no {what} with id {aggregate_id}") from None
        if not isinstance(aggregate, cls):
            raise NotFound(f"no {what} with id {aggregate_id}")
        if version is not None and aggregate.version < version:
            raise NotFound(
                f"{what} {aggregate_id} has no version {version}; its latest is {aggregate.version}"
            )
        return aggregate

    # -- the campaign's timeline --------------------------------------------------------

    def campaign_events(self, campaign: Campaign) -> list[DomainEventProtocol[UUID]]:
        """The campaign's events up to the version read, read once per version.

        Within a batch the campaign may carry events an earlier command of the batch
        has not committed yet (an encounter's end, say, before the correction of it):
        those are taken from the campaign itself, the rest from the store."""
        key = (campaign.id, campaign.version)
        cached = self._campaign_events
        if cached is None or cached[0] != key:
            pending = list(campaign.pending_events)
            stored = self.events.get(campaign.id, lte=campaign.version - len(pending))
            cached = (key, [*stored, *pending])
            self._campaign_events = cached
        return cached[1]

    def _walk(self, campaign: Campaign, seed: Seed, salt: str) -> tuple[Walk, dict[str, Encounter]]:
        """Walk the campaign from the seed (domain/timeline.py): what a correction changes
        in every encounter and day after it. Returns the walk and the encounters read."""
        events = self.campaign_events(campaign)
        encounters = {eid: self.encounter(campaign.id, UUID(eid)) for eid in campaign.encounters}
        # Dice the original never rolled are rolled from a seed the correction fixes, so
        # the commit rolls what the preview showed.
        digest = hashlib.sha256(f"{campaign.id}:{campaign.version}:{salt}".encode()).digest()
        roller = seeded_roller(int.from_bytes(digest[:8], "big"))
        found = walk(
            campaign.rules,
            campaign.options,
            events,
            campaign.calendar,
            encounters,
            seed,
            roller,
        )
        return found, encounters


class Commands:
    """A group of commands, composed into the application over one shared store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def changing_encounter(
        self,
        campaign_id: UUID,
        encounter_id: UUID,
        change: Callable[[Encounter], T],
        permitted: Callable[[Encounter], None] | None = None,
    ) -> Callable[[], tuple[Encounter, T]]:
        """The attempt of a command on one encounter: read it, change it, save it; the
        encounter and what the change returned (re-run whole after a lost race). What the
        request's key may not ask of the encounter whatever its state (`permitted`, 403)
        is refused before the expected version is checked (`decides_on`)."""

        def attempt() -> tuple[Encounter, T]:
            encounter = self.store.encounter(campaign_id, encounter_id)
            if permitted is not None:
                permitted(encounter)
            self.store.decides_on(encounter)
            result = change(encounter)
            self.store.save(encounter)
            return encounter, result

        return attempt

    def change_encounter(
        self, campaign_id: UUID, encounter_id: UUID, change: Callable[[Encounter], object]
    ) -> Encounter:
        """Run a command on one encounter (see `changing_encounter`): the encounter after."""
        attempt = self.changing_encounter(campaign_id, encounter_id, change)
        return self.store.run_command(attempt)[0]
